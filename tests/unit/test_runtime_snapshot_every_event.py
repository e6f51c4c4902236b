"""A snapshot taken at ANY event is a consistent state: restored into fresh objects and carried
on, it gives what the unbroken run gives — the same agent messages, the same transcript, one
outcome per proposal and the same domain effects.

For every script below: run it unbroken and record everything; then, for every event index k
(the events the ``on_event`` callback gets, the transient 'running' ones included), run it
again, take ``snapshot()`` inside the callback at event k (as an autosave-on-event does),
JSON round-trip it, stop that conversation (cancel its task), restore into fresh objects — an
agent that restores its own state, a domain holding a copy of the notes as they were, a human
continuing its decision script from where it was — carry on, and compare. The one exception is
a cut while a run goes (at its 'running' event, or between the steps of a block): a run that
had begun ends ``failed`` (code ``interrupted``), a step that had not ends ``skipped``, and
neither is run again — nothing in a snapshot makes anything run.

A Stop is cut the same way: a snapshot at any event of the stop tells the agent what the
stopped conversation tells it.
"""

from __future__ import annotations

import asyncio
import copy
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from dial_notebook.runtime import Conversation
from dial_notebook.runtime._snapshot import SnapshotError

from .runtime_doubles import NotesDomain, ask, dial, inform, suggest

ACCEPT = {"accept": True}
DISMISS = {"dismiss": True}


class ListAgent:
    """Replies from a list, in order; its own state (how many it used) is in the snapshot."""

    def __init__(self, replies: list[str]) -> None:
        self.replies = replies
        self.used = 0
        self.messages: list[str] = []

    def send(self, message: str) -> str:
        self.messages.append(message)
        reply = self.replies[min(self.used, len(self.replies) - 1)]
        self.used += 1
        return reply

    def snapshot(self) -> dict[str, Any]:
        return {"kind": "list", "used": self.used}

    def restore(self, data: dict[str, Any]) -> None:
        self.used = data["used"]


class LateAgent(ListAgent):
    """A ListAgent that does not answer its first message in time (the say ends no-reply)."""

    late = False

    async def send(self, message: str) -> str:  # type: ignore[override]
        if not self.late:
            self.late = True
            self.messages.append(message)
            await asyncio.Event().wait()  # past the conversation's timeout
        return super().send(message)

    def snapshot(self) -> dict[str, Any]:
        return {**super().snapshot(), "late": self.late}

    def restore(self, data: dict[str, Any]) -> None:
        super().restore(data)
        self.late = data["late"]


class UndoNotes(NotesDomain):
    """Notes whose added ones can be undone — but for 'sticky', whose undo fails."""

    def undo(self, action: str, payload: Any, result: Any) -> None:
        if payload["text"] == "sticky":
            raise RuntimeError("the note is stuck")
        self.notes.remove(payload["text"])
        self.ran.append(("undo", payload))


class ScriptHuman:
    """Decisions and answers from one list, in order (a plain, synchronous human)."""

    def __init__(self, script: list[Any]) -> None:
        self.script = list(script)
        self.used = 0

    def _next(self, otherwise: Any) -> Any:
        self.used += 1  # asked more often than scripted: counted, and the check says so
        return self.script[self.used - 1] if self.used <= len(self.script) else otherwise

    def decide(self, suggestion: Any) -> Any:
        return self._next(DISMISS)

    def answer(self, question: Any) -> Any:
        return self._next("")


class Echo:
    """An executor for every env: records and returns the command."""

    def __init__(self, ran: list[str]) -> None:
        self.ran = ran

    def __call__(self, step: Any) -> dict[str, str]:
        self.ran.append(step.command)
        return {"ran": step.command}


@dataclass
class World:
    """One run's objects, and what they did."""

    agent: ListAgent
    human: ScriptHuman
    domain: UndoNotes
    ran: list[str] = field(default_factory=list)        # execute steps run
    handed: list[str] = field(default_factory=list)     # delegations taken over

    def options(self, extra: dict[str, Any]) -> dict[str, Any]:
        def actor(delegation: Any) -> dict[str, str]:
            self.handed.append(delegation.id)
            return {"took": delegation.id}

        echo = Echo(self.ran)
        return {"executors": {"shell": echo, "python": echo}, "actors": {"billing": actor},
                **extra}


