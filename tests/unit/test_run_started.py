"""An accepted card's run, told to the front end as it starts: {type: 'run-started', id,
action, stoppable} (the card says Running… until its outcome; Stop where the run is
stoppable), never kept in the transcript; and a card whose run goes is 'running' in the
display items (_items.py, as js/src/items.js)."""

from __future__ import annotations

import asyncio
from typing import Any

from dial_notebook.widget._chat_progress import action_stoppable, run_started
from dial_notebook.widget._contract import KERNEL_MESSAGES
from dial_notebook.widget._items import transcript_items

from .runtime_doubles import ScriptedAgent, Wire, click, dial, inform, suggest, until


class Slow:
    """copy waits for ``release``; ``stoppable`` says whether Stop may cancel it."""

    def __init__(self, *, stoppable: bool) -> None:
        self.actions = {"copy": {"mutates": True, "stoppable": stoppable}}
        self.release = asyncio.Event()

    async def run(self, action: str, payload: Any) -> Any:
        await self.release.wait()
        return {"copied": 3}


def test_run_started_is_the_front_ends_message_or_none():
    assert run_started({"type": "running", "id": "sg-1", "action": "copy"}, True) == {
        "type": "run-started", "id": "sg-1", "action": "copy", "stoppable": True}
    assert run_started({"type": "running", "id": 7, "action": "copy"}, False) is None
    assert run_started({"type": "running", "id": "", "action": "copy"}, False) is None
    assert run_started({"type": "running", "id": "sg-2"}, False)["action"] == ""
    assert "run-started" in KERNEL_MESSAGES


def test_a_stoppable_action_is_one_its_spec_or_domain_says_is():
    class Says:
        def __init__(self) -> None:
            self.actions = {"a": {"stoppable": True}, "b": {}}

        def stoppable(self, action: str) -> bool:
            if action == "boom":
                raise RuntimeError("no")
            return action == "c"

    assert [action_stoppable(Says(), a) for a in ("a", "b", "c", "boom", "execute:python")] == [
        True, False, True, False, False]
    assert action_stoppable(object(), "a") is False


async def test_the_widget_tells_the_front_end_when_an_accepted_run_starts():
    from dial_notebook.widget import ChatWidget

    for stoppable in (True, False):
        domain = Slow(stoppable=stoppable)
        agent = ScriptedAgent([dial(suggest("copy", {"n": 3})), dial(inform("ok"))])
        chat = ChatWidget(agent=agent, domain=domain, timeout=5)
        wire = Wire()
        chat.comm = wire
        task = chat.say("copy them")
        await until(lambda chat=chat: chat.pending.get("kind") == "decide")
        assert wire.custom("run-started") == []  # not before the person decides
        click(chat, type="decide", token=chat.pending["token"], decision="accept")
        await until(lambda wire=wire: wire.custom("run-started"))
        assert wire.custom("run-started") == [{"type": "run-started", "id": "sg-1",
                                               "action": "copy", "stoppable": stoppable}]
        assert chat.pending == {}  # the card waits no more: its run goes
        assert not [e for e in chat.transcript if e["type"] in ("running", "run-started")]
        domain.release.set()
        await asyncio.wait_for(task, 5)
        assert [e["status"] for e in chat.transcript if e["type"] == "outcome"] == ["done"]
        assert len(wire.custom("run-started")) == 1


def test_a_card_whose_run_goes_is_running_until_its_outcome():
    card = {"type": "suggestion", "id": "sg-1", "action": "copy", "payload": {}}
    [item] = transcript_items([card], {}, running={"sg-1"})
    assert item.status == "running"
    [item] = transcript_items([card], {})
    assert item.status == "proposed"  # as before: what the transcript alone says
    done = {"type": "outcome", "id": "sg-1", "action": "copy", "status": "done"}
    [item] = transcript_items([card, done], {}, running={"sg-1"})
    assert item.status == "done"
    block = {"type": "suggestion", "id": "ex-1", "kind": "execute",
             "payload": {"steps": [{"id": "ex-1.1", "env": "python"}]}}
    [item] = transcript_items([block], {}, running={"ex-1.1"})
    assert item.status == "running"


async def test_a_page_that_comes_back_while_a_run_goes_is_told_it_runs_again():
    """A reloaded page (a new view, or one that missed messages) asks with 'sync'; the kernel
    says again which runs go, so the card says Running… there too; an ended run is not said."""
    from dial_notebook.widget import ChatWidget

    domain = Slow(stoppable=True)
    agent = ScriptedAgent([dial(suggest("copy", {"n": 3})), dial(inform("ok"))])
    chat = ChatWidget(agent=agent, domain=domain, timeout=5)
    chat.comm = wire = Wire()
    task = chat.say("copy them")
    await until(lambda: chat.pending.get("kind") == "decide")
    click(chat, type="decide", token=chat.pending["token"], decision="accept")
    await until(lambda: wire.custom("run-started"))
    click(chat, type="sync", length=0)  # the page came back
    assert wire.custom("run-started") == [{"type": "run-started", "id": "sg-1",
                                           "action": "copy", "stoppable": True}] * 2
    domain.release.set()
    await asyncio.wait_for(task, 5)
    click(chat, type="sync", length=0)
    assert len(wire.custom("run-started")) == 2  # the run ended: nothing runs to say


def test_an_execute_block_whose_steps_all_ended_is_done_though_its_run_was_said_started():
    block = {"type": "suggestion", "id": "ex-1", "kind": "execute",
             "payload": {"steps": [{"id": "ex-1.1", "env": "python"}]}}
    step = {"type": "outcome", "id": "ex-1.1", "block": "ex-1", "status": "done"}
    [item] = transcript_items([block, step], {}, running={"ex-1", "ex-1.1"})
    assert item.status == "done"
    [item] = transcript_items([block], {}, running={"ex-1"})
    assert item.status == "running"  # started, no step ended yet


async def test_a_blocks_run_is_not_said_again_once_a_step_has_ended():
    from dial_notebook.widget import ChatWidget

    chat = ChatWidget(agent=ScriptedAgent([]), domain=Slow(stoppable=False), timeout=5)
    chat._on_event({"type": "running", "id": "ex-1", "action": "execute"})
    chat._on_event({"type": "running", "id": "ex-1.1", "action": "execute:python"})
    assert [m["id"] for m in chat.runs_going()] == ["ex-1", "ex-1.1"]
    chat._on_event({"type": "outcome", "id": "ex-1.1", "block": "ex-1", "status": "done"})
    assert chat.runs_going() == []
