"""Render hints and payloads of informs, taken from the reply and matched with the runtime's
inform events; and the ChatWidget with the real Conversation, without a kernel."""

from __future__ import annotations

import asyncio
import json

from dial_notebook.domains.notes import NotesDomain
from dial_notebook.widget import ChatWidget
from dial_notebook.widget._human import issue_of, options_of
from dial_notebook.widget._render_hints import RenderHints
from dial_notebook.widget._serialise import json_safe

TABLE = ('<dial><dial-inform render="table">Rows:<dial-payload type="application/json">'
         '[{"a": 1}]</dial-payload></dial-inform>'
         '<dial-inform render="code">x = 1</dial-inform>'
         '<dial-inform render="media"><dial-payload>{"src": "https://e.org/a.png"}'
         '</dial-payload></dial-inform>'
         '<dial-acknowledge>ok</dial-acknowledge></dial>')


def test_an_inform_gets_its_render_hint_and_payload_from_the_reply():
    hints = RenderHints()
    hints.read(TABLE)
    shown = hints.enrich({"type": "inform", "text": "Rows:", "act": "inform"})
    assert shown == [{"type": "inform", "text": "Rows:", "act": "inform", "render": "table",
                      "payload": [{"a": 1}]}]


def test_an_inform_with_only_a_payload_is_shown_before_the_next_matched_one():
    hints = RenderHints()
    hints.read(TABLE)
    hints.enrich({"type": "inform", "text": "Rows:", "act": "inform"})
    hints.enrich({"type": "inform", "text": "x = 1", "act": "inform"})
    shown = hints.enrich({"type": "inform", "text": "ok", "act": "acknowledge"})
    assert shown[0] == {"type": "inform", "text": "", "act": "inform", "render": "media",
                        "payload": {"src": "https://e.org/a.png"}}
    assert shown[1]["text"] == "ok" and "render" not in shown[1]
    assert hints.flush() == []


def test_events_that_already_carry_a_hint_or_come_from_plain_text_are_left_alone():
    hints = RenderHints()
    hints.read(TABLE)
    plain = {"type": "inform", "text": "Rows:"}
    assert hints.enrich(plain) == [plain]
    given = {"type": "inform", "text": "Rows:", "act": "inform", "render": "raw"}
    assert hints.enrich(given) == [given]


def test_a_reply_that_is_not_dial_gives_no_hints():
    hints = RenderHints()
    hints.read("just words <not dial")
    assert hints.flush() == []


def test_a_refusal_becomes_the_issue_and_one_error_per_field():
    issue, errors = issue_of({"issue": {"code": "invalid-payload", "field": "text",
                                        "hint": "text must not be empty"}})
    assert issue == {"text": "text must not be empty", "code": "invalid-payload",
                     "field": "text"}
    assert errors == [{"field": "text", "message": "text must not be empty"}]
    assert issue_of({"issue": None}) == (None, [])


def test_options_given_as_strings_or_dicts_read_the_same():
    assert options_of({"options": ["a", {"value": "b", "label": "B", "disabled": True}]}) == [
        {"value": "a", "label": "a", "default": False, "disabled": False},
        {"value": "b", "label": "B", "default": False, "disabled": True}]


def test_json_safe_turns_nan_and_infinity_into_null():
    assert json.dumps(json_safe({"x": [float("nan"), float("-inf"), 1.0]}),
                      allow_nan=False) == '{"x": [null, null, 1.0]}'


async def test_with_the_real_conversation_an_accept_click_adds_the_note():
    replies = iter([
        '<dial><dial-suggest id="n1" action="add-note"><dial-payload>{"text": "milk"}'
        '</dial-payload></dial-suggest></dial>',
        '<dial><dial-acknowledge>Added.</dial-acknowledge></dial>',
    ])
    domain = NotesDomain()
    chat = ChatWidget(agent=lambda message: next(replies), domain=domain)
    task = chat.say("add milk")
    for _ in range(50):
        await asyncio.sleep(0.01)
        if chat.pending:
            break
    assert chat.pending["id"] == "n1"
    assert chat.schemas["add-note"]["required"] == ["text"]
    chat._handle_custom_msg({"type": "decide", "token": chat.pending["token"],
                             "decision": "accept"}, [])
    result = await asyncio.wait_for(task, 5)
    assert result.status == "idle"
    assert [note["text"] for note in domain.notes] == ["milk"]
    assert chat.transcript[-1] == {"type": "inform", "text": "Added.", "act": "acknowledge"}
