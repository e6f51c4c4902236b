"""Statuses, and nothing owed to the agent is lost: failed sends, missing replies, raising humans."""

from __future__ import annotations

import pytest

from dial_notebook.dial import parse
from dial_notebook.runtime import Conversation, policy_human, scripted_human

from .runtime_doubles import (
    NotesDomain,
    ScriptedAgent,
    SendFailed,
    ask,
    dial,
    inform,
    outcome_ids_in,
    outcomes_in,
    suggest,
)

HANG = ScriptedAgent.HANG


def make(replies, human=None, domain=None, **kw):
    agent = ScriptedAgent(replies)
    domain = domain or NotesDomain(context=False)
    events: list[dict] = []
    conversation = Conversation(agent=agent, domain=domain, human=human or policy_human(),
                                on_event=events.append, **kw)
    return conversation, agent, domain, events


async def test_a_reply_that_needs_nothing_back_ends_the_say_idle():
    conversation, *_ = make([dial(inform("Hello."))])
    result = await conversation.say("hi")
    assert (result.status, result.turns, result.outcomes) == ("idle", 1, [])


async def test_a_plain_text_reply_is_shown_as_an_inform_without_act_and_ends_the_turn():
    conversation, _, _, events = make(["  Just text.  "])
    result = await conversation.say("hi")
    assert result.status == "idle"
    assert events[-1] == {"type": "inform", "text": "Just text."}


async def test_prose_outside_the_envelope_is_an_inform_without_act_before_the_elements():
    conversation, _, _, events = make([f"Sure thing.\n{dial(inform('Done.'))}\nAnything else?"])
    await conversation.say("hi")
    assert events[2:] == [
        {"type": "inform", "text": "Sure thing.\n\nAnything else?"},
        {"type": "inform", "text": "Done.", "act": "inform"},
    ]


async def test_every_envelope_of_a_reply_is_handled_in_order_as_one_reply():
    conversation, _, _, events = make([
        dial(inform("one")) + " and " + dial("<dial-acknowledge>two</dial-acknowledge>",
                                             suggest("add-note", {"text": "a"})),
        dial(inform("ok")),
    ])
    result = await conversation.say("hi")
    assert [(e.get("text"), e.get("act")) for e in events if e["type"] == "inform"][1:3] == [
        ("one", "inform"), ("two", "acknowledge")]
    assert [o["status"] for o in result.outcomes] == ["done"]


async def test_in_the_reference_mode_empty_elements_emit_nothing_and_the_rest_is_ignored():
    conversation, _, _, events = make([dial(
        "<dial-inform/>", '<dial-phatic signal="typing"/>',
        '<dial-execute><step>ls</step></dial-execute>', '<dial-delegate to="x">hi</dial-delegate>',
        '<dial-declare context-key="k">{"a": 1}</dial-declare>')], full_dial=False)
    result = await conversation.say("hi")
    assert [e["type"] for e in events] == ["sent", "reply"]
    assert result.status == "idle"


async def test_a_damaged_envelope_is_handled_anyway():
    reply = '<dial><dial-ask>Which?</dial-ask><dial-inform a=1 b="2>x</dial-inform></dial>'
    assert parse(reply).damaged
    conversation, _, _, events = make([reply])
    await conversation.say("hi")
    assert ("ask", "Which?") in [(e["type"], e.get("text")) for e in events]


async def test_a_repaired_envelope_is_handled_and_the_reply_event_keeps_the_text_as_is():
    reply = "<dial><dial-inform>half <b>bold</dial-inform><dial-ask>Which?</dial-ask"
    conversation, _, _, events = make([reply])
    await conversation.say("hi")
    assert events[1] == {"type": "reply", "turn": 1, "text": reply}
    assert [e["type"] for e in events[2:]] == ["inform", "ask"]


async def test_no_reply_within_the_timeout_ends_with_status_no_reply_and_never_hangs():
    conversation, _, _, events = make([HANG], timeout=0.05)
    result = await conversation.say("hi")
    assert (result.status, result.turns) == ("no-reply", 1)
    assert [e["type"] for e in events] == ["sent", "no-reply"]
    assert events[-1] == {"type": "no-reply", "turn": 1,
                          "error": "The agent didn't reply within 0.05s"}


