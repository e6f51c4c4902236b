"""The ports: agent, domain and human are checked at once and may be sync or async."""

from __future__ import annotations

import asyncio
import json
import threading

import pytest

from dial_notebook.runtime import (
    TRANSIENT_TYPES,
    Conversation,
    ConversationBusyError,
    PendingAsk,
    Suggestion,
    policy_human,
    scripted_human,
)

from .runtime_doubles import NotesDomain, ScriptedAgent, ask, dial, inform, outcomes_in, suggest


class Human:
    def decide(self, suggestion):
        return {"accept": True}


class Domain:
    def __init__(self):
        self.actions = {}

    def run(self, action, payload):
        return None


@pytest.mark.parametrize(("ports", "missing"), [
    ({"agent": object()}, r"agent needs a send\(message\) method, or must be a callable"),
    ({"human": object()}, r"human needs a decide\(suggestion\) method"),
    ({"domain": object()}, r"domain needs a run\(action, payload\) method"),
    ({"human": type("H", (), {"decide": "not callable"})()}, r"human needs a decide"),
])
def test_a_port_without_its_method_is_refused_at_once_naming_what_is_missing(ports, missing):
    kwargs = {"agent": lambda m: "", "domain": Domain(), "human": Human(), **ports}
    with pytest.raises(TypeError, match=missing):
        Conversation(**kwargs)


@pytest.mark.parametrize(("option", "value"), [
    ("timeout", 0), ("timeout", -1), ("timeout", "90"), ("timeout", True),
    ("max_turns", 0), ("max_turns", 2.5), ("max_turns", True),
])
def test_a_timeout_or_turn_limit_that_makes_no_sense_is_refused(option, value):
    with pytest.raises(ValueError, match=option):
        Conversation(agent=lambda m: "", domain=Domain(), human=Human(), **{option: value})


def test_on_event_must_be_a_plain_callable():
    async def on_event(event):
        pass

    with pytest.raises(TypeError, match="plain function"):
        Conversation(agent=lambda m: "", domain=Domain(), human=Human(), on_event=on_event)
    with pytest.raises(TypeError, match="on_event must be a callable"):
        Conversation(agent=lambda m: "", domain=Domain(), human=Human(), on_event="print")


async def test_say_takes_a_str():
    conversation = Conversation(agent=lambda m: "", domain=Domain(), human=Human())
    with pytest.raises(TypeError, match="say\\(\\) takes the person's words as a str"):
        await conversation.say(None)


async def test_the_agent_may_be_a_plain_callable_or_an_object_with_a_sync_send():
    class Sync:
        def __init__(self):
            self.sent = []

        def send(self, message):
            self.sent.append(message)
            return dial(inform("hi"))

    sync = Sync()
    for agent in (lambda message: dial(inform("hi")), sync):
        result = await Conversation(agent=agent, domain=Domain(), human=Human()).say("x")
        assert result.status == "idle"
    assert sync.sent == ["x"]


async def test_an_async_callable_agent_is_awaited():
    async def agent(message):
        return dial(inform("hi"))

    result = await Conversation(agent=agent, domain=Domain(), human=Human()).say("x")
    assert result.status == "idle"


async def test_a_blocking_sync_agent_runs_off_the_loop_so_the_timeout_holds():
    inside, release, returned = threading.Event(), threading.Event(), threading.Event()
    ticks_while_blocked = []

    def agent(message):
        inside.set()
        release.wait(5)
        returned.set()
        return "late"

    async def tick():
        while not inside.is_set():
            await asyncio.sleep(0.001)
        for _ in range(3):
            ticks_while_blocked.append(not returned.is_set())
            await asyncio.sleep(0.001)

    conversation = Conversation(agent=agent, domain=Domain(), human=Human(), timeout=0.2)
    result, _ = await asyncio.gather(conversation.say("x"), tick())
    late = returned.is_set()  # the agent returns only when released (or after 5 s)
    release.set()
    assert result.status == "no-reply"
    assert ticks_while_blocked == [True, True, True]
    assert not late  # the say ended at its timeout, not when the agent returned


