"""The Playground without a kernel: built directly, the editor changed as the front end would
change it, buttons clicked with ``click()``, and the person's decisions delivered to the
ChatWidget's front-end message handler exactly as ipywidgets delivers a comm message (as
tests/unit/test_widget_chat.py does). The runtime, the notes domain and the agent are real."""

from __future__ import annotations

import asyncio
import html
import importlib.util
import json
import re
from pathlib import Path
from typing import Any

import pytest

from dial_notebook.dial import outcome_reply
from dial_notebook.domains import NotesDomain, SchemaDomain
from dial_notebook.widget import ChatWidget, Playground
from dial_notebook.widget._playground_agent import FOLLOW_UP, LearnerAgent
from dial_notebook.widget._playground_examples import EXAMPLES_BY_KEY
from dial_notebook.widget._playground_views import (
    clip,
    envelope_html,
    lint_html,
    received_html,
)

from .runtime_doubles import click, until

DOMAINS = {"notes": lambda: NotesDomain(["buy milk", "call Sam"]),
           "nothing": lambda: SchemaDomain("nothing")}


def make() -> Playground:
    return Playground(domains=DOMAINS)


def received(playground: Playground) -> str:
    return html.unescape(playground.received.value)


# ---- built without a kernel; panels follow the editor --------------------------------------

def test_it_builds_without_a_kernel_with_the_suggest_example_loaded():
    playground = make()
    assert playground.example_menu.value == "suggest-payload"
    assert playground.editor.value == EXAMPLES_BY_KEY["suggest-payload"].xml
    assert playground.says.value == "add a note: buy milk"
    assert "suggest" in playground.parsed.value and "add-note" in playground.parsed.value
    assert "No findings" in playground.findings.value
    assert "Nothing sent yet" in playground.received.value
    assert isinstance(playground.chat, ChatWidget)
    assert isinstance(playground.domain, NotesDomain)


def test_the_notes_domain_is_the_default_and_comes_first():
    playground = Playground()
    assert playground.domain_menu.value == playground.domain_menu.options[0]
    assert isinstance(playground.domain, NotesDomain)


def test_choosing_an_example_loads_its_reply_its_words_and_its_note():
    playground = make()
    playground.example_menu.value = "ask-choice"
    example = EXAMPLES_BY_KEY["ask-choice"]
    assert playground.editor.value == example.xml
    assert playground.says.value == example.says
    assert html.escape(example.note) in playground.note.value
    assert "response-type" in playground.parsed.value and "groceries" in playground.parsed.value


def test_the_parsed_panel_follows_the_editor():
    playground = make()
    playground.editor.value = ('<dial version="0.1" actor="agent">'
                               '<dial-phatic signal="typing"/></dial>')
    assert "phatic" in playground.parsed.value and "typing" in playground.parsed.value
    assert "suggest" not in playground.parsed.value


def test_the_lint_panel_follows_the_editor_with_line_column_and_explanation():
    playground = make()
    playground.editor.value = ('<dial version="0.1" actor="agent">\n'
                               '  <dial-infrom>hi</dial-infrom>\n</dial>')
    shown = html.unescape(playground.findings.value)
    assert "line 2, column 3" in shown and "unknown-element" in shown
    assert "Did you mean 'dial-inform'?" in shown
    playground.editor.value = EXAMPLES_BY_KEY["inform-prose"].xml
    assert "No findings" in playground.findings.value


def test_the_malformed_example_shows_its_repairs_explained_and_the_xml_error():
    playground = make()
    playground.load("malformed")
    parsed = html.unescape(playground.parsed.value)
    for kind in ("escaped-ampersand", "escaped-less-than", "closed-tag"):
        assert kind in parsed
    assert "In XML '&' starts an entity" in parsed
    assert "What the parser read after repair" in parsed
    assert "not-well-formed" in playground.findings.value


def test_learner_text_is_escaped_in_every_panel():
    playground = make()
    attack = '<img src=x onerror="alert(1)">'
    playground.editor.value = (f'<dial version="0.1" actor="agent"><dial-inform>{attack}'
                               "</dial-inform><script>alert(2)</script></dial>")
    for panel in (playground.parsed, playground.findings):
        assert "<img" not in panel.value and "<script" not in panel.value
    assert "&lt;img" in playground.parsed.value
    assert "<script" not in received_html("<script>alert(3)</script>")


def test_the_lint_panel_says_so_when_there_is_no_envelope():
    assert "no-envelope" in lint_html("just words")


# ---- Send feeds the chat; the agent's view of the outcome ------------------------------------

