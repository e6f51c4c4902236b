"""An MCP server's questions reach the person through the ask seam; sampling is refused unless
allowed, and even then only the person writes the reply.

The callbacks get the seam as their ``ask`` port (``ask_user``), as McpDomain passes it; the
person is a ``ScriptedProvider``. The last tests drive a real SDK server over stdio.
"""

from __future__ import annotations

import json
import sys
import webbrowser
from functools import partial
from pathlib import Path

import pytest
from mcp import types

from dial_notebook.domains.mcp._elicit import (
    CONFIRM,
    DECLINE,
    MAX_FIELDS,
    MAX_TEXT,
    OPEN,
    SEND,
    elicitation_callback,
    sampling_callback,
)
from dial_notebook.interaction import (
    ScriptedProvider,
    UserInteractionError,
    active_provider,
    ask_user,
    use_provider,
)

SERVER = "bookings"
elicit = partial(elicitation_callback, SERVER, None, ask=ask_user)
sample = partial(sampling_callback, SERVER, True, None, ask=ask_user)

EVERY_KIND = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "title": "Your name"},
        "guests": {"type": "integer", "title": "How many guests?", "minimum": 1, "maximum": 12},
        "budget": {"type": "number", "title": "Budget per person", "description": "In euros."},
        "vegetarian": {"type": "boolean", "title": "Vegetarian menu?"},
        "seating": {"type": "string", "title": "Where to sit?", "enum": ["inside", "terrace"]},
        "time": {"type": "string", "title": "When?", "oneOf": [
            {"const": "19:00", "title": "Seven"}, {"const": "21:00", "title": "Nine"}]},
        "extras": {"type": "array", "title": "Extras", "items": {
            "type": "string", "enum": ["cake", "flowers", "candles"]}},
    },
    "required": ["name", "guests", "budget", "vegetarian", "seating", "time"],
}
EVERY_ANSWER = {"field-1": {"custom": "Ann"}, "field-2": {"custom": "4"},
                "field-3": {"custom": "32.5"}, "field-4": "Yes", "field-5": "terrace",
                "field-6": "Nine", "field-7": ["cake", "candles"], CONFIRM: SEND}


def form(schema, message="Tell me about your booking."):
    return types.ElicitRequestFormParams(message=message, requested_schema=schema)


def url(address, message="Sign in to the booking service."):
    return types.ElicitRequestURLParams(message=message, url=address, elicitation_id="e1")


def one_field(prop, *, required=True):
    return {"type": "object", "properties": {"x": prop}, "required": ["x"] if required else []}


def sampling(*texts, system=None):
    messages = [types.SamplingMessage(role="user", content=types.TextContent(type="text", text=t))
                for t in texts]
    return types.CreateMessageRequestParams(messages=messages, max_tokens=100,
                                            system_prompt=system)


def closes(request):
    raise UserInteractionError("The person closed the panel.", "CANCELLED")


@pytest.fixture(autouse=True)
def no_provider_left_behind():
    assert active_provider() is None
    yield
    assert active_provider() is None


