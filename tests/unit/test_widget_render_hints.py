"""Render hints and payloads reach the surface on the runtime's inform events; and the
ChatWidget with the real Conversation, without a kernel."""

from __future__ import annotations

import asyncio
import json

from dial_notebook.domains.notes import NotesDomain
from dial_notebook.runtime import Conversation, policy_human
from dial_notebook.widget import ChatWidget
from dial_notebook.widget._human import issue_of, options_of
from dial_notebook.widget._serialise import json_safe

TABLE = ('<dial><dial-inform render="table">Rows:<dial-payload type="application/json">'
         '[{"a": 1}]</dial-payload></dial-inform>'
         '<dial-inform render="code">x = 1</dial-inform>'
         '<dial-inform render="media"><dial-payload>{"src": "https://e.org/a.png"}'
         '</dial-payload></dial-inform>'
         '<dial-acknowledge>ok</dial-acknowledge></dial>')


def informs_of(reply: str, **options) -> list[dict]:
    events: list[dict] = []
    conversation = Conversation(agent=lambda message: reply, domain=NotesDomain(),
                                human=policy_human(), on_event=events.append, **options)
    conversation.say_sync("show me")
    return [e for e in events if e["type"] == "inform"]


def test_inform_events_carry_their_render_hint_and_payload_in_reply_order():
    assert informs_of(TABLE) == [
        {"type": "inform", "text": "Rows:", "act": "inform", "render": "table",
         "payload": [{"a": 1}]},
        {"type": "inform", "text": "x = 1", "act": "inform", "render": "code"},
        {"type": "inform", "text": "", "act": "inform", "render": "media",
         "payload": {"src": "https://e.org/a.png"}},
        {"type": "inform", "text": "ok", "act": "acknowledge"},
    ]


def test_the_reference_mode_shows_no_payload_only_inform():
    assert [e["text"] for e in informs_of(TABLE, full_dial=False)] == ["Rows:", "x = 1", "ok"]


def test_a_payload_that_is_not_json_reaches_the_surface_as_its_text():
    (event,) = informs_of('<dial><dial-inform render="table">T<dial-payload>{bad</dial-payload>'
                          "</dial-inform></dial>")
    assert event["payload"] == "{bad"


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
