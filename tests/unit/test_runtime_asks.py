"""Asks: the question is shown, put to the person, and the answer goes back (or stands)."""

from __future__ import annotations

import json

from dial_notebook.runtime import Conversation, PendingAsk, policy_human, scripted_human

from .runtime_doubles import NotesDomain, ScriptedAgent, ask, dial, inform, suggest


def conversation_for(replies, human, **kw):
    agent = ScriptedAgent(replies)
    events: list[dict] = []
    conversation = Conversation(agent=agent, domain=NotesDomain(context=False), human=human,
                                on_event=events.append, **kw)
    return conversation, agent, events


async def test_an_ask_emits_an_ask_event_then_the_human_answers_and_the_answer_goes_back():
    human = scripted_human([{"answer": "Strengths"}])
    conversation, agent, events = conversation_for(
        [dial(ask("Which zone?", id="zone", options=("strengths", "weaknesses"))),
         dial(inform("Thanks"))], human)
    result = await conversation.say("add it")
    assert events[2] == {
        "type": "ask", "id": "zone", "text": "Which zone?", "response_type": "choice",
        "options": [
            {"value": "strengths", "label": "Strengths", "default": False, "disabled": False},
            {"value": "weaknesses", "label": "Weaknesses", "default": False, "disabled": False},
        ]}
    (shown,) = human.seen
    assert isinstance(shown, PendingAsk)
    assert shown.to_dict() == {k: v for k, v in events[2].items() if k != "type"}
    assert agent.received[1] == "Strengths"
    assert (result.status, result.turns) == ("idle", 2)


async def test_an_ask_without_an_id_gets_ask_n():
    human = scripted_human([{"answer": ""}, {"answer": ""}])
    conversation, _, events = conversation_for([dial(ask("One?"), ask("Two?"))], human)
    await conversation.say("x")
    assert [e["id"] for e in events if e["type"] == "ask"] == ["ask-1", "ask-2"]


async def test_an_empty_answer_means_the_question_stands_and_no_turn_follows():
    conversation, agent, _ = conversation_for([dial(ask("Which zone?"))],
                                              scripted_human([{"answer": ""}]))
    result = await conversation.say("x")
    assert (result.status, result.turns, len(agent.received)) == ("idle", 1, 1)


async def test_a_none_or_blank_answer_is_no_answer_too():
    conversation, agent, _ = conversation_for(
        [dial(ask("One?"), ask("Two?"))], scripted_human([{"answer": None}, {"answer": "  "}]))
    result = await conversation.say("x")
    assert (result.status, len(agent.received)) == ("idle", 1)


async def test_a_human_without_answer_leaves_every_question_standing():
    class DecidesOnly:
        def decide(self, suggestion):
            return {"accept": True}

    conversation, agent, _ = conversation_for([dial(ask("Which zone?"))], DecidesOnly())
    result = await conversation.say("x")
    assert (result.status, len(agent.received)) == ("idle", 1)


async def test_the_answers_to_every_question_in_one_reply_reach_the_agent():
    human = scripted_human([{"answer": "Strengths"}, {"answer": ""}, {"answer": "Blue"}])
    conversation, agent, _ = conversation_for(
        [dial(ask("Which zone?"), ask("Anything else?"), ask("Which colour?")),
         dial(inform("Thanks"))], human)
    await conversation.say("x")
    assert agent.received[1] == "> Which zone?\nStrengths\n\n> Which colour?\nBlue"


async def test_one_answer_among_several_questions_is_sent_with_its_question():
    human = scripted_human([{"answer": ""}, {"answer": "Blue"}])
    conversation, agent, _ = conversation_for(
        [dial(ask("Which zone?"), ask("Which colour?")), dial(inform("Thanks"))], human)
    await conversation.say("x")
    assert agent.received[1] == "> Which colour?\nBlue"


async def test_after_the_person_moved_on_later_questions_are_shown_but_not_asked():
    human = scripted_human([{"say": "never mind"}])
    conversation, agent, events = conversation_for(
        [dial(suggest("add-note", {"text": "a"}), ask("Which zone?")), dial(inform("ok"))],
        human)
    await conversation.say("x")
    assert [type(s).__name__ for s in human.seen] == ["Suggestion"]
    assert "ask" in [e["type"] for e in events]
    assert agent.received[1].endswith("\n\nnever mind")


async def test_a_numeric_answer_is_sent_as_text():
    class Counts:
        def decide(self, suggestion):
            return {"accept": True}

        async def answer(self, ask):
            return 3

    conversation, agent, _ = conversation_for(
        [dial('<dial-ask response-type="number">How many?</dial-ask>'), dial(inform("ok"))],
        Counts())
    await conversation.say("x")
    assert agent.received[1] == "3"


async def test_a_policy_human_answers_every_question_with_its_answer():
    human = policy_human("accept", answer_with="yes")
    conversation, agent, _ = conversation_for(
        [dial(ask("Sure?")), dial(inform("ok"))], human)
    await conversation.say("x")
    assert agent.received[1] == "yes"


async def test_ask_events_are_json_serialisable():
    conversation, _, events = conversation_for(
        [dial(ask("Pick", options=("a", "b")))], scripted_human([{"answer": ""}]))
    await conversation.say("x")
    assert json.loads(json.dumps(events)) == events
