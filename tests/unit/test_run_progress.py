"""A run says how far it has come (``dial_notebook.report_progress``): the runtime turns it
into transient 'progress' notices for its running card — paced, bounded, never kept — and
a flood of reports never holds the kernel."""

from __future__ import annotations

import asyncio
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

import dial_notebook
from dial_notebook._progress import MAX_MESSAGE, RunProgress, read_progress, reporting_to
from dial_notebook.runtime import Conversation, policy_human
from dial_notebook.widget._chat_progress import StreamedReply

from .runtime_doubles import NotesDomain, ScriptedAgent, dial, inform, suggest

report_progress = dial_notebook.report_progress


class Reports(NotesDomain):
    """add-note's run calls ``steps`` (a list of report arguments), on its task or thread."""

    def __init__(self, steps: list[tuple[Any, ...]], *, blocking: bool = False,
                 linger: float = 0.0) -> None:
        super().__init__(context=False)
        self.steps, self.blocking, self.linger = steps, blocking, linger
        self.run_thread: int | None = None

    def run(self, action: str, payload: Any) -> Any:
        if not self.blocking:
            return self._async_run(action, payload)
        self.run_thread = threading.get_ident()
        for step in self.steps:
            report_progress(*step)
        time.sleep(self.linger)
        return super().run(action, payload)

    async def _async_run(self, action: str, payload: Any) -> Any:
        for step in self.steps:
            report_progress(*step)
        await asyncio.sleep(self.linger)
        return super().run(action, payload)


async def say_with(domain: Any, **options: Any) -> tuple[Conversation, list[dict[str, Any]],
                                                          list[tuple[dict[str, Any], int]]]:
    signals: list[tuple[dict[str, Any], int]] = []
    events: list[dict[str, Any]] = []
    agent = ScriptedAgent([dial(suggest("add-note", {"text": "milk"})), dial(inform("ok"))])
    conversation = Conversation(
        agent=agent, domain=domain, human=policy_human(), on_event=events.append,
        on_signal=lambda s: signals.append((s, threading.get_ident())), **options)
    await asyncio.wait_for(conversation.say("add milk"), 10)
    return conversation, events, signals


def notices(signals: list[tuple[dict[str, Any], int]]) -> list[dict[str, Any]]:
    return [s for s, _ in signals if s["type"] == "progress" and "id" in s]


def test_outside_a_run_a_report_does_nothing():
    assert report_progress(1, 2, "anything") is None


@pytest.mark.parametrize("blocking", [False, True])
async def test_a_runs_reports_reach_the_surface_on_the_loop_and_are_never_kept(blocking):
    domain = Reports([(1, 3, "first"), (3, 3, "last")], blocking=blocking, linger=0.3)
    conversation, events, signals = await say_with(domain)
    shown = notices(signals)
    assert shown[-1] == {"type": "progress", "id": "sg-1", "action": "add-note",
                         "progress": 3, "total": 3, "message": "last"}
    if not blocking:  # on the loop, the first is shown at once (a thread's may be passed)
        assert shown[0]["progress"] == 1 and shown[0]["message"] == "first"
    assert all(ident == threading.get_ident() for _, ident in signals)  # on the loop
    if blocking:
        assert domain.run_thread != threading.get_ident()
    assert not [e for e in conversation.transcript if e["type"] == "progress"]
    assert not [e for e in events if e["type"] == "progress"]  # on_signal has them


async def test_in_reference_mode_without_on_signal_on_event_gets_no_notice():
    events: list[dict[str, Any]] = []
    domain = Reports([(1, 2, "half")], linger=0.05)
    agent = ScriptedAgent([dial(suggest("add-note", {"text": "milk"})), dial(inform("ok"))])
    conversation = Conversation(agent=agent, domain=domain, human=policy_human(),
                                on_event=events.append, full_dial=False)
    await conversation.say("add milk")
    assert [e["type"] for e in events if e["type"] == "progress"] == []


@pytest.mark.parametrize("blocking", [False, True])
async def test_a_flood_is_paced_the_latest_wins_and_the_loop_keeps_ticking(blocking):
    ticks = 0

    async def tick() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0.01)

    ticker = asyncio.ensure_future(tick())
    flood = [(n, 20_000, f"item {n}") for n in range(1, 20_001)]
    started = time.monotonic()
    try:
        _, _, signals = await say_with(Reports(flood, blocking=blocking, linger=0.3))
    finally:
        ticker.cancel()
    seconds = time.monotonic() - started
    shown = notices(signals)
    assert 1 <= len(shown) <= seconds / 0.1 + 2  # at most ~10 a second
    assert shown[-1]["progress"] == 20_000 and shown[-1]["message"] == "item 20000"
    assert [s["progress"] for s in shown] == sorted(s["progress"] for s in shown)
    if blocking:
        assert ticks > 5  # the kernel was free while the thread flooded


@pytest.mark.parametrize(("report", "seen"), [
    ((float("nan"), 10), None), ((float("inf"),), None), ((-1, 3), None), ((True, 2), None),
    (("3", 10), None), ((None,), None), ((10**400,), None),
    ((2.5, 0, None), (2.5, None, None)), ((2, float("nan"), 7), (2, None, None)),
    ((4.0, 8.0, "ok"), (4, 8, "ok")),
])
def test_reports_are_read_strictly(report, seen):
    assert read_progress(*report) == seen


def test_a_hostile_message_is_bounded_and_stripped_of_hidden_characters():
    hostile = "\x1b[31mred\x07\u202eevil\u200b\n\tline " + "x" * 1_000_000
    _, _, message = read_progress(1, 2, hostile)
    assert len(message) <= MAX_MESSAGE and message.endswith("…")
    assert message.startswith("[31mredevil line xx")
    assert not any(ord(c) < 32 or 0x7F <= ord(c) <= 0x9F or c in "\u202e\u200b"
                   for c in message)
    assert read_progress(1, 2, "\x00\x01 \u200b")[2] is None  # nothing readable: no message


