"""Stop (the say's task cancelled) during a run: a stoppable action's run is cancelled and
ends ``failed`` with code ``stopped``; any other run goes on to its real end, as before.
Exactly one outcome either way, told once."""

from __future__ import annotations

import asyncio
import json
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from dial_notebook.domains import SchemaDomain
from dial_notebook.runtime import Conversation, policy_human
from dial_notebook.runtime._ports import DomainPort

from .runtime_doubles import (
    NotesDomain,
    ScriptedAgent,
    dial,
    inform,
    outcome_ids_in,
    suggest,
    until,
)


class Waits(NotesDomain):
    """add-note's run awaits ``release``; its spec says whether it is stoppable."""

    def __init__(self, *, stoppable: bool, ending: str = "result") -> None:
        super().__init__(context=False)
        self.actions["add-note"] = {"mutates": True, "stoppable": stoppable}
        self.started = asyncio.Event()
        self.release = asyncio.Event()
        self.cancelled = 0
        self.ending = ending  # what the run does when it is cancelled

    async def run(self, action: str, payload: Any) -> Any:
        self.started.set()
        try:
            await self.release.wait()
        except asyncio.CancelledError:
            self.cancelled += 1
            if self.ending == "result":  # it would not be stopped: it finishes its work
                self.notes.append(payload["text"])
                return {"count": len(self.notes)}
            if self.ending == "error":
                raise RuntimeError("the disk went away while stopping") from None
            raise
        self.notes.append(payload["text"])
        return {"count": len(self.notes)}


def conversation_on(domain: Any, events: list[dict[str, Any]] | None = None) -> tuple[
        Conversation, ScriptedAgent]:
    agent = ScriptedAgent([dial(suggest("add-note", {"text": "milk"})), dial(inform("ok"))])
    conversation = Conversation(agent=agent, domain=domain, human=policy_human(),
                                on_event=(events.append if events is not None else None))
    return conversation, agent


async def stop(task: asyncio.Task[Any]) -> None:
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


def outcomes_of(events: list[dict[str, Any]], sid: str = "sg-1") -> list[dict[str, Any]]:
    return [{k: v for k, v in e.items() if k != "type"} for e in events
            if e["type"] == "outcome" and e["id"] == sid]


async def test_stop_cancels_a_stoppable_run_which_ends_failed_stopped_told_once():
    events: list[dict[str, Any]] = []
    domain = Waits(stoppable=True, ending="cancelled")
    conversation, agent = conversation_on(domain, events)
    task = asyncio.ensure_future(conversation.say("add milk"))
    await domain.started.wait()
    await stop(task)
    await until(lambda: conversation.owed_outcomes)

    assert domain.cancelled == 1 and domain.notes == []  # the run was cancelled
    [told] = conversation.owed_outcomes
    assert (told["id"], told["status"], told["code"]) == ("sg-1", "failed", "stopped")
    assert "asked to stop" in told["hint"] and "part of its work" in told["hint"]
    assert outcomes_of(events) == [told]

    agent.replies.insert(0, dial(inform("Stopped, then.")))
    await asyncio.wait_for(conversation.say("why?"), 5)
    assert outcome_ids_in(agent.received[-1]) == ["sg-1"]
    assert agent.received[-1].count('context-key="outcome:sg-1"') == 1
    assert conversation.owed_outcomes == [] and len(outcomes_of(events)) == 1


async def test_a_run_that_is_not_stoppable_goes_on_to_its_real_end():
    events: list[dict[str, Any]] = []
    domain = Waits(stoppable=False)
    conversation, _ = conversation_on(domain, events)
    task = asyncio.ensure_future(conversation.say("add milk"))
    await domain.started.wait()
    await stop(task)
    await asyncio.sleep(0.05)
    assert conversation.owed_outcomes == [] and domain.cancelled == 0  # still running
    domain.release.set()
    await until(lambda: conversation.owed_outcomes)
    assert domain.notes == ["milk"]
    assert [(o["status"], o.get("result")) for o in outcomes_of(events)] == [
        ("done", {"count": 1})]