async def test_send_feeds_the_typed_reply_to_the_chat_and_a_card_waits():
    playground = make()
    task = playground.send()
    await until(lambda: playground.chat.pending)
    reply = next(e for e in playground.chat.transcript if e["type"] == "reply")
    assert reply["text"] == playground.editor.value
    assert playground.chat.pending["id"] == "sg-milk"
    assert playground.agent.received[0].endswith("add a note: buy milk")
    assert "add a note: buy milk" in received(playground)
    click(playground.chat, type="decide", token=playground.chat.pending["token"],
          decision="dismiss")
    await task


async def test_accepting_the_card_shows_the_exact_outcome_reply_the_agent_receives():
    playground = make()
    task = playground.send()
    await until(lambda: playground.chat.pending)
    click(playground.chat, type="decide", token=playground.chat.pending["token"],
          decision="accept")
    result = await task
    assert [o["status"] for o in result.outcomes] == ["done"]
    shown = received(playground)
    assert outcome_reply(result.outcomes) in shown
    assert 'yield="sg-milk:done"' in shown
    assert playground.agent.received[-1] in shown
    assert playground.chat.transcript[-1]["text"] == "Noted, thank you."  # the canned follow-up


async def test_an_edit_the_domain_refuses_comes_back_then_the_fix_is_reported_edited():
    playground = make()
    task = playground.send()
    await until(lambda: playground.chat.pending)
    click(playground.chat, type="decide", token=playground.chat.pending["token"],
          decision="edit", payload={"text": ""})
    await until(lambda: playground.chat.pending.get("issue"))
    click(playground.chat, type="decide", token=playground.chat.pending["token"],
          decision="edit", payload={"text": "oat milk"})
    await task
    assert '"edited":true' in received(playground)
    assert playground.domain.notes[-1]["text"] == "oat milk"


async def test_the_suggest_with_a_declare_becomes_one_card_with_the_declares_payload():
    playground = make()
    playground.load("suggest-declare")
    task = playground.send()
    await until(lambda: playground.chat.pending)
    assert playground.chat.pending["payload"] == {"text": "call the plumber"}
    click(playground.chat, type="decide", token=playground.chat.pending["token"],
          decision="accept")
    await task
    assert 'yield="sg-plumber:done"' in received(playground)


async def test_an_answer_to_a_question_is_what_the_agent_receives_next():
    playground = make()
    playground.load("ask-choice")
    task = playground.send()
    await until(lambda: playground.chat.pending)
    assert playground.chat.pending["kind"] == "answer"
    click(playground.chat, type="answer", token=playground.chat.pending["token"],
          value="people")
    await task
    assert len(playground.agent.received) == 2
    assert "people" in playground.agent.received[1]
    assert "people" in received(playground)


async def test_an_action_the_chosen_domain_lacks_is_invalid_and_reported_at_once():
    playground = make()
    playground.domain_menu.value = "nothing"
    assert isinstance(playground.domain, SchemaDomain)
    assert not isinstance(playground.domain, NotesDomain)
    result = await playground.send()
    assert [o["status"] for o in result.outcomes] == ["invalid"]
    assert playground.chat.pending == {}
    assert 'yield="sg-milk:invalid"' in received(playground)


async def test_the_send_button_sends_and_says_so():
    playground = make()
    playground.load("inform-prose")
    playground.send_button.click()
    await until(lambda: len(playground.agent.received) == 1 and not playground.chat.running)
    assert any(e.get("text") == "Hello! I can add, list and remove your notes."
               for e in playground.chat.transcript)
    assert "Sent." in playground.status.value


def test_without_an_event_loop_send_says_why_instead_of_raising():
    playground = make()
    playground.send_button.click()
    assert "RuntimeError" in playground.status.value and "event loop" in playground.status.value


async def test_new_conversation_starts_a_fresh_chat_agent_and_domain():
    playground = make()
    task = playground.send()
    await until(lambda: playground.chat.pending)
    old_chat, old_domain = playground.chat, playground.domain
    playground.reset_button.click()
    await task  # closing the old chat supersedes its card
    assert playground.chat is not old_chat and playground.domain is not old_domain
    assert playground._chat_box.children == (playground.chat,)
    assert playground.chat.transcript == [] and playground.agent.received == []
    assert "Nothing sent yet" in playground.received.value


# ---- the learner's agent ------------------------------------------------------------------