async def test_reports_go_to_the_run_whose_context_they_come_from():
    loop = asyncio.get_running_loop()
    seen: dict[str, list[Any]] = {"a": [], "b": []}
    a = RunProgress(lambda *r: seen["a"].append(r), loop)
    b = RunProgress(lambda *r: seen["b"].append(r), loop)
    gate = asyncio.Event()

    async def run(n: int) -> None:
        await gate.wait()
        report_progress(n)
        await asyncio.ensure_future(child(n))  # a task it starts reports for it too

    async def child(n: int) -> None:
        report_progress(n + 1)

    with reporting_to(a):
        first = asyncio.ensure_future(run(1))
    with reporting_to(b):
        second = asyncio.ensure_future(run(10))
    outsider = asyncio.ensure_future(run(100))  # started outside any run: goes nowhere
    gate.set()
    await asyncio.gather(first, second, outsider)
    await asyncio.sleep(0.25)
    assert seen == {"a": [(1, None, None), (2, None, None)],
                    "b": [(10, None, None), (11, None, None)]}


async def test_nothing_is_emitted_once_the_run_has_ended():
    shown: list[Any] = []
    sink = RunProgress(lambda *r: shown.append(r))
    with reporting_to(sink):
        report_progress(1)
        report_progress(2)  # due later
    sink.close()
    with reporting_to(sink):
        report_progress(3)
    await asyncio.sleep(0.25)
    assert shown == [(1, None, None)]


async def test_a_surface_that_raises_does_not_fail_the_run():
    def boom(signal: dict[str, Any]) -> None:
        if signal["type"] == "progress":
            raise RuntimeError("the surface broke")

    domain = Reports([(1, 2, "half")], linger=0.05)
    agent = ScriptedAgent([dial(suggest("add-note", {"text": "milk"})), dial(inform("ok"))])
    conversation = Conversation(agent=agent, domain=domain, human=policy_human(),
                                on_signal=boom)
    result = await conversation.say("add milk")
    assert [o["status"] for o in result.outcomes] == ["done"]


async def test_an_execute_steps_progress_carries_the_steps_id():
    async def slow(step: Any) -> str:
        report_progress(1, 2, "halfway")
        await asyncio.sleep(0.05)
        return "ok"

    signals: list[dict[str, Any]] = []
    block = '<dial-execute id="b1"><step id="s1" env="slow">go</step></dial-execute>'
    agent = ScriptedAgent([dial(block), dial(inform("ok"))])
    conversation = Conversation(agent=agent, domain=NotesDomain(context=False),
                                human=policy_human(), executors={"slow": slow},
                                on_signal=signals.append)
    await conversation.say("go")
    assert [s for s in signals if s["type"] == "progress"] == [
        {"type": "progress", "id": "s1", "action": "execute:slow", "progress": 1, "total": 2,
         "message": "halfway"}]


def test_the_widget_sends_a_runs_progress_as_a_run_progress_message():
    stream = StreamedReply()
    stream.message({"type": "progress", "turn": 1, "prose": "Hello", "writing": None})
    notice = {"type": "progress", "id": "sg-1", "action": "add-note", "progress": 3,
              "total": 10, "message": "copying"}
    assert stream.message(notice) == {"type": "run-progress", "id": "sg-1",
                                      "action": "add-note", "progress": 3, "total": 10,
                                      "message": "copying"}
    assert stream.partial == "Hello"  # the reply being streamed is left as it was
    odd = stream.message({"type": "progress", "id": 7, "progress": "x", "total": None,
                          "message": None})
    assert odd is None  # not a run's notice the front end could draw


SERVER = str(Path(__file__).parents[1] / "mcp_servers" / "tool_server.py")


@pytest.mark.server
async def test_an_mcp_tools_progress_reaches_its_running_card_by_default():
    """McpDomain's default on_progress reports in the run's context: the notices carry
    the run's id (the SDK calls back on the domain's own loop, another thread)."""
    from dial_notebook.domains.mcp import McpDomain

    domain = McpDomain.stdio(sys.executable, [SERVER], name="tools", start_timeout=60.0)
    try:
        signals: list[dict[str, Any]] = []
        agent = ScriptedAgent([dial(suggest("slow", {}), suggest("flood", {})),
                               dial(inform("ok"))])
        conversation = Conversation(agent=agent, domain=domain, human=policy_human(),
                                    on_signal=signals.append)
        ticks = 0

        async def tick() -> None:
            nonlocal ticks
            while True:
                ticks += 1
                await asyncio.sleep(0.01)

        ticker = asyncio.ensure_future(tick())
        started = time.monotonic()
        try:
            result = await asyncio.wait_for(conversation.say("go slowly, then flood"), 60)
        finally:
            ticker.cancel()
        seconds = time.monotonic() - started
        assert [o["status"] for o in result.outcomes] == ["done", "done"]
        shown = [s for s in signals if s["type"] == "progress"]
        slow = [s for s in shown if s["id"] == "sg-1"]
        assert slow and all(s["action"] == "slow" and s["total"] == 3 for s in slow)
        assert {s["message"] for s in slow} <= {"step 1", "step 2", "step 3"}
        flood = [s for s in shown if s["id"] == "sg-2"]  # 20,000 notifications from the server
        assert all(s["action"] == "flood" and s["message"] == "flooding" for s in flood)
        assert flood and len(flood) <= seconds / 0.1 + 2 and ticks > 5
    finally:
        await asyncio.get_running_loop().run_in_executor(None, domain.close)