@dataclass
class Script:
    replies: list[str]
    human: list[Any]
    #: ('say', text) or ('undo', suggestion id), in order
    steps: list[tuple[str, str]]
    options: dict[str, Any] = field(default_factory=dict)
    agent: type[ListAgent] = ListAgent
    #: Cut only at the events of this step and later ones (see the undo script).
    cut_from_step: int = 0


CONFIRM = ('<dial-ask id="go" response-type="confirm" yield="go:confirmed go:cancelled">'
           "Go?</dial-ask>")


def block(*steps: str, attrs: str = "") -> str:
    return f"<dial-execute{attrs}>{''.join(steps)}</dial-execute>"


SCRIPTS: dict[str, Script] = {
    "accepted, edited, a refused edit, dismissed": Script(
        [dial(inform("Four ideas."), suggest("add-note", {"text": "a"}),
              suggest("add-note", {"text": "b"}), suggest("add-note", {"text": "c"}),
              suggest("add-note", {"text": "d"})),
         dial(inform("Done."))],
        [ACCEPT, {"edit": {"text": "b2"}}, {"edit": {"text": ""}}, {"edit": {"text": "c2"}},
         DISMISS],
        [("say", "add four")]),
    "said over, with a question after": Script(
        ["Here are two. " + dial(suggest("add-note", {"text": "a"}),
                                 suggest("add-note", {"text": "b"}),
                                 ask("Which colour?", options=("red", "blue"))),
         dial(inform("Understood."))],
        [{"say": "not those"}],
        [("say", "go")]),
    "read-only, hand-off, a failing run, an invalid one": Script(
        [dial(suggest("list-notes"), suggest("open-poll", {"q": "lunch?"}),
              suggest("remove-note", {"index": 7}), suggest("add-note", {}),
              suggest("no-such-action", {})),
         dial(inform("Sorry."))],
        [ACCEPT],
        [("say", "look")]),
    "asks answered and unanswered, two says": Script(
        [dial(ask("Which zone?", id="zone")),
         dial(ask("Anything else?"), suggest("add-note", {"text": "z"})),
         dial(inform("Hello again."))],
        ["Strengths", "", ACCEPT],
        [("say", "go"), ("say", "hello")]),
    "an observe/yield chain, an element skipped": Script(
        [dial(CONFIRM, '<dial-inform observe="go:confirmed" yield="told">Going.</dial-inform>',
              suggest("add-note", {"text": "after"}).replace(
                  "<dial-suggest", '<dial-suggest observe="told"', 1),
              '<dial-acknowledge observe="go:cancelled">Staying.</dial-acknowledge>',
              suggest("add-note", {"text": "never"}).replace(
                  "<dial-suggest", '<dial-suggest observe="nothing-fires"', 1)),
         dial(inform("Ran them."))],
        ["yes", ACCEPT],
        [("say", "go")]),
    "an execute block, confirmed first": Script(
        [dial(CONFIRM,
              block('<step env="shell" id="one" yield="one:done">ls</step>',
                    '<step env="python" id="two" observe="one:done">print(1)</step>',
                    attrs=' observe="go:confirmed"'),
              suggest("add-note", {"text": "next"})),
         dial(inform("Noted."))],
        ["yes", ACCEPT, ACCEPT],
        [("say", "go")]),
    "declare, phatic, delegations": Script(
        [dial('<dial-phatic signal="heartbeat" interval="30"/>',
              '<dial-declare id="d" context-key="topic">{"slug": "nike"}</dial-declare>',
              '<dial-delegate id="h1" to="billing" intent="refund" resume="true">'
              "Over to billing.</dial-delegate>",
              '<dial-delegate id="h2" to="nobody" intent="x">And nobody.</dial-delegate>',
              '<dial-inform addressed-to="billing">Not for you.</dial-inform>'),
         dial(inform("Back."))],
        [],
        [("say", "go")]),
    "a turn limit": Script(
        [dial(suggest("list-notes"))],
        [],
        [("say", "go")], {"max_turns": 2}),
    "a block dismissed, a block and a card skipped": Script(
        [dial(block('<step env="shell">ls</step>'), inform("Or not."),
              block('<step env="shell">rm</step>', attrs=' observe="never"'),
              '<dial-inform observe="never">Unseen.</dial-inform>',
              suggest("add-note", {"text": "x"}).replace(
                  "<dial-suggest", '<dial-suggest observe="never"', 1)),
         dial(inform("Fine."))],
        [DISMISS],
        [("say", "go"), ("say", "and now?")]),
    "no reply in time, then a say": Script(
        [dial(suggest("add-note", {"text": "late"})), dial(inform("Added."))],
        [ACCEPT],
        [("say", "add late"), ("say", "still there?")], {"timeout": 0.05}, LateAgent),
    # A restored conversation cannot undo what ran before the snapshot (done runs are not
    # saved): these cut from the Undo on.
    "undone": Script(
        [dial(suggest("add-note", {"text": "a"})), dial(inform("Added.")),
         dial(inform("Noted."))],
        [ACCEPT],
        [("say", "add a"), ("undo", "sg-1"), ("say", "what now?")], cut_from_step=1),
    "an undo that failed": Script(
        [dial(suggest("add-note", {"text": "sticky"})), dial(inform("Added.")),
         dial(inform("Noted."))],
        [ACCEPT],
        [("say", "add sticky"), ("undo", "sg-1"), ("say", "what now?")], cut_from_step=1),
}