async def test_a_sync_agents_error_propagates_from_its_thread():
    def agent(message):
        raise ConnectionError("refused")

    with pytest.raises(ConnectionError, match="refused"):
        await Conversation(agent=agent, domain=Domain(), human=Human()).say("x")


async def test_an_agent_reply_that_is_not_text_is_a_clear_error_and_none_is_an_empty_reply():
    with pytest.raises(TypeError, match=r"agent.send\(\) must return the reply text"):
        await Conversation(agent=lambda m: {"text": "hi"}, domain=Domain(), human=Human()).say("x")
    events = []
    result = await Conversation(agent=lambda m: None, domain=Domain(), human=Human(),
                                on_event=events.append).say("x")
    assert result.status == "idle"
    assert events[-1] == {"type": "reply", "turn": 1, "text": ""}


async def test_async_domain_and_human_methods_are_awaited():
    class AsyncDomain(NotesDomain):
        async def validate(self, action, payload):
            return super().validate(action, payload)

        async def preview(self, action, payload):
            return "async " + super().preview(action, payload)

        async def run(self, action, payload):
            await asyncio.sleep(0)
            return super().run(action, payload)

        async def context(self):
            return super().context()

    class AsyncHuman:
        def __init__(self):
            self.seen = []

        async def decide(self, suggestion):
            self.seen.append(suggestion)
            return {"accept": True}

        async def answer(self, ask):
            return "yes"

    human = AsyncHuman()
    agent = ScriptedAgent([dial(ask("Sure?"), suggest("add-note", {"text": "a"})),
                           dial(inform("ok"))])
    domain = AsyncDomain()
    await Conversation(agent=agent, domain=domain, human=human).say("x")
    assert human.seen[0].preview == "async Add the note 'a'"
    assert domain.notes == ["a"]
    assert agent.received[1].endswith('<context notes="1"/>\n\nyes')


async def test_a_validate_that_raises_refuses_the_payload_saying_why():
    class Strict(NotesDomain):
        def validate(self, action, payload):
            return {"ok": bool(payload["text"])}

    agent = ScriptedAgent([dial(suggest("add-note", [1, 2])), dial(inform("ok"))])
    human = policy_human()
    await Conversation(agent=agent, domain=Strict(context=False), human=human).say("x")
    assert human.seen == []
    assert outcomes_in(agent.received[1]) == [{
        "action": "add-note", "status": "invalid", "code": "validation-error",
        "hint": "The domain could not check this payload: TypeError: list indices must be "
                "integers or slices, not str"}]


async def test_a_validate_verdict_may_be_an_object_with_attributes():
    class Verdict:
        ok = False
        code = "too-long"
        field = "text"
        hint = "keep it short"

    class Domain2(NotesDomain):
        def validate(self, action, payload):
            return Verdict()

    agent = ScriptedAgent([dial(suggest("add-note", {"text": "a"})), dial(inform("ok"))])
    await Conversation(agent=agent, domain=Domain2(context=False), human=Human()).say("x")
    assert outcomes_in(agent.received[1])[0]["code"] == "too-long"


async def test_a_validate_verdict_of_the_wrong_shape_is_a_clear_error():
    class Domain2(NotesDomain):
        def validate(self, action, payload):
            return None

    agent = ScriptedAgent([dial(suggest("add-note", {"text": "a"}))])
    conversation = Conversation(agent=agent, domain=Domain2(), human=Human())
    with pytest.raises(TypeError, match=r"domain.validate\(\) must return"):
        await conversation.say("x")
    assert [o["status"] for o in conversation.owed_outcomes] == ["superseded"]


async def test_a_domain_with_only_run_and_actions_works_with_the_specs_defaults():
    class Bare:
        def __init__(self):
            self.actions = {"add-note": {"mutates": True}}

        def run(self, action, payload):
            return "ok"

    agent = ScriptedAgent([dial(suggest("add-note", {"anything": 1})), dial(inform("ok"))])
    human = policy_human()
    result = await Conversation(agent=agent, domain=Bare(), human=human).say("x")
    assert human.seen[0].preview == "add-note"
    assert result.outcomes[0]["result"] == "ok"
    assert agent.received[1].endswith("</dial>")