@pytest.fixture(autouse=True)
def nothing_opens_a_browser(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError(f"the package tried to open {args!r}")

    for name in ("open", "open_new", "open_new_tab"):
        monkeypatch.setattr(webbrowser, name, refuse)


async def answered(params, *answers):
    """The callback's result and the questions the person was shown, request by request."""
    person = ScriptedProvider(list(answers))
    with use_provider(person):
        result = await elicit(params)
    return result, [request.questions for request in person.requests]


# --- form mode: each mapping ---------------------------------------------------------------


async def test_accept_carries_a_typed_value_of_each_kind():
    result, _ = await answered(form(EVERY_KIND), EVERY_ANSWER)
    assert result == types.ElicitResult(action="accept", content={
        "name": "Ann", "guests": 4, "budget": 32.5, "vegetarian": True, "seating": "terrace",
        "time": "21:00", "extras": ["cake", "candles"]})
    assert isinstance(result.content["guests"], int)


async def test_each_field_is_one_question_headed_with_the_server_and_the_last_asks_to_send():
    _, [questions] = await answered(form(EVERY_KIND), EVERY_ANSWER)
    assert [q.header for q in questions] == [SERVER] * 8
    assert [q.question for q in questions[:3]] == ["Your name", "How many guests?",
                                                  "Budget per person"]
    assert questions[0].detail.startswith("Tell me about your booking.")
    assert "In euros." in questions[2].detail and "from 1 to 12" in questions[1].detail
    assert [q.labels for q in questions[1:]] == [
        (), (), ("Yes", "No"), ("inside", "terrace"), ("Seven", "Nine"),
        ("cake", "flowers", "candles"), (SEND, DECLINE)]
    assert [q.multi_select for q in questions] == [False] * 6 + [True, False]
    assert questions[-1].id == CONFIRM and SERVER in questions[-1].question


async def test_an_invalid_answer_is_asked_again_once_with_the_error_then_accepted():
    result, [first, second] = await answered(
        form(EVERY_KIND),
        {**EVERY_ANSWER, "field-2": {"custom": "many"}, "field-3": {"custom": "30"}},
        {"field-2": {"custom": "6"}, CONFIRM: SEND})
    assert result.action == "accept" and result.content["guests"] == 6
    assert result.content["budget"] == 30 and result.content["name"] == "Ann"
    assert len(first) == 8
    assert [q.id for q in second] == ["field-2", CONFIRM]  # only the field at fault, and Send
    assert "whole number" in second[0].detail and "not sent" in second[0].detail


async def test_a_value_the_schema_refuses_is_asked_again_with_the_validators_words():
    schema = {"type": "object", "required": ["mail"], "properties": {
        "mail": {"type": "string", "format": "email", "title": "Mail"},
        "age": {"type": "integer", "minimum": 18, "title": "Age"}}}
    result, [_, second] = await answered(
        form(schema), {"field-1": {"custom": "nope"}, "field-2": {"custom": "12"}, CONFIRM: SEND},
        {"field-1": {"custom": "ann@example.com"}, "field-2": {"custom": "40"}, CONFIRM: SEND})
    assert result == types.ElicitResult(action="accept",
                                        content={"mail": "ann@example.com", "age": 40})
    assert "email" in second[0].detail and "at least 18" in second[1].detail


async def test_an_answer_invalid_twice_is_declined():
    result, requests = await answered(
        form(one_field({"type": "integer", "title": "Count"})),
        {"field-1": {"custom": "many"}, CONFIRM: SEND},
        {"field-1": {"custom": "lots"}, CONFIRM: SEND})
    assert result == types.ElicitResult(action="decline") and len(requests) == 2


async def test_a_required_field_left_empty_is_asked_again():
    result, [_, second] = await answered(
        form(one_field({"type": "string", "title": "Name"})),
        {"field-1": None, CONFIRM: SEND}, {"field-1": {"custom": "Bo"}, CONFIRM: SEND})
    assert result.content == {"x": "Bo"} and "required" in second[0].detail


async def test_an_optional_field_left_empty_is_left_out_and_a_default_is_used():
    schema = {"type": "object", "properties": {
        "note": {"type": "string", "title": "Note"},
        "size": {"type": "string", "enum": ["S", "M"], "default": "M", "title": "Size"}}}
    result, [questions] = await answered(form(schema), {CONFIRM: SEND})
    assert result == types.ElicitResult(action="accept", content={"size": "M"})
    assert "leave it empty" in questions[0].detail and "M" in questions[1].detail


@pytest.mark.parametrize("verdict", [DECLINE, None])
async def test_decline_or_no_send_click_declines_and_sends_nothing(verdict):
    result, _ = await answered(form(EVERY_KIND), {**EVERY_ANSWER, CONFIRM: verdict})
    assert result == types.ElicitResult(action="decline")
    assert result.content is None


async def test_closing_the_panel_cancels():
    result, _ = await answered(form(EVERY_KIND), closes)
    assert result == types.ElicitResult(action="cancel")


async def test_with_no_provider_active_it_declines_and_asks_nothing():
    assert await elicit(form(EVERY_KIND)) == types.ElicitResult(action="decline")
    assert await elicit(url("https://example.com/")) == types.ElicitResult(action="decline")
    bare = partial(elicitation_callback, SERVER, None)  # no ask port at all
    assert await bare(form(EVERY_KIND)) == types.ElicitResult(action="decline")


async def test_an_empty_form_is_a_plain_confirmation():
    result, [questions] = await answered(form({"type": "object", "properties": {}}),
                                         {CONFIRM: SEND})
    assert result == types.ElicitResult(action="accept", content={})
    assert questions[0].detail.startswith("Tell me about your booking.")


# --- URL mode ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("choice", "action"), [(OPEN, "accept"), (DECLINE, "decline"),
                                                 (None, "decline")])
