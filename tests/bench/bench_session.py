"""Benchmark of a ChatWidget session file: what saving after every event costs as a conversation
grows, and how long a new kernel takes to carry on from it.

    .venv/bin/python tests/bench/bench_session.py [--says 100] [--quick]

A ChatWidget with ``session=`` (in a temporary folder) and a scripted agent that answers each
message with prose and an inform (5 events a say), plus a card accepted every tenth say. The
widget saves once per turn of the event loop, so the events of one step are written together.
Printed: saves per event, the file's size, the time of one save early and late (median over a
window of saves), and the time to read the file back and rebuild the widget from it.

Prints figures; asserts nothing about time.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from dial_notebook.domains.notes import NotesDomain  # noqa: E402
from dial_notebook.widget import ChatWidget, _session  # noqa: E402

CARD = ('<dial version="0.1" actor="agent"><dial-suggest action="add-note">Add it?'
        '<dial-payload>{"text": "a note"}</dial-payload></dial-suggest></dial>')


def answer(message: str) -> str:
    if "outcome:" in message:
        return '<dial version="0.1" actor="agent"><dial-acknowledge>Added.</dial-acknowledge></dial>'
    words = message.split("\n\n")[-1]
    if words.startswith("card"):
        return CARD
    return ("Here is what I found about " + words + ": the numbers look steady, and the last "
            "three weeks follow the same pattern as before."
            '<dial version="0.1" actor="agent"><dial-inform>Nothing to change for ' + words
            + "</dial-inform></dial>")


class Timed(_session.Saver):
    """A saver that keeps how long each save took."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seconds: list[float] = []

    def save(self) -> Path:
        start = time.perf_counter()
        try:
            return super().save()
        finally:
            self.seconds.append(time.perf_counter() - start)


async def conversation(path: Path, says: int) -> tuple[ChatWidget, Timed]:
    chat = ChatWidget(agent=answer, domain=NotesDomain([]), session=path)
    saver = chat._saver = Timed(path, chat._session_snapshot)
    for n in range(says):
        task = chat.say(f"card {n}" if n % 10 == 9 else f"question {n}")
        while not task.done():
            if chat.pending.get("kind") == "decide":
                chat._handle_custom_msg({"type": "decide", "token": chat.pending["token"],
                                         "decision": "accept"}, [])
            await asyncio.sleep(0)
        await task
        await asyncio.sleep(0)
    return chat, saver


def median_ms(values: list[float]) -> float:
    return statistics.median(values) * 1000 if values else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--says", type=int, default=100)
    parser.add_argument("--quick", action="store_true", help="20 says")
    args = parser.parse_args()
    says = 20 if args.quick else args.says
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.json"
        chat, saver = asyncio.run(conversation(path, says))
        events = len(chat.transcript)
        window = max(5, len(saver.seconds) // 10)
        size = path.stat().st_size
        start = time.perf_counter()
        again = ChatWidget(agent=answer, domain=NotesDomain([]), _restore_from=path)
        restored = time.perf_counter() - start
        assert len(again.transcript) == events + 1
    print(f"says: {says}, events: {events}, saves: {saver.saves} "
          f"({saver.saves / events:.2f} per event)")
    print(f"session file: {size / 1024:.1f} KB ({size / events:.0f} B per event)")
    print(f"one save, first {window}: {median_ms(saver.seconds[:window]):.2f} ms median; "
          f"last {window}: {median_ms(saver.seconds[-window:]):.2f} ms median")
    print(f"all saves together: {sum(saver.seconds):.2f} s")
    print(f"reading the file back into a new widget: {restored * 1000:.1f} ms")


if __name__ == "__main__":
    main()
