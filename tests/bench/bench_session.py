"""Benchmark of a ChatWidget session file: what saving after every event costs as a conversation
grows, and how long a new kernel takes to carry on from it.

    .venv/bin/python tests/bench/bench_session.py [--says 100] [--long 100 20000] [--quick]

Saves append (issue 29: runtime/_session_file.py): "long" opens a generated analysis session
(tests/long_conversation.py) of each ``--long`` size in a ChatWidget (``session=``), then adds
one event and saves, 50 times: per save, the bytes written (the file's growth), the events
encoded and the time (CPU and wall, median), and how many saves rewrote the file whole (the
first one does: the file was not saved by this process).

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
from dial_notebook.runtime import _session_file, _snapshot_text  # noqa: E402
from dial_notebook.widget import ChatWidget, _session  # noqa: E402
from tests.long_conversation import long_session_file  # noqa: E402

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


def long_saves(events: int, adds: int = 50) -> dict[str, float]:
    """A saved session of ``events`` events carried on by a ChatWidget: one event added (to
    the runtime's transcript) and saved, ``adds`` times."""
    encoded, rewrites = [0], [0]
    dumps, rewrite = _snapshot_text.dumps, _session_file._rewrite

    def counting_dumps(value: Any) -> str:
        encoded[0] += 1
        return dumps(value)

    def counting_rewrite(*args: Any) -> Any:
        rewrites[0] += 1
        return rewrite(*args)

    _snapshot_text.dumps, _session_file._rewrite = counting_dumps, counting_rewrite
    try:
        with tempfile.TemporaryDirectory() as folder:
            path = long_session_file(Path(folder) / "long.json", events)
            _session_file.forget()  # a new kernel carries the session on
            chat = ChatWidget(agent=answer, domain=NotesDomain([]), session=path)
            chat._saver.save()  # the first save: whole
            grown, cpu, wall, calls = [], [], [], []
            rewrites[0] = 0
            recorded = chat._conversation._state.events.transcript
            for n in range(adds):  # an event the runtime records (the widget would save it
                recorded.append({"type": "inform", "act": "inform",  # at once: not told)
                                 "text": f"one more finding, {n}"})
                size, encoded[0] = path.stat().st_size, 0
                start, started = time.process_time(), time.perf_counter()
                chat._saver.save()
                cpu.append(time.process_time() - start)
                wall.append(time.perf_counter() - started)
                grown.append(path.stat().st_size - size)
                calls.append(encoded[0])
            file_size = path.stat().st_size
            chat.close()
    finally:
        _snapshot_text.dumps, _session_file._rewrite = dumps, rewrite
    return {"events": events, "bytes": statistics.median(grown), "encoded": max(calls),
            "cpu_ms": median_ms(cpu), "wall_ms": median_ms(wall), "rewrites": rewrites[0],
            "file_kb": file_size / 1024}


def print_long(sizes: list[int]) -> None:
    long_saves(100, 5)  # warm: imports, the user's secret
    figures = [long_saves(size) for size in sizes]
    for f in figures:
        print(f"long session of {f['events']:,} events ({f['file_kb']:,.0f} KB): one event "
              f"added, one save: {f['bytes']:.0f} B written, {f['encoded']} values encoded, "
              f"{f['cpu_ms']:.2f} ms CPU, {f['wall_ms']:.2f} ms wall (median of 50); "
              f"{f['rewrites']} of 50 saves rewrote the file whole")
    if len(figures) > 1:
        first, last = figures[0], figures[-1]
        print(f"{last['events']:,} against {first['events']:,} events: bytes "
              f"{last['bytes'] / first['bytes']:.2f}×, CPU {last['cpu_ms'] / first['cpu_ms']:.2f}×,"
              f" wall {last['wall_ms'] / first['wall_ms']:.2f}×")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--says", type=int, default=100)
    parser.add_argument("--long", type=int, nargs="*", default=[100, 20_000])
    parser.add_argument("--quick", action="store_true", help="20 says, long at 100 and 2,000")
    args = parser.parse_args()
    says = 20 if args.quick else args.says
    print_long([100, 2_000] if args.quick else args.long)
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
