"""Review before it runs and Undo after, in the runtime: a proposal's dry run travels with its
suggestion event (bounded, never blocking the decision), an edit asks again, and Undo of a done
action is a second outcome 'undone' told to the agent with the next message, exactly."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from dial_notebook.dial import outcome_reply
from dial_notebook.runtime import Conversation, ConversationBusyError, _review, policy_human

from .runtime_doubles import NotesDomain, ScriptedAgent, dial, inform, suggest, until


class Reviewed(NotesDomain):
    """Notes with a dry run, an undo and a say on whether undo is still exact."""

    def __init__(self, dry: Any = None) -> None:
        super().__init__(context=False)
        self.dry = dry
        self.exact = True
        self.undone: list[Any] = []

    def dry_run(self, action: str, payload: Any) -> Any:
        if callable(self.dry):
            return self.dry(action, payload)
        if action == "add-note":
            return {"summary": f"{len(self.notes)} → {len(self.notes) + 1} notes",
                    "effect": {"rows": [len(self.notes), len(self.notes) + 1]},
                    "code": f"notes.append({payload['text']!r})"}
        return None

    def undoable(self, action: str, payload: Any, result: Any) -> Any:
        return True if self.exact else "a later note depends on it"

    def undo(self, action: str, payload: Any, result: Any) -> None:
        if payload.get("text") == "sticky":
            raise RuntimeError("the note is stuck")
        self.notes.remove(payload["text"])
        self.undone.append(payload["text"])


def conversation_with(domain: Any, replies: list[str]) -> tuple[Conversation, ScriptedAgent]:
    agent = ScriptedAgent(replies)
    return Conversation(agent=agent, domain=domain, human=policy_human("accept")), agent


def suggestions(conversation: Conversation) -> list[dict[str, Any]]:
    return [e for e in conversation.transcript if e["type"] == "suggestion"]


async def test_the_dry_run_travels_with_the_suggestion_before_the_person_decides():
    domain = Reviewed()
    conversation, _ = conversation_with(domain, [
        dial(suggest("add-note", {"text": "milk"}), suggest("list-notes", {})),
        dial(inform("ok"))])
    await conversation.say("add milk")
    added, listed = suggestions(conversation)
    assert added["dry_run"] == {"ok": True, "summary": "0 → 1 notes",
                                "effect": {"rows": [0, 1]}, "code": "notes.append('milk')"}
    assert "dry_run" not in listed  # read-only: it runs at once, nothing to decide


@pytest.mark.parametrize(("dry", "error"), [
    (lambda a, p: 1 / 0, "division by zero"),
    (lambda a, p: "a sentence", "gave str, not an object"),
    (lambda a, p: {"huge": "x" * 300_000}, "over 200,000 characters"),
])
async def test_a_dry_run_that_fails_is_shown_unavailable_and_the_card_still_comes(dry, error):
    conversation, _ = conversation_with(Reviewed(dry), [
        dial(suggest("add-note", {"text": "milk"})), dial(inform("ok"))])
    result = await conversation.say("add milk")
    (card,) = suggestions(conversation)
    assert card["dry_run"]["ok"] is False and error in card["dry_run"]["error"]
    assert [o["status"] for o in result.outcomes] == ["done"]


async def test_a_slow_dry_run_is_cut_at_its_bound_and_does_not_hold_the_decision(monkeypatch):
    monkeypatch.setattr(_review, "DRY_RUN_SECONDS", 0.2)
    release, finished = threading.Event(), threading.Event()

    def stuck(action, payload):  # a dry run that ends only when the test lets it
        release.wait(5)
        finished.set()
        return {}

    conversation, _ = conversation_with(Reviewed(stuck), [
        dial(suggest("add-note", {"text": "milk"})), dial(inform("ok"))])
    result = await conversation.say("add milk")
    assert not finished.is_set()  # the turn ended while the dry run was still stuck
    release.set()
    (card,) = suggestions(conversation)
    assert card["dry_run"] == {"ok": False, "error": "it took longer than 0.2s to work out"}
    assert [o["status"] for o in result.outcomes] == ["done"]


async def test_an_edit_asks_again_and_a_refused_one_says_why():
    domain = Reviewed()
    conversation, _ = conversation_with(domain, [])
    assert (await conversation.dry_run("add-note", {"text": "oat milk"}))["code"] == (
        "notes.append('oat milk')")
    assert await conversation.dry_run("add-note", {"text": ""}) == {
        "ok": False, "error": "text is required"}
    assert (await conversation.dry_run("fly", {}))["ok"] is False
    assert domain.notes == []  # nothing ran


async def test_undo_of_a_done_action_is_a_second_outcome_told_with_the_next_message():
    domain = Reviewed()
    conversation, agent = conversation_with(domain, [
        dial(suggest("add-note", {"text": "milk"})), dial(inform("Added.")),
        dial(inform("Noted."))])
    await conversation.say("add milk")
    assert conversation.undoable() == {"sg-1": True}
    undone = await conversation.undo("sg-1")
    assert undone == {"id": "sg-1", "action": "add-note", "status": "undone",
                      "preview": "Add the note 'milk'"}
    assert domain.notes == [] and conversation.undoable() == {}
    assert conversation.transcript[-1] == {"type": "outcome", **undone}
    await conversation.say("thanks")
    expected = outcome_reply([undone])
    assert agent.received[-1] == expected + "\n\nthanks"
    assert ('<dial-acknowledge of="sg-1" yield="sg-1:undone">Undone: Add the note \'milk\'.'
            '</dial-acknowledge>') in expected
    assert '{"action":"add-note","status":"undone"}' in expected


async def test_an_undo_that_is_no_longer_exact_or_fails_changes_nothing_and_says_why():
    domain = Reviewed()
    conversation, _ = conversation_with(domain, [
        dial(suggest("add-note", {"text": "milk"}), suggest("add-note", {"text": "sticky"})),
        dial(inform("Added."))])
    await conversation.say("add two")
    domain.exact = False
    assert conversation.undoable() == {"sg-1": "a later note depends on it",
                                       "sg-2": "a later note depends on it"}
    assert await conversation.undo("sg-1") is None
    assert conversation.transcript[-1] == {"type": "undo-failed", "id": "sg-1",
                                           "error": "a later note depends on it"}
    domain.exact = True
    assert await conversation.undo("sg-2") is None
    assert conversation.transcript[-1] == {"type": "undo-failed", "id": "sg-2",
                                           "error": "the note is stuck"}
    assert domain.notes == ["milk", "sticky"] and conversation.owed_outcomes == []
    with pytest.raises(KeyError, match="no done action 'sg-9'"):
        await conversation.undo("sg-9")


async def test_undo_waits_for_the_say_and_a_domain_without_undo_offers_none():
    gate = asyncio.Event()

    class Slow(ScriptedAgent):
        async def send(self, message):  # type: ignore[override]
            await gate.wait()
            return dial(inform("ok"))

    domain = Reviewed()
    conversation, _ = conversation_with(domain, [
        dial(suggest("add-note", {"text": "milk"})), dial(inform("Added."))])
    await conversation.say("add milk")
    busy = Conversation(agent=Slow([]), domain=domain, human=policy_human("accept"))
    task = asyncio.ensure_future(busy.say("hello"))
    await asyncio.sleep(0.01)
    with pytest.raises(ConversationBusyError):
        await busy.undo("sg-1")
    gate.set()
    await task
    plain, _ = conversation_with(NotesDomain(context=False), [
        dial(suggest("add-note", {"text": "milk"})), dial(inform("Added."))])
    await plain.say("add milk")
    assert plain.undoable() == {}


async def test_an_action_that_never_had_undo_offers_nothing_and_says_nothing():
    # "Can't undo: it cannot be undone" on every done card of a domain without undo (issue 27):
    # a reason is shown only when Undo was possible and no longer is
    from dial_notebook import SchemaDomain

    store: list[str] = []
    domain = SchemaDomain("pins")
    domain.add_action("pin", run=lambda payload: store.append(payload["text"]))
    domain.add_action("unpin", run=lambda payload: store.pop(),
                      undo=lambda payload, result: store.append("back"))
    conversation, _ = conversation_with(domain, [
        dial(suggest("pin", {"text": "milk"}), suggest("unpin", {})), dial(inform("Done."))])
    await conversation.say("pin milk, then unpin it")
    assert store == []
    assert conversation.undoable() == {"sg-2": True}  # sg-1 could never be undone: no word
    assert domain.undoable("pin", {"text": "milk"}, None) is False


async def test_the_human_port_gets_the_dry_run_the_card_shows():
    domain = Reviewed()
    human = policy_human("accept")
    conversation = Conversation(agent=ScriptedAgent([dial(suggest("add-note", {"text": "milk"})),
                                                     dial(inform("ok"))]),
                                domain=domain, human=human)
    await conversation.say("add milk")
    (card,) = suggestions(conversation)
    (seen,) = human.seen
    assert seen.dry_run == card["dry_run"] and seen.dry_run["ok"] is True
    assert seen.to_dict()["dry_run"] == card["dry_run"]
    other = policy_human("accept")
    plain = Conversation(agent=ScriptedAgent([dial(suggest("add-note", {"text": "tea"})),
                                              dial(inform("ok"))]),
                         domain=NotesDomain(context=False), human=other)
    await plain.say("add tea")
    assert "dry_run" not in suggestions(plain)[0]
    assert other.seen[0].dry_run is None and "dry_run" not in other.seen[0].to_dict()


class Counter(NotesDomain):
    """A value undone by subtracting; its undo waits for ``release`` (set from the test)."""

    def __init__(self, *, blocking: bool = False, fails: bool = False) -> None:
        super().__init__(context=False)
        self.value = 0
        self.undos = 0
        self.blocking = blocking
        self.fails = fails
        self.release = threading.Event() if blocking else asyncio.Event()

    def run(self, action: str, payload: Any) -> Any:
        self.value += 5
        return {"value": self.value}

    def undo(self, action: str, payload: Any, result: Any) -> Any:
        if self.blocking:
            return self._undo_blocking()
        return self._undo_async()

    def _undo_blocking(self) -> None:
        self.undos += 1
        assert self.release.wait(10)
        if self.fails:
            raise RuntimeError("the counter is locked")
        self.value -= 5

    async def _undo_async(self) -> None:
        self.undos += 1
        await self.release.wait()
        if self.fails:
            raise RuntimeError("the counter is locked")
        self.value -= 5


async def test_two_undos_at_once_take_the_change_back_once():
    domain = Counter()
    conversation, agent = conversation_with(domain, [
        dial(suggest("add-note", {"text": "a"}, id="a")), dial(inform("ok")), dial(inform("ok"))])
    await conversation.say("add")
    assert domain.value == 5
    first = asyncio.ensure_future(conversation.undo("a"))
    second = asyncio.ensure_future(conversation.undo("a"))
    await asyncio.sleep(0)
    domain.release.set()
    results = await asyncio.gather(first, second, return_exceptions=True)
    assert domain.undos == 1 and domain.value == 0
    assert results[0]["status"] == "undone"
    assert isinstance(results[1], KeyError) and "being undone" in str(results[1])
    undone = [e for e in conversation.transcript if e["type"] == "outcome"
              and e["status"] == "undone"]
    assert len(undone) == 1 and conversation.undoable() == {}
    await conversation.say("thanks")
    assert agent.received[-1].count('yield="a:undone"') == 1


@pytest.mark.parametrize("fails", [False, True])
async def test_an_undo_slower_than_its_bound_is_reported_as_it_really_ends(monkeypatch, fails):
    monkeypatch.setattr(_review, "UNDO_SECONDS", 0.01)
    domain = Counter(blocking=True, fails=fails)
    conversation, agent = conversation_with(domain, [
        dial(suggest("add-note", {"text": "a"}, id="a")), *[dial(inform("ok"))] * 3])
    await conversation.say("add")
    events = len(conversation.transcript)
    assert await conversation.undo("a") is None  # not back within its bound: it goes on
    assert len(conversation.transcript) == events  # no 'undo-failed': it has not failed
    assert conversation.undoable() == {}  # being undone: not offered again
    with pytest.raises(KeyError, match="being undone"):
        await conversation.undo("a")
    domain.release.set()
    await until(lambda: len(conversation.transcript) > events)
    assert len(conversation.transcript) == events + 1
    last = conversation.transcript[-1]
    if fails:
        assert last == {"type": "undo-failed", "id": "a", "error": "the counter is locked"}
        assert domain.value == 5 and conversation.undoable() == {"a": True}
        assert conversation.owed_outcomes == []
    else:
        assert last["type"] == "outcome" and last["status"] == "undone"
        assert domain.value == 0 and conversation.undoable() == {}
        await conversation.say("thanks")
        assert agent.received[-1].count('yield="a:undone"') == 1
        await conversation.say("again")
        assert 'a:undone' not in agent.received[-1]  # told once
    assert domain.undos == 1


async def test_a_change_done_before_the_kernel_restarted_says_why_it_cannot_be_undone():
    domain = Reviewed()
    replies = [dial(suggest("add-note", {"text": "milk"})), dial(inform("Added.")),
               dial(suggest("add-note", {"text": "bread"})), dial(inform("Added."))]
    conversation, _ = conversation_with(domain, replies)
    await conversation.say("add milk")
    await conversation.say("add bread")
    assert await conversation.undo("sg-2") is not None  # taken back: nothing to say of it
    saved = conversation.snapshot()
    again = Reviewed()
    restored = Conversation.restore(saved, agent=ScriptedAgent(replies), domain=again,
                                    human=policy_human())
    assert restored.undoable() == {"sg-1": _review.EARLIER_KERNEL}
    with pytest.raises(KeyError):
        await restored.undo("sg-1")
    assert again.undone == []