async def test_the_learner_agent_answers_once_with_the_armed_reply_then_follows_up():
    agent = LearnerAgent()
    agent.arm("<dial/>")
    agent.arm("<dial>latest</dial>")
    assert await agent.send("one") == "<dial>latest</dial>"
    assert agent.armed is None
    assert await agent.send("two") == FOLLOW_UP
    assert agent.received == ["one", "two"]


@pytest.mark.parametrize("key", list(EXAMPLES_BY_KEY))
async def test_every_example_sent_as_the_agent_runs_to_rest_without_an_error(key):
    playground = make()
    playground.load(key)
    task = playground.send()
    while not task.done():
        await until(lambda: task.done() or playground.chat.pending)
        pending = playground.chat.pending
        if pending.get("kind") == "decide":
            click(playground.chat, type="decide", token=pending["token"], decision="accept")
        elif pending.get("kind") == "answer":  # a confirm's buttons send yes or no
            value = "yes" if pending.get("response_type") == "confirm" else "3"
            click(playground.chat, type="answer", token=pending["token"], value=value)
        await asyncio.sleep(0)
    assert (await task).status == "idle"
    kinds = [event["type"] for event in playground.chat.transcript]
    assert "error" not in kinds and kinds[:3] == ["person", "sent", "reply"]
    assert playground.agent.received[0].endswith(EXAMPLES_BY_KEY[key].says)


def test_a_playground_without_domains_or_with_an_unknown_first_example_is_refused():
    with pytest.raises(ValueError, match="at least one domain"):
        Playground(domains={})
    with pytest.raises(KeyError, match="no example 'nope'"):
        Playground(domains=DOMAINS, example="nope")


# ---- the execute example, as shipped ---------------------------------------------------------

async def accept_pending(playground: Playground, task: asyncio.Task[Any]) -> Any:
    await until(lambda: playground.chat.pending)
    click(playground.chat, type="decide", token=playground.chat.pending["token"],
          decision="accept")
    return await task


async def test_the_execute_example_waits_for_accept_on_its_card_then_every_step_is_done():
    playground = make()  # no executors given: python on (the runtime's default), shell off
    playground.load("execute")
    task = playground.send()
    await until(lambda: playground.chat.pending)
    card = next(e for e in playground.chat.transcript if e["type"] == "suggestion")
    assert card["kind"] == "execute" and card["destructive"]  # drawn "Runs code"
    assert [(s["id"], s["env"]) for s in card["payload"]["steps"]] == [
        ("make", "python"), ("count", "python")]
    assert not any(e["type"] == "outcome" for e in playground.chat.transcript)  # nothing ran
    result = await accept_pending(playground, task)
    assert [(o["id"], o["status"]) for o in result.outcomes] == [
        ("make", "done"), ("count", "done")]
    assert result.outcomes[0]["result"] == {"value": "['milk', 'bread', 'eggs']"}
    assert result.outcomes[1]["result"] == {"value": "3",
                                            "stdout": "3 items: milk, bread, eggs\n"}
    shown = received(playground)
    assert 'of="make" yield="make:done"' in shown and 'of="count" yield="count:done"' in shown
    assert "3 items: milk, bread, eggs" in shown


async def test_the_execute_examples_python_steps_run_in_the_namespace_the_executor_is_given():
    from dial_notebook.runtime import python_executor

    namespace: dict[str, Any] = {}
    playground = Playground(domains=DOMAINS,
                            chat_options={"executors": {"python": python_executor(namespace)}})
    playground.load("execute")
    await accept_pending(playground, playground.send())
    assert namespace["shopping"] == ["milk", "bread", "eggs"]


# ---- switching the domain (tour step 6) ----------------------------------------------------

async def test_switching_to_the_sales_domain_starts_afresh_and_the_suggest_is_invalid_at_once():
    import pandas  # noqa: F401  (the test extra: fails, never skips, without it)
    playground = Playground()
    await accept_pending(playground, playground.send())  # something in the chat first
    playground.domain_menu.value = "sales data frame (DataFramesDomain)"
    assert playground.chat.transcript == [] and "Nothing sent yet" in playground.received.value
    assert "New conversation" in playground.status.value
    assert playground.editor.value == EXAMPLES_BY_KEY["suggest-payload"].xml  # kept
    result = await playground.send()
    assert playground.chat.pending == {}  # no card, no waiting for the person
    assert not any(e["type"] == "suggestion" for e in playground.chat.transcript)
    outcome = next(e for e in playground.chat.transcript if e["type"] == "outcome")
    # what the chat's status line reads: "add-note: Invalid — There is no action 'add-note'."
    assert (outcome["action"], outcome["status"], outcome["hint"]) == (
        "add-note", "invalid", "There is no action 'add-note'.")
    assert [o["code"] for o in result.outcomes] == ["unknown-action"]
    shown = received(playground)
    assert "turn 2" in shown and 'yield="sg-milk:invalid"' in shown
    assert '<context frames="1">' in shown


