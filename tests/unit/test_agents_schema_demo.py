"""SchemaDemoAgent: payloads made from any SchemaDomain's schemas — valid ones that the domain
accepts, broken ones that it refuses naming the field — and conversations through the real
Conversation, every reply checked with lint."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

import dial_notebook
from dial_notebook.agents import DemoAgent, SchemaDemoAgent
from dial_notebook.agents._schema_payloads import KINDS, PayloadMaker, from_pattern
from dial_notebook.domains import ActionError, SchemaDomain
from dial_notebook.domains.dataframes import SCHEMAS as FRAME_SCHEMAS
from dial_notebook.domains.notes import NotesDomain
from dial_notebook.runtime import Conversation, policy_human, scripted_human
from tests.hypothesis_profiles import examples

from .runtime_doubles import LintChecked, said

# -- domains ---------------------------------------------------------------------------------

TODO_SCHEMA = {  # the prototyping notebook's
    "type": "object",
    "properties": {"title": {"type": "string", "minLength": 1, "maxLength": 80},
                   "priority": {"enum": ["low", "normal", "high"]},
                   "due": {"type": "string", "format": "date"}},
    "required": ["title"], "additionalProperties": False,
}


def make_todo() -> tuple[SchemaDomain, list[dict[str, Any]]]:
    todos: list[dict[str, Any]] = []
    todo = SchemaDomain("todo", context=lambda: f'<context todos="{len(todos)}"/>',
                        description="A small todo list.")

    @todo.action(schema=TODO_SCHEMA, preview="Add the todo '{title}'")
    def add_todo(payload):
        """Adds a todo."""
        todos.append({"priority": "normal", **payload})
        return {"count": len(todos)}

    @todo.action(schema={"type": "object"}, mutates=False)
    def list_todos(payload):
        """Lists the todos."""
        return {"todos": todos}

    return todo, todos


PERSON = {"type": "object", "properties": {
    "name": {"type": "string", "minLength": 2}, "email": {"type": "string", "format": "email"}},
    "required": ["name", "email"], "additionalProperties": False}

SCHEMAS: dict[str, dict[str, Any]] = {
    "todo": TODO_SCHEMA,
    "defs-refs-arrays": {
        "$defs": {"person": PERSON}, "type": "object",
        "properties": {"owner": {"$ref": "#/$defs/person"},
                       "members": {"type": "array", "items": {"$ref": "#/$defs/person"},
                                   "minItems": 2, "uniqueItems": True}},
        "required": ["owner", "members"]},
    "numbers": {"type": "object", "required": ["age", "ratio", "step", "below", "score"],
                "properties": {
                    "age": {"type": "integer", "minimum": 18, "maximum": 99},
                    "ratio": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1},
                    "step": {"type": "number", "multipleOf": 0.25, "minimum": 2.1},
                    "below": {"type": "integer", "exclusiveMaximum": 0},
                    "score": {"type": "number", "minimum": -5.5, "maximum": -5.25}}},
    "patterns": {"type": "object", "required": ["code", "slug", "name"],
                 "additionalProperties": False,
                 "properties": {"code": {"type": "string", "pattern": "^[A-Z]{3}-[0-9]{4}$"},
                                "slug": {"type": "string", "pattern": "^[a-z]+(-[a-z]+)*$",
                                         "minLength": 8},
                                "name": {"type": "string", "pattern": "^[A-Za-z][A-Za-z0-9_]*$",
                                         "maxLength": 60},
                                "strong": {"type": "string",  # lookaheads: not made, skipped
                                           "pattern": "^(?=.*[0-9])(?=.*[a-z]).{8,}$"}}},
    "formats": {"type": "object", "required": ["date", "date-time", "email", "uri"],
                "properties": {name: {"type": "string", "format": name} for name in (
                    "date", "date-time", "time", "email", "uri", "uuid", "ipv4", "ipv6",
                    "hostname", "duration")}},
    "one-of": {"type": "object", "required": ["shape"], "properties": {"shape": {"oneOf": [
        {"type": "object", "properties": {"kind": {"const": "circle"},
                                          "r": {"type": "number", "exclusiveMinimum": 0}},
         "required": ["kind", "r"], "additionalProperties": False},
        {"type": "object", "properties": {"kind": {"const": "square"}},
         "required": ["kind"]}]}}},
    "any-of-and-type-lists": {"type": "object", "required": ["id", "maybe"], "properties": {
        "id": {"anyOf": [{"type": "integer", "minimum": 10}, {"type": "string"}]},
        "maybe": {"type": ["null", "string"], "maxLength": 3}}},
    "if-then": {"type": "object", "required": ["mode"], "additionalProperties": False,
                "properties": {"mode": {"enum": ["a", "b"]}, "extra": {"type": "string"}},
                "if": {"properties": {"mode": {"const": "a"}}}, "then": {"required": ["extra"]}},
    "defaults-and-examples": {"type": "object", "required": ["colour", "size"], "properties": {
        "colour": {"type": "string", "default": "red"},
        "size": {"type": "integer", "examples": [42]}}},
    "nested": {"type": "object", "required": ["a"], "properties": {"a": {
        "type": "object", "required": ["b"], "properties": {"b": {
            "type": "array", "minItems": 1, "items": {
                "type": "object", "required": ["c"],
                "properties": {"c": {"type": ["null", "integer"]}}}}}}}},
    "recursive": {"$defs": {"node": {"type": "object", "required": ["label"], "properties": {
        "label": {"type": "string"},
        "children": {"type": "array", "items": {"$ref": "#/$defs/node"}}}}},
        "$ref": "#/$defs/node"},
    "all-of": {"allOf": [
        {"type": "object", "properties": {"x": {"type": "integer"}}, "required": ["x"]},
        {"properties": {"y": {"type": "string", "maxLength": 3}}, "required": ["y"]}]},
    "maps": {"type": "object", "required": ["counts", "headers"], "properties": {
        "counts": {"type": "object", "minProperties": 1,
                   "additionalProperties": {"type": "integer", "minimum": 0}},
        "headers": {"type": "object", "patternProperties": {"^x-[a-z]+$": {"type": "string"}},
                    "additionalProperties": False, "minProperties": 1}}},
    "dependent": {"type": "object", "dependentRequired": {"card": ["cvc"]}, "properties": {
        "card": {"type": "string"}, "cvc": {"type": "string", "pattern": "^[0-9]{3}$"}}},
    "contains-and-tuples": {"type": "object", "required": ["tags", "point"], "properties": {
        "tags": {"type": "array", "items": {"type": "string"}, "contains": {"const": "urgent"},
                 "maxItems": 3},
        "point": {"type": "array", "prefixItems": [{"type": "number"}, {"type": "number"}],
                  "items": False, "minItems": 2}}},
    "enums-and-consts": {"type": "object", "required": ["kind", "level", "tags"],
                         "additionalProperties": False, "properties": {
                             "kind": {"const": "event"}, "level": {"enum": [1, 2, 3]},
                             "tags": {"type": "array", "uniqueItems": True, "minItems": 2,
                                      "items": {"enum": ["a", "b", "c"]}}}},
    "draft-07": {"$schema": "http://json-schema.org/draft-07/schema#",
                 "definitions": {"id": {"type": "string", "pattern": "^id-[0-9]+$"}},
                 "type": "object", "required": ["id", "n"], "additionalProperties": False,
                 "properties": {"id": {"$ref": "#/definitions/id"},
                                "n": {"type": "integer", "minimum": 5, "exclusiveMaximum": 7}}},
    "unevaluated": {"type": "object", "required": ["a"], "unevaluatedProperties": False,
                    "properties": {"a": {"type": "string"}}},
    "top-level-examples": {"type": "object", "properties": {"q": {"type": "string"}},
                           "examples": [{"q": "hello"}]},
    "empty": {},
}

SHARED = {"$id": "https://example.org/schemas/money", "type": "object",
          "required": ["amount", "currency"], "additionalProperties": False,
          "properties": {"amount": {"type": "number", "minimum": 0},
                         "currency": {"enum": ["EUR", "USD"]}}}


def domain_with(name: str, schema: dict[str, Any]) -> SchemaDomain:
    domain = SchemaDomain("test", schemas=[SHARED])
    domain.add_action(name, schema=schema, run=lambda payload: {"ran": payload})
    return domain


def schema_only(schema: Any, payload: Any) -> list[str]:
    """What jsonschema itself says of ``payload`` (formats asserted): [] when it is valid."""
    cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    registry = Registry().with_resource(SHARED["$id"], Resource.from_contents(
        SHARED, default_specification=DRAFT202012))
    validator = cls(schema, registry=registry, format_checker=cls.FORMAT_CHECKER)
    return [error.message for error in validator.iter_errors(payload)]


# -- valid payloads --------------------------------------------------------------------------

@pytest.mark.parametrize("name", list(SCHEMAS))
def test_a_made_payload_is_accepted_by_the_domain_and_by_jsonschema(name):
    domain = domain_with(name, SCHEMAS[name])
    made = PayloadMaker(domain).valid(name)
    assert made.payload is not None, made.why
    assert domain.validate(name, made.payload) == {"ok": True}
    assert schema_only(SCHEMAS[name], made.payload) == []


def test_a_ref_to_a_shared_schema_by_its_id_is_followed():
    schema = {"type": "object", "required": ["price"],
              "properties": {"price": {"$ref": "https://example.org/schemas/money"}}}
    made = PayloadMaker(domain_with("pay", schema)).valid("pay")
    assert made.payload == {"price": {"amount": 0, "currency": "EUR"}}


def test_the_todo_payload_fills_every_field_readably():
    todo, _ = make_todo()
    made = PayloadMaker(todo).valid("add-todo")
    assert made.payload == {"title": "Example title", "priority": "low", "due": "2030-01-15"}
    assert made.source == "full"


def test_defaults_and_examples_are_preferred_when_they_fit():
    maker = PayloadMaker(domain_with("d", SCHEMAS["defaults-and-examples"]))
    assert maker.valid("d").payload == {"colour": "red", "size": 42}
    top = PayloadMaker(domain_with("q", SCHEMAS["top-level-examples"])).valid("q")
    assert (top.payload, top.source) == ({"q": "hello"}, "example")
    unfit = {"type": "object", "required": ["n"],
             "properties": {"n": {"type": "integer", "minimum": 5, "default": 1}}}
    assert PayloadMaker(domain_with("u", unfit)).valid("u").payload == {"n": 5}


def test_strings_follow_simple_patterns_and_lengths():
    payload = PayloadMaker(domain_with("p", SCHEMAS["patterns"])).valid("p").payload
    assert payload == {"code": "AAA-0000", "slug": "examplex", "name": "example_name"}
    assert from_pattern(r"^(?=x)y$") is None  # lookarounds are not made
    assert from_pattern(r"^(foo|bar)+\.txt$") == "foo.txt"


def test_a_pattern_it_cannot_satisfy_falls_back_to_the_example_or_says_so():
    hard = {"type": "string", "pattern": "^(?=.*[0-9])(?=.*[a-z]).{8,}$"}
    with_example = {"type": "object", "required": ["pw"],
                    "properties": {"pw": {**hard, "examples": ["abcd1234"]}}}
    assert PayloadMaker(domain_with("a", with_example)).valid("a").payload == {"pw": "abcd1234"}
    without = {"type": "object", "required": ["pw"], "properties": {"pw": hard}}
    made = PayloadMaker(domain_with("b", without)).valid("b")
    assert made.payload is None and made.why["code"] == "not-generated"


def test_the_same_schema_always_gives_the_same_payload():
    first = PayloadMaker(domain_with("r", SCHEMAS["defs-refs-arrays"])).valid("r").payload
    again = PayloadMaker(domain_with("r", SCHEMAS["defs-refs-arrays"])).valid("r").payload
    assert first == again
    members = first["members"]
    assert len(members) == 2 and members[0] != members[1]  # uniqueItems


def test_the_persons_text_goes_in_the_first_text_field():
    todo, _ = make_todo()
    made = PayloadMaker(todo).valid("add-todo", "buy milk")
    assert made.payload["title"] == "buy milk" and made.text_field == "title"
    too_long = PayloadMaker(todo).valid("add-todo", "x" * 81)
    assert too_long.payload["title"] == "Example title"
    assert "at most 80 characters" in too_long.text_refused["hint"]


_LEAF = st.one_of(
    st.builds(lambda lo, extra: {"type": "string", "minLength": lo, "maxLength": lo + extra},
              st.integers(0, 20), st.integers(0, 20)),
    st.builds(lambda lo, extra: {"type": "integer", "minimum": lo, "maximum": lo + extra},
              st.integers(-1000, 1000), st.integers(0, 50)),
    st.builds(lambda lo: {"type": "number", "exclusiveMinimum": lo}, st.floats(-1e6, 1e6)),
    st.lists(st.text(min_size=1, max_size=8), min_size=1, max_size=5, unique=True).map(
        lambda values: {"enum": values}),
    st.just({"type": "boolean"}),
    st.sampled_from([{"type": "string", "format": f} for f in
                     ("date", "date-time", "email", "uri", "uuid", "ipv4")]),
)
_FIELD = _LEAF | _LEAF.flatmap(lambda item: st.builds(
    lambda lo, extra: {"type": "array", "items": item, "minItems": lo, "maxItems": lo + extra},
    st.integers(0, 3), st.integers(0, 3)))
_OBJECTS = st.dictionaries(st.from_regex(r"[a-z][a-z_]{0,8}", fullmatch=True), _FIELD,
                           min_size=1, max_size=5).flatmap(lambda properties: st.builds(
    lambda required, closed: {"type": "object", "properties": properties,
                              "required": required, "additionalProperties": not closed},
    st.lists(st.sampled_from(sorted(properties)), unique=True), st.booleans()))


@settings(max_examples=examples(60), deadline=None)
@given(_OBJECTS)
def test_any_simple_object_schema_gets_a_payload_its_domain_accepts(schema):
    domain = domain_with("act", schema)
    made = PayloadMaker(domain).valid("act")
    assert made.payload is not None, (schema, made.why)
    assert domain.validate("act", made.payload) == {"ok": True}
    for broken in PayloadMaker(domain).ways_to_break("act"):
        assert not domain.validate("act", broken.payload)["ok"]


# -- the ready domains -----------------------------------------------------------------------

def test_every_notes_action_gets_a_payload_the_domain_accepts():
    notes = NotesDomain(["buy milk"])
    maker = PayloadMaker(notes)
    for action in notes.actions:
        made = maker.valid(action)
        assert made.payload is not None, (action, made.why)
        assert notes.validate(action, made.payload)["ok"], action


@pytest.fixture
def frames():
    from dial_notebook.domains._sales import load_sales
    from dial_notebook.domains.dataframes import DataFramesDomain

    return DataFramesDomain({"sales": load_sales()})


#: The dataframes domain's own checks (beyond the schema): which frame, which columns, and
#: whether an expression is arithmetic over existing columns.
EXISTENCE = {"unknown-frame", "unknown-column", "invalid-expression"}


def test_dataframes_payloads_fit_the_schema_and_are_refused_only_for_what_exists(frames):
    maker = PayloadMaker(frames)
    refused = {}
    for action, schema in FRAME_SCHEMAS.items():
        for text in (None, "sales"):
            made = maker.valid(action, text)
            payload = made.payload if made.payload is not None else made.candidate
            assert schema_only(schema, payload) == [], (action, payload)
            if made.payload is None:
                assert made.why["code"] in EXISTENCE, (action, made.why)
                refused[(action, text)] = made.why["code"]
    # with no frame named, every action but list-frames names one that does not exist
    assert {a for (a, text) in refused if text is None} == set(frames.actions) - {"list-frames"}
    # with the frame named, those that need only a frame are accepted
    for action in ("describe", "head", "correlation"):
        assert (action, "sales") not in refused


def test_dataframes_payloads_break_in_ways_the_schema_refuses(frames):
    for action in frames.actions:
        for broken in PayloadMaker(frames).ways_to_break(action):
            verdict = frames.validate(action, broken.payload)
            assert verdict["code"] == "invalid-payload", (action, broken.kind, verdict)


# -- broken payloads -------------------------------------------------------------------------

def test_the_todo_payload_breaks_in_every_way_its_schema_has_and_each_is_refused():
    todo, _ = make_todo()
    ways = {b.kind: b for b in PayloadMaker(todo).ways_to_break("add-todo")}
    assert list(ways) == ["typo", "missing", "type", "enum", "format", "short", "long", "extra"]
    assert ways["typo"].payload == {"title": "Example title", "priorty": "low",
                                    "due": "2030-01-15"}
    assert ways["typo"].what == "'priority' misspelt as 'priorty'"
    assert ways["typo"].refusal["hint"] == "unexpected field 'priorty' (did you mean 'priority'?)"
    assert ways["missing"].refusal["hint"] == "title is required"
    assert ways["enum"].payload["priority"] == "LOW"
    assert ways["format"].refusal["field"] == "due"
    assert ways["short"].payload["title"] == ""
    assert len(ways["long"].payload["title"]) == 81
    for broken in ways.values():
        verdict = todo.validate("add-todo", broken.payload)
        assert not verdict["ok"]
        assert broken.field in [verdict["field"], *(e["field"] for e in verdict["errors"])]


@pytest.mark.parametrize(("name", "kinds"), [
    ("numbers", {"missing", "type", "low", "high"}),
    ("patterns", {"typo", "missing", "type", "short", "long", "pattern", "extra"}),
    ("enums-and-consts", {"missing", "enum", "const", "few", "extra"}),
    ("contains-and-tuples", {"missing", "type", "many"}),
    ("unevaluated", {"typo", "missing", "type", "extra"}),
])
def test_other_schemas_break_in_their_own_ways(name, kinds):
    domain = domain_with(name, SCHEMAS[name])
    found = {b.kind for b in PayloadMaker(domain).ways_to_break(name)}
    assert kinds <= found and found <= set(KINDS)


def test_a_schema_that_accepts_anything_cannot_be_broken():
    maker = PayloadMaker(domain_with("any", {"type": "object"}))
    assert maker.broken("any") is None


# -- conversations ---------------------------------------------------------------------------

def talk(domain: Any, human: Any) -> tuple[Conversation, LintChecked]:
    agent = LintChecked(SchemaDemoAgent(domain))
    return Conversation(agent=agent, domain=domain, human=human), agent


def cards(conversation: Conversation, since: int = 0) -> list[dict[str, Any]]:
    return [e for e in conversation.transcript[since:] if e["type"] == "suggestion"]


async def test_a_whole_conversation_with_a_person_who_accepts_everything():
    todo, todos = make_todo()
    conversation, agent = talk(todo, policy_human("accept"))
    expected = {
        "add todo": [("add-todo", "done")],
        "add todo: buy milk": [("add-todo", "done")],
        "list todos": [("list-todos", "done")],
        "invalid add-todo": [("add-todo", "invalid"), ("add-todo", "done")],
        "all": [("add-todo", "done"), ("list-todos", "done")],
        "invalid all": [("add-todo", "invalid"), ("add-todo", "done")],
        'add-todo {"title": "Call Sam", "due": "next week"}': [("add-todo", "invalid")],
        'add-todo {"title": "Call Sam"}': [("add-todo", "done")],
    }
    for words, outcomes in expected.items():
        result = await conversation.say(words)
        assert result.status == "idle", words
        assert [(o["action"], o["status"]) for o in result.outcomes] == outcomes, words
    assert [t["title"] for t in todos] == ["Example title", "buy milk", "Example title",
                                           "Example title", "Example title", "Call Sam"]
    for card in cards(conversation):  # nothing the person saw was refused by the domain
        assert todo.validate(card["action"], card["payload"])["ok"]
    assert agent.replies  # each of them lint-checked by Checked


async def test_help_lists_the_actions_and_what_to_type():
    todo, _ = make_todo()
    for words in ("help", "what can you do?", "Hi"):
        conversation, _ = talk(todo, policy_human())
        await conversation.say(words)
        text = said(conversation)[0]
        assert "• add-todo — Adds a todo." in text
        assert "• list-todos — Lists the todos. (read-only: runs at once)" in text
        assert "invalid add-todo (or: break add-todo)" in text
        assert "• all — one valid proposal of each action" in text


async def test_words_it_does_not_understand_get_a_helpful_answer():
    todo, _ = make_todo()
    conversation, _ = talk(todo, policy_human())
    result = await conversation.say("what's the weather like?")
    assert result.outcomes == []
    text = said(conversation)[0]
    assert text.startswith("I didn't catch that. I'm the offline demo agent for the domain 'todo'")
    assert "• add-todo — Adds a todo." in text


async def test_a_broken_payload_is_refused_unseen_and_corrected_with_a_valid_one():
    todo, todos = make_todo()
    conversation, _ = talk(todo, policy_human("accept"))
    result = await conversation.say("invalid add-todo")
    assert [o["status"] for o in result.outcomes] == ["invalid", "done"]
    assert result.outcomes[0]["field"] == "priorty"
    shown = cards(conversation)
    assert len(shown) == 1 and shown[0]["payload"] == {  # the person saw only the valid one
        "title": "Example title", "priority": "low", "due": "2030-01-15"}
    assert "click Edit, open the JSON tab" in shown[0]["text"]
    first, refused, done = said(conversation)
    assert first.startswith("On purpose, a broken add-todo: 'priority' misspelt as 'priorty'.")
    assert refused == (
        "As expected, the domain refused my broken add-todo ('priority' misspelt as "
        "'priorty') before it reached you. It said: “unexpected field 'priorty' (did you mean "
        "'priority'?)” (code invalid-payload).")
    assert done == "Done: Add the todo 'Example title'. It returned {\"count\": 1}."
    assert len(todos) == 1


async def test_each_invalid_request_breaks_it_the_next_way_or_the_way_named():
    todo, _ = make_todo()
    conversation, _ = talk(todo, policy_human("accept"))
    fields = []
    for words in ("invalid add-todo", "break add-todo", "invalid add-todo", "broken add-todo",
                  "invalid add-todo format", "break add-todo misspelt"):
        result = await conversation.say(words)
        fields.append(result.outcomes[0]["field"])
    assert fields == ["priorty", "title", "title", "priority", "due", "priorty"]


async def test_a_name_it_cannot_break_a_way_it_cannot_and_an_action_not_named():
    todo, _ = make_todo()
    conversation, _ = talk(todo, scripted_human([{"answer": "add-todo"}, "dismiss"]))
    await conversation.say("invalid list-todos")
    assert said(conversation)[-1].startswith("I can't break the payload of list-todos")
    await conversation.say("invalid add-todo pattern")
    assert said(conversation)[-1] == ("I can't break add-todo that way (pattern). The ways I "
                                      "can: typo, missing, type, enum, format, short, long, "
                                      "extra.")
    mark = len(conversation.transcript)
    result = await conversation.say("invalid")
    assert said(conversation, mark)[0] == "Which action should I break?"
    assert [o["status"] for o in result.outcomes] == ["invalid", "dismissed"]


async def test_words_that_fit_two_actions_get_a_question():
    todo, _ = make_todo()
    conversation, _ = talk(todo, scripted_human([{"answer": "list-todos"}]))
    result = await conversation.say("todo")
    ask = next(e for e in conversation.transcript if e["type"] == "ask")
    assert ask["text"] == "Which action did you mean?"
    assert [o["value"] for o in ask["options"]] == ["add-todo", "list-todos"]
    assert [o["action"] for o in result.outcomes] == ["list-todos"]


async def test_the_persons_own_payload_is_sent_as_written_and_its_refusal_reported():
    todo, _ = make_todo()
    conversation, _ = talk(todo, policy_human("accept"))
    result = await conversation.say('add-todo {"title": "x", "priorty": "low"}')
    assert [o["status"] for o in result.outcomes] == ["invalid"]
    assert cards(conversation) == []
    assert said(conversation) == [
        "The domain refused your payload for add-todo before it reached a card. It said: "
        "“unexpected field 'priorty' (did you mean 'priority'?)” (code invalid-payload). Fix it "
        "and send it again, or say 'add-todo' for a valid one."]
    await conversation.say("add-todo {not json")
    assert said(conversation)[-1].startswith("I couldn't read that as JSON")


async def test_dismissed_failed_and_edited_outcomes_are_told_as_they_were():
    todo, _ = make_todo()

    @todo.action(schema={"type": "object", "properties": {"n": {"type": "integer"}}})
    def explode(payload):
        """Always fails."""
        raise ActionError("the fuse is wet", code="wet", field="n", hint="dry it first")

    human = scripted_human(["dismiss", "accept", {"edit": {"title": "mine"}}])
    conversation, _ = talk(todo, human)
    await conversation.say("add todo")
    mark = len(conversation.transcript)
    await conversation.say("explode")
    assert said(conversation, mark) == [
        "OK, I left that out: Add the todo 'Example title'.",
        "explode (n: 1) failed: the fuse is wet (field n; dry it first; code wet)."]
    mark = len(conversation.transcript)
    result = await conversation.say("add todo")
    assert result.outcomes[0]["edited"] is True
    assert said(conversation, mark) == ["Done, with your edit: add-todo. It returned "
                                        "{\"count\": 1}."]


async def test_a_card_ended_by_three_refused_edits_is_blamed_on_the_edit_not_the_agent():
    todo, _ = make_todo()
    conversation, _ = talk(todo, scripted_human([{"edit": {"title": ""}}] * 3))
    result = await conversation.say("add todo")
    assert [o["status"] for o in result.outcomes] == ["invalid"]
    assert said(conversation) == [
        "The card for add-todo ended invalid: “title must not be empty” (code "
        "invalid-payload). The payload I proposed still passes the domain's check, so what it "
        "refused was your edited version (a card ends invalid after three refused edits). Say "
        "'add-todo' for a fresh card."]


async def test_a_domain_that_changes_under_it_is_reported_and_not_retried_forever():
    calls = []

    def check(payload):
        calls.append(payload)
        if len(calls) > 1:  # accepted while the agent makes it, refused from then on
            raise ActionError("the list is locked", code="locked", field="")

    domain = SchemaDomain("locks")
    domain.add_action("add", schema={"type": "object"}, run=lambda p: None, check=check)
    conversation, _ = talk(domain, policy_human("accept"))
    result = await conversation.say("add")
    assert result.status == "idle"
    assert [o["status"] for o in result.outcomes] == ["invalid"]
    text = said(conversation)[-1]
    assert text.startswith("The domain refused my add: “the list is locked” (code locked). It "
                           "passed the domain's check when I made it, so something in the "
                           "domain changed.")
    assert "I couldn't make a payload for add that the domain accepts" in text


async def test_a_payload_the_domain_refuses_is_never_proposed_as_valid():
    notes = NotesDomain()  # no notes: remove-note's id cannot exist
    conversation, _ = talk(notes, policy_human("accept"))
    result = await conversation.say("remove note")
    assert result.outcomes == []
    assert said(conversation) == [
        "I couldn't make a payload for remove-note that the domain accepts: I tried "
        "{\"id\": 1}, and it said “there is no note 1 (the notes' ids: none)” (field id, code "
        "not-found). Write one yourself, e.g. remove-note {\"id\": 1} changed to what the "
        "domain expects."]


async def test_the_notes_domain_all_of_it_including_a_hand_off():
    notes = NotesDomain(["buy milk"])
    conversation, _ = talk(notes, policy_human("accept"))
    result = await conversation.say("all")
    assert [(o["action"], o["status"]) for o in result.outcomes] == [
        ("add-note", "done"), ("remove-note", "done"), ("list-notes", "done"),
        ("open-poll", "handed-off")]
    assert said(conversation)[1:4] == [
        "Done: Add the note 'Example text'. It returned {\"id\": 2, \"text\": \"Example text\"}.",
        "Done: Remove the note 'buy milk'. It returned {\"id\": 1, \"text\": \"buy milk\"}.",
        "Done: List the notes. It returned {\"notes\": [{\"id\": 2, \"text\": \"Example "
        "text\"}]}."]
    assert said(conversation)[4].startswith(  # told with the done ones, in the same turn
        "Open a poll: 'Example question' (Example option, Example option 2): passed to you in "
        "its own panel.")
    assert notes.notes == [{"id": 2, "text": "Example text"}]
    assert len(notes.polls) == 1


async def test_the_dataframes_domain_with_the_frame_named(frames):
    conversation, _ = talk(frames, policy_human("accept"))
    result = await conversation.say("describe: sales")
    assert [(o["action"], o["status"]) for o in result.outcomes] == [("describe", "done")]
    result = await conversation.say("describe")
    assert result.outcomes == []
    assert "there is no data frame 'Example frame'" in said(conversation)[-1]


async def test_a_domain_without_actions_says_so():
    conversation, _ = talk(SchemaDomain("empty"), policy_human())
    await conversation.say("add something")
    assert "This domain has no actions yet" in said(conversation)[0]


def test_the_same_words_give_the_same_replies():
    replies = []
    for _ in range(2):
        todo, _ = make_todo()
        agent = SchemaDemoAgent(todo)
        replies.append([agent.send(w) for w in ("help", "add todo", "invalid add-todo", "all",
                                                "invalid all")])
    assert replies[0] == replies[1]


def test_it_is_public_and_the_demo_agent_speaks_for_any_schema_domain_with_it():
    assert dial_notebook.SchemaDemoAgent is SchemaDemoAgent
    assert "SchemaDemoAgent" in dial_notebook.__all__
    todo, _ = make_todo()
    assert DemoAgent(todo).send("hello") == SchemaDemoAgent(todo).send("hello")

    class Bare:  # a hand-written domain without schemas: the demo can only list its actions
        def __init__(self) -> None:
            self.actions = {"ping": {"mutates": False}}

        def run(self, action, payload):
            return None

    assert "SchemaDemoAgent(domain)" in DemoAgent(Bare()).send("hello")
    assert repr(SchemaDemoAgent(todo)) == "SchemaDemoAgent('todo')"


def test_payloads_are_not_shared_between_proposals():
    todo, _ = make_todo()
    maker = PayloadMaker(todo)
    first = maker.valid("add-todo").payload
    kept = copy.deepcopy(first)
    first["title"] = "changed"
    assert maker.valid("add-todo").payload == kept


def test_an_action_named_like_one_of_its_requests_is_still_proposed():
    kit = SchemaDomain("kit")
    for name in ("break-glass", "start-timer", "all"):
        kit.add_action(name, schema={"type": "object"}, run=lambda payload: None)
    agent = SchemaDemoAgent(kit)
    for words, action in (("break glass", "break-glass"), ("start the timer", "start-timer"),
                          ("all", "all")):
        reply = dial_notebook.parse(agent.send(words))
        assert [e.action for e in reply.elements] == [action], words


SUITE = Path(__file__).resolve().parents[1] / "data" / "json-schema-test-suite" / "draft2020-12"


def test_the_json_schema_test_suite_schemas_get_payloads_and_never_a_crash():
    """Every object schema of the official suite (draft 2020-12) that has a valid case: the
    maker never raises, what it makes the domain accepts, and it makes one for nearly all."""
    schemas = made = 0
    for path in sorted(SUITE.rglob("*.json")):
        for group in json.loads(path.read_text()):
            schema = group["schema"]
            if not isinstance(schema, dict) or not any(t["valid"] for t in group["tests"]):
                continue
            domain = SchemaDomain("suite")
            try:
                domain.add_action("act", schema=schema, run=lambda payload: payload)
            except ValueError:  # refused at definition (remote refs …): the domain's rule
                continue
            schemas += 1
            maker = PayloadMaker(domain)
            payload = maker.valid("act").payload
            if payload is not None:
                made += 1
                assert domain.validate("act", payload) == {"ok": True}, group["description"]
            for broken in maker.ways_to_break("act"):
                assert not domain.validate("act", broken.payload)["ok"]
    assert schemas > 300 and made >= 0.9 * schemas
