"""snapshot() → restore() → resume(): a conversation carries on in a new kernel exactly as it
would have without the break, at every point it can wait; runs the kernel never saw end are
never run again; a domain that changed re-checks the card; tampered files are refused."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import pytest

from dial_notebook.runtime import Conversation, ConversationBusyError
from dial_notebook.runtime._snapshot import (
    SnapshotError,
    load_snapshot,
    read_snapshot,
    save_snapshot,
)

from .runtime_doubles import NotesDomain, SendFailed, ask, dial, inform, suggest, until


class ListAgent:
    """Replies from a list, in order; keeps how many it used (its own state, saved)."""

    def __init__(self, replies: list[Any]) -> None:
        self.replies = list(replies)
        self.used = 0
        self.messages: list[str] = []

    def send(self, message: str) -> str:
        self.messages.append(message)
        reply = self.replies[self.used]
        self.used += 1
        if isinstance(reply, BaseException):
            raise reply
        return reply

    def snapshot(self) -> dict[str, Any]:
        return {"kind": "list", "version": 1, "used": self.used}

    def restore(self, data: dict[str, Any]) -> None:
        if data.get("kind") != "list":
            raise ValueError(f"not a list agent's state: kind {data.get('kind')!r}")
        self.used = data["used"]


class Surface:
    """A human like the widget: every decision and answer is a future the test resolves."""

    needs_event_loop = True

    def __init__(self) -> None:
        self.futures: list[asyncio.Future[Any]] = []
        self.shown: list[Any] = []

    def _wait(self, shown: Any) -> asyncio.Future[Any]:
        self.shown.append(shown)
        self.futures.append(asyncio.get_running_loop().create_future())
        return self.futures[-1]

    def decide(self, suggestion: Any) -> asyncio.Future[Any]:
        return self._wait(suggestion)

    def answer(self, question: Any) -> asyncio.Future[Any]:
        return self._wait(question)


async def drive(conversation: Conversation, surface: Surface, work: Any,
                decisions: list[Any], *, snap_at: int | None = None) -> dict[str, Any] | None:
    """Run ``work`` (a say or resume coroutine), answering each question the surface gets
    with the next decision; at question ``snap_at`` take a snapshot first."""
    task = asyncio.ensure_future(work)
    snapshot = None
    answered = start = len(surface.futures)
    while True:
        await until(lambda seen=answered: task.done() or len(surface.futures) > seen)
        if len(surface.futures) > answered:
            if snap_at is not None and answered - start == snap_at:
                snapshot = json.loads(json.dumps(conversation.snapshot()))
                task.cancel()  # the kernel dies here
                await asyncio.gather(task, return_exceptions=True)
                return snapshot
            surface.futures[answered].set_result(decisions.pop(0))
            answered += 1
            continue
        await task
        return snapshot


ACCEPT = {"accept": True}
CONFIRM = ('<dial-ask id="go" response-type="confirm" yield="go:confirmed go:cancelled">'
           "Go?</dial-ask>")
ON_YES = '<dial-inform observe="go:confirmed">Going.</dial-inform>'
ON_NO = '<dial-acknowledge observe="go:cancelled">Staying.</dial-acknowledge>'


def block(*steps: str, attrs: str = "") -> str:
    return f"<dial-execute{attrs}>{''.join(steps)}</dial-execute>"


def step(command: str, *, env: str = "shell") -> str:
    return f'<step env="{env}">{command}</step>'

DISMISS = {"dismiss": True}


def wire(conversation: Conversation) -> list[str]:
    return [e["message"] for e in conversation.transcript if e["type"] == "sent"]


async def uninterrupted(replies: list[Any], decisions: list[Any], says: list[str],
                        **options: Any) -> tuple[Conversation, NotesDomain]:
    domain = NotesDomain(context=False)
    surface = Surface()
    conversation = Conversation(agent=ListAgent(replies), domain=domain, human=surface,
                                **options)
    decisions = list(decisions)
    for text in says:
        await drive(conversation, surface, conversation.say(text), decisions)
    return conversation, domain


async def broken_at(replies: list[Any], decisions: list[Any], says: list[str], point: int,
                    **options: Any) -> tuple[Conversation, NotesDomain, NotesDomain]:
    """The same conversation, its kernel 'dying' at question ``point`` (counted over every
    say): a snapshot there, restored into fresh objects, resumed and carried to the end."""
    first = NotesDomain(context=False)
    surface = Surface()
    conversation = Conversation(agent=ListAgent(replies), domain=first, human=surface,
                                **options)
    left = list(decisions)
    snapshot = None
    said = 0
    while snapshot is None and said < len(says):
        before = len(surface.futures)
        snapshot = await drive(conversation, surface, conversation.say(says[said]), left,
                               snap_at=point - before)
        said += 1
    assert snapshot is not None
    second = NotesDomain(context=False)
    second.notes = list(first.notes)  # the notebook's own data, as its cells make it again
    surface = Surface()
    restored = Conversation.restore(snapshot, agent=ListAgent(replies), domain=second,
                                    human=surface, **options)
    assert restored.needs_resume
    await drive(restored, surface, restored.resume(), left)
    for text in says[said:]:
        await drive(restored, surface, restored.say(text), left)
    return restored, first, second


SCRIPTS = {
    "one card": (
        [dial(suggest("add-note", {"text": "milk"})), dial(inform("Added."))],
        [ACCEPT], ["add milk"]),
    "later elements still to come": (
        [dial(inform("Two ideas."), suggest("add-note", {"text": "a"}), inform("and then"),
              ask("Which colour?", id="colour", options=("red", "blue")),
              suggest("add-note", {"text": "b"})),
         dial(inform("Done both."))],
        [DISMISS, "blue", ACCEPT], ["go"]),
    "a question first": (
        [dial(ask("Which zone?", id="zone")), dial(suggest("add-note", {"text": "z"})),
         dial(inform("ok"))],
        ["Strengths", ACCEPT], ["go"]),
    "a refused edit": (
        [dial(suggest("add-note", {"text": "milk"})), dial(inform("Added."))],
        [{"edit": {"text": ""}}, {"edit": {"text": "oat milk"}}], ["add milk"]),
    "two says": (
        [dial(suggest("add-note", {"text": "a"})), dial(inform("Added a.")),
         dial(suggest("add-note", {"text": "b"})), dial(inform("Added b."))],
        [ACCEPT, ACCEPT], ["add a", "add b"]),
    "the person writes instead": (
        [dial(suggest("add-note", {"text": "a"}), suggest("add-note", {"text": "b"})),
         dial(inform("Understood."))],
        [{"say": "not those"}], ["go"]),
    "a confirm-gated block, ids assigned, an element skipped": (
        [dial(CONFIRM, ON_YES, block(step("ls"), step("rm x", env="python"),
                                     attrs=' observe="go:confirmed"'),
              suggest("add-note", {"text": "after"}), ON_NO),
         dial(inform("Ran them."))],
        ["yes", ACCEPT, ACCEPT], ["go"]),
}

POINTS = [(name, point) for name, (_, decisions, _) in SCRIPTS.items()
          for point in range(len(decisions))]


class Echo:
    """A harmless executor for every env: returns the command it was given."""

    def __call__(self, step: Any) -> dict[str, str]:
        return {"ran": step.command}


@pytest.mark.parametrize(("name", "point"), POINTS, ids=[f"{n}@{p}" for n, p in POINTS])
async def test_a_restored_conversation_carries_on_exactly_as_an_unbroken_one(name, point):
    replies, decisions, says = SCRIPTS[name]
    options = {"executors": {"shell": Echo(), "python": Echo()}}
    whole, domain = await uninterrupted(replies, decisions, says, **options)
    restored, before, after = await broken_at(replies, decisions, says, point, **options)
    assert restored.transcript == whole.transcript
    assert wire(restored) == wire(whole)
    assert before.ran + after.ran == domain.ran  # every run happened once
    assert restored.owed_outcomes == whole.owed_outcomes


async def test_restored_while_idle_with_outcomes_owed_after_a_send_failure():
    replies = [dial(suggest("add-note", {"text": "milk"})), SendFailed("network down"),
               dial(inform("Added."))]
    surface = Surface()
    conversation = Conversation(agent=ListAgent(replies), domain=NotesDomain(context=False),
                                human=surface)
    with pytest.raises(SendFailed):
        await drive(conversation, surface, conversation.say("add milk"), [ACCEPT])
    assert [o["status"] for o in conversation.owed_outcomes] == ["done"]
    saved = conversation.snapshot()
    assert saved["say"] is None and saved["owed"]["outcomes"][0]["status"] == "done"
    agent = ListAgent(replies)
    restored = Conversation.restore(saved, agent=agent, domain=NotesDomain(context=False),
                                    human=Surface())
    assert not restored.needs_resume
    await restored.say("")
    await conversation.say("")
    assert wire(restored) == wire(conversation)
    assert restored.transcript == conversation.transcript
    assert restored.owed_outcomes == []


async def test_a_run_the_kernel_never_saw_end_is_not_run_again_and_is_told_once():
    class Hangs(NotesDomain):
        def __init__(self) -> None:
            super().__init__(context=False)
            self.started = 0

        async def run(self, action, payload):
            self.started += 1
            await asyncio.Event().wait()  # the kernel dies while this runs

    replies = [dial(suggest("add-note", {"text": "milk"}), suggest("add-note", {"text": "b"})),
               dial(inform("Sorry about that."))]
    first = Hangs()
    surface = Surface()
    conversation = Conversation(agent=ListAgent(replies), domain=first, human=surface)
    task = asyncio.ensure_future(conversation.say("add milk"))
    await until(lambda: surface.futures)
    surface.futures[0].set_result(ACCEPT)
    await until(lambda: first.started == 1)
    saved = json.loads(json.dumps(conversation.snapshot()))
    assert [r["id"] for r in saved["running"]] == ["sg-1"]
    task.cancel()

    second = Hangs()
    surface = Surface()
    agent = ListAgent(replies)
    restored = Conversation.restore(saved, agent=agent, domain=second, human=surface)
    work = asyncio.ensure_future(restored.resume())
    await until(lambda: surface.futures)  # the reply goes on: the second card is offered
    assert surface.shown[0].payload == {"text": "b"}
    surface.futures[0].set_result(DISMISS)
    result = await work
    assert second.started == 0  # nothing ran by itself
    interrupted = [o for o in result.outcomes if o["id"] == "sg-1"]
    assert interrupted == [{"id": "sg-1", "action": "add-note", "status": "failed",
                            "preview": "Add the note 'milk'",
                            "error": "The kernel stopped while it ran.", "code": "interrupted",
                            "hint": "It may or may not have taken effect: check before "
                                    "trying it again."}]
    sent = agent.messages
    assert len(sent) == 1
    assert sent[0].count('context-key="outcome:sg-1"') == 1
    assert "code" in sent[0] and "interrupted" in sent[0]
    assert [o["status"] for o in restored.transcript if o["type"] == "outcome"] == [
        "failed", "dismissed"]


async def test_a_card_the_domain_now_refuses_ends_invalid_and_is_not_shown_again():
    class Strict(NotesDomain):
        def validate(self, action, payload):
            return {"ok": False, "code": "too-short", "field": "text", "hint": "longer"}

    replies = [dial(suggest("add-note", {"text": "m"})), dial(inform("I see."))]
    surface = Surface()
    conversation = Conversation(agent=ListAgent(replies), domain=NotesDomain(context=False),
                                human=surface)
    task = asyncio.ensure_future(conversation.say("add m"))
    await until(lambda: surface.futures)
    saved = conversation.snapshot()
    task.cancel()
    surface = Surface()
    agent = ListAgent(replies)
    restored = Conversation.restore(saved, agent=agent, domain=Strict(context=False),
                                    human=surface)
    result = await restored.resume()
    assert surface.futures == []  # never shown
    assert [(o["status"], o.get("code")) for o in result.outcomes] == [("invalid", "too-short")]
    assert agent.messages[0].count("outcome:sg-1") == 1


async def test_a_card_whose_action_is_gone_ends_invalid():
    class Fewer(NotesDomain):
        def __init__(self) -> None:
            super().__init__(context=False)
            del self.actions["add-note"]

    replies = [dial(suggest("add-note", {"text": "m"})), dial(inform("I see."))]
    surface = Surface()
    conversation = Conversation(agent=ListAgent(replies), domain=NotesDomain(context=False),
                                human=surface)
    task = asyncio.ensure_future(conversation.say("add m"))
    await until(lambda: surface.futures)
    saved = conversation.snapshot()
    task.cancel()
    restored = Conversation.restore(saved, agent=ListAgent(replies), domain=Fewer(),
                                    human=Surface())
    result = await restored.resume()
    assert [(o["status"], o.get("code")) for o in result.outcomes] == [
        ("invalid", "unknown-action")]


async def test_a_say_waiting_for_the_reply_ends_no_reply_and_keeps_what_is_owed():
    gate = asyncio.Event()

    class Slow(ListAgent):
        async def send(self, message):  # type: ignore[override]
            self.messages.append(message)
            if self.used == 1:
                await gate.wait()
            reply = self.replies[self.used]
            self.used += 1
            return reply

    replies = [dial(suggest("add-note", {"text": "milk"})), dial(inform("Added."))]
    agent = Slow(replies)
    surface = Surface()
    conversation = Conversation(agent=agent, domain=NotesDomain(context=False), human=surface)
    task = asyncio.ensure_future(conversation.say("add milk"))
    await until(lambda: surface.futures)
    surface.futures[0].set_result(ACCEPT)
    await until(lambda: len(agent.messages) == 2)
    saved = conversation.snapshot()
    assert saved["say"]["phase"] == "sending"
    task.cancel()
    restored = Conversation.restore(saved, agent=ListAgent(replies), domain=NotesDomain(),
                                    human=Surface())
    result = await restored.resume()
    assert result is not None and result.status == "no-reply"
    assert [o["status"] for o in restored.owed_outcomes] == ["done"]
    assert restored.transcript[-1]["type"] == "no-reply"


async def test_say_before_resume_is_refused_and_resume_twice_is_nothing():
    replies = [dial(suggest("add-note", {"text": "milk"})), dial(inform("Added."))]
    surface = Surface()
    conversation = Conversation(agent=ListAgent(replies), domain=NotesDomain(context=False),
                                human=surface)
    task = asyncio.ensure_future(conversation.say("add milk"))
    await until(lambda: surface.futures)
    saved = conversation.snapshot()
    task.cancel()
    surface = Surface()
    restored = Conversation.restore(saved, agent=ListAgent(replies), domain=NotesDomain(),
                                    human=surface)
    assert restored.snapshot()["say"] == saved["say"]  # not yet taken up: saved as read
    with pytest.raises(ConversationBusyError, match="resume"):
        await restored.say("hello")
    await drive(restored, surface, restored.resume(), [DISMISS])
    assert await restored.resume() is None


async def test_the_file_round_trip_is_json_and_atomic(tmp_path):
    replies = [dial(suggest("add-note", {"text": "milk"})), dial(inform("Added."))]
    surface = Surface()
    conversation = Conversation(agent=ListAgent(replies), domain=NotesDomain(context=False),
                                human=surface)
    task = asyncio.ensure_future(conversation.say("add milk"))
    await until(lambda: surface.futures)
    path = save_snapshot(conversation.snapshot(surface={"title": "mine"}), tmp_path / "a.json")
    task.cancel()
    assert load_snapshot(path)["surface"] == {"title": "mine"}
    assert [p.name for p in tmp_path.iterdir()] == ["a.json"]  # no temporary left
    restored = Conversation.restore(path, agent=ListAgent(replies), domain=NotesDomain(),
                                    human=Surface())
    assert restored.needs_resume


# -- untrusted files ----------------------------------------------------------------------------

async def _pending_snapshot() -> dict[str, Any]:
    replies = [dial(inform("Hi"), suggest("add-note", {"text": "milk"})), dial(inform("ok"))]
    surface = Surface()
    conversation = Conversation(agent=ListAgent(replies), domain=NotesDomain(context=False),
                                human=surface)
    task = asyncio.ensure_future(conversation.say("add milk"))
    await until(lambda: surface.futures)
    saved = conversation.snapshot()
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    return saved


async def _tamper(change: Any) -> dict[str, Any]:
    saved = await _pending_snapshot()
    change(saved)
    return saved


@pytest.mark.parametrize(("change", "message"), [
    (lambda s: s.update(format="pickle"), "not a saved conversation"),
    (lambda s: s.update(version=99), "version 99"),
    (lambda s: s.update(transcript={}), "transcript must be a list"),
    (lambda s: s["transcript"].append({"text": "x"}), "has no 'type'"),
    (lambda s: s["transcript"].append({"type": "sent", "turn": 1}), "missing message"),
    (lambda s: s["owed"]["outcomes"].append({"id": "x", "action": "a", "status": "accepted",
                                             "preview": ""}), "not an outcome status"),
    (lambda s: s["say"].update(phase="running"), "say.phase"),
    (lambda s: s["say"]["reply"]["resolved"].append([0, 9, "shown", None, None]),
     "names item (0, 9)"),
    (lambda s: s["say"]["reply"]["resolved"].append([5, 0, "shown", None, None]),
     "names envelope 5"),
    (lambda s: s["say"]["reply"].update(current=[0, 0]), "had already resolved"),
    (lambda s: s["pending"].update(kind="accept"), "pending.kind"),
    (lambda s: s["pending"]["value"].update(edits_left=0), "edits_left"),
    (lambda s: s["ids"].update(suggestions=-1), "ids.suggestions"),
    (lambda s: s.update(extra=1), "unknown keys"),
    (lambda s: s["running"].append({"id": 3}), "running[0].id"),
])
async def test_a_tampered_snapshot_is_refused_naming_what_is_wrong(change, message):
    saved = await _tamper(change)
    with pytest.raises(SnapshotError, match=re.escape(message)):
        read_snapshot(saved)


async def test_a_truncated_or_missing_file_is_a_clear_error(tmp_path):
    path = save_snapshot(await _pending_snapshot(), tmp_path / "s.json")
    text = path.read_text()
    path.write_text(text[: len(text) // 2])  # (a save is whole or appended: never cut so)
    with pytest.raises(SnapshotError, match=r"s\.json: holds no finished save"):
        load_snapshot(path)
    path.write_text(text[: text.index("\n") // 2])
    with pytest.raises(SnapshotError, match=r"s\.json: not JSON"):
        load_snapshot(path)
    with pytest.raises(SnapshotError, match="no such file"):
        load_snapshot(tmp_path / "gone.json")
    (tmp_path / "bin.json").write_bytes(b"\x80\x04\x95pickle")
    with pytest.raises(SnapshotError, match=r"bin\.json"):
        load_snapshot(tmp_path / "bin.json")


async def test_a_status_written_into_the_file_runs_nothing():
    saved = await _tamper(lambda s: s["transcript"].append(
        {"type": "outcome", "id": "sg-1", "action": "add-note", "status": "done",
         "preview": "Add the note 'milk'"}))
    saved["pending"]["value"]["payload"] = {"text": "forged"}
    domain = NotesDomain(context=False)
    surface = Surface()
    restored = Conversation.restore(saved, agent=ListAgent([dial(inform("ok"))] * 3),
                                    domain=domain, human=surface)
    work = asyncio.ensure_future(restored.resume())
    await until(lambda: surface.futures)
    assert domain.ran == []  # still the person's to decide, on the card as the agent wrote it
    assert surface.shown[0].payload == {"text": "milk"}
    surface.futures[0].set_result(DISMISS)
    await work
    assert domain.ran == []


async def test_an_agent_state_that_does_not_fit_is_a_snapshot_error():
    saved = await _pending_snapshot()
    saved["agent"] = {"kind": "openai", "version": 1}
    with pytest.raises(SnapshotError, match="agent: not a list agent"):
        Conversation.restore(saved, agent=ListAgent([]), domain=NotesDomain(),
                             human=Surface())


async def test_a_block_cut_by_the_kernel_dying_ends_its_steps_and_the_reply_goes_on():
    started: list[str] = []

    async def hangs(step: Any) -> None:
        started.append(step.command)
        await asyncio.Event().wait()

    replies = [dial(block('<step env="shell" id="one" yield="one:done">sleep</step>'
                          '<step env="shell" id="two" observe="one:done">after</step>'),
                    suggest("add-note", {"text": "next"})),
               dial(inform("Noted."))]
    surface = Surface()
    conversation = Conversation(agent=ListAgent(replies), domain=NotesDomain(context=False),
                                human=surface, executors={"shell": hangs})
    task = asyncio.ensure_future(conversation.say("go"))
    await until(lambda: surface.futures)
    surface.futures[0].set_result(ACCEPT)
    await until(lambda: started)
    saved = json.loads(json.dumps(conversation.snapshot()))
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)

    started.clear()
    surface = Surface()
    agent = ListAgent(replies)
    restored = Conversation.restore(saved, agent=agent, domain=NotesDomain(context=False),
                                    human=surface, executors={"shell": hangs})
    work = asyncio.ensure_future(restored.resume())
    await until(lambda: surface.futures)
    assert surface.shown[0].action == "add-note"  # the reply goes on past the block
    surface.futures[0].set_result(DISMISS)
    result = await work
    assert started == []
    assert [(o["id"], o["status"], o.get("code")) for o in result.outcomes] == [
        ("one", "failed", "interrupted"), ("two", "skipped", None), ("sg-1", "dismissed", None)]
    assert "Interrupted before it started" in result.outcomes[1]["hint"]
    assert result.outcomes[0]["block"] == "ex-1" and result.outcomes[0]["command"] == "sleep"
    for sid in ("one", "two", "sg-1"):
        assert agent.messages[0].count(f'context-key="outcome:{sid}"') == 1


async def test_an_id_used_again_while_an_earlier_run_still_goes_keeps_both_runs_known():
    import threading

    release = threading.Event()

    class Blocking(NotesDomain):
        def run(self, action, payload):
            self.ran.append((action, payload))
            release.wait(5)  # blocking: on a worker thread, going on after a Stop

    again = dial(suggest("add-note", {"text": "milk"}, id="add"))
    replies = [again, again, dial(inform("ok"))]
    domain = Blocking(context=False)
    surface = Surface()
    conversation = Conversation(agent=ListAgent(replies), domain=domain, human=surface)
    try:
        for n in range(2):
            task = asyncio.ensure_future(conversation.say("add milk"))
            await until(lambda n=n: len(surface.futures) > n)
            surface.futures[n].set_result(ACCEPT)
            await until(lambda n=n: len(domain.ran) > n)
            if n == 0:  # Stop: the say ends, the run goes on in its thread
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
        saved = json.loads(json.dumps(conversation.snapshot()))
    finally:
        release.set()
    task.cancel()
    assert sorted((r["id"], r["reply"]) for r in saved["running"]) == [("add", 1), ("add", 2)]
    second = NotesDomain(context=False)
    restored = Conversation.restore(saved, agent=ListAgent(replies), domain=second,
                                    human=Surface())
    result = await restored.resume()
    assert second.ran == []
    assert [(o["id"], o["status"], o["code"]) for o in result.outcomes] == [
        ("add", "failed", "interrupted"), ("add", "failed", "interrupted")]