# ---- the parser panel cuts at line ends, saying what it left out -----------------------------

def test_clip_keeps_whole_lines_and_says_how_many_lines_and_characters_are_left_out():
    text = "\n".join(f"line {n:03d}" for n in range(1, 401))  # 400 lines of 8 characters
    shown, note = clip(text, limit=100)
    assert shown.split("\n") == [f"line {n:03d}" for n in range(1, 12)]  # 11 whole lines
    assert note == f"… 389 more lines not shown ({len(text) - len(shown) - 1:,} characters)"
    assert clip("short", limit=100) == ("short", "")


def test_clip_cuts_inside_a_line_only_when_the_first_line_alone_is_too_long():
    shown, note = clip("x" * 150 + "\nnext\nlast", limit=100)
    assert shown == "x" * 100
    assert note == "… the rest of this line and 2 more lines not shown (60 characters)"
    assert clip("y" * 120, limit=100)[1] == "… the rest of this line not shown (20 characters)"


def test_a_long_payload_in_the_parser_panel_ends_at_a_line_end_with_what_was_left_out():
    rows = ",\n".join(f'  {{"id": {n}, "text": "note number {n}"}}' for n in range(300))
    playground = make()
    playground.editor.value = ('<dial version="0.1" actor="agent"><dial-inform render="table">'
                               f'<dial-payload type="application/json">[\n{rows}\n]'
                               "</dial-payload></dial-inform></dial>")
    parsed = html.unescape(playground.parsed.value)
    shown = parsed.split("<pre>")[-1].split("</pre>")[0]
    full = json.dumps([{"id": n, "text": f"note number {n}"} for n in range(300)], indent=2)
    assert len(shown) <= 2000 and full.startswith(shown + "\n")  # whole lines only
    left = full[len(shown) + 1:]
    assert (f"… {left.count(chr(10)) + 1:,} more lines not shown ({len(left):,} characters)"
            in parsed)


def test_the_received_panel_is_cut_at_a_line_end_too():
    message = "\n".join(f"row {n}" for n in range(10_000))
    shown = html.unescape(received_html(message, 2))
    body = shown.split("<pre data-dpg-received=\"\">")[1].split("</pre>")[0]
    assert body.split("\n")[-1].startswith("row ") and message.startswith(body)
    assert f"row {len(body.split(chr(10))) - 1}" == body.split("\n")[-1]
    assert "more lines not shown" in shown


# ---- options: every one shown the same way -------------------------------------------------

def options_shown(text: str) -> list[str]:
    """Each option row of the parser panel as plain text."""
    rows = re.findall(r'<li data-dpg-option="">(.*?)</li>', envelope_html(text))
    return [html.unescape(re.sub(r"<[^>]+>", "", row)) for row in rows]


def test_every_option_of_the_choice_shows_its_value_then_its_text():
    assert options_shown(EXAMPLES_BY_KEY["ask-choice"].xml) == [
        'option value="groceries" default="true" shown as “Groceries list”',
        'option value="people" shown as “People to call”',
        'option value="archive" disabled="true" shown as “Archive (read-only)”',
    ]


def test_a_confirm_shows_the_yes_and_no_it_offers_the_same_way_and_ignores_agent_options():
    assert options_shown(EXAMPLES_BY_KEY["ask-confirm"].xml) == [
        'option value="yes" shown as “Yes”', 'option value="no" shown as “No”']
    written = ('<dial version="0.1" actor="agent"><dial-ask response-type="confirm">Go?'
               '<dial-option value="yes">No, leave it</dial-option></dial-ask></dial>')
    assert options_shown(written) == [
        'option value="yes" shown as “Yes”', 'option value="no" shown as “No”',
        'option value="yes" shown as “No, leave it” ignored: a confirm is always Yes / No']


def test_options_on_an_ask_that_is_not_a_choice_are_shown_ignored():
    written = ('<dial version="0.1" actor="agent"><dial-ask response-type="text">Name?'
               "<dial-option value='a'>A</dial-option></dial-ask></dial>")
    assert options_shown(written) == [
        'option value="a" shown as “A” ignored: only a choice offers options']


def test_an_option_without_text_is_shown_as_its_value_as_the_chat_shows_it():
    written = ('<dial version="0.1" actor="agent"><dial-ask response-type="choice">Which?'
               '<dial-option value="red"/></dial-ask></dial>')
    assert options_shown(written) == ['option value="red" shown as “red”']