@dataclass
class Cut:
    """What was saved at event k, and the world as it stood then."""

    snapshot: dict[str, Any]
    event: dict[str, Any]
    step: int
    human_used: int
    agent_messages: list[str]
    notes: list[str]
    domain_ran: list[Any]
    ran: list[str]
    handed: list[str]
    #: Runs that had begun by event k (their 'running' events, k's included).
    runs_begun: int


def fresh(script: Script) -> World:
    return World(script.agent(script.replies), ScriptHuman(script.human), UndoNotes())


async def perform(conversation: Conversation, step: tuple[str, str]) -> None:
    kind, value = step
    if kind == "say":
        await conversation.say(value)
    else:
        await conversation.undo(value)


async def unbroken(script: Script) -> tuple[Conversation, World, range]:
    """The script run whole; and the event indices to cut at."""
    world = fresh(script)
    events = first = 0

    def count(event: dict[str, Any]) -> None:
        nonlocal events
        events += 1

    conversation = Conversation(agent=world.agent, domain=world.domain, human=world.human,
                                on_event=count, **world.options(script.options))
    for n, step in enumerate(script.steps):
        if n == script.cut_from_step:
            first = events
        await perform(conversation, step)
    return conversation, world, range(first, events)


async def cut_at(script: Script, k: int) -> Cut:
    world = fresh(script)
    seen = begun = 0
    cut: Cut | None = None
    now = [0]  # the step going
    conversation: Conversation

    def on_event(event: dict[str, Any]) -> None:
        nonlocal seen, begun, cut
        seen += 1
        begun += event["type"] == "running"
        if seen - 1 != k:
            return
        saved = json.loads(json.dumps(conversation.snapshot()))
        cut = Cut(saved, dict(event), now[0], world.human.used, list(world.agent.messages),
                  list(world.domain.notes), copy.deepcopy(world.domain.ran), list(world.ran),
                  list(world.handed), begun)
        asyncio.current_task().cancel()  # the kernel dies here  # type: ignore[union-attr]

    conversation = Conversation(agent=world.agent, domain=world.domain, human=world.human,
                                on_event=on_event, **world.options(script.options))
    for now[0], step in enumerate(script.steps):
        task = asyncio.ensure_future(perform(conversation, step))
        await asyncio.gather(task, return_exceptions=True)
        if cut is not None:
            break
    assert cut is not None, f"event {k} never came"
    return cut


async def carry_on(script: Script, cut: Cut) -> tuple[Conversation, World]:
    world = World(script.agent(script.replies), ScriptHuman(script.human[cut.human_used:]),
                  UndoNotes())
    world.domain.notes = list(cut.notes)
    restored = Conversation.restore(cut.snapshot, agent=world.agent, domain=world.domain,
                                    human=world.human, **world.options(script.options))
    if restored.needs_resume:
        await restored.resume()
    for step in script.steps[cut.step + 1:]:
        await perform(restored, step)
    return restored, world