@pytest.mark.parametrize("order", ["end-then-stop", "stop-then-end", "same-moment"])
async def test_stop_racing_the_runs_own_end_gives_one_outcome(order):
    events: list[dict[str, Any]] = []
    domain = Waits(stoppable=True, ending="cancelled")
    conversation, _ = conversation_on(domain, events)
    task = asyncio.ensure_future(conversation.say("add milk"))
    await domain.started.wait()
    if order == "end-then-stop":
        domain.release.set()
        await asyncio.sleep(0)
        task.cancel()
    elif order == "stop-then-end":
        task.cancel()
        domain.release.set()
    else:
        domain.release.set()
        task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    await until(lambda: outcomes_of(events))
    await asyncio.sleep(0.05)
    [told] = outcomes_of(events)
    assert told["status"] in ("done", "failed")
    # what is told is what happened: done only when the note was really added
    assert (told["status"] == "done") == (domain.notes == ["milk"])
    if told["status"] == "failed":
        assert told["code"] == "stopped"
    assert [o["id"] for o in conversation.owed_outcomes] == ["sg-1"]  # told once, next say


@pytest.mark.parametrize("ending", ["result", "error"])
async def test_a_stopped_run_that_ends_otherwise_is_told_its_real_end(ending):
    """Cancellation is advisory: a run that finishes anyway (or fails while stopping) is
    told as it really ended."""
    events: list[dict[str, Any]] = []
    domain = Waits(stoppable=True, ending=ending)
    conversation, _ = conversation_on(domain, events)
    task = asyncio.ensure_future(conversation.say("add milk"))
    await domain.started.wait()
    await stop(task)
    await until(lambda: conversation.owed_outcomes)
    [told] = outcomes_of(events)
    if ending == "result":
        assert (told["status"], told["result"], domain.notes) == ("done", {"count": 1},
                                                                   ["milk"])
    else:
        assert told["status"] == "failed" and "disk went away" in told["error"]
        assert told.get("code") != "stopped"


async def test_a_stoppable_run_past_run_timeout_still_ends_timeout():
    domain = Waits(stoppable=True, ending="cancelled")
    conversation, _ = conversation_on(domain)
    conversation = Conversation(agent=ScriptedAgent([
        dial(suggest("add-note", {"text": "milk"})), dial(inform("ok"))]), domain=domain,
        human=policy_human(), run_timeout=0.2)
    result = await asyncio.wait_for(conversation.say("add milk"), 5)
    [told] = [o for o in result.outcomes if o["id"] == "sg-1"]
    assert (told["status"], told["code"]) == ("failed", "timeout")


async def test_a_blocking_run_cannot_be_cancelled_it_is_told_its_real_end():
    release = threading.Event()

    class Blocking(NotesDomain):
        def __init__(self) -> None:
            super().__init__(context=False)
            self.actions["add-note"] = {"mutates": True, "stoppable": True}
            self.started = threading.Event()

        def run(self, action: str, payload: Any) -> Any:
            self.started.set()
            assert release.wait(10)
            return super().run(action, payload)

    domain = Blocking()
    conversation, _ = conversation_on(domain)
    task = asyncio.ensure_future(conversation.say("add milk"))
    await until(domain.started.is_set)
    await stop(task)
    release.set()
    await until(lambda: conversation.owed_outcomes)
    assert [(o["status"], o.get("result")) for o in conversation.owed_outcomes] == [
        ("done", {"count": 1})]


async def test_a_schema_domains_async_run_behind_its_sync_run_is_stopped():
    """SchemaDomain.run is sync and hands back an awaitable: the task awaiting it is what
    Stop cancels (a domain may say stoppable(action) itself, as McpDomain does)."""
    started, cancelled = asyncio.Event(), []

    class Tools(SchemaDomain):
        def stoppable(self, action: str) -> bool:
            return action == "wait"

    domain = Tools("tools")

    async def wait(payload: dict[str, Any]) -> str:
        started.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            cancelled.append(True)
            raise
        return "never"

    domain.add_action("wait", run=wait)
    agent = ScriptedAgent([dial(suggest("wait", {})), dial(inform("ok"))])
    conversation = Conversation(agent=agent, domain=domain, human=policy_human())
    task = asyncio.ensure_future(conversation.say("wait"))
    await started.wait()
    await stop(task)
    await until(lambda: conversation.owed_outcomes)
    assert cancelled == [True]
    assert [(o["status"], o["code"]) for o in conversation.owed_outcomes] == [
        ("failed", "stopped")]


