"""The Playground without a kernel: built directly, the editor changed as the front end would
change it, buttons clicked with ``click()``, and the person's decisions delivered to the
ChatWidget's front-end message handler exactly as ipywidgets delivers a comm message (as
tests/unit/test_widget_chat.py does). The runtime, the notes domain and the agent are real."""

from __future__ import annotations

import asyncio
import html
from typing import Any

import pytest

from dial_notebook.dial import outcome_reply
from dial_notebook.domains import NotesDomain, SchemaDomain
from dial_notebook.widget import ChatWidget, Playground
from dial_notebook.widget._playground_agent import FOLLOW_UP, LearnerAgent
from dial_notebook.widget._playground_examples import EXAMPLES_BY_KEY
from dial_notebook.widget._playground_views import lint_html, received_html

from .runtime_doubles import until

DOMAINS = {"notes": lambda: NotesDomain(["buy milk", "call Sam"]),
           "nothing": lambda: SchemaDomain("nothing")}


def make() -> Playground:
    return Playground(domains=DOMAINS)


def click(chat: ChatWidget, **content: Any) -> None:
    chat._handle_custom_msg(content, [])


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
    assert playground.chat.transcript[-1]["text"] == "Noted, thank you."


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