def one_each(by_id: dict[str, list[str]]) -> bool:
    """One outcome per proposal (and 'undone', later, for a done one the person took back)."""
    return all(statuses in (["done", "undone"],) or len(statuses) == 1
               for statuses in by_id.values())


def outcomes_by_id(conversation: Conversation) -> dict[str, list[str]]:
    by_id: dict[str, list[str]] = {}
    for event in conversation.transcript:
        if event["type"] == "outcome":
            by_id.setdefault(event["id"], []).append(event["status"])
    return by_id


async def check_every_event(name: str, script: Script | None = None) -> list[str]:
    """Every event index of the script, cut and carried on; the differences found, in words."""
    script = script or SCRIPTS[name]
    whole, done, cuts = await unbroken(script)
    expected = outcomes_by_id(whole)
    assert one_each(expected), expected
    problems: list[str] = []
    for k in cuts:
        cut = await cut_at(script, k)
        where = f"{name!r} cut at event {k} ({cut.event['type']} {cut.event.get('id', '')})"
        try:
            restored, world = await carry_on(script, cut)
        except Exception as exc:
            problems.append(f"{where}: carrying on raised {exc!r}")
            continue
        got = outcomes_by_id(restored)
        twice = {sid: s for sid, s in got.items() if not one_each({sid: s})}
        if twice:
            problems.append(f"{where}: more than one outcome: {twice}")
            continue
        if cut.snapshot["running"]:  # the kernel died while runs went: never run again
            for entry in cut.snapshot["running"]:
                ending = ("failed", "interrupted") if entry["begun"] else ("skipped", None)
                ended = [(e["status"], e.get("code")) for e in restored.transcript
                         if e["type"] == "outcome" and e["id"] == entry["id"]]
                if ended != [ending]:
                    problems.append(f"{where}: the cut run {entry['id']} ended {ended}")
            unbegun = sum(1 for entry in cut.snapshot["running"] if not entry["begun"])
            after = len(world.domain.ran) + len(world.ran) + len(world.handed)
            whole_runs = len(done.domain.ran) + len(done.ran) + len(done.handed)
            if after != whole_runs - cut.runs_begun - unbegun:
                problems.append(f"{where}: {after} runs after the restore, expected "
                                f"{whole_runs - cut.runs_begun - unbegun}")
            continue
        compared = [
            ("outcomes", got, expected),
            ("agent messages", cut.agent_messages + world.agent.messages, done.agent.messages),
            ("domain runs", cut.domain_ran + world.domain.ran, done.domain.ran),
            ("notes", world.domain.notes, done.domain.notes),
            ("steps run", cut.ran + world.ran, done.ran),
            ("delegations", cut.handed + world.handed, done.handed),
            ("decisions", cut.human_used + world.human.used, done.human.used),
            ("context", restored.context, whole.context),
            ("owed", (restored.owed_outcomes, restored.owed_words),
             (whole.owed_outcomes, whole.owed_words)),
            ("transcript", restored.transcript, whole.transcript),
        ]
        for what, carried_on, unbroken_run in compared:
            if carried_on != unbroken_run:
                problems.append(f"{where}: {what} differ: {carried_on!r:.300} != "
                                f"{unbroken_run!r:.300}")
                break
    return problems


@pytest.mark.parametrize("name", list(SCRIPTS))
async def test_a_snapshot_at_any_event_carries_on_as_the_unbroken_run(name):
    problems = await check_every_event(name)
    assert problems == [], "\n".join(problems)


async def test_a_reply_too_long_to_read_carries_on_from_any_event(monkeypatch):
    from dial_notebook.runtime import _reply, _saving

    for module in (_reply, _saving):  # where replies are read, and where snapshots keep them
        monkeypatch.setattr(module, "MAX_REPLY_CHARS", 300)
    script = Script([dial(inform("x" * 400)), dial(inform("Shorter."))], [],
                    [("say", "go"), ("say", "again")])
    whole, _, _ = await unbroken(script)
    assert [e.get("truncated") for e in whole.transcript if e["type"] == "reply"] == [True, None]
    assert await check_every_event("a reply too long to read", script) == []


