"""Defects a pip user hit with McpDomain (issue 31 follow-up): the time a person takes to answer
a server's question is not the tool's time, and Stop still ends a run whose question waits; a
Decline of the Send/Decline confirm stands alone and the confirm takes no free text; without the
SDK, construction says how to install it; a failure's details are joined without ".;"."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest
from mcp import types

from dial_notebook.agents._demo_schema_outcomes import SchemaOutcomes
from dial_notebook.domains.mcp import McpDomain
from dial_notebook.domains.mcp._elicit import CONFIRM, DECLINE, SEND, elicitation_callback
from dial_notebook.interaction import (
    Answer,
    AnswerItem,
    AskRequest,
    ConfirmIntent,
    Question,
    ScriptedProvider,
    UserInteractionError,
    ask_user,
    check_questions,
    normalise_answer,
    use_provider,
)

ELICIT_SERVER = str(Path(__file__).parents[1] / "mcp_servers" / "elicit_server.py")
SLOW_START = 60.0
BOOKING = {"field-1": {"custom": "Ann"}, "field-2": {"custom": "2"}, "field-3": {"custom": "30"},
           "field-4": "No", "field-5": "inside", CONFIRM: SEND}


# --- 3: without the SDK, construction says how to install it ------------------------------------


@pytest.mark.parametrize("make", [lambda: McpDomain.stdio("mcp-server-git"),
                                  lambda: McpDomain.http("http://127.0.0.1:9/mcp")])
def test_without_the_sdk_construction_raises_import_error_naming_the_extra(monkeypatch, make):
    monkeypatch.setitem(sys.modules, "mcp", None)  # `import mcp` now fails
    with pytest.raises(ImportError) as missing:
        make()
    said = str(missing.value)
    assert 'pip install "dial-notebook[mcp]"' in said
    assert "unavailable" not in said and "restarted" not in said


# --- 4: a failure's details end with one stop, never ".;" ---------------------------------------


def test_a_failed_outcome_whose_hint_ends_with_a_stop_is_said_without_doubled_punctuation():
    hint = ("It was cancelled (the server was told); part of it may have taken effect: check "
            "before trying again.")
    outcome = {"action": "git_status", "status": "failed", "error": "git_status did not answer "
               "within 60 s", "hint": hint, "code": "timeout"}
    brain = SchemaOutcomes.__new__(SchemaOutcomes)
    brain.proposals = {}  # no proposal of its own: the outcome's words alone
    [element] = brain.on_failed(outcome)
    text = element.text
    assert ".;" not in text and ".)" not in text
    assert "check before trying again; code timeout)." in text


# --- 2: the confirm's Decline stands alone, and it takes no free text ---------------------------


def confirm_batch() -> tuple[Question, ...]:
    return (Question(id="name", question="Your name"),
            Question(id=CONFIRM, question="Send?", options=(SEND, DECLINE),
                     intent=ConfirmIntent(approve=SEND)))


def test_a_declined_confirm_is_an_answer_alone_and_the_other_answers_are_dropped():
    answer = normalise_answer(confirm_batch(), Answer((AnswerItem("name", (), "Ann"),
                                                       AnswerItem(CONFIRM, (DECLINE,)))))
    assert answer["name"] == AnswerItem("name") and answer[CONFIRM].selected == (DECLINE,)
    sent = normalise_answer(confirm_batch(), Answer((AnswerItem("name", (), "Ann"),
                                                     AnswerItem(CONFIRM, (SEND,)))))
    assert sent["name"].custom == "Ann"


def test_a_confirm_refuses_free_text_and_says_so_in_its_dict():
    with pytest.raises(UserInteractionError) as typed:
        normalise_answer(confirm_batch(), Answer((AnswerItem(CONFIRM, (), "maybe"),)))
    assert typed.value.code == "INVALID_ANSWER" and "free text" in str(typed.value)
    shown = confirm_batch()[1].to_dict()
    assert shown["intent"] == {"kind": "confirm", "approve": SEND}
    coerced = Question.coerce(shown)
    assert coerced.intent == ConfirmIntent(approve=SEND)
    with pytest.raises(UserInteractionError) as wrong:
        check_questions([{**shown, "intent": {"kind": "confirm", "approve": "Yes"}}])
    assert wrong.value.code == "INVALID_INTENT"


async def test_the_elicitation_confirm_is_a_confirm_intent_and_decline_alone_declines():
    form = types.ElicitRequestFormParams(message="Book?", requested_schema={
        "type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]})
    person = ScriptedProvider([{CONFIRM: DECLINE}])
    with use_provider(person):
        result = await elicitation_callback("bookings", None, form, ask=ask_user)
    assert result == types.ElicitResult(action="decline")
    confirm = person.requests[0].questions[-1]
    assert confirm.id == CONFIRM and confirm.intent == ConfirmIntent(approve=SEND)
    assert confirm.to_dict()["intent"] == {"kind": "confirm", "approve": SEND}


# --- 1: the person's time is not the tool's -----------------------------------------------------


class SlowPerson:
    """An ask port that answers after ``seconds``; ``asked`` is set when a question arrives,
    ``cancelled`` when the question is withdrawn before it was answered."""

    def __init__(self, seconds: float, answer: dict) -> None:
        self.seconds, self.answer = seconds, answer
        self.asked = asyncio.Event()
        self.cancelled = False

    async def __call__(self, questions):
        self.asked.set()
        try:
            await asyncio.sleep(self.seconds)
        except asyncio.CancelledError:
            self.cancelled = True
            raise
        person = ScriptedProvider([self.answer])
        with use_provider(person):
            return await ask_user(questions)


@pytest.mark.server
async def test_a_question_waiting_longer_than_run_timeout_does_not_fail_the_tool():
    person = SlowPerson(3.0, BOOKING)
    domain = McpDomain.stdio(sys.executable, [ELICIT_SERVER], name="elicit",
                             start_timeout=SLOW_START, run_timeout=1.5, ask=person)
    try:
        result = await domain.run("book_table", {})
    finally:
        domain.close()
    said = json.loads(result["text"])
    assert said["action"] == "accept" and said["data"]["name"] == "Ann"


async def stopped_and_withdrawn(running: asyncio.Future, person: SlowPerson) -> None:
    """Stop ``running`` (cancel it, as Stop does): it ends cancelled, and the question the
    person was asked is withdrawn."""
    running.cancel()
    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(running, 10.0)
    for _ in range(100):
        if person.cancelled:
            break
        await asyncio.sleep(0.05)
    assert person.cancelled


@pytest.mark.server
async def test_stop_while_a_question_waits_ends_the_run_and_withdraws_the_question():
    person = SlowPerson(120.0, BOOKING)
    domain = McpDomain.stdio(sys.executable, [ELICIT_SERVER], name="elicit",
                             start_timeout=SLOW_START, run_timeout=1.0, ask=person)
    try:
        running = asyncio.ensure_future(domain.run("book_table", {}))
        await asyncio.wait_for(person.asked.wait(), 30.0)
        await asyncio.sleep(1.5)  # past run_timeout: the paused clock must not have fired
        assert not running.done()
        await stopped_and_withdrawn(running, person)
    finally:
        domain.close()


@pytest.mark.server
async def test_stop_withdraws_a_question_the_sdk_asks_outside_the_calls_own_task(monkeypatch):
    """The SDK runs a server's question in a task of its own: Stop of the run must still
    withdraw it (a server that does not pass the cancellation on leaves it waiting)."""
    tool_server = str(Path(__file__).parents[1] / "mcp_servers" / "tool_server.py")
    person = SlowPerson(120.0, {})
    domain = McpDomain.stdio(sys.executable, [tool_server], name="tools",
                             start_timeout=SLOW_START, ask=person)
    asking: list[asyncio.Task] = []

    async def call_that_asks_elsewhere(tool, payload, hook):
        asking.append(asyncio.ensure_future(domain._ask_on_caller(
            [{"id": "q", "question": "Go on?", "options": ["Yes", "No"]}])))
        await asyncio.sleep(3600)

    monkeypatch.setattr(domain, "_call", call_that_asks_elsewhere)
    try:
        running = asyncio.ensure_future(domain.run("add", {"a": 1, "b": 2}))
        await asyncio.wait_for(person.asked.wait(), 30.0)
        await stopped_and_withdrawn(running, person)
    finally:
        domain.close()


def test_the_console_offers_a_confirm_no_free_text_and_reads_typed_text_as_skipped():
    from dial_notebook.interaction import ConsoleProvider

    prompts: list[str] = []

    def typed(prompt: str) -> str:
        prompts.append(prompt)
        return "send it please"

    console = ConsoleProvider(input=typed, output=lambda line: None)
    [item] = console.ask(AskRequest(confirm_batch()[1:])).answers
    assert item == AnswerItem(CONFIRM) and "another answer" not in prompts[0]