async def test_a_context_that_is_not_text_is_a_clear_error():
    class Domain2(NotesDomain):
        def context(self):
            return {"notes": 1}

    conversation = Conversation(agent=lambda m: "", domain=Domain2(), human=Human())
    with pytest.raises(TypeError, match=r"domain.context\(\) must return text"):
        await conversation.say("x")


async def test_every_event_is_json_serialisable_and_the_transcript_holds_them_all():
    events = []
    agent = ScriptedAgent([
        "Sure.\n" + dial(inform("hi"), ask("Which?", options=("a",)),
                         suggest("add-note", {"text": "é"}), suggest("fly", {})),
        dial(inform("ok")),
    ])
    conversation = Conversation(agent=agent, domain=NotesDomain(), on_event=events.append,
                                human=scripted_human([{"answer": "a"}, "accept"]))
    await conversation.say("x")
    kept = [e for e in events if e["type"] not in TRANSIENT_TYPES]  # 'running': not kept
    assert [e["type"] for e in events if e not in kept] == ["running"]
    events = kept
    assert conversation.transcript == events
    assert json.loads(json.dumps(events)) == events
    assert {e["type"] for e in events} == {"sent", "reply", "inform", "ask", "suggestion",
                                           "outcome"}


async def test_a_second_say_while_one_runs_is_refused():
    gate = asyncio.Event()

    class Slow:
        async def send(self, message):
            await gate.wait()
            return dial(inform("ok"))

    conversation = Conversation(agent=Slow(), domain=Domain(), human=Human())
    first = asyncio.ensure_future(conversation.say("one"))
    await asyncio.sleep(0)
    assert conversation.busy
    with pytest.raises(ConversationBusyError, match="already running a say"):
        await conversation.say("two")
    gate.set()
    assert (await first).status == "idle"
    assert not conversation.busy


async def test_pending_shows_what_waits_for_the_person():
    loop = asyncio.get_running_loop()
    futures: list[asyncio.Future] = []

    class Surface:
        needs_event_loop = True

        def decide(self, suggestion):
            futures.append(loop.create_future())
            return futures[-1]

        def answer(self, ask):
            futures.append(loop.create_future())
            return futures[-1]

    agent = ScriptedAgent([dial(ask("Which?", id="q"), suggest("add-note", {"text": "a"})),
                           dial(inform("ok"))])
    conversation = Conversation(agent=agent, domain=NotesDomain(), human=Surface())
    task = asyncio.ensure_future(conversation.say("x"))
    while not futures:
        await asyncio.sleep(0)
    assert isinstance(conversation.pending, PendingAsk) and conversation.pending.id == "q"
    futures[0].set_result("b")
    while len(futures) < 2:
        await asyncio.sleep(0)
    assert isinstance(conversation.pending, Suggestion)
    assert conversation.pending.id == "sg-1"
    futures[1].set_result({"accept": True})
    assert (await task).status == "idle"
    assert conversation.pending is None


def test_policy_and_scripted_humans_refuse_bad_scripts_with_clear_errors():
    with pytest.raises(ValueError, match="'maybe' is not 'accept' or 'dismiss'"):
        policy_human("maybe")
    with pytest.raises(ValueError, match="is not one of"):
        scripted_human(["accept", {"approve": True}])
    human = scripted_human([{"answer": "x"}])
    with pytest.raises(ValueError, match="expected a decision"):
        human.decide(Suggestion(id="sg-1", action="a"))
    with pytest.raises(LookupError, match="no scripted step left"):
        human.answer(PendingAsk(id="q", text="?"))


def test_a_scripted_human_takes_its_steps_in_order_and_records_what_it_saw():
    human = scripted_human(["accept", {"answer": "x"}, {"edit": {"a": 1}}])
    first = Suggestion(id="sg-1", action="a")
    assert human.decide(first) == {"accept": True}
    assert human.answer(PendingAsk(id="q", text="?")) == "x"
    assert human.decide(first) == {"edit": {"a": 1}}
    assert human.remaining == []
    assert len(human.seen) == 3