async def test_url_mode_shows_the_address_as_text_and_opens_nothing(choice, action):
    address = "https://example.com/sign-in?session=42"
    result, [[question]] = await answered(url(address), {"open": choice})
    assert result == types.ElicitResult(action=action)
    assert question.labels == (OPEN, DECLINE) and question.header == SERVER
    assert question.confirms  # open it or decline: no free text to send anywhere
    assert "Sign in to the booking service." in question.detail
    assert f"```\n{address}\n```" in question.detail and "example.com" in question.question


async def test_url_mode_names_a_look_alike_host_in_ascii():
    _, [[question]] = await answered(url("https://ex\u0430mple.com/login"), {"open": DECLINE})
    assert "xn--" in question.question and "ex\u0430mple" not in question.question


async def test_url_mode_closed_cancels():
    result, _ = await answered(url("https://example.com/"), closes)
    assert result == types.ElicitResult(action="cancel")


@pytest.mark.parametrize("address", [
    "javascript:alert(document.cookie)", "data:text/html,<script>1</script>",
    "file:///etc/passwd", "https://bank.example@evil.example/", "https://exa\u202emple.com/",
    "https://example.com/" + "a" * 5000, "https://"])
async def test_a_url_that_is_not_a_plain_web_address_is_refused_unasked(address):
    person = ScriptedProvider([])
    with use_provider(person):
        result = await elicit(url(address))
    assert isinstance(result, types.ErrorData) and result.code == types.INVALID_PARAMS
    assert SERVER in result.message and not person.requests
    assert len(result.message) < 600


# --- hostile forms ---------------------------------------------------------------------------


@pytest.mark.parametrize(("schema", "why"), [
    (one_field({"type": "object", "properties": {"city": {"type": "string"}}}), "nested"),
    (one_field({"type": "array", "items": {"type": "object"}}), "nested"),
    (one_field({"type": "array", "items": {"type": "string"}}), "choice"),
    (one_field({"$ref": "https://evil.example/schema.json"}), "$ref"),
    ({"type": "object", "properties": {"x": {"type": "string"}},
      "$defs": {"y": {"$ref": "#/$defs/y"}}}, "$ref"),
    (one_field({"type": ["string", "null"]}), "text"),
    (one_field({"title": "no type"}), "text"),
    (one_field({"type": "string", "enum": [f"v{i}" for i in range(10_000)]}), "options"),
    (one_field({"type": "string", "enum": [1, 2]}), "options"),
    (one_field({"type": "string", "pattern": "(unclosed"}), "pattern"),
    ({"type": "array"}, "object"),
    ({"type": "object", "properties": {"x": {"type": "string"}}, "required": "x"}, "required"),
    ({"type": "object", "properties": {f"p{i}": {"type": "string"} for i in range(10_000)}},
     str(MAX_FIELDS)),
])
async def test_a_form_that_is_not_flat_and_small_is_refused_unasked_with_why(schema, why):
    person = ScriptedProvider([])
    with use_provider(person):
        result = await elicit(form(schema))
    assert isinstance(result, types.ErrorData) and result.code == types.INVALID_PARAMS
    assert why in result.message and SERVER in result.message and not person.requests
    assert len(result.message) < 600


async def test_a_megabyte_of_server_text_is_bounded_and_its_hidden_characters_stripped():
    big = "Name\u202e\x1b[31m " + "x" * 1_000_000
    schema = one_field({"type": "string", "title": big, "description": big})
    result, [questions] = await answered(form(schema, message="Hello\x00 \u200b" + big),
                                         {"field-1": {"custom": "Ann"}, CONFIRM: SEND})
    assert result.content == {"x": "Ann"}
    first = questions[0]
    assert len(first.question) <= MAX_TEXT["title"] and first.question.startswith("Name[31m x")
    assert len(first.detail) <= MAX_TEXT["message"] + MAX_TEXT["description"] + 200
    assert first.detail.startswith("Hello ")
    for text in (first.question, first.detail, first.header):
        assert not any(c in text for c in "\u202e\x1b\x00\u200b")