# ---- where the outcome's id comes from -----------------------------------------------------

def test_the_parser_panel_says_the_outcome_is_named_by_the_suggests_id_not_its_yields():
    parsed = html.unescape(envelope_html(EXAMPLES_BY_KEY["suggest-payload"].xml))
    assert '<dial-acknowledge of="sg-milk" yield="sg-milk:STATUS">: sg-milk is its id' in parsed
    assert 'Its own yield="milk:added milk:dismissed" is not sent back' in parsed
    anonymous = EXAMPLES_BY_KEY["suggest-payload"].xml.replace(' id="sg-milk"', "")
    assert "the id the runtime gives it, as it has none (sg-1, sg-2 …)" in html.unescape(
        envelope_html(anonymous))


def test_the_parser_panel_says_an_execute_comes_back_per_step_by_the_steps_ids():
    parsed = html.unescape(envelope_html(EXAMPLES_BY_KEY["execute"].xml))
    assert "named by the step's id (of=\"make\", of=\"count\")" in parsed
    assert 'dismissed, as one for the block: of="shopping"' in parsed


async def test_a_suggest_without_an_id_comes_back_as_the_runtimes_sg_n():
    playground = make()
    playground.editor.value = EXAMPLES_BY_KEY["suggest-payload"].xml.replace(' id="sg-milk"', "")
    await accept_pending(playground, playground.send())
    assert 'of="sg-1" yield="sg-1:done"' in received(playground)


async def test_the_received_panel_explains_each_outcome_by_its_id_and_status():
    playground = make()
    await accept_pending(playground, playground.send())
    shown = received(playground)
    assert "is one outcome, named by the id of your suggest or execute step" in shown
    assert "Here: sg-milk → done." in shown
    assert "Your elements' own yield events are never sent back" in shown


def test_the_received_panel_says_an_unknown_action_is_unknown_not_an_invalid_payload():
    message = outcome_reply([
        {"id": "sg-1", "action": "add-notez", "status": "invalid", "preview": "",
         "code": "unknown-action", "hint": "There is no action 'add-notez'."},
        {"id": "sg-2", "action": "add-note", "status": "invalid", "preview": "",
         "code": "invalid-payload", "field": "text", "hint": "text must not be empty"},
    ]) + '\n\n<context notes="2"/>'
    shown = html.unescape(received_html(message, 2))
    read = shown[:shown.index("<pre")]
    assert "sg-1 → invalid: there is no action 'add-notez'" in read
    assert "sg-2 → invalid: the payload was refused (text must not be empty)" in read
    # the wire text stays the runtime's, word for word
    assert "Not proposed to the user — the payload for add-notez is invalid." in shown


def test_the_received_panel_explains_nothing_when_no_outcome_starts_the_message():
    assert "data-dpg-read" not in received_html('<context notes="2"/>\n\nhello <dial>', 1)


# ---- the notebook's tour says what the playground does -------------------------------------

def tour() -> str:
    path = Path(__file__).resolve().parents[2] / "scripts" / "make_teaching_notebook.py"
    spec = importlib.util.spec_from_file_location("make_teaching_notebook", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return next(text for kind, text in module.CELLS if "## A tour for a class" in text)


async def test_the_tour_quotes_what_the_playground_actually_shows():
    text = " ".join(tour().split())
    playground = make()
    await accept_pending(playground, playground.send())
    accepted = received(playground)
    assert '<dial-acknowledge of="sg-milk" yield="sg-milk:done">' in text
    assert '<dial-acknowledge of="sg-milk" yield="sg-milk:done">' in accepted
    example = EXAMPLES_BY_KEY["suggest-payload"].xml
    assert 'id="sg-milk"' in example and 'yield="milk:added milk:dismissed"' in example
    assert '`yield="milk:added milk:dismissed"`' in text
    assert "Not accepted: text must not be empty" in text  # the card's words for the refusal
    assert NotesDomain().validate("add-note", {"text": ""})["hint"] == "text must not be empty"
    choice = EXAMPLES_BY_KEY["ask-choice"].xml
    assert 'value="people">People to call<' in choice and "**People to call**" in text
    assert "3 items: milk, bread, eggs" in text and "`shopping`" in text
    assert "*add-note: Invalid — There is no action 'add-note'.*" in text
    assert "`sales data frame (DataFramesDomain)`" in text
    assert "sales data frame (DataFramesDomain)" in Playground().domain_menu.options
