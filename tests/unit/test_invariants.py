"""An invariant test over everything: a Hypothesis state machine drives a Conversation (and a
ChatWidget through its front-end messages) with random agent replies of every element kind and
random moves of the person, interleaved with cancel, snapshot-at-any-event and restore into
fresh objects, concurrent undo, and rules made and revoked. After every step it checks the
product's promises:

    1. nothing ran that the person did not decide: every run matches an accept / edit the
       person gave for that card (a live grant in the ledger), a rule the person made that is
       still there, or a read-only / hand-off action; Undo ran at most once per run
    2. every suggestion has at most one outcome (an 'undone' after 'done' is the one allowed
       second one), exactly one once the conversation is settled; the agent was told every
       outcome exactly once: told + still owed == every outcome in the transcript
    3. no step held the event loop past the watchdog's limit (tests/stall_watchdog.py), and
       every say ends within a bound
    (4. nothing leaves the machine: the doubles have no network at all)

Each machine's example runs on one event loop (asyncio.Runner); every step is run to
quiescence within STEP_LIMIT under the stall watchdog. The doubles and the ledger are in
invariant_doubles.py. Minimal reproductions of what the machines found are plain tests at the
end of this module.

A failure prints the steps (Python to paste into a test) and a blob for
``@reproduce_failure``. Hunt longer with ``INVARIANT_EXAMPLES=500``; in CI (``CI`` set) the
examples are fixed and a failure is reported unshrunk.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import os
import re
import tempfile
import threading
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    rule,
)

from dial_notebook import Conversation, Rules
from dial_notebook.dial import parse
from dial_notebook.runtime import EVENT_TYPES, policy_human
from dial_notebook.widget import ChatWidget
from tests.hypothesis_profiles import examples

from ..stall_watchdog import watch_loop
from .invariant_doubles import (
    HANG,
    SEND_ERROR,
    Interrupter,
    Ledger,
    LedgerAgent,
    LedgerDomain,
    LedgerExecutor,
    LedgerHuman,
    edit_of,
)
from .runtime_doubles import NotesDomain, ScriptedAgent, SendFailed, click, dial, suggest, until

#: Seconds a say (or resume, undo, flush) may take before the machine calls it a hang.
STEP_LIMIT = 20.0
#: Seconds to wait for a reply: only a HANG reply ever waits this long.
REPLY_TIMEOUT = 0.05

# ---- the agent's replies -------------------------------------------------------------------

SUGGEST_IDS = st.sampled_from([None, None, None, "s1", "s2", "sg-1", "sg-2"])
SUGGEST_SPACE = re.compile(r"s\d|sg-\d+")
ASSIGNED = re.compile(r"(sg|ex|dg|ask)-\d+")
words = st.text(alphabet="abc xyz'é-", min_size=1, max_size=8)
long_text = st.integers(1000, 6000).map(lambda n: "long " * (n // 5))
texts = st.one_of(words, words, words, long_text, st.just("a &amp; b &lt;c&gt;"))
payloads = {
    "add-note": st.one_of(
        *[st.fixed_dictionaries({"text": st.sampled_from(["milk", "eggs", "x"])})] * 4,
        st.just({"text": ""}), st.just({})),
    "remove-note": st.one_of(st.fixed_dictionaries({"index": st.integers(0, 2)}),
                             st.just({"index": "one"})),
    "list-notes": st.just({}),
    "open-poll": st.just({"question": "lunch?"}),
    "fly": st.just({"to": "moon"}),
}


def _attr(name: str, value: str | None) -> str:
    return f' {name}="{value}"' if value else ""


@st.composite
def suggests(draw: Any) -> str:
    action = draw(st.sampled_from(["add-note", "add-note", "add-note", "remove-note",
                                   "list-notes", "open-poll", "fly"]))
    attrs = f' action="{action}"' + _attr("id", draw(SUGGEST_IDS))
    body = json.dumps(draw(payloads[action]))
    text = draw(words)
    how = draw(st.sampled_from(["payload", "payload", "declare", "declare-payload", "none"]))
    if how == "payload":
        return (f'<dial-suggest{attrs}>{text}<dial-payload type="application/json">{body}'
                f"</dial-payload></dial-suggest>")
    if how == "declare":
        return (f"<dial-suggest{attrs}>{text}</dial-suggest>"
                f'<dial-declare context-key="p">{body}</dial-declare>')
    if how == "declare-payload":
        return (f"<dial-suggest{attrs}>{text}</dial-suggest><dial-declare context-key=\"p\">"
                f'<dial-payload type="application/json">{body}</dial-payload></dial-declare>')
    return f"<dial-suggest{attrs}>{text}</dial-suggest>"


@st.composite
def asks(draw: Any) -> str:
    options = "".join(f'<dial-option value="{v}">{v}</dial-option>'
                      for v in draw(st.lists(st.sampled_from("xyz"), max_size=2, unique=True)))
    rtype = ' response-type="choice"' if options else ""
    return f"<dial-ask{_attr('id', draw(st.sampled_from([None, 'q1'])))}{rtype}>" \
           f"{draw(texts)}{options}</dial-ask>"


@st.composite
def executes(draw: Any) -> str:
    steps = "".join(
        f'<step id="st-{n}" env="{draw(st.sampled_from(["rec", "rec", "shell"]))}">'
        f"{draw(st.sampled_from(['ls', 'pwd', 'echo hi']))}</step>"
        for n in range(1, draw(st.integers(1, 2)) + 1))
    return f'<dial-execute id="{draw(st.sampled_from(["ex-a", "ex-b"]))}">{steps}</dial-execute>'


delegates = st.sampled_from([
    '<dial-delegate id="dg-a" to="helper" intent="refund">Over to the helper.</dial-delegate>',
    '<dial-delegate to="helper" intent="refund" resume="true">Back soon.</dial-delegate>',
    '<dial-delegate to="nobody" intent="refund">Anyone?</dial-delegate>',
])
#: an execute gated by a confirm question: a 'yes' offers the card, it never approves it
CONFIRM_GATED = ('<dial-ask id="sure" response-type="confirm" yield="sure:yes">Run it?</dial-ask>'
                 '<dial-execute id="ex-c" observe="sure:yes"><step id="st-9" env="rec">rm x'
                 "</step></dial-execute>")
elements = st.one_of(
    suggests(), suggests(), suggests(), suggests(),
    asks(), st.just(CONFIRM_GATED),
    texts.map(lambda t: f"<dial-inform>{t}</dial-inform>"),
    texts.map(lambda t: f"<dial-acknowledge>{t}</dial-acknowledge>"),
    executes(),
    delegates,
    st.just('<dial-declare context-key="k"><dial-payload>{"a": 1}</dial-payload></dial-declare>'),
    st.just('<dial-phatic signal="heartbeat" interval="30"/>'),
)


@st.composite
def envelopes(draw: Any) -> str:
    if draw(st.integers(0, 9)) == 0:  # many elements
        return "<dial>" + "".join(draw(st.lists(suggests(), min_size=10, max_size=25))) \
            + "</dial>"
    reply = "<dial>" + "".join(draw(st.lists(elements, min_size=1, max_size=5))) + "</dial>"
    if draw(st.integers(0, 4)) == 0:
        reply = draw(words) + reply + draw(words)
    return reply


replies = st.one_of(envelopes(), envelopes(), envelopes(), envelopes(), envelopes(),
                    words, st.just(SEND_ERROR), st.just(HANG))
moves = st.lists(st.sampled_from(["accept", "accept", "edit", "refused-edit", "dismiss",
                                  "reason", "say"]), max_size=6)
answers = st.lists(st.sampled_from(["text", "empty", "none"]), max_size=3)
cancel_points = st.one_of(st.just(0), st.just(0), st.integers(1, 20))
#: where a snapshot is taken: at the n-th point (event or call into a port) of the say, or
#: the n-th time the person is deciding or answering (a card or question waiting)
snapshot_points = st.one_of(st.none(), st.tuples(st.just("point"), st.integers(1, 30)),
                            st.tuples(st.just("person"), st.integers(1, 3)))
RULE_SCHEMAS = [
    {"type": "object", "required": ["text"]},
    {"type": "object", "properties": {"text": {"maxLength": 4}}},
    {"type": "object", "properties": {"text": {"const": "edited"}}},
]


# ---- what is checked ----------------------------------------------------------------------

def proposals(transcript: list[dict[str, Any]]) -> tuple[Counter[str], Counter[str]]:
    """(suggest id → how many <dial-suggest> named it, or were given it; any other id →
    how many elements or steps carry it) over every reply the conversation handled."""
    suggested: Counter[str] = Counter()
    carried: Counter[str] = Counter()
    unnamed = 0
    for entry in transcript:
        if entry["type"] != "reply":
            continue
        envelope = parse(entry["text"])
        for env in envelope.all() if envelope is not None else []:
            for element in env.elements:
                ident = getattr(element, "id", None)
                if element.kind == "suggest":
                    if ident:
                        suggested[ident] += 1
                    else:
                        unnamed += 1
                elif ident:
                    carried[ident] += 1
                for step in getattr(element, "steps", ()) or ():
                    if step.id:
                        carried[step.id] += 1
    for n in range(1, unnamed + 1):
        suggested[f"sg-{n}"] += 1
    return suggested, carried


def check_outcomes(conversation: Conversation, *, settled: bool) -> None:
    """Promise 2 on the conversation's own record: at most one outcome per proposal (exactly
    one once settled), 'undone' only after 'done'."""
    transcript = conversation.transcript
    suggested, carried = proposals(transcript)
    ended: Counter[str] = Counter()
    done: Counter[str] = Counter()
    for entry in transcript:
        if entry["type"] != "outcome":
            continue
        ident, status = entry["id"], entry["status"]
        if status == "undone":
            assert done[ident] > 0, f"{ident} undone without being done: {entry}"
            done[ident] -= 1
            continue
        ended[ident] += 1
        if status == "done":
            done[ident] += 1
        if SUGGEST_SPACE.fullmatch(ident):
            assert ended[ident] <= suggested[ident], (
                f"suggestion {ident} has {ended[ident]} outcomes for "
                f"{suggested[ident]} proposals")
        else:
            allowed = carried[ident] + (1 if ASSIGNED.fullmatch(ident) else 0)
            assert ended[ident] <= max(allowed, 1), (
                f"{ident} has {ended[ident]} outcomes for {allowed} elements")
    if settled:
        for ident, count in suggested.items():
            assert ended[ident] == count, (
                f"settled, yet suggestion {ident} has {ended[ident]} outcomes for {count} "
                f"proposals")


def check_told(conversation: Conversation, ledger: Ledger) -> None:
    """Promise 2 on the agent's side: every outcome told once, or still owed — never both,
    never twice, never lost."""
    reached = Counter((e["id"], e["status"]) for e in conversation.transcript
                      if e["type"] == "outcome")
    owed = Counter((o["id"], o["status"]) for o in conversation.owed_outcomes)
    told = ledger.told()
    assert told + owed == reached, (
        f"told twice or never: told {dict(told - (reached - owed))}, lost "
        f"{dict(reached - owed - told)}, owed but told {dict(told & owed)}")


def check_ran(ledger: Ledger) -> None:
    """Promise 1: nothing ran without a decision record; Undo at most once per run."""
    assert ledger.violations == [], ledger.violations
    twice = {run: n for run, n in ledger.undone.items() if n > 1 or not 0 < run <= ledger.runs}
    assert twice == {}, f"undo ran more than once (run → times): {twice}"


# ---- the machine --------------------------------------------------------------------------

def machine_settings() -> settings:
    """CI: fixed examples (derandomized), a failure reported at once, unshrunk, with the blob
    to replay it (``@reproduce_failure``); locally: random examples, a failure shrunk.
    ``INVARIANT_EXAMPLES=500`` hunts longer (the fast tier runs its share of 60:
    tests/hypothesis_profiles.py)."""
    ci = bool(os.environ.get("CI"))
    phases = [Phase.explicit, Phase.reuse, Phase.generate, *([] if ci else [Phase.shrink])]
    count = os.environ.get("INVARIANT_EXAMPLES")
    return settings(max_examples=int(count) if count else examples(60),
                    stateful_step_count=20, deadline=None, print_blob=True,
                    derandomize=ci, phases=phases,
                    suppress_health_check=[HealthCheck.too_slow,
                                           HealthCheck.filter_too_much])


class ConversationMachine(RuleBasedStateMachine):
    """A Conversation under every kind of step; the ledger checked after each."""

    def __init__(self) -> None:
        super().__init__()
        self.runner = asyncio.Runner()
        self.ledger = Ledger()
        self.interrupter = Interrupter()
        self.script: list[str] = []
        self.snapshots: list[tuple[dict[str, Any], int]] = []
        self.generation = 0
        self.points = 0  # events and calls into ports so far
        self.person_points = 0  # of them, the person deciding or answering
        self.snapshot_where = ""
        self.cancel_at: int | None = None
        self.snapshot_at: int | None = None
        self.task: asyncio.Task[Any] | None = None
        self.interrupter.hook = self._point
        self.options: dict[str, Any] = {}
        self.conversation: Conversation | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.loop_thread = 0

    def teardown(self) -> None:
        self.runner.close()

    # -- plumbing --

    def run(self, work: Any) -> Any:
        async def watched() -> Any:
            async with watch_loop():
                return await asyncio.wait_for(work, STEP_LIMIT)
        return self.runner.run(watched())

    def _on_event(self, generation: int) -> Any:
        def on_event(event: dict[str, Any]) -> None:
            if generation != self.generation:
                return  # the conversation a restore left behind
            self.ledger.saw(event)
            self._point("event")
        return on_event

    def _point(self, kind: str) -> None:
        """An event or a call into a port: the say may be cancelled here, or snapshot."""
        self.points += 1
        self.person_points += kind == "person"
        loop, task = self.loop, self.task
        if self.points == self.cancel_at and task is not None and loop is not None:
            loop.call_soon_threadsafe(task.cancel)
        at = self.person_points if self.snapshot_where == "person" else self.points
        if at == self.snapshot_at and threading.get_ident() == self.loop_thread:
            assert self.conversation is not None
            data = json.loads(json.dumps(self.conversation.snapshot()))
            self.snapshots.append((data, len(self.ledger.delivered)))

    def _build(self, restore_from: dict[str, Any] | None = None) -> None:
        opts = self.options
        self.generation += 1
        self.human = LedgerHuman(self.ledger, self.interrupter, is_async=opts["async_ports"])
        self.domain = LedgerDomain(self.ledger, self.interrupter,
                                   is_async=opts["async_ports"], context=opts["context"])
        self.rules = Rules(self.rules.to_list() if restore_from else (), domain=self.domain)
        self.ledger.rules = self.rules
        agent = LedgerAgent(self.script, self.ledger, self.interrupter)
        extra: dict[str, Any] = {"full_dial": opts["full_dial"], "timeout": REPLY_TIMEOUT,
                                 "max_turns": opts["max_turns"], "rules": self.rules}
        if opts["full_dial"]:
            extra["executors"] = {"rec": LedgerExecutor(self.ledger, self.interrupter)}
            extra["actors"] = {"helper": lambda delegation: {"taken": delegation.id}}
        # 'running' is a signal, not an event of the runtime document: the ledger hears it
        # on the hook every surface that saves uses (in both modes)
        listen = self._on_event(self.generation)
        ports = {"agent": agent, "domain": self.domain, "human": self.human,
                 "on_event": listen, "on_signal": listen}
        if restore_from is None:
            self.conversation = Conversation(**ports, **extra)
        else:
            self.conversation = Conversation.restore(restore_from, **ports, **extra)

    async def _quiet(self) -> None:
        """Until no run started by the say is still going (a blocking one ends on a thread)."""
        assert self.conversation is not None
        loop = asyncio.get_running_loop()
        end = loop.time() + STEP_LIMIT
        conversation = self.conversation

        def settled() -> bool:
            return conversation.needs_resume or not conversation.snapshot_view()["running"]
        while True:
            if settled():
                for _ in range(3):
                    await asyncio.sleep(0)
                if settled():
                    return
            assert loop.time() < end, "a run never ended"
            await asyncio.sleep(0.001)

    async def _say(self, text: str, cancel_at: int,
                   snapshot_at: tuple[str, int] | None) -> None:
        conversation = self.conversation
        assert conversation is not None
        work = conversation.resume() if conversation.needs_resume else conversation.say(text)
        task = asyncio.ensure_future(work)
        self.task, self.loop = task, asyncio.get_running_loop()
        self.loop_thread = threading.get_ident()
        self.cancel_at = self.points + cancel_at if cancel_at else None
        self.snapshot_where, at = snapshot_at or ("", 0)
        counted = self.person_points if self.snapshot_where == "person" else self.points
        self.snapshot_at = counted + at if at else None
        try:
            with contextlib.suppress(asyncio.CancelledError, SendFailed):
                await asyncio.shield(task)
        finally:
            self.cancel_at = self.snapshot_at = None
        assert task.done()
        event("say: " + ("cancelled" if task.cancelled() else "raised" if task.exception()
                         else task.result().status))
        await self._quiet()
        assert not conversation.busy and conversation.pending is None

    # -- rules of the machine --

    @initialize(full_dial=st.booleans(), async_ports=st.booleans(), context=st.booleans(),
                max_turns=st.integers(1, 4))
    def start(self, full_dial: bool, async_ports: bool, context: bool, max_turns: int) -> None:
        self.options = {"full_dial": full_dial, "async_ports": async_ports, "context": context,
                        "max_turns": max_turns}
        self.rules = Rules()
        self._build()

    @rule(what=st.sampled_from(["say", "say", "say", "say", "restore", "restore", "undo",
                                "flush", "make-rule", "revoke-rule"]),
          text=words, script=st.lists(replies, min_size=1, max_size=3), moves=moves,
          answers=answers, cancel_at=cancel_points, snapshot_at=snapshot_points,
          pick=st.integers(0, 10**6), schema=st.sampled_from(RULE_SCHEMAS))
    def act(self, what: str, text: str, script: list[str], moves: list[str],
            answers: list[str], cancel_at: int, snapshot_at: tuple[str, int] | None,
            pick: int, schema: dict[str, Any]) -> None:
        """One step (one rule, so that each kind of step is as likely as the others): the
        person says ``text`` (the agent replies with ``script``, the person plays ``moves``
        and ``answers``; the say is cancelled at point ``cancel_at`` and snapshot at
        ``snapshot_at``), or a restore from snapshot ``pick``, an undo clicked twice at once,
        the agent told everything owed, a rule made or revoked."""
        self.human.moves, self.human.answers = list(moves), list(answers)
        if what == "restore" and self.snapshots:
            self.restore(pick)
        elif what == "undo":
            self.undo_twice_at_once(pick)
        elif what == "flush":
            self.flush("thanks" if pick % 2 else "")
        elif what == "make-rule":
            self.rules.add("add-note", schema)
        elif what == "revoke-rule" and len(self.rules):
            ids = [r.id for r in self.rules]
            self.rules.remove(ids[pick % len(ids)])
        else:
            self.script[:] = script
            self.run(self._say(text, cancel_at, snapshot_at))

    def restore(self, pick: int) -> None:
        """Carry on from a snapshot taken at some point, in fresh objects (a new kernel)."""
        index = pick % len(self.snapshots)
        data, delivered = self.snapshots[index]
        del self.snapshots[index + 1:]
        self.ledger.forget_after(delivered)
        self.script[:] = []
        moves, answers = self.human.moves, self.human.answers
        self._build(copy.deepcopy(data))
        self.human.moves, self.human.answers = moves, answers
        assert self.conversation is not None
        event(f"restore: needs_resume={self.conversation.needs_resume}, "
              f"pending={data.get('pending') is not None}, running={bool(data.get('running'))}")
        if self.conversation.needs_resume:
            self.run(self._say("", 0, None))

    def undo_twice_at_once(self, pick: int) -> None:
        """Undo of a done change clicked twice at once (two tasks)."""
        conversation = self.conversation
        assert conversation is not None
        if conversation.needs_resume:
            return
        offered = sorted(sid for sid, ok in conversation.undoable().items() if ok is True)
        sid = offered[pick % len(offered)] if offered else "sg-1"

        async def twice() -> list[Any]:
            return await asyncio.gather(conversation.undo(sid), conversation.undo(sid),
                                        return_exceptions=True)
        event(f"undo offered: {bool(offered)}")
        for result in self.run(twice()):
            if isinstance(result, BaseException) and not isinstance(result, KeyError):
                raise result

    def flush(self, words: str) -> None:
        """The agent answers in plain text from now on: everything owed gets told (with the
        person's ``words``, or just what is owed)."""
        self.script[:] = []

        async def until_told() -> None:
            conversation = self.conversation
            assert conversation is not None
            for n in range(10):
                await self._say(words if n == 0 else "", 0, None)
                if not conversation.owed_outcomes and not conversation.needs_resume:
                    return
            raise AssertionError("what is owed was never told")
        self.run(until_told())
        assert self.conversation is not None
        assert self.conversation.owed_outcomes == []

    # -- after every step --

    @invariant()
    def promises_hold(self) -> None:
        conversation = self.conversation
        if conversation is None:
            return
        check_ran(self.ledger)
        settled = not conversation.busy and not conversation.needs_resume
        check_outcomes(conversation, settled=settled)
        check_told(conversation, self.ledger)


ConversationMachine.TestCase.settings = machine_settings()
TestConversationInvariants = ConversationMachine.TestCase
#: shrinking a failure (locally) takes minutes; passing takes seconds
TestConversationInvariants.pytestmark = [pytest.mark.timeout(900)]



# ---- the widget machine: the same promises through the front end's messages --------------

class WidgetMachine(RuleBasedStateMachine):
    """A ChatWidget (with the real Conversation) driven only by what its front end sends:
    decide, answer, undo, allow, revoke, stop (also at a random point of a say), words typed
    while a card or question waits or while the agent answers, stale and repeated clicks,
    and a kernel restart (the session saved, a new widget with fresh ports carries on).
    The person's clicks are the only decisions: a click on the card waiting now grants that
    card in the ledger."""

    def __init__(self) -> None:
        super().__init__()
        self.runner = asyncio.Runner()
        self.ledger = Ledger()
        self.interrupter = Interrupter()
        self.script: list[str] = []
        self.tokens: list[str] = []  # every token the widget has shown
        self.chat: Any = None
        self.points = 0  # calls into ports so far (and events)
        self.stop_at: int | None = None
        self.interrupter.hook = self._point
        self.generation = 0
        self.files = tempfile.TemporaryDirectory(prefix="dial-invariants-")

    def _point(self, _kind: str = "port") -> None:
        """A call into a port: the person may click Stop here (on the loop, as a message)."""
        self.points += 1
        if self.points == self.stop_at and self.chat is not None:
            self.chat._loop.call_soon_threadsafe(lambda: click(self.chat, type="stop"))
            event("widget: Stop at a point")

    def _seen_by(self, generation: int) -> Any:
        def seen(event: dict[str, Any]) -> None:
            """An event of the conversation, as the widget receives it."""
            if generation == self.generation:  # not the widget a reload left behind
                self.ledger.saw(event)
                self._point("event")
        return seen

    def teardown(self) -> None:
        self.runner.close()
        self.files.cleanup()

    def run(self, work: Any) -> Any:
        async def watched() -> Any:
            async with watch_loop():
                return await asyncio.wait_for(work, STEP_LIMIT)
        return self.runner.run(watched())

    @property
    def conversation(self) -> Conversation:
        return self.chat._conversation  # the runtime under the widget (test-only access)

    async def _quiet(self, chat: Any = None) -> None:
        """Until the widget waits for the person, or nothing runs any more."""
        chat = chat or self.chat
        loop = asyncio.get_running_loop()
        end = loop.time() + STEP_LIMIT

        def settled() -> bool:
            live = [task for task in chat._tasks if not task.done()]
            runs = chat._conversation.snapshot_view()["running"]
            return not runs and (not live or bool(chat.pending))
        while True:
            if settled():
                for _ in range(3):
                    await asyncio.sleep(0)
                if settled():
                    break
            assert loop.time() < end, "the widget never settled"
            await asyncio.sleep(0.001)
        token = chat.pending.get("token")
        if token and token not in self.tokens:
            self.tokens.append(token)

    def _step(self, act: Any = None) -> None:
        async def step() -> None:
            if act is not None:
                act()
            await self._quiet()
        self.run(step())

    @initialize(full_dial=st.booleans(), async_ports=st.booleans(), max_turns=st.integers(1, 3))
    def start(self, full_dial: bool, async_ports: bool, max_turns: int) -> None:
        self.options: dict[str, Any] = {"full_dial": full_dial, "timeout": REPLY_TIMEOUT,
                                        "max_turns": max_turns}
        self.async_ports = async_ports
        self._build()

    def _build(self, saved: Path | None = None) -> None:
        """A new widget (with fresh ports), or one that carries on from a saved session."""
        self.generation += 1
        self.domain = LedgerDomain(self.ledger, self.interrupter, is_async=self.async_ports,
                                   context=False)
        self.rules = Rules(domain=self.domain)
        self.ledger.rules = self.rules
        options = dict(self.options, rules=self.rules, seen=self._seen_by(self.generation))
        if options["full_dial"]:
            options["executors"] = {"rec": LedgerExecutor(self.ledger, self.interrupter)}
            options["actors"] = {"helper": lambda delegation: {"taken": delegation.id}}
        agent = LedgerAgent(self.script, self.ledger, self.interrupter)

        async def build() -> Any:
            if saved is None:
                return _WatchedChat(agent=agent, domain=self.domain, **options)
            chat = _WatchedChat.restore(saved, agent=agent, domain=self.domain, **options)
            await self._quiet(chat)  # it takes up the say that was going
            return chat
        self.chat = self.run(build())
        self.sent: list[Any] = []
        self.chat.send = self.sent.append

    def reload(self) -> None:
        """The kernel restarts: the session is saved as it stands, everything in memory is
        gone, and a new widget with fresh ports carries on from the file."""
        path = Path(self.files.name) / f"session-{self.generation}.json"
        self.chat.save(path)
        old = self.chat
        self.generation += 1  # the old widget's events are no longer the machine's

        async def gone() -> None:
            for task in list(old._tasks):
                task.cancel()
            await asyncio.gather(*old._tasks, return_exceptions=True)
        self.run(gone())
        self.tokens = []  # the old page's clicks cannot reach the new widget (a new comm)
        self._build(path)
        event(f"widget: reloaded, waiting for {self.chat.pending.get('kind')}")

    # -- the person, through the front end --

    @rule(move=st.sampled_from(["accept", "accept", "edit", "refused-edit", "dismiss",
                                "reason", "type", "type", "type-twice", "stale", "allow",
                                "revoke", "undo", "stop", "flush", "reload"]),
          times=st.integers(1, 2), text=words, script=st.lists(replies, min_size=1, max_size=3),
          answer=st.sampled_from(["yes", "", "x", "no"]), pick=st.integers(0, 10**6),
          schema=st.sampled_from(RULE_SCHEMAS),
          stop_at=st.one_of(st.just(0), st.just(0), st.integers(1, 8)))
    def person(self, move: str, times: int, text: str, script: list[str], answer: str,
               pick: int, schema: dict[str, Any], stop_at: int) -> None:
        """What the person does next, through the front end (one rule, so that each move is
        as likely as the others). ``stop_at``: Stop is clicked at that point (an event or a
        call into a port) of what follows."""
        self.stop_at = self.points + stop_at if stop_at else None
        clicks = {"stale": lambda: self.click_stale(pick, "edit" if times > 1 else "accept",
                                                    answer),
                  "allow": lambda: self.click_allow(schema),
                  "revoke": lambda: self.click_revoke(pick),
                  "undo": lambda: self.click_undo_twice(pick),
                  "stop": self.click_stop, "flush": self.flush, "reload": self.reload}
        if move in clicks:
            clicks[move]()
            return
        self.decide_answer_or_type(move, times, text, script, answer)

    def decide_answer_or_type(self, move: str, times: int, text: str, script: list[str],
                              answer: str) -> None:
        """Decide the card that waits (a double click sends the same decision twice), answer
        the question that waits, or type in the message box — a new say, or, while a card or
        question waits, a say instead / an answer."""
        pending = dict(self.chat.pending)
        if pending.get("kind") == "decide" and move != "type":
            self._decide(pending, move, times)
        elif pending.get("kind") == "answer" and move != "type":
            self._step(lambda: click(self.chat, type="answer", token=pending["token"],
                                     value=answer))
        else:
            self.script[:] = script
            if pending.get("kind") == "decide":
                self.ledger.retire({"id": pending.get("id"), "action": pending.get("action")})

            def say() -> None:
                self.chat.say(text)
                if move == "type-twice":  # more words while the agent is still answering
                    self.chat.say(text + " again")
            self._step(say)
            event(f"widget: after a say, waiting for {self.chat.pending.get('kind')}")

    def _decide(self, pending: dict[str, Any], decision: str, times: int) -> None:
        card = _Card(str(pending.get("id")), str(pending.get("action")), pending.get("payload"))
        content: dict[str, Any] = {"type": "decide", "token": pending["token"]}
        if decision == "accept":
            content["decision"] = "accept"
            self.ledger.grant(card, card.payload)
        elif decision in ("edit", "refused-edit"):
            edited = edit_of(card.action, card.payload, valid=decision == "edit")
            content.update(decision="edit", payload=edited)
            self.ledger.grant(card, edited)
        else:
            content["decision"] = "dismiss"
            if decision == "reason":
                content["reason"] = "not now"
        event(f"widget: decide {decision} on {card.action}")

        def clicks() -> None:
            for _ in range(times):  # a double click: the second is a repeated one
                click(self.chat, **content)
        self._step(clicks)

    def click_stale(self, pick: int, decision: str, answer: str) -> None:
        """A click on a card or question that no longer waits (another view, a late click):
        nothing may come of it. No grant is given: anything it ran would be a violation."""
        current = self.chat.pending.get("token")
        stale = [t for t in self.tokens if t != current] or ["d999"]
        token = stale[pick % len(stale)]
        kind = ("decide", "answer", "allow")[pick % 3]
        content: dict[str, Any] = {"type": kind, "token": token, "decision": decision,
                                   "payload": {"text": "stale"}, "value": answer or "stale",
                                   "schema": {"type": "object"}}
        self._step(lambda: click(self.chat, **content))

    def click_allow(self, schema: dict[str, Any]) -> None:
        """"Always allow like this…" on the card: the rule is made, and accepts the card when
        it fits (the ledger allows what a rule the person made accepts)."""
        token = self.chat.pending.get("token")
        if self.chat.pending.get("kind") != "decide":
            return
        self._step(lambda: click(self.chat, type="allow", token=token, schema=schema,
                                 scope="conversation"))

    def click_revoke(self, pick: int) -> None:
        ids = [r.id for r in self.rules] or ["r1"]
        self._step(lambda: click(self.chat, type="revoke", id=ids[pick % len(ids)]))

    def click_undo_twice(self, pick: int) -> None:
        offered = sorted(sid for sid, ok in self.chat.undoable.items() if ok is True)
        sid = offered[pick % len(offered)] if offered else "sg-1"
        event(f"widget: undo offered {bool(offered)}")

        def twice() -> None:
            click(self.chat, type="undo", id=sid)
            click(self.chat, type="undo", id=sid)
        self._step(twice)

    def click_stop(self) -> None:
        pending = self.chat.pending
        if pending.get("kind") == "decide":
            self.ledger.retire({"id": pending.get("id"), "action": pending.get("action")})
        self._step(lambda: click(self.chat, type="stop"))

    def flush(self) -> None:
        """Dismiss and answer what waits, then the agent answers in plain text until every
        outcome has been told."""
        self.script[:] = []
        for _ in range(30):
            pending = self.chat.pending
            if pending.get("kind") == "decide":
                self._step(lambda p=pending: click(self.chat, type="decide", token=p["token"],
                                                   decision="dismiss"))
            elif pending.get("kind") == "answer":
                self._step(lambda p=pending: click(self.chat, type="answer", token=p["token"],
                                                   value="yes"))
            elif self.conversation.owed_outcomes or self.conversation.needs_resume:
                self._step(lambda: self.chat.say(""))
            else:
                return
        raise AssertionError("what is owed was never told")

    # -- after every step --

    @invariant()
    def promises_hold(self) -> None:
        if self.chat is None:
            return
        conversation = self.conversation
        check_ran(self.ledger)
        waiting = bool(self.chat.pending) or self.chat.running
        check_outcomes(conversation, settled=not waiting and not conversation.busy)
        check_told(conversation, self.ledger)
        shown = [e for e in self.chat.transcript if e["type"] in EVENT_TYPES]
        assert shown == json.loads(json.dumps(conversation.transcript)), (
            "the widget's transcript differs from the conversation's")


class _WatchedChat(ChatWidget):
    """A ChatWidget whose every runtime event is seen by the machine first."""

    def __init__(self, *, seen: Any, **options: Any) -> None:
        self._seen = seen
        super().__init__(**options)

    def _on_event(self, event: dict[str, Any]) -> None:
        self._seen(event)
        super()._on_event(event)


class _Card:
    """The card a click decides, as the ledger reads it."""

    def __init__(self, id: str, action: str, payload: Any) -> None:
        self.id, self.action, self.payload = id, action, payload


WidgetMachine.TestCase.settings = machine_settings()
TestWidgetInvariants = WidgetMachine.TestCase
TestWidgetInvariants.pytestmark = [pytest.mark.timeout(900)]

# ---- minimal reproductions of what the machine found ----------------------------------------

def _snapshots_at(kind: str, conversation_box: list[Conversation]) -> tuple[Any, list[Any]]:
    """An on_event that snapshots (JSON round trip) at every event of ``kind``."""
    taken: list[Any] = []

    def on_event(event: dict[str, Any]) -> None:
        if event["type"] == kind:
            taken.append(json.loads(json.dumps(conversation_box[0].snapshot())))
    return on_event, taken


async def test_a_snapshot_taken_while_a_cancel_settles_the_reply_restores_each_outcome_once():
    """Found by the machine (finding 2): the say is cancelled while an accepted run goes; as
    the cancel settles the rest of the reply (an unknown action: invalid), a snapshot taken in
    on_event at that outcome has it among the reply's outcomes but not among the items
    handled, so the restored conversation handles the suggestion again (a second outcome,
    under a new id) — and runs the delegation the cancelled say never reached. (It also lost
    the run going: sg-1 had no outcome after the restore.)"""
    say: list[asyncio.Task[Any]] = []

    class CancelledWhileRunning(NotesDomain):
        async def run(self, action: str, payload: Any) -> Any:
            say[0].cancel()  # the stop button, while the run goes
            await asyncio.sleep(0)
            return super().run(action, payload)

    box: list[Conversation] = []
    on_event, taken = _snapshots_at("outcome", box)
    reply = dial(suggest("add-note", {"text": "milk"}), suggest("fly", {}),
                 '<dial-delegate to="helper" intent="refund">Over.</dial-delegate>')
    box.append(Conversation(agent=ScriptedAgent([reply]), domain=CancelledWhileRunning(),
                            human=LedgerHuman(Ledger(), Interrupter(), is_async=False),
                            on_event=on_event, actors={"helper": lambda d: "taken"}))
    say.append(asyncio.ensure_future(box[0].say("x")))
    with contextlib.suppress(asyncio.CancelledError):
        await say[0]
    await until(lambda: len([e for e in box[0].transcript if e["type"] == "outcome"]) == 2)
    first = [(e["id"], e["status"]) for e in box[0].transcript if e["type"] == "outcome"]
    assert sorted(first) == [("sg-1", "done"), ("sg-2", "invalid")]
    restored = Conversation.restore(taken[0], agent=ScriptedAgent(["ok"] * 4),
                                    domain=NotesDomain(), human=LedgerHuman(
                                        Ledger(), Interrupter(), is_async=False),
                                    actors={"helper": lambda d: "taken"})
    await restored.resume()
    outcomes = [e["id"] for e in restored.transcript if e["type"] == "outcome"]
    assert sorted(outcomes) == ["sg-1", "sg-2"]  # sg-1: interrupted (never run again)


async def test_a_run_still_going_after_stop_stays_recorded_when_a_later_card_reuses_its_id():
    """Found by the machine (ids reused): Stop while a hand-off runs supersedes the rest of
    the reply; a later suggestion with the same id settling removes the hand-off's entry
    from the runs going (they are keyed by reply and id), so the say ends 'settled' while
    the run still goes, and a snapshot then would never settle it."""
    release = threading.Event()

    class SlowPoll(NotesDomain):
        def run(self, action: str, payload: Any) -> Any:
            if action == "open-poll":
                release.wait(5)
            return super().run(action, payload)

    reply = dial(suggest("open-poll", {}, id="x", via="payload"),
                 suggest("add-note", {"text": "milk"}, id="x", via="payload"))
    conversation = Conversation(agent=ScriptedAgent([reply]), domain=SlowPoll(),
                                human=policy_human("accept"))
    task = asyncio.ensure_future(conversation.say("go"))
    try:
        await until(lambda: conversation.snapshot()["running"])
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        assert [(e["id"], e["action"]) for e in conversation.snapshot()["running"]] == [
            ("x", "open-poll")]
    finally:
        release.set()
    await until(lambda: any(e.get("status") == "handed-off" for e in conversation.transcript))
