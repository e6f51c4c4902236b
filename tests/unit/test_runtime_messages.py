"""What the agent receives: the order inside one message, and the wire text character for character."""

from __future__ import annotations

import pytest

from dial_notebook.runtime import Conversation, policy_human, scripted_human

from .runtime_doubles import (
    NoteError,
    NotesDomain,
    ScriptedAgent,
    SendFailed,
    ask,
    dial,
    inform,
    outcomes_in,
    suggest,
)

SPEC_EXAMPLE = """\
<dial>
  <dial-acknowledge of="sg-3" yield="sg-3:failed">Couldn't do it: Add 'Brand' to Strengths.</dial-acknowledge>
  <dial-declare context-key="outcome:sg-3">
    <dial-payload type="application/json">{"action":"matrix.entry.add","status":"failed","error":"…","hint":"…"}</dial-payload>
  </dial-declare>
</dial>"""


class MatrixDomain:
    def __init__(self):
        self.actions = {"matrix.entry.add": {"mutates": True}}

    def preview(self, action, payload):
        return f"Add '{payload['text']}' to {payload['zone']}"

    def run(self, action, payload):
        raise NoteError("…", hint="…")


async def test_the_outcome_reply_the_agent_receives_is_the_runtime_documents_example():
    agent = ScriptedAgent([
        dial(suggest("matrix.entry.add", {"text": "Brand", "zone": "Strengths"}, id="sg-3")),
        dial(inform("Sorry.")),
    ])
    conversation = Conversation(agent=agent, domain=MatrixDomain(), human=policy_human())
    await conversation.say("add brand")
    assert agent.received[1] == SPEC_EXAMPLE


async def test_the_runtime_assigned_third_id_reads_exactly_like_the_example():
    agent = ScriptedAgent([
        dial(suggest("nothing", {}), suggest("nothing", {})),
        dial(suggest("matrix.entry.add", {"text": "Brand", "zone": "Strengths"})),
        dial(inform("Sorry.")),
    ])
    conversation = Conversation(agent=agent, domain=MatrixDomain(), human=policy_human())
    await conversation.say("add brand")
    assert agent.received[2] == SPEC_EXAMPLE


async def test_first_message_is_the_context_then_the_words_joined_by_one_blank_line():
    agent = ScriptedAgent([dial(inform("Hi."))])
    await Conversation(agent=agent, domain=NotesDomain(), human=policy_human()).say("hello")
    assert agent.received == ['<context notes="0"/>\n\nhello']


async def test_a_message_after_an_action_carries_the_outcome_then_the_fresh_context():
    domain = NotesDomain()
    agent = ScriptedAgent([
        dial(inform("Adding it."), suggest("add-note", {"text": "Strong brand"}, "Add it?")),
        dial("<dial-acknowledge>Done — added.</dial-acknowledge>"),
    ])
    human = policy_human("accept")
    result = await Conversation(agent=agent, domain=domain, human=human).say("add strong brand")
    assert (result.status, result.turns) == ("idle", 2)
    assert agent.received[1] == (
        "<dial>\n"
        '  <dial-acknowledge of="sg-1" yield="sg-1:done">'
        "Done: Add the note 'Strong brand'.</dial-acknowledge>\n"
        '  <dial-declare context-key="outcome:sg-1">\n'
        '    <dial-payload type="application/json">'
        '{"action":"add-note","status":"done","result":{"count":1}}</dial-payload>\n'
        "  </dial-declare>\n"
        "</dial>\n\n"
        '<context notes="1"/>'
    )


async def test_outcomes_context_and_words_come_in_that_order():
    agent = ScriptedAgent([dial(suggest("add-note", {"text": "a"})), dial(inform("ok"))])
    conversation = Conversation(agent=agent, domain=NotesDomain(),
                                human=policy_human("dismiss"))
    await conversation.say("x")
    await conversation.say("something else")
    outcome, context, words = agent.received[1].split("\n\n")
    assert outcomes_in(outcome) == [{"action": "add-note", "status": "dismissed"}]
    assert context == '<context notes="0"/>'
    assert words == "something else"


async def test_empty_parts_are_left_out():
    agent = ScriptedAgent([dial(inform("ok")), dial(inform("ok"))])
    conversation = Conversation(agent=agent, domain=NotesDomain(context=False),
                                human=policy_human())
    await conversation.say("just words")
    await conversation.say("")
    assert agent.received == ["just words", ""]


async def test_context_is_asked_once_per_message():
    domain = NotesDomain()
    agent = ScriptedAgent([dial(suggest("add-note", {"text": "a"})), dial(inform("ok"))])
    await Conversation(agent=agent, domain=domain, human=policy_human()).say("x")
    assert domain.contexts == len(agent.received) == 2


async def test_the_persons_words_are_sent_as_given_not_trimmed():
    agent = ScriptedAgent([dial(inform("ok"))])
    await Conversation(agent=agent, domain=NotesDomain(context=False),
                       human=policy_human()).say("  two spaces before, a newline after\n")
    assert agent.received == ["  two spaces before, a newline after\n"]


async def test_one_answer_alone_goes_back_as_given():
    agent = ScriptedAgent([dial(ask("Which zone?")), dial(inform("Thanks"))])
    human = scripted_human([{"answer": "Strengths"}])
    await Conversation(agent=agent, domain=NotesDomain(), human=human).say("add it")
    assert agent.received[1] == '<context notes="0"/>\n\nStrengths'


async def test_several_answers_each_follow_their_quoted_question():
    agent = ScriptedAgent([
        dial(ask("Which zone?"), ask("Which colour?\nPick one.")),
        dial(inform("Thanks")),
    ])
    human = scripted_human([{"answer": "Strengths"}, {"answer": "Blue"}])
    await Conversation(agent=agent, domain=NotesDomain(context=False), human=human).say("go")
    assert agent.received[1] == "> Which zone?\nStrengths\n\n> Which colour?\n> Pick one.\nBlue"


async def test_an_answer_and_words_written_instead_of_deciding_go_together_in_order():
    agent = ScriptedAgent([
        dial(ask("Which zone?"), suggest("add-note", {"text": "a"})),
        dial(inform("Got it.")),
    ])
    human = scripted_human([{"answer": "Strengths"}, {"say": "actually, skip that"}])
    await Conversation(agent=agent, domain=NotesDomain(context=False), human=human).say("go")
    outcome, answer, said = agent.received[1].split("\n\n")
    assert outcomes_in(outcome) == [{"action": "add-note", "status": "superseded"}]
    assert answer == "> Which zone?\nStrengths"
    assert said == "actually, skip that"


async def test_owed_words_and_new_words_are_joined_by_one_blank_line():
    agent = ScriptedAgent([dial(ask("Which note?")), SendFailed("down"), dial(inform("ok"))])
    human = scripted_human([{"answer": "the first one"}])
    conversation = Conversation(agent=agent, domain=NotesDomain(context=False), human=human)
    with pytest.raises(SendFailed):
        await conversation.say("remove a note")
    await conversation.say("and be quick")
    assert agent.received[2] == "the first one\n\nand be quick"
