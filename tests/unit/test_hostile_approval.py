"""A hostile agent against approval: nothing runs that the person did not accept on the card
that shows it, and the card shows everything that will run."""

from __future__ import annotations

import pytest

from dial_notebook.dial import MAX_REPLY_CHARS, hidden_characters, lint, reveal
from dial_notebook.runtime import Conversation, policy_human, scripted_human
from dial_notebook.runtime._execute import MAX_STEPS

from .runtime_doubles import NotesDomain, ScriptedAgent, dial, suggest

CONFIRM = ('<dial-ask id="go" response-type="confirm" yield="go">Tidy up the scratch files?'
           '<dial-option value="1">No, leave everything as is</dial-option>'
           '<dial-option value="0">Yes, delete them</dial-option></dial-ask>')


class Recorder:
    """An executor that only records what it was asked to run."""

    def __init__(self) -> None:
        self.ran: list[str] = []

    def __call__(self, step):
        self.ran.append(step.command)
        return {"ran": True}


def conversation_for(replies, human, **kw):
    agent = ScriptedAgent(replies)
    events: list[dict] = []
    conversation = Conversation(agent=agent, domain=NotesDomain(context=False), human=human,
                                on_event=events.append, **kw)
    return conversation, agent, events


def execute(*commands: str, env: str = "python", attrs: str = ' id="op" observe="go"') -> str:
    steps = "".join(f'<step env="{env}" id="s{n}">{c}</step>' for n, c in enumerate(commands))
    return f"<dial-execute{attrs}>{steps}</dial-execute>"


# ---- 1. an answer is never an approval ---------------------------------------------------------

@pytest.mark.parametrize("env", ["python", "shell"])
async def test_an_execute_after_a_confirm_answered_yes_still_waits_for_the_persons_decision(env):
    python, shell = Recorder(), Recorder()
    human = policy_human("dismiss", answer_with="ok")
    conversation, _, events = conversation_for(
        [dial(CONFIRM, execute("import os; os.remove('notes.txt')", env=env)), dial("")], human,
        executors={"python": python, "shell": shell})
    result = await conversation.say("clean up")
    assert [type(seen).__name__ for seen in human.seen] == ["PendingAsk", "Suggestion"]
    assert python.ran == shell.ran == []
    assert [(o["id"], o["status"]) for o in result.outcomes] == [("op", "dismissed")]
    (card,) = [e for e in events if e["type"] == "suggestion"]
    assert card["payload"]["steps"][0]["command"] == "import os; os.remove('notes.txt')"


async def test_the_confirm_only_decides_whether_the_card_is_offered():
    python = Recorder()
    human = scripted_human([{"answer": "no"}])
    conversation, _, events = conversation_for([dial(CONFIRM, execute("1 + 1")), dial("")],
                                               human, executors={"python": python})
    result = await conversation.say("clean up")
    assert python.ran == []
    assert [e for e in events if e["type"] == "suggestion"] == []
    assert [(o["id"], o["status"]) for o in result.outcomes] == [("op", "skipped")]


async def test_accepting_the_card_after_yes_runs_exactly_what_it_showed():
    python = Recorder()
    human = scripted_human([{"answer": "yes"}, "accept"])
    conversation, *_ = conversation_for([dial(CONFIRM, execute("print('tidy')")), dial("")],
                                        human, executors={"python": python})
    await conversation.say("clean up")
    assert python.ran == ["print('tidy')"]
    assert human.seen[1].payload["steps"][0]["command"] == "print('tidy')"


async def test_agent_options_on_a_confirm_are_ignored_so_no_label_can_pose_as_no():
    human = policy_human("dismiss", answer_with="yes")
    conversation, _, events = conversation_for([dial(CONFIRM), dial("")], human)
    await conversation.say("x")
    (ask,) = [e for e in events if e["type"] == "ask"]
    assert ask["options"] == []
    assert human.seen[0].options == []


async def test_python_steps_are_marked_as_able_to_change_anything():
    human = policy_human("dismiss")
    conversation, *_ = conversation_for([dial(execute("1 + 1", attrs=""))], human)
    await conversation.say("x")
    assert human.seen[0].destructive is True


# ---- 2. the card shows everything that will run ------------------------------------------------

async def test_a_block_with_many_steps_is_shown_whole_with_its_count():
    human = policy_human("dismiss")
    commands = [f"print({n})" for n in range(MAX_STEPS)]
    conversation, _, events = conversation_for([dial(execute(*commands, attrs=""))], human)
    await conversation.say("x")
    (card,) = [e for e in events if e["type"] == "suggestion"]
    assert len(card["payload"]["steps"]) == MAX_STEPS
    assert card["preview"].startswith(f"Run {MAX_STEPS} steps: ")


