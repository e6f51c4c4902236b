"""<dial-declare> into the session context, <dial-delegate> to actors, <dial-phatic>, addressed-to."""

from __future__ import annotations

import pytest

from dial_notebook.runtime import Conversation, Delegation, policy_human, scripted_human

from .runtime_doubles import NotesDomain, ScriptedAgent, dial, outcomes_in


def conversation_for(replies, human=None, *, domain=None, **kw):
    agent = ScriptedAgent(replies)
    events: list[dict] = []
    kw.setdefault("full_dial", True)
    conversation = Conversation(agent=agent, domain=domain or NotesDomain(context=False),
                                human=human or policy_human(), on_event=events.append, **kw)
    return conversation, agent, events


def of_type(events, kind):
    return [e for e in events if e["type"] == kind]


DELEGATE = ('<dial-delegate id="handoff" to="billing-agent" intent="refund" {extra}>'
            "Handing off to billing.<dial-context><dial-payload>"
            '{{"chargeId": "chg-1", "amount": 49.99}}</dial-payload></dial-context>'
            "</dial-delegate>")


# ---- declare -----------------------------------------------------------------------------------

async def test_a_declare_stores_its_value_by_context_key_and_tells_the_surface():
    conversation, _, events = conversation_for([dial(
        '<dial-declare id="d" context-key="artefact"><dial-payload>{"slug": "nike"}'
        "</dial-payload></dial-declare>")])
    await conversation.say("x")
    assert conversation.context == {"artefact": {"slug": "nike"}}
    assert of_type(events, "declare") == [
        {"type": "declare", "id": "d", "key": "artefact", "value": {"slug": "nike"}}]


async def test_a_later_declare_of_the_same_key_overwrites_across_turns():
    conversation, *_ = conversation_for([
        dial('<dial-declare context-key="k">{"v": 1}</dial-declare>',
             '<dial-declare context-key="other">plain words</dial-declare>'),
        dial('<dial-declare context-key="k">{"v": 2}</dial-declare>')])
    await conversation.say("x")
    await conversation.say("y")
    assert conversation.context == {"k": {"v": 2}, "other": "plain words"}


async def test_the_domain_is_told_each_declared_fact_when_it_has_a_declare_hook():
    class Domain(NotesDomain):
        def __init__(self):
            super().__init__(context=False)
            self.facts = []

        async def declare(self, key, value):
            self.facts.append((key, value))

    domain = Domain()
    conversation, *_ = conversation_for(
        [dial('<dial-declare context-key="k">{"v": 1}</dial-declare>')], domain=domain)
    await conversation.say("x")
    assert domain.facts == [("k", {"v": 1})]


async def test_a_declare_that_is_a_suggests_payload_is_not_put_in_the_context():
    conversation, _, events = conversation_for([dial(
        '<dial-suggest action="list-notes">List?</dial-suggest>'
        '<dial-declare context-key="p">{}</dial-declare>'), dial("")])
    await conversation.say("x")
    assert conversation.context == {}
    assert of_type(events, "declare") == []


async def test_a_declare_without_context_key_stores_nothing_and_fires_nothing():
    conversation, _, events = conversation_for([dial(
        '<dial-declare yield="set">{"v": 1}</dial-declare>',
        '<dial-inform observe="set">after</dial-inform>')])
    await conversation.say("x")
    assert conversation.context == {}
    (skip,) = [e for e in events if e.get("act") == "skipped"]
    assert skip["reason"] == "'set' did not happen: declare #1 had no context-key"


# ---- delegate ----------------------------------------------------------------------------------

async def test_a_registered_callable_takes_the_hand_off_and_its_result_goes_to_the_agent():
    received: list[Delegation] = []

    def billing(delegation):
        received.append(delegation)
        return {"refund": "rf-7"}

    conversation, agent, events = conversation_for(
        [dial(DELEGATE.format(extra='resume="true"')), dial("<dial-inform>Done.</dial-inform>")],
        actors={"billing-agent": billing})
    result = await conversation.say("refund me")
    (delegation,) = received
    assert delegation.to_dict() == {
        "id": "handoff", "to": "billing-agent", "intent": "refund",
        "text": "Handing off to billing.", "context": {"chargeId": "chg-1", "amount": 49.99},
        "resume": True}
    (event,) = of_type(events, "delegate")
    assert event["registered"] is True
    assert [(o["id"], o["action"], o["status"], o["preview"]) for o in result.outcomes] == [
        ("handoff", "delegate", "done", "Hand over to billing-agent: refund")]
    assert outcomes_in(agent.received[1]) == [
        {"action": "delegate", "status": "done", "result": {"refund": "rf-7"}}]
    assert result.turns == 2  # resume: the agent picks up again at once


async def test_without_resume_the_agent_steps_back_and_hears_with_the_next_words():
    conversation, agent, _ = conversation_for(
        [dial(DELEGATE.format(extra="")), dial("")], actors={"billing-agent": lambda d: "ok"})
    result = await conversation.say("refund me")
    assert (result.turns, [o["status"] for o in result.outcomes]) == (1, ["done"])
    await conversation.say("thanks")
    assert outcomes_in(agent.received[1])[0]["result"] == "ok"