async def test_an_agent_that_keeps_proposing_stops_at_max_turns():
    replies = [dial(suggest("list-notes", {})) for _ in range(5)]
    conversation, agent, _, events = make(replies, max_turns=3)
    result = await conversation.say("loop")
    assert (result.status, result.turns, len(result.outcomes)) == ("turn-limit", 3, 3)
    assert events[-1] == {"type": "turn-limit", "turns": 3}
    assert len(agent.received) == 3


async def test_outcomes_of_the_last_turn_before_the_limit_go_with_the_next_say():
    replies = [dial(suggest("list-notes", {})) for _ in range(2)] + [dial(inform("ok"))]
    conversation, agent, _, _ = make(replies, max_turns=2)
    await conversation.say("loop")
    assert len(conversation.owed_outcomes) == 1
    await conversation.say("stop")
    assert outcome_ids_in(agent.received[2]) == ["sg-2"]
    assert conversation.owed_outcomes == []


async def test_a_send_error_propagates_and_is_not_a_no_reply():
    conversation, _, _, events = make([SendFailed("network down")])
    with pytest.raises(SendFailed, match="network down"):
        await conversation.say("hi")
    assert "no-reply" not in [e["type"] for e in events]


async def test_the_agents_own_timeout_error_propagates_too():
    conversation, *_ = make([TimeoutError("the agent's HTTP client timed out")], timeout=30)
    with pytest.raises(TimeoutError, match="HTTP client"):
        await conversation.say("hi")


async def test_an_outcome_never_told_because_the_send_failed_goes_with_the_next_say_once():
    conversation, agent, domain, _ = make([
        dial(suggest("add-note", {"text": "milk"}, "Add milk?", id="sg-a")),
        SendFailed("send failed"),
        dial(inform("ok")),
        dial(inform("ok")),
    ])
    with pytest.raises(SendFailed):
        await conversation.say("add milk")
    assert domain.notes == ["milk"]
    assert [o["id"] for o in conversation.owed_outcomes] == ["sg-a"]
    result = await conversation.say("thanks")
    assert result.status == "idle"
    assert [o["status"] for o in outcomes_in(agent.received[2])] == ["done"]
    assert agent.received[2].endswith("thanks")
    await conversation.say("one more")
    assert outcomes_in(agent.received[3]) == []


async def test_an_outcome_whose_report_got_no_reply_goes_with_the_next_say():
    conversation, agent, _, _ = make(
        [dial(suggest("list-notes", {}, id="ls")), HANG, dial(inform("ok"))],
        timeout=1.0)  # it bounds the replies that come, too: ample on a busy machine
    result = await conversation.say("list")
    assert (result.status, result.turns) == ("no-reply", 2)
    await conversation.say("")
    assert outcome_ids_in(agent.received[2]) == ["ls"]


async def test_an_answer_the_agent_never_received_goes_with_the_next_send_once():
    conversation, agent, _, _ = make(
        [dial(ask("Which note?")), SendFailed("send failed"), dial(inform("ok")),
         dial(inform("ok"))],
        human=scripted_human([{"answer": "the first one"}]))
    with pytest.raises(SendFailed):
        await conversation.say("remove a note")
    assert conversation.owed_words == ["the first one"]
    await conversation.say("")
    assert agent.received[2] == "the first one"
    await conversation.say("thanks")
    assert agent.received[3] == "thanks"


async def test_an_answer_is_kept_even_when_the_next_send_fails_again():
    conversation, agent, _, _ = make(
        [dial(ask("Which note?")), SendFailed("down"), SendFailed("still down"),
         dial(inform("ok"))],
        human=scripted_human([{"answer": "the first one"}]))
    with pytest.raises(SendFailed):
        await conversation.say("remove a note")
    with pytest.raises(SendFailed):
        await conversation.say("")
    await conversation.say("")
    assert agent.received[1:] == ["the first one"] * 3