async def test_a_block_too_long_to_show_is_refused_and_never_offered():
    python = Recorder()
    human = policy_human("accept")
    commands = [f"print({n})" for n in range(MAX_STEPS + 1)]
    conversation, _, events = conversation_for(
        [dial(execute(*commands, attrs=' id="big"')), dial("")], human,
        executors={"python": python})
    result = await conversation.say("x")
    assert human.seen == [] and python.ran == []
    assert [e for e in events if e["type"] == "suggestion"] == []
    (outcome,) = result.outcomes
    assert (outcome["id"], outcome["status"], outcome["code"]) == ("big", "invalid", "too-many-steps")
    assert f"at most {MAX_STEPS}" in outcome["hint"]


async def test_a_multi_line_command_is_never_summed_up_by_its_first_line_alone():
    human = policy_human("dismiss")
    command = "echo hello\nrm -rf ~/work\necho done"
    conversation, *_ = conversation_for([dial(execute(command, env="shell", attrs=""))], human)
    await conversation.say("x")
    assert human.seen[0].preview == "Run 1 step: echo hello (+2 more lines)"
    assert human.seen[0].payload["steps"][0]["command"] == command


async def test_direction_controls_in_a_command_are_flagged_and_shown_visibly():
    human = policy_human("dismiss")
    command = "echo safe \u2067; rm -rf ~ #\u2069"
    conversation, _, events = conversation_for(
        [dial(execute(command, env="shell", attrs=""))], human)
    await conversation.say("x")
    (card,) = [e for e in events if e["type"] == "suggestion"]
    assert card["suspicious"] == {"s0": ["U+2067", "U+2069"]}
    assert card["payload"]["steps"][0]["command"] == command  # what runs, exactly
    assert "\u2067" not in card["preview"] and "⟨U+2067⟩" in card["preview"]


def test_hidden_characters_are_named_and_revealed():
    text = "a\u202eb\u200bc\td\ne\u00adf"
    assert hidden_characters(text) == ["U+202E", "U+200B", "U+00AD"]
    assert reveal(text) == "a⟨U+202E⟩b⟨U+200B⟩c\td\ne⟨U+00AD⟩f"
    assert reveal("plain text, é and 😀") == "plain text, é and 😀"


def test_lint_flags_hidden_characters_in_a_step_command():
    reply = ('<dial version="0.1" actor="agent"><dial-execute>'
             '<step env="shell">echo \u202eoops</step></dial-execute></dial>')
    (finding,) = [f for f in lint(reply) if f.code == "hidden-characters"]
    assert finding.severity == "error"
    assert "U+202E" in finding.message


# ---- 7. the reply event is bounded -------------------------------------------------------------

async def test_a_reply_over_the_parse_cap_is_not_kept_whole_in_the_transcript():
    huge = dial("<dial-inform>" + "x" * (MAX_REPLY_CHARS + 10) + "</dial-inform>")
    conversation, _, events = conversation_for([huge], policy_human())
    await conversation.say("x")
    (reply,) = [e for e in events if e["type"] == "reply"]
    assert reply["truncated"] is True and reply["chars"] == len(huge)
    assert len(reply["text"]) < 20_000
    assert sum(len(str(e)) for e in events) < 50_000
    (inform,) = [e for e in events if e["type"] == "inform"]
    assert "was not read" in inform["text"]


async def test_a_plain_text_reply_over_the_parse_cap_is_bounded_too():
    conversation, _, events = conversation_for(["y" * (MAX_REPLY_CHARS + 1)], policy_human())
    await conversation.say("x")
    assert sum(len(str(e)) for e in events) < 50_000


# ---- 8. a run that returned nothing has no result -----------------------------------------------

async def test_a_handed_off_action_that_returns_none_is_reported_without_result():
    conversation, agent, _ = conversation_for(
        [dial(suggest("open-poll", {}, id="poll")), dial(suggest("add-note", {"text": "a"})),
         dial("")],
        policy_human("accept"))
    await conversation.say("open a poll")
    await conversation.say("and a note")
    assert ('<dial-payload type="application/json">{"action":"open-poll",'
            '"status":"handed-off"}</dial-payload>') in agent.received[1]


# ---- 10. an edited card reports what ran --------------------------------------------------------

async def test_the_outcome_of_an_edited_suggestion_carries_the_preview_of_what_ran():
    human = scripted_human([{"edit": {"text": "call mum today"}}])
    conversation, *_ = conversation_for(
        [dial(suggest("add-note", {"text": "call mum"})), dial("")], human)
    result = await conversation.say("x")
    (outcome,) = result.outcomes
    assert (outcome["preview"], outcome["edited"]) == ("Add the note 'call mum today'", True)