async def test_an_agent_actor_is_sent_the_hand_off_as_a_message_and_its_reply_is_the_result():
    billing = ScriptedAgent(["Refund issued."])
    conversation, *_ = conversation_for([dial(DELEGATE.format(extra="")), dial("")],
                                        actors={"billing-agent": billing})
    result = await conversation.say("refund me")
    assert billing.received == [
        'Handing off to billing.\n\nIntent: refund\n\n{"chargeId": "chg-1", "amount": 49.99}']
    assert result.outcomes[0]["result"] == "Refund issued."


async def test_with_no_actor_registered_the_person_sees_the_hand_off_and_the_agent_is_told():
    conversation, agent, events = conversation_for(
        [dial(DELEGATE.format(extra=""), '<dial-inform observe="x">never</dial-inform>'),
         dial("<dial-inform>I will help myself.</dial-inform>")])
    result = await conversation.say("refund me")
    (event,) = of_type(events, "delegate")
    assert (event["to"], event["registered"], event["text"]) == (
        "billing-agent", False, "Handing off to billing.")
    (outcome,) = result.outcomes
    assert (outcome["status"], outcome["code"]) == ("failed", "not-delegated")
    assert outcomes_in(agent.received[1]) == [{
        "action": "delegate", "status": "failed",
        "error": "No actor 'billing-agent' is registered here, so nobody took this over; the "
                 "user saw the hand-off request.", "code": "not-delegated"}]
    assert result.turns == 2  # nobody else has the exchange: the agent carries on now


async def test_a_delegation_fires_accepted_or_rejected_by_what_became_of_it():
    reply = dial(DELEGATE.format(extra='yield="d:accepted d:rejected"'),
                 '<dial-inform observe="d:accepted">taken</dial-inform>',
                 '<dial-inform observe="d:rejected">not taken</dial-inform>')

    def broken(delegation):
        raise RuntimeError("billing is down")

    for actors, shown in (({"billing-agent": lambda d: 1}, "taken"),
                          ({"billing-agent": broken}, "not taken"), ({}, "not taken")):
        conversation, _, events = conversation_for([reply, dial("")], actors=actors)
        await conversation.say("x")
        assert [e["text"] for e in events if e.get("act") == "inform"] == [shown]


# ---- phatic ------------------------------------------------------------------------------------

async def test_typing_and_thinking_are_events_a_surface_shows_and_unknown_signals_are_ignored():
    conversation, _, events = conversation_for([dial(
        '<dial-phatic signal="typing"/>', '<dial-phatic signal="thinking" interval="5"/>',
        '<dial-phatic signal="done-typing"/>', '<dial-phatic signal="dancing"/>')])
    await conversation.say("x")
    assert of_type(events, "phatic") == [
        {"type": "phatic", "signal": "typing"},
        {"type": "phatic", "signal": "thinking", "interval": 5},
        {"type": "phatic", "signal": "done-typing"}]


async def test_heartbeat_and_presence_are_recorded():
    conversation, _, events = conversation_for([dial(
        '<dial-phatic signal="heartbeat" interval="30"/>', '<dial-phatic signal="presence"/>')])
    await conversation.say("x")
    assert conversation.presence == {"heartbeat": {"interval": 30, "turn": 1},
                                     "presence": {"interval": None, "turn": 1}}
    assert [e["signal"] for e in of_type(events, "phatic")] == ["heartbeat", "presence"]


# ---- addressed-to ------------------------------------------------------------------------------

async def test_an_element_addressed_to_someone_else_is_shown_as_such_and_not_acted_on():
    human = scripted_human([{"answer": "mine"}])
    conversation, _, events = conversation_for([dial(
        '<dial-inform addressed-to="billing-agent" yield="b">For billing.</dial-inform>',
        '<dial-ask addressed-to="billing-agent">Which charge?</dial-ask>',
        '<dial-suggest id="s" action="add-note" addressed-to="ops">x<dial-payload>'
        '{"text": "a"}</dial-payload></dial-suggest>',
        '<dial-ask addressed-to="Human">Yours?</dial-ask>',
        '<dial-inform observe="b">after billing</dial-inform>'), dial("")], human)
    result = await conversation.say("x")
    elsewhere = [(e["element"], e["addressed_to"], e["text"]) for e in events
                 if e.get("act") == "addressed-elsewhere"]
    assert elsewhere == [("inform", "billing-agent", "For billing."),
                         ("ask", "billing-agent", "Which charge?"), ("suggest", "ops", "x")]
    assert [a.text for a in human.seen] == ["Yours?"]
    assert [(o["id"], o["status"], o["hint"]) for o in result.outcomes] == [
        ("s", "skipped", "It was addressed to ops, not acted on here.")]
    assert [e["reason"] for e in events if e.get("act") == "skipped"] == [
        "'b' did not happen: inform #1 was addressed to billing-agent, not acted on here"]


async def test_without_full_dial_declare_delegate_phatic_and_addressed_to_change_nothing():
    conversation, _, events = conversation_for([dial(
        '<dial-declare context-key="k">1</dial-declare>', '<dial-phatic signal="typing"/>',
        DELEGATE.format(extra=""), '<dial-inform addressed-to="ops">hi</dial-inform>')],
        full_dial=False)
    result = await conversation.say("x")
    assert conversation.context == {} and result.outcomes == []
    assert [e["type"] for e in events] == ["sent", "reply", "inform"]
    assert "act" in events[2] and events[2]["act"] == "inform"


def test_actors_must_be_a_mapping():
    with pytest.raises(TypeError, match="actors must map"):
        Conversation(agent=lambda m: "", domain=NotesDomain(), human=policy_human(),
                     full_dial=True, actors=["billing"])