async def test_words_written_instead_of_deciding_survive_a_missing_reply():
    conversation, agent, _, _ = make(
        [dial(suggest("add-note", {"text": "a"})), HANG, dial(inform("ok"))],
        human=scripted_human([{"say": "add b instead"}]),
        timeout=1.0)  # it bounds the replies that come, too: ample on a busy machine
    assert (await conversation.say("add a")).status == "no-reply"
    await conversation.say("")
    assert agent.received[2].endswith("\n\nadd b instead")
    assert [o["status"] for o in outcomes_in(agent.received[2])] == ["superseded"]


async def test_the_callers_own_words_are_not_kept_when_their_first_send_fails():
    conversation, agent, _, _ = make([SendFailed("down"), dial(inform("ok"))])
    with pytest.raises(SendFailed):
        await conversation.say("hello")
    await conversation.say("")
    assert agent.received == ["hello", ""]


async def test_say_with_nothing_sends_just_what_is_owed():
    conversation, agent, _, _ = make(
        [dial(suggest("add-note", {"text": "a"})), dial(inform("ok"))],
        human=policy_human("dismiss"))
    await conversation.say("x")
    await conversation.say("")
    assert outcome_ids_in(agent.received[1]) == ["sg-1"]
    assert agent.received[1].endswith("</dial>")


async def test_when_decide_raises_the_outcomes_already_reached_are_still_owed():
    class Breaks:
        def __init__(self):
            self.calls = 0

        def decide(self, suggestion):
            self.calls += 1
            if self.calls == 2:
                raise RuntimeError("the surface went away")
            return {"accept": True}

    conversation, agent, domain, events = make(
        [dial(suggest("add-note", {"text": "a"}), suggest("add-note", {"text": "b"}),
              suggest("add-note", {"text": "c"}), suggest("fly", {})),
         dial(inform("ok"))],
        human=Breaks())
    with pytest.raises(RuntimeError, match="surface went away"):
        await conversation.say("add three")
    assert domain.notes == ["a"]
    assert [(o["id"], o["status"]) for o in conversation.owed_outcomes] == [
        ("sg-1", "done"), ("sg-2", "superseded"), ("sg-3", "superseded"), ("sg-4", "invalid")]
    assert [e["status"] for e in events if e["type"] == "outcome"] == [
        "done", "superseded", "superseded", "invalid"]
    assert conversation.pending is None
    await conversation.say("sorry about that")
    assert outcome_ids_in(agent.received[1]) == ["sg-1", "sg-2", "sg-3", "sg-4"]


async def test_a_decision_of_the_wrong_shape_is_a_clear_error_and_the_suggestion_still_ends():
    class Approves:
        def decide(self, suggestion):
            return {"approve": True}

    conversation, _, _, _ = make([dial(suggest("add-note", {"text": "a"}))], human=Approves())
    with pytest.raises(ValueError, match=r"human.decide\(\) must return"):
        await conversation.say("x")
    assert [o["status"] for o in conversation.owed_outcomes] == ["superseded"]


async def test_answers_given_before_a_human_raised_are_kept():
    class AnswersThenBreaks:
        def decide(self, suggestion):
            raise RuntimeError("gone")

        def answer(self, ask):
            return "Strengths"

    conversation, agent, _, _ = make(
        [dial(ask("Which zone?"), suggest("add-note", {"text": "a"})), dial(inform("ok"))],
        human=AnswersThenBreaks())
    with pytest.raises(RuntimeError):
        await conversation.say("x")
    assert conversation.owed_words == ["Strengths"]
    await conversation.say("")
    assert agent.received[1].endswith("</dial>\n\nStrengths")


async def test_an_on_event_callback_that_raises_loses_no_outcome():
    def on_event(event):
        if event["type"] == "outcome":
            raise RuntimeError("render failed")

    agent = ScriptedAgent([dial(suggest("list-notes", {}), suggest("add-note", {"text": "a"})),
                           dial(inform("ok"))])
    conversation = Conversation(agent=agent, domain=NotesDomain(context=False),
                                human=policy_human(), on_event=on_event)
    with pytest.raises(RuntimeError, match="render failed"):
        await conversation.say("x")
    assert [o["status"] for o in conversation.owed_outcomes] == ["done", "superseded"]
    assert [e["type"] for e in conversation.transcript].count("outcome") == 2
