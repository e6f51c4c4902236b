"""Properties: for any agent replies (well-formed or not) and any decisions, say never hangs, raises
only a send error, and every suggestion ends in exactly one outcome the agent is told once."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dial_notebook.dial import parse
from dial_notebook.runtime import Conversation
from tests.hypothesis_profiles import examples

from .runtime_doubles import NotesDomain, SendFailed, outcome_ids_in

SEND_ERROR = "<<send error>>"
HANG = "<<hang>>"
TIMEOUT = 0.005

words = st.text(alphabet="abc xyz'é-", max_size=8)
markup_text = st.text(alphabet="abc &<>'\"é\n", max_size=12)
payloads = st.one_of(
    st.fixed_dictionaries({"text": words}),
    st.fixed_dictionaries({"index": st.integers(-1, 3)}),
    st.just({}),
    st.lists(st.integers(), max_size=2),
    st.just("oops"),
)
actions = st.sampled_from(["add-note", "add-note", "remove-note", "list-notes", "open-poll",
                           "fly", ""])


VALID = {
    "add-note": st.fixed_dictionaries({"text": st.text(alphabet="abc", min_size=1, max_size=4)}),
    "remove-note": st.fixed_dictionaries({"index": st.integers(0, 2)}),
}


@st.composite
def suggests(draw):
    action = draw(actions)
    attrs = f' action="{action}"' if action or draw(st.booleans()) else ""
    if draw(st.booleans()):
        attrs += f' id="agent-{draw(st.integers(0, 10**6)):07d}"'
    valid = VALID.get(action, st.just({}))
    body = json.dumps(draw(st.one_of(valid, valid, payloads)), ensure_ascii=False)
    text = draw(words)
    mode = draw(st.sampled_from(["payload", "payload", "declare", "declare-payload", "none",
                                 "broken"]))
    if mode == "payload":
        return f"<dial-suggest{attrs}>{text}<dial-payload>{body}</dial-payload></dial-suggest>"
    if mode == "declare":
        return (f'<dial-suggest{attrs}>{text}</dial-suggest><dial-declare context-key="p">'
                f"{body}</dial-declare>")
    if mode == "declare-payload":
        return (f'<dial-suggest{attrs}>{text}</dial-suggest><dial-declare context-key="p">'
                f"<dial-payload>{body}</dial-payload></dial-declare>")
    if mode == "broken":
        return f"<dial-suggest{attrs}><dial-payload>{{{body}</dial-payload></dial-suggest>"
    return f"<dial-suggest{attrs}>{text}</dial-suggest>"


@st.composite
def asks(draw):
    options = "".join(f'<dial-option value="{v}">{v}</dial-option>'
                      for v in draw(st.lists(st.sampled_from("xyz"), max_size=2)))
    ident = f' id="q{draw(st.integers(0, 9))}"' if draw(st.booleans()) else ""
    return f"<dial-ask{ident}>{draw(markup_text)}{options}</dial-ask>"


elements = st.one_of(
    suggests(),
    suggests(),
    suggests(),
    suggests(),
    asks(),
    markup_text.map(lambda t: f"<dial-inform>{t}</dial-inform>"),
    markup_text.map(lambda t: f"<dial-acknowledge>{t}</dial-acknowledge>"),
    st.just('<dial-phatic signal="typing"/>'),
    st.just('<dial-declare context-key="k">{"a": 1}</dial-declare>'),
    st.just("<dial-execute><step>ls</step></dial-execute>"),
    markup_text,
)


@st.composite
def envelopes(draw):
    reply = "<dial>" + "".join(draw(st.lists(elements, min_size=1, max_size=6))) + "</dial>"
    if draw(st.booleans()):
        reply = draw(markup_text) + reply + draw(markup_text)
    if draw(st.integers(0, 4)) == 0:
        reply += "<dial>" + "".join(draw(st.lists(elements, max_size=2))) + "</dial>"
    if draw(st.integers(0, 3)) == 0:
        reply = reply[: draw(st.integers(0, len(reply)))]
    return reply


replies = st.one_of(
    envelopes(), envelopes(), envelopes(),
    st.text(max_size=30),
    st.just(SEND_ERROR), st.just(HANG),
)
decisions = st.one_of(
    st.sampled_from(["accept", "dismiss"]).map(lambda d: {d: True}),
    payloads.map(lambda p: {"edit": p}),
    words.map(lambda w: {"say": w}),
)
answers = st.one_of(words, st.just(""), st.none())

scenarios = st.fixed_dictionaries({
    "replies": st.lists(replies, min_size=1, max_size=6),
    "decisions": st.lists(decisions, max_size=8),
    "answers": st.lists(answers, max_size=4),
    "says": st.lists(words, min_size=1, max_size=3),
    "max_turns": st.integers(1, 4),
    "async_ports": st.booleans(),
})


class Interrupter:
    """Cancels the running say at its ``at``-th call into a port (0: never), as an interrupt."""

    def __init__(self, at: int = 0):
        self.at = at
        self.calls = 0

    async def point(self):
        self.calls += 1
        if self.calls == self.at:
            asyncio.current_task().cancel()
        await asyncio.sleep(0)


class Agent:
    """Replies from the scenario, then plain text."""

    def __init__(self, replies, interrupter):
        self.replies = list(replies)
        self.interrupter = interrupter

    async def send(self, message):
        await self.interrupter.point()
        reply = self.replies.pop(0) if self.replies else "ok"
        if reply == SEND_ERROR:
            raise SendFailed("the transport failed")
        if reply == HANG:
            await asyncio.sleep(10)
        return reply


class Human:
    def __init__(self, decisions, answers, interrupter):
        self.decisions = list(decisions)
        self.answers = list(answers)
        self.interrupter = interrupter

    async def decide(self, suggestion):
        await self.interrupter.point()
        return self.decisions.pop(0) if self.decisions else {"accept": True}

    async def answer(self, ask):
        await self.interrupter.point()
        return self.answers.pop(0) if self.answers else ""


class Domain(NotesDomain):
    def __init__(self, interrupter):
        super().__init__()
        self.interrupter = interrupter

    async def run(self, action, payload):
        await self.interrupter.point()
        return super().run(action, payload)


def make(scenario, cancel_at=0):
    interrupter = Interrupter(cancel_at)
    agent = Agent(scenario["replies"], interrupter)
    human = Human(scenario["decisions"], scenario["answers"], interrupter)
    if not scenario["async_ports"]:
        human.decide = lambda s: human.decisions.pop(0) if human.decisions else {"accept": True}
        human.answer = lambda a: human.answers.pop(0) if human.answers else ""
    domain = Domain(interrupter) if scenario["async_ports"] else NotesDomain()
    # The reference runtime's promises: execute / delegate / declare / phatic are ignored, so
    # every outcome belongs to a <dial-suggest>. Full DIAL has its own properties
    # (test_runtime_observe_yield.py, test_runtime_execute.py).
    conversation = Conversation(agent=agent, domain=domain, human=human, full_dial=False,
                                timeout=TIMEOUT, max_turns=scenario["max_turns"])
    return conversation, agent


def suggestions_in(reply: str) -> int:
    envelope = parse(reply)
    if envelope is None:
        return 0
    return sum(1 for env in envelope.all() for el in env.elements if el.kind == "suggest")


def check_every_suggestion_ended_once_and_the_agent_was_told_once(conversation):
    transcript = conversation.transcript
    json.dumps(transcript)
    proposed = sum(suggestions_in(e["text"]) for e in transcript if e["type"] == "reply")
    outcomes = [e for e in transcript if e["type"] == "outcome"]
    assert len(outcomes) == proposed
    delivered, last_sent = [], None
    for event in transcript:
        if event["type"] == "sent":
            last_sent = event["message"]
        elif event["type"] == "reply":
            delivered.append(last_sent)
    told = Counter(sid for message in delivered for sid in outcome_ids_in(message))
    assert told == Counter(o["id"] for o in outcomes)
    assert conversation.owed_outcomes == []
    assert conversation.owed_words == []


async def flush(conversation, agent):
    """The agent answers in plain text from now on: whatever is owed is told.

    On a loaded machine even a prompt reply can miss the tiny timeout; saying again is what a
    person would do, and nothing owed may be lost on the way.
    """
    agent.replies = []
    agent.interrupter.at = 0
    for _ in range(20):
        if (await conversation.say("")).status == "idle":
            return
    raise AssertionError("the agent never got a reply in")


PROPERTY = settings(max_examples=examples(150), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(scenarios)
def test_say_ends_raises_only_send_errors_and_every_suggestion_is_settled_and_told(scenario):
    async def run():
        conversation, agent = make(scenario)
        for text in scenario["says"]:
            try:
                result = await asyncio.wait_for(conversation.say(text), 10)
            except SendFailed:
                continue
            assert result.status in ("idle", "no-reply", "turn-limit")
            assert 1 <= result.turns <= scenario["max_turns"]
        await flush(conversation, agent)
        check_every_suggestion_ended_once_and_the_agent_was_told_once(conversation)

    asyncio.run(run())


@PROPERTY
@given(scenarios.map(lambda s: {**s, "async_ports": True}), st.integers(1, 12))
def test_cancelling_say_at_any_point_loses_no_outcome(scenario, cancel_at):
    async def run():
        conversation, agent = make(scenario, cancel_at)
        for text in scenario["says"]:
            task = asyncio.ensure_future(conversation.say(text))
            with contextlib.suppress(asyncio.CancelledError, SendFailed):
                await asyncio.wait_for(asyncio.shield(task), 10)
            assert task.done()
            assert not conversation.busy and conversation.pending is None
        await flush(conversation, agent)
        check_every_suggestion_ended_once_and_the_agent_was_told_once(conversation)

    asyncio.run(run())