def test_stoppable_is_read_from_the_spec_or_the_domain_and_a_raising_one_says_no():
    class Odd(NotesDomain):
        def stoppable(self, action: str) -> bool:
            if action == "remove-note":
                raise RuntimeError("hostile")
            return action == "list-notes"

    domain = Odd(context=False)
    domain.actions["add-note"] = {"stoppable": True}
    domain.actions["open-poll"] = {"stoppable": "yes"}  # only True is True
    port = DomainPort(domain)
    assert [port.stoppable(a) for a in ("add-note", "list-notes", "remove-note",
                                         "open-poll", "nope")] == [
        True, True, False, False, False]
    assert DomainPort(NotesDomain()).stoppable("add-note") is False


async def test_a_snapshot_taken_while_a_stoppable_run_goes_is_never_run_again():
    domain = Waits(stoppable=True, ending="cancelled")
    conversation, _ = conversation_on(domain)
    task = asyncio.ensure_future(conversation.say("add milk"))
    await domain.started.wait()
    saved = json.loads(json.dumps(conversation.snapshot()))
    assert [r["id"] for r in saved["running"]] == ["sg-1"]
    await stop(task)

    second = Waits(stoppable=True, ending="cancelled")
    agent = ScriptedAgent([dial(suggest("add-note", {"text": "milk"})),
                           dial(inform("Sorry about that."))])  # restored: the first was used
    restored = Conversation.restore(saved, agent=agent, domain=second, human=policy_human())
    result = await asyncio.wait_for(restored.resume(), 5)
    assert not second.started.is_set()  # nothing ran by itself
    [told] = [o for o in result.outcomes if o["id"] == "sg-1"]
    assert (told["status"], told["code"]) == ("failed", "interrupted")


SERVER = str(Path(__file__).parents[1] / "mcp_servers" / "tool_server.py")


@pytest.mark.server
async def test_stop_during_an_mcp_tool_cancels_the_call_and_tells_the_server(tmp_path):
    from dial_notebook.domains.mcp import McpDomain

    marks = tmp_path / "marks.txt"
    domain = McpDomain.stdio(sys.executable, [SERVER], env={"MCP_TEST_MARKS": str(marks)},
                             name="tools", start_timeout=60.0)
    try:
        assert all(domain.stoppable(action) for action in domain.tools)
        assert not domain.stoppable("no-such-tool")
        agent = ScriptedAgent([dial(suggest("hang", {})), dial(inform("ok"))])
        conversation = Conversation(agent=agent, domain=domain, human=policy_human())
        task = asyncio.ensure_future(conversation.say("hang"))
        await until(lambda: marks.exists() and "called hang" in marks.read_text(), 60)
        await stop(task)
        await until(lambda: conversation.owed_outcomes, 30)
        [told] = conversation.owed_outcomes
        assert (told["status"], told["code"]) == ("failed", "stopped")
        await until(lambda: "cancelled hang" in marks.read_text(), 30)  # the server was told
    finally:
        await asyncio.get_running_loop().run_in_executor(None, domain.close)


async def test_the_widget_shows_a_runs_progress_and_its_stop_button_stops_the_run():
    from dial_notebook import report_progress
    from dial_notebook.widget import ChatWidget

    from .runtime_doubles import Wire, click

    started, cancelled = asyncio.Event(), []

    class Copies:
        def __init__(self) -> None:
            self.actions = {"copy": {"mutates": False, "stoppable": True}}  # runs at once

        async def run(self, action: str, payload: Any) -> Any:
            report_progress(1, 4, "copying a.txt")
            started.set()
            try:
                await asyncio.Event().wait()
            except asyncio.CancelledError:
                cancelled.append(True)
                raise

    agent = ScriptedAgent([dial(suggest("copy", {})), dial(inform("ok"))])
    chat = ChatWidget(agent=agent, domain=Copies(), timeout=5)
    wire = Wire()
    chat.comm = wire
    task = chat.say("copy them")
    await started.wait()
    await until(lambda: wire.custom("run-progress"))
    assert wire.custom("run-progress") == [{"type": "run-progress", "id": "sg-1",
                                            "action": "copy", "progress": 1, "total": 4,
                                            "message": "copying a.txt"}]
    assert not [e for e in chat.transcript if e["type"] == "progress"]  # never kept
    click(chat, type="stop")
    await asyncio.gather(task, return_exceptions=True)
    await until(lambda: [e for e in chat.transcript if e["type"] == "outcome"])
    assert cancelled == [True]
    [told] = [e for e in chat.transcript if e["type"] == "outcome"]
    assert (told["status"], told["code"]) == ("failed", "stopped")