async def test_option_labels_from_hostile_titles_stay_unique_and_map_back_to_their_values():
    schema = one_field({"type": "string", "oneOf": [
        {"const": "a", "title": "Same\u202e"}, {"const": "b", "title": "Same"},
        {"const": "c", "title": "y" * 10_000}]})
    result, [questions] = await answered(
        form(schema), lambda request: {"field-1": request.questions[0].labels[1], CONFIRM: SEND})
    assert len(set(questions[0].labels)) == 3 and result.content == {"x": "b"}
    assert max(map(len, questions[0].labels)) <= MAX_TEXT["label"]


async def test_html_in_server_text_reaches_the_person_as_plain_text():
    result, [questions] = await answered(
        form(one_field({"type": "boolean", "title": "<b>Sure?</b>"}),
             message="<img src=x onerror=alert(1)>"),
        {"field-1": "No", CONFIRM: SEND})
    assert result.content == {"x": False}
    assert questions[0].question == "<b>Sure?</b>"  # text, drawn with textContent, never HTML
    assert questions[0].detail.startswith("<img src=x onerror=alert(1)>")


# --- sampling ---------------------------------------------------------------------------------


async def test_sampling_is_refused_unless_allowed_and_nothing_is_asked():
    person = ScriptedProvider([])
    with use_provider(person):
        result = await sampling_callback(SERVER, False, None, sampling("hi"), ask=ask_user)
    assert isinstance(result, types.ErrorData) and result.code == types.INVALID_REQUEST
    assert result.message == (f"{SERVER} asked the model to write a message; sampling is not "
                              "allowed for this server: McpDomain(..., allow_sampling=True)")
    assert not person.requests


async def test_allowed_sampling_answers_with_the_text_the_person_typed():
    person = ScriptedProvider([{"reply": {"custom": "A short summary."}}])
    with use_provider(person):
        result = await sample(sampling("Summarise this: " + "z" * 1_000_000, system="Be brief"))
    assert result.role == "assistant" and result.content.text == "A short summary."
    assert "person" in result.model
    [[question]] = [r.questions for r in person.requests]
    assert question.header == SERVER and question.labels == (DECLINE,)
    assert "Be brief" in question.detail and "Summarise this:" in question.detail
    assert len(question.detail) <= MAX_TEXT["transcript"] + 200


@pytest.mark.parametrize("answer", [{"reply": DECLINE}, {"reply": None}, closes])
async def test_allowed_sampling_declined_skipped_or_closed_is_an_error_the_server_reads(answer):
    with use_provider(ScriptedProvider([answer])):
        result = await sample(sampling("hi"))
    assert isinstance(result, types.ErrorData) and SERVER in result.message


async def test_allowed_sampling_with_no_provider_asks_nothing_and_refuses():
    result = await sample(sampling("hi"))
    assert isinstance(result, types.ErrorData) and "nobody" in result.message


# --- a real server over stdio -----------------------------------------------------------------

SERVER_SCRIPT = Path(__file__).parents[1] / "mcp_servers" / "elicit_server.py"


@pytest.mark.server
async def test_a_real_servers_questions_go_through_the_ask_seam():
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    person = ScriptedProvider([
        {"field-1": {"custom": "Ann"}, "field-2": {"custom": "2"}, "field-3": {"custom": "30.5"},
         "field-4": "No", "field-5": "inside", CONFIRM: SEND},
        {"open": OPEN},
    ])
    parameters = StdioServerParameters(command=sys.executable, args=[str(SERVER_SCRIPT)])
    with use_provider(person), Path("/dev/null").open("w") as quiet:
        async with stdio_client(parameters, errlog=quiet) as (read, write), ClientSession(
            read, write,
            elicitation_callback=partial(elicitation_callback, "elicit-server", ask=ask_user),
            sampling_callback=partial(sampling_callback, "elicit-server", False, ask=ask_user),
        ) as session:
            await session.initialize()
            said = {}
            for tool in ("book_table", "sign_in", "nested", "summarise"):
                result = await session.call_tool(tool, {})
                said[tool] = json.loads(result.content[0].text)
    assert said["book_table"] == {"action": "accept", "data": {
        "name": "Ann", "guests": 2, "budget": 30.5, "vegetarian": False, "seating": "inside"}}
    assert said["sign_in"] == {"action": "accept"}
    assert "nested" in said["nested"]["error"]
    assert "allow_sampling=True" in said["summarise"]["error"]
    [booking, sign_in] = [request.questions for request in person.requests]
    assert booking[0].header == "elicit-server" and booking[0].question == "Your name"
    assert "https://example.com/sign-in?session=42" in sign_in[0].detail