async def _cut_where(name: str, wanted: Callable[[dict[str, Any]], bool]) -> Cut:
    """The first cut of script ``name`` whose snapshot ``wanted`` accepts."""
    _, _, cuts = await unbroken(SCRIPTS[name])
    for k in cuts:
        cut = await cut_at(SCRIPTS[name], k)
        if wanted(cut.snapshot):
            return cut
    raise AssertionError("no such cut")


async def test_a_message_announced_but_not_sent_goes_as_announced_or_the_file_is_refused():
    name = "asks answered and unanswered, two says"
    cut = await _cut_where(name, lambda s: (s["say"] or {}).get("message") is not None)
    assert cut.event["type"] == "sent"
    _, world = await carry_on(SCRIPTS[name], cut)
    assert world.agent.messages[0] == cut.event["message"]  # what the transcript says was sent
    cut.snapshot["say"]["message"] = "something the person never saw"
    with pytest.raises(SnapshotError, match=r"say\.message"):
        Conversation.restore(cut.snapshot, agent=ListAgent([]), domain=UndoNotes(),
                             human=ScriptHuman([]))


async def test_events_recorded_and_not_yet_told_are_saved_as_told():
    cut = await _cut_where("a block dismissed, a block and a card skipped",
                           lambda s: s["transcript"][-1]["type"] == "outcome"
                           and s["transcript"][-2].get("act") == "skipped")
    assert cut.event["act"] == "skipped"  # taken at the report; its outcome is saved after it
    cut.snapshot["transcript"][-1]["status"] = "accepted"  # and read as strictly
    with pytest.raises(SnapshotError, match=r"transcript\[\d+\]\.status"):
        Conversation.restore(cut.snapshot, agent=ListAgent([]), domain=UndoNotes(),
                             human=ScriptHuman([]))


class StopsAtFirstCard(ScriptHuman):
    """Answers from its script; at the first card, the stop button (the say is cancelled)."""

    async def decide(self, suggestion: Any) -> Any:  # type: ignore[override]
        asyncio.current_task().cancel()  # type: ignore[union-attr]
        await asyncio.sleep(0)


async def test_a_snapshot_at_any_event_of_a_stop_carries_on_as_the_stopped_conversation():
    """Stop while the person decides: the card and the rest of the reply end superseded, the
    answer given before is owed. A snapshot at any of those events, restored, tells the agent
    exactly what the stopped conversation tells it with the next say."""
    replies = [dial(ask("Which zone?"), suggest("add-note", {"text": "a"}),
                    suggest("add-note", {"text": "b"}), suggest("add-note", {"text": "c"})),
               dial(inform("Understood."))]

    async def stopped(k: int | None) -> tuple[Conversation, list[dict[str, Any]]]:
        snapshots: list[dict[str, Any]] = []
        box: list[Conversation] = []

        def on_event(event: dict[str, Any]) -> None:
            if len(box[0].transcript) - 1 == k:
                snapshots.append(json.loads(json.dumps(box[0].snapshot())))

        box.append(Conversation(agent=ListAgent(replies), domain=UndoNotes(),
                                human=StopsAtFirstCard(["north"]), on_event=on_event))
        await asyncio.gather(asyncio.ensure_future(box[0].say("go")), return_exceptions=True)
        return box[0], snapshots

    whole, _ = await stopped(None)
    events = len(whole.transcript)
    first_outcome = next(n for n, e in enumerate(whole.transcript) if e["type"] == "outcome")
    assert [e["type"] for e in whole.transcript[first_outcome:]] == ["outcome"] * 3
    await whole.say("again")
    (told,) = [e["message"] for e in whole.transcript[events:] if e["type"] == "sent"]
    assert told.count('context-key="outcome:sg-') == 3 and "north" in told
    for k in range(first_outcome, events):  # at each outcome the stop settles
        _, (snapshot,) = await stopped(k)
        assert snapshot["say"] is None  # stopped: nothing to take up
        agent = ListAgent(replies)
        agent.used = 1
        restored = Conversation.restore(snapshot, agent=agent, domain=UndoNotes(),
                                        human=ScriptHuman([]))
        await restored.say("again")
        outcomes = [e["id"] for e in restored.transcript if e["type"] == "outcome"]
        assert sorted(outcomes) == ["sg-1", "sg-2", "sg-3"], (k, outcomes)
        assert agent.messages == [told], k
