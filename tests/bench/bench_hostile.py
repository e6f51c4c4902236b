"""Benchmark: how long each hostile input holds the kernel (asserts nothing; prints figures).

    .venv/bin/python tests/bench/bench_hostile.py [--quick]

Every hostile reply of ``tests/hostile_corpus.py`` (catastrophic patterns, huge "did you mean"
inputs, slow format checkers, 200,000 unexpected keys, a slow hand-written validate …), handled
by a conversation with a person who dismisses everything; then the other ways in: files (a
hostile session file opened by a ChatWidget, a hostile saved report, a billion-laughs scenario
YAML), a chart drawn on a cold worker through the widget, an evaluation of a 2 MB reply of
misspelt tags, a slow undo, and a hostile reply streamed in pieces into a ChatWidget. For each:

    handled   seconds from the input arriving to being done with it
    blocked   the longest stretch the event loop could not run anything else (the kernel
              could not process a click, a widget message or another cell's output), less any
              wait for a CPU (tests/stall_watchdog.py: the load of the machine is not counted)
    wall      that stretch in wall time, load included

The goal is under two seconds of ``blocked`` for each. A case that raises (a refused file)
prints its figures and its error, and the run goes on. ``--quick`` (what the suite runs) makes
the slow undo and the streamed and evaluated replies smaller; the corpus runs whole either way.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from dial_notebook.runtime import Conversation, policy_human
from tests.hostile_corpus import (
    BARS,
    CASES,
    Case,
    billion_laughs,
    envelope,
    hostile_report,
    hostile_session,
    misspelt_reply,
    suggest,
)
from tests.stall_watchdog import watch_loop


@dataclass
class Row:
    group: str
    case: str
    handled: float = math.nan
    blocked: float = math.nan
    wall: float = math.nan
    error: str = ""


async def watched(group: str, case: str, make: Callable[[], Callable[[], Awaitable[Any]]]
                  ) -> Row:
    """Run ``make()`` (the work, made before the clock starts) under the watchdog (no limit);
    the work may return its own 'handled' seconds."""
    row = Row(group, case)
    try:
        work = make()
    except Exception as error:  # the bench could not make the case: said, and the run goes on
        row.error = f"not made: {type(error).__name__}: {str(error)[:80]}"
        return row
    async with watch_loop(limit=math.inf) as watch:
        await asyncio.sleep(0.02)  # the heartbeat is beating
        started = time.perf_counter()
        try:
            handled = await work()
        except Exception as error:  # a refusal (or a failure) is a figure too: how long it took
            handled, row.error = None, f"{type(error).__name__}: {str(error)[:80]}"
        row.handled = time.perf_counter() - started if handled is None else handled
        await asyncio.sleep(0.02)  # the heartbeat wakes, and sees how long it waited
    row.blocked, row.wall = watch.worst, watch.worst_wall
    return row


# -- replies (the corpus) ------------------------------------------------------------------------

class OnceAgent:
    """Replies with the hostile text once, then with an empty envelope."""

    def __init__(self, reply: str) -> None:
        self.replies = [reply]
        self.arrived = 0.0

    async def send(self, message: str) -> str:
        if self.replies:
            self.arrived = time.perf_counter()
            return self.replies.pop()
        return envelope()


def reply_case(case: Case) -> Callable[[], Awaitable[float]]:
    async def work() -> float:
        agent = OnceAgent(case.reply)
        done_at = 0.0

        def handled(event: dict[str, Any]) -> None:
            nonlocal done_at
            if event.get("type") == "sent" and event.get("turn") == 2 and not done_at:
                done_at = time.perf_counter()  # the end of the first reply

        conversation = Conversation(agent=agent, domain=case.domain(), on_event=handled,
                                    human=policy_human("dismiss"), max_turns=2)
        await conversation.say("go")
        return (done_at or time.perf_counter()) - agent.arrived
    return work


# -- files ----------------------------------------------------------------------------------------

def open_session(path: Path, *, cold: bool = False) -> Callable[[], Awaitable[None]]:
    async def work() -> None:
        from dial_notebook.domains.notes import NotesDomain
        from dial_notebook.widget import ChatWidget, _vegalite

        if cold:
            _vegalite._worker.stop()  # its charts wait for Python and V8 to start
        ChatWidget(agent=OnceAgent(envelope()), domain=NotesDomain(), session=path)
    return work


def load_report(path: Path) -> Callable[[], Awaitable[None]]:
    async def work() -> None:
        from dial_notebook.evaluation import Report

        Report.load(path)
    return work


def load_laughs(path: Path) -> Callable[[], Awaitable[None]]:
    async def work() -> None:
        from dial_notebook.evaluation import load_scenarios

        load_scenarios(path)
    return work


# -- charts, evaluation, undo, streaming ---------------------------------------------------------

async def until(condition: Callable[[], bool], seconds: float = 60.0) -> None:
    end = time.perf_counter() + seconds
    while not condition() and time.perf_counter() < end:
        await asyncio.sleep(0.01)


def cold_chart() -> Callable[[], Awaitable[None]]:
    async def work() -> None:
        from dial_notebook.domains.notes import NotesDomain
        from dial_notebook.widget import ChatWidget, _vegalite

        _vegalite._worker.stop()  # the next chart starts Python and V8 first
        payload = json.dumps(BARS).replace("&", "&amp;").replace("<", "&lt;")
        reply = envelope(f'<dial-inform render="chart"><dial-payload type="application/json">'
                         f"{payload}</dial-payload></dial-inform>")
        chat = ChatWidget(agent=OnceAgent(reply), domain=NotesDomain())
        await chat.say("draw")

        def drawn() -> bool:  # a picture, or the reason there is none (not the placeholder)
            charts = [e.get("chart") for e in chat.transcript if e.get("type") == "inform"]
            return any(isinstance(c, dict) and ("src" in c or "Drawing" not in str(c))
                       for c in charts)

        await until(drawn)
    return work


def evaluation(size: int) -> Callable[[], Awaitable[None]]:
    async def work() -> None:
        from dial_notebook.domains.notes import NotesDomain
        from dial_notebook.evaluation import evaluate

        reply = misspelt_reply(size)
        await evaluate(agent=lambda: OnceAgent(reply), domain=NotesDomain,
                       scenarios=[{"name": "misspelt", "say": ["go"]}], progress=False)
    return work


def slow_undo(seconds: float) -> Callable[[], Awaitable[float]]:
    async def work() -> float:
        from dial_notebook.domains.notes import NotesDomain

        class SlowUndo(NotesDomain):
            def undo(self, action: str, payload: Any, result: Any) -> Any:
                time.sleep(seconds)  # a domain's undo that blocks (a slow disk, a database)
                return super().undo(action, payload, result)

        reply = envelope(suggest("add-note", {"text": "milk"}, 1))
        conversation = Conversation(agent=OnceAgent(reply), domain=SlowUndo(),
                                    human=policy_human("accept"), max_turns=2)
        await conversation.say("add milk")
        (sid,) = [s for s, ok in conversation.undoable().items() if ok is True]
        started = time.perf_counter()
        await conversation.undo(sid)
        return time.perf_counter() - started
    return work


class StreamingAgent:
    """Streams one reply in pieces of ``size`` characters, then an empty envelope."""

    streams = True

    def __init__(self, reply: str, size: int) -> None:
        self.replies, self.size = [reply], size

    def send(self, message: str) -> str:
        return envelope()

    async def stream_reply(self, message: str) -> AsyncIterator[str]:
        reply = self.replies.pop() if self.replies else envelope()
        for start in range(0, len(reply), self.size):
            yield reply[start:start + self.size]
            if start % (self.size * 64) == 0:
                await asyncio.sleep(0)


def streaming(size: int) -> Callable[[], Awaitable[None]]:
    async def work() -> None:
        from dial_notebook.domains.notes import NotesDomain
        from dial_notebook.widget import ChatWidget

        openers = "<dial-inform " * (size // 26) + "<dial-suggest action='" * (size // 44)
        reply = '<dial version="0.1" actor="agent"><dial-inform>' + openers
        chat = ChatWidget(agent=StreamingAgent(reply, 16), domain=NotesDomain())
        await chat.say("go")
    return work


# -- the run --------------------------------------------------------------------------------------

async def rows(quick: bool, folder: Path) -> AsyncIterator[Row]:
    for case in CASES:
        yield await watched("reply", case.name, lambda case=case: reply_case(case))
    # first: the session file below draws charts, which starts (warms) the worker
    yield await watched("chart", "a Vega-Lite chart on a cold worker, through the widget",
                        cold_chart)
    yield await watched("file", "session: 5,000 informs of 4 KB, 50 charts, a 250-deep payload",
                        lambda: open_session(hostile_session(folder, 5_000)))
    yield await watched("file", "session: 100 informs, 1 chart, on a cold chart worker",
                        lambda: open_session(hostile_session(folder, 100), cold=True))
    yield await watched("file", "saved report: 90 scenarios × 100 events of 2 KB (18 MB)",
                        lambda: load_report(hostile_report(folder, 90)))
    yield await watched("file", "scenario YAML: billion laughs (10^9 says)",
                        lambda: load_laughs(billion_laughs(folder)))
    size = 500_000 if quick else 2_000_000
    yield await watched("evaluate", f"evaluate: a {size / 1e6:g} MB reply of misspelt tags",
                        lambda: evaluation(size))
    seconds = 1.0 if quick else 3.0
    yield await watched("undo", f"an undo that blocks {seconds:g} s", lambda: slow_undo(seconds))
    size = 250_000 if quick else 1_000_000
    yield await watched("stream", f"{size / 1e6:g} MB of unclosed openers in 16-char pieces, "
                        "into a ChatWidget", lambda: streaming(size))


async def run(quick: bool) -> None:
    print(f"hostile inputs, each handled once (goal: under 2 s blocked each){' [quick]' * quick}")
    print(f"  {'':<9}{'case':<66} {'handled':>8} {'blocked':>8} {'wall':>8}")
    worst = Row("", "", blocked=0.0)
    with tempfile.TemporaryDirectory() as folder:
        async for row in rows(quick, Path(folder)):
            if row.blocked > worst.blocked:
                worst = row
            print(f"  {row.group:<9}{row.case:<66} {row.handled:7.2f}s {row.blocked:7.2f}s "
                  f"{row.wall:7.2f}s", flush=True)
            if row.error:
                print(f"  {'':<9}  raised {row.error}", flush=True)
    print(f"worst block: {worst.blocked:.2f} s ({worst.group}: {worst.case})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="smaller slow undo, evaluated and streamed replies (the suite's run)")
    arguments = parser.parse_args()
    asyncio.run(run(arguments.quick))


if __name__ == "__main__":
    main()
