"""Cancelling the task that runs say (a kernel interrupt) leaves the conversation usable."""

from __future__ import annotations

import asyncio
import threading

import pytest

from dial_notebook.runtime import Conversation, policy_human

from .runtime_doubles import (
    NotesDomain,
    ScriptedAgent,
    ask,
    dial,
    inform,
    outcome_ids_in,
    outcomes_in,
    suggest,
    until,
)


class Surface:
    """A human like the notebook widget: every decision and answer is a future."""

    needs_event_loop = True

    def __init__(self):
        self.futures: list[asyncio.Future] = []

    def _wait(self):
        self.futures.append(asyncio.get_running_loop().create_future())
        return self.futures[-1]

    def decide(self, suggestion):
        return self._wait()

    def answer(self, ask):
        return self._wait()


async def cancelled(task: asyncio.Task) -> None:
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


async def test_cancelled_while_the_person_decides_the_outcomes_so_far_are_owed():
    surface = Surface()
    agent = ScriptedAgent([
        dial(suggest("list-notes", {}), suggest("add-note", {"text": "a"}),
             suggest("add-note", {"text": "b"}), suggest("fly", {})),
        dial(inform("ok")),
    ])
    events: list[dict] = []
    conversation = Conversation(agent=agent, domain=NotesDomain(context=False), human=surface,
                                on_event=events.append)
    task = asyncio.ensure_future(conversation.say("go"))
    await until(lambda: surface.futures)
    assert conversation.pending.id == "sg-2"
    await cancelled(task)

    assert surface.futures[0].cancelled()
    assert (conversation.busy, conversation.pending) == (False, None)
    assert [(o["id"], o["status"]) for o in conversation.owed_outcomes] == [
        ("sg-1", "done"), ("sg-2", "superseded"), ("sg-3", "superseded"), ("sg-4", "invalid")]
    assert [e["status"] for e in events if e["type"] == "outcome"] == [
        "done", "superseded", "superseded", "invalid"]

    agent.replies.insert(0, dial(inform("ok")))
    result = await asyncio.wait_for(conversation.say("sorry, go on"), 5)
    assert result.status == "idle"
    assert outcome_ids_in(agent.received[1]) == ["sg-1", "sg-2", "sg-3", "sg-4"]
    assert agent.received[1].endswith("sorry, go on")
    assert conversation.owed_outcomes == []


async def test_cancelled_while_waiting_for_the_reply_what_it_carried_stays_owed():
    agent = ScriptedAgent([dial(suggest("list-notes", {}, id="ls")), ScriptedAgent.HANG,
                           dial(inform("ok"))])
    conversation = Conversation(agent=agent, domain=NotesDomain(context=False),
                                human=policy_human())
    task = asyncio.ensure_future(conversation.say("list"))
    await until(lambda: len(agent.received) == 2)
    await cancelled(task)
    assert [o["id"] for o in conversation.owed_outcomes] == ["ls"]
    await conversation.say("")
    assert outcome_ids_in(agent.received[2]) == ["ls"]


async def test_stop_stops_the_agent_not_the_work_an_async_run_ends_for_real():
    """A run the person approved goes on to its real end when its say is cancelled (Stop),
    even an async one awaiting a worker thread; its outcome is told with the next say."""
    started, release = asyncio.Event(), threading.Event()

    class ThreadedDomain(NotesDomain):
        async def run(self, action, payload):
            started.set()
            return await asyncio.to_thread(self.work, payload)

        def work(self, payload):
            assert release.wait(10)
            self.notes.append(payload["text"])
            return {"count": len(self.notes)}

    domain = ThreadedDomain(context=False)
    agent = ScriptedAgent([dial(suggest("add-note", {"text": "milk"})), dial(inform("ok"))])
    conversation = Conversation(agent=agent, domain=domain, human=policy_human())
    task = asyncio.ensure_future(conversation.say("add milk"))
    await started.wait()
    await cancelled(task)
    assert conversation.owed_outcomes == []  # still running: no outcome yet
    release.set()
    await until(lambda: conversation.owed_outcomes)
    assert domain.notes == ["milk"]
    assert conversation.owed_outcomes == [{
        "id": "sg-1", "action": "add-note", "status": "done", "preview": "Add the note 'milk'",
        "result": {"count": 1}}]
    assert conversation._state.running == {}
    await conversation.say("")
    assert outcomes_in(agent.received[1]) == [{"action": "add-note", "status": "done",
                                               "result": {"count": 1}}]
    assert conversation.owed_outcomes == []


async def test_after_stop_the_run_timeout_still_stops_an_async_run_past_its_limit():
    started = asyncio.Event()

    class SlowDomain(NotesDomain):
        async def run(self, action, payload):
            started.set()
            await asyncio.Event().wait()  # never ends by itself

    agent = ScriptedAgent([dial(suggest("list-notes", {})), dial(inform("ok"))])
    conversation = Conversation(agent=agent, domain=SlowDomain(context=False),
                                human=policy_human(), run_timeout=0.05)
    task = asyncio.ensure_future(conversation.say("list"))
    await started.wait()
    await cancelled(task)
    await until(lambda: conversation.owed_outcomes)
    assert conversation.owed_outcomes == [{
        "id": "sg-1", "action": "list-notes", "status": "failed", "preview": "List the notes",
        "error": "It did not finish within 0.05s", "code": "timeout",
        "hint": "It was stopped; part of it may have taken effect: check before trying again."}]
    await conversation.say("")
    assert [o["status"] for o in outcomes_in(agent.received[1])] == ["failed"]


async def test_cancelled_while_a_question_waits_the_answers_given_are_kept():
    surface = Surface()
    agent = ScriptedAgent([dial(ask("First?"), ask("Second?"), suggest("add-note", {"text": "a"})),
                           dial(inform("ok"))])
    conversation = Conversation(agent=agent, domain=NotesDomain(context=False), human=surface)
    task = asyncio.ensure_future(conversation.say("go"))
    await until(lambda: surface.futures)
    surface.futures[0].set_result("yes")
    await until(lambda: len(surface.futures) == 2)
    await cancelled(task)
    assert conversation.owed_words == ["> First?\nyes"]
    assert [o["status"] for o in conversation.owed_outcomes] == ["superseded"]
    await conversation.say("")
    assert agent.received[1].endswith("</dial>\n\n> First?\nyes")


async def test_a_conversation_cancelled_twice_still_works():
    surface = Surface()
    agent = ScriptedAgent([dial(suggest("add-note", {"text": "a"})),
                           dial(suggest("add-note", {"text": "b"})), dial(inform("ok"))])
    conversation = Conversation(agent=agent, domain=NotesDomain(context=False), human=surface)
    for expected in (1, 2):
        task = asyncio.ensure_future(conversation.say("go"))
        await until(lambda n=expected: len(surface.futures) == n)
        await cancelled(task)
        assert [o["id"] for o in conversation.owed_outcomes] == [f"sg-{expected}"]
    assert outcome_ids_in(agent.received[1]) == ["sg-1"]
    assert (await conversation.say("stop")).status == "idle"
    assert outcome_ids_in(agent.received[2]) == ["sg-2"]
    assert conversation.owed_outcomes == []
