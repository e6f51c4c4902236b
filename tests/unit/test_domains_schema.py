"""SchemaDomain: the decorator, dict and file forms, previews, runs, undo, and what it describes."""

from __future__ import annotations

import asyncio
import json

import pytest

from dial_notebook.domains import ActionError, ActionSpec, SchemaDomain

NOTE = {
    "type": "object",
    "properties": {"text": {"type": "string", "minLength": 1}},
    "required": ["text"],
    "additionalProperties": False,
}


def make_notes() -> tuple[SchemaDomain, list[str]]:
    store: list[str] = []
    notes = SchemaDomain("notes", context=lambda: f'<context notes="{len(store)}"/>')

    @notes.action(
        schema=NOTE,
        mutates=True,
        preview="Add the note '{text}'",
        undo=lambda payload, result: store.remove(payload["text"]),
    )
    def add_note(payload):
        """Add a note with the given text.

        More detail that the system prompt does not need.
        """
        store.append(payload["text"])
        return {"count": len(store)}

    @notes.action(mutates=False, name="count")
    def how_many(payload):
        return len(store)

    return notes, store


def test_decorator_names_the_action_after_the_function_with_dashes():
    notes, _ = make_notes()
    assert list(notes.actions) == ["add-note", "count"]
    spec = notes.actions["add-note"]
    assert isinstance(spec, ActionSpec)
    assert (spec.mutates, spec.destructive, spec.handoff) == (True, False, False)
    assert notes.actions["count"].mutates is False


def test_decorator_returns_the_function_unchanged():
    notes = SchemaDomain("n")

    def add_note(payload):
        return 1

    assert notes.action(schema=NOTE)(add_note) is add_note


def test_action_spec_reads_as_attributes_and_as_a_mapping():
    notes, _ = make_notes()
    spec = notes.actions["add-note"]
    assert spec["mutates"] is True and spec.get("handoff") is False
    assert spec.get("nothing", "default") == "default"
    with pytest.raises(KeyError):
        spec["nothing"]


def test_validate_run_preview_and_context_follow_the_runtime_contract():
    notes, store = make_notes()
    assert notes.validate("add-note", {"text": "buy milk"}) == {"ok": True}
    assert notes.preview("add-note", {"text": "buy milk"}) == "Add the note 'buy milk'"
    assert notes.run("add-note", {"text": "buy milk"}) == {"count": 1}
    assert store == ["buy milk"]
    assert notes.context() == '<context notes="1"/>'


def test_description_is_the_first_paragraph_of_the_docstring():
    notes, _ = make_notes()
    assert notes.actions["add-note"].description == "Add a note with the given text."
    assert notes.actions["count"].description == ""


def test_describe_lists_every_action_for_the_widget_and_the_system_prompt():
    notes, _ = make_notes()
    described = notes.describe()
    assert described[0] == {
        "name": "add-note",
        "description": "Add a note with the given text.",
        "schema": NOTE,
        "mutates": True,
        "destructive": False,
        "handoff": False,
        "undoable": True,
        "preview": "Add the note '{text}'",
    }
    json.dumps(described)  # plain data


def test_schema_returns_a_copy_the_caller_cannot_change_the_domain_through():
    notes, _ = make_notes()
    schema = notes.schema("add-note")
    assert schema == NOTE
    schema["required"].append("other")
    assert notes.schema("add-note")["required"] == ["text"]
    with pytest.raises(KeyError, match="There is no action 'add-nte'"):
        notes.schema("add-nte")


def test_an_action_without_a_schema_accepts_any_object():
    notes, _ = make_notes()
    assert notes.validate("count", {"anything": 1}) == {"ok": True}
    assert notes.validate("count", None) == {"ok": True}  # no payload reads as {}
    assert notes.validate("count", "text")["hint"] == "the payload must be an object, not a string"


def test_unknown_action_is_refused_with_the_runtime_wording():
    notes, _ = make_notes()
    verdict = notes.validate("remove-note", {})
    assert verdict["ok"] is False
    assert verdict["code"] == "unknown-action"
    assert verdict["hint"] == "There is no action 'remove-note'."
    with pytest.raises(ActionError) as raised:
        notes.run("remove-note", {})
    assert raised.value.code == "unknown-action"


def test_run_validates_again_and_refuses_an_invalid_payload():
    notes, store = make_notes()
    with pytest.raises(ActionError) as raised:
        notes.run("add-note", {"text": ""})
    assert (raised.value.code, raised.value.field, raised.value.hint) == (
        "invalid-payload",
        "text",
        "text must not be empty",
    )
    assert store == []


def test_preview_callable_receives_the_payload():
    domain = SchemaDomain("d")
    domain.add_action("greet", schema={"type": "object"}, preview=lambda p: f"Hi {p['name']}")
    assert domain.preview("greet", {"name": "Ada"}) == "Hi Ada"


def test_preview_falls_back_to_a_summary_when_the_callable_raises_or_none_is_given():
    domain = SchemaDomain("d")
    domain.add_action("greet", preview=lambda p: p["missing"])
    domain.add_action("wave")
    assert domain.preview("greet", {"name": "Ada"}) == "greet (name: Ada)"
    assert domain.preview("wave", {}) == "wave"


def test_preview_template_reads_nested_fields_and_formats_numbers_but_never_attributes():
    domain = SchemaDomain("d")
    domain.add_action("a", preview="{item.name} x{qty} at {price:.2f}: {tags} {item.__class__}")
    text = domain.preview(
        "a", {"item": {"name": "tea"}, "qty": 2, "price": 3.5, "tags": ["x", "y"]}
    )
    assert text == "tea x2 at 3.50: x, y "


def test_preview_template_is_cut_short():
    domain = SchemaDomain("d")
    domain.add_action("a", preview="{text}")
    assert len(domain.preview("a", {"text": "word " * 1000})) <= 300


async def test_async_run_functions_are_awaited_and_recorded():
    domain = SchemaDomain("d")

    @domain.action(schema=NOTE)
    async def add(payload):
        await asyncio.sleep(0)
        return {"text": payload["text"]}

    pending = domain.run("add", {"text": "x"})
    assert asyncio.iscoroutine(pending)
    assert await pending == {"text": "x"}
    assert [record.action for record in domain.history] == ["add"]


def test_run_failure_carries_the_action_error_fields():
    domain = SchemaDomain("d")

    @domain.action()
    def fail(payload):
        raise ActionError("no such thing", code="not-found", field="id", hint="list first")

    with pytest.raises(ActionError) as raised:
        domain.run("fail", {})
    assert (raised.value.code, raised.value.field, raised.value.hint) == (
        "not-found",
        "id",
        "list first",
    )


def test_action_error_hint_defaults_to_the_message():
    error = ActionError("it broke")
    assert (error.code, error.field, error.hint) == ("action-failed", None, "it broke")


def test_check_refuses_what_the_schema_cannot_say_with_its_own_code_and_field():
    domain = SchemaDomain("d")
    known = {1, 2}

    def exists(payload):
        if payload["id"] not in known:
            raise ActionError("no note", code="not-found", field="id", hint="there is no note 9")

    domain.add_action(
        "remove",
        schema={"type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"]},
        check=exists,
    )
    assert domain.validate("remove", {"id": 1}) == {"ok": True}
    verdict = domain.validate("remove", {"id": 9})
    assert verdict == {
        "ok": False,
        "code": "not-found",
        "field": "id",
        "hint": "there is no note 9",
        "errors": [{"field": "id", "message": "there is no note 9"}],
    }
    # the schema is checked first: the check never sees a payload of the wrong shape
    assert domain.validate("remove", {"id": "x"})["code"] == "invalid-payload"


def test_undo_last_takes_back_the_latest_change_and_forgets_it():
    notes, store = make_notes()
    notes.run("add-note", {"text": "a"})
    notes.run("add-note", {"text": "b"})
    notes.run("count", {})  # read-only: not in the history
    assert [r.payload["text"] for r in notes.history] == ["a", "b"]
    record = notes.undo_last()
    assert record is not None and record.payload == {"text": "b"}
    assert store == ["a"]
    notes.undo_last()
    assert store == [] and notes.history == []
    assert notes.undo_last() is None


def test_undo_of_an_action_without_undo_is_refused():
    domain = SchemaDomain("d")
    domain.add_action("a", run=lambda payload: 1)
    domain.run("a", {})
    with pytest.raises(ActionError) as raised:
        domain.undo_last()
    assert raised.value.code == "not-undoable"


def test_undoes_decorator_binds_an_undo_function():
    domain = SchemaDomain("d")
    done: list[object] = []
    domain.add_action("a", run=lambda payload: 7)

    @domain.undoes("a")
    def take_back(payload, result):
        done.append(result)

    domain.run("a", {})
    domain.undo_last()
    assert done == [7]


def test_from_dict_builds_the_same_domain_as_the_decorator():
    store: list[str] = []
    domain = SchemaDomain.from_dict(
        "notes",
        {
            "add-note": {
                "schema": NOTE,
                "preview": "Add the note '{text}'",
                "run": lambda payload: store.append(payload["text"]),
            },
            "remove-note": {"schema": NOTE, "destructive": True},
            "list-notes": {"mutates": False},
            "open-poll": {"mutates": False, "handoff": True},
        },
    )
    assert {name: (s.mutates, s.destructive, s.handoff) for name, s in domain.actions.items()} == {
        "add-note": (True, False, False),
        "remove-note": (True, True, False),
        "list-notes": (False, False, False),
        "open-poll": (False, False, True),
    }
    domain.run("add-note", {"text": "x"})
    assert store == ["x"]
    assert domain.validate("add-note", {"txt": "x"})["errors"][0]["field"] == "text"


def test_from_dict_refuses_an_unknown_spec_key_with_a_suggestion():
    with pytest.raises(ValueError, match="unknown key 'mutate' \\(did you mean 'mutates'\\?\\)"):
        SchemaDomain.from_dict("d", {"a": {"mutate": False}})


def test_unbound_action_fails_to_run_with_a_hint_to_bind_it():
    domain = SchemaDomain.from_dict("d", {"a": {}})
    with pytest.raises(ActionError) as raised:
        domain.run("a", {})
    assert raised.value.code == "not-bound"
    assert "domain.bind('a', function)" in raised.value.hint


def test_from_json_file_with_run_functions_bound_afterwards(tmp_path):
    path = tmp_path / "notes.json"
    path.write_text(
        json.dumps(
            {
                "name": "notes",
                "description": "Notes.",
                "context": '<context notes="0"/>',
                "actions": {
                    "add-note": {"schema": NOTE, "preview": "Add the note '{text}'"},
                    "list-notes": {"mutates": False},
                },
            }
        )
    )
    domain = SchemaDomain.from_file(path)
    assert (domain.name, domain.description, domain.context()) == (
        "notes",
        "Notes.",
        '<context notes="0"/>',
    )

    @domain.runs("add-note")
    def add_note(payload):
        """Add a note."""
        return {"added": payload["text"]}

    domain.bind("list-notes", lambda payload: [])
    assert domain.run("add-note", {"text": "x"}) == {"added": "x"}
    assert domain.actions["add-note"].description == "Add a note."
    assert domain.run("list-notes", None) == []


def test_from_yaml_file_reads_the_same_specs(tmp_path):
    path = tmp_path / "polls.yaml"
    path.write_text(
        "actions:\n"
        "  open-poll:\n"
        "    mutates: false\n"
        "    handoff: true\n"
        "    preview: \"Open a poll: '{question}'\"\n"
        "    schema:\n"
        "      type: object\n"
        "      required: [question]\n"
        "      properties:\n"
        "        question: {type: string, minLength: 1}\n"
    )
    domain = SchemaDomain.from_file(path)
    assert domain.name == "polls"  # the file's stem when the file names none
    assert domain.actions["open-poll"].handoff is True
    assert domain.validate("open-poll", {"question": ""})["hint"] == "question must not be empty"
    assert domain.preview("open-poll", {"question": "Lunch?"}) == "Open a poll: 'Lunch?'"


def test_from_file_refuses_functions_and_unknown_keys(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"actions": {"a": {"run": "os.system"}}}))
    with pytest.raises(ValueError, match="bind run in Python"):
        SchemaDomain.from_file(path)
    path.write_text(json.dumps({"action": {}}))
    with pytest.raises(ValueError, match="did you mean 'actions'"):
        SchemaDomain.from_file(path)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"name": "add note"}, ValueError, "letters, digits"),
        ({"name": "a", "mutates": "yes"}, TypeError, "mutates must be True or False"),
        ({"name": "a", "preview": "{"}, ValueError, "malformed"),
        ({"name": "a", "preview": "{}"}, ValueError, "must name a payload field"),
        ({"name": "a", "preview": 3}, TypeError, "template string or a function"),
        ({"name": "a", "run": "print"}, TypeError, "run must be a function"),
        ({"name": "a", "schema": {"type": "objekt"}}, ValueError, "invalid schema"),
        ({"name": "a", "schema": {"pattern": "(unclosed"}}, ValueError, "is not a .regex."),
        (
            {"name": "a", "schema": {"$schema": "https://example.com/my-draft"}},
            ValueError,
            "not a JSON Schema draft",
        ),
    ],
)
def test_bad_definitions_are_refused_when_the_action_is_defined(kwargs, error, match):
    domain = SchemaDomain("d")
    with pytest.raises(error, match=match):
        domain.add_action(**kwargs)
    assert "a" not in domain.actions


def test_a_duplicate_action_name_is_refused():
    notes, _ = make_notes()
    with pytest.raises(ValueError, match="already defined"):
        notes.add_action("add-note")


def test_draft_2020_12_is_the_default_and_dollar_schema_picks_another():
    domain = SchemaDomain("d")
    # prefixItems exists only from 2020-12; draft 7 ignores it
    domain.add_action("new", schema={"prefixItems": [{"type": "string"}]})
    domain.add_action(
        "old",
        schema={
            "$schema": "http://json-schema.org/draft-07/schema#",
            "prefixItems": [{"type": "string"}],
        },
    )
    assert domain.validate("new", [1])["hint"] == "[0] must be a string, not 1"
    assert domain.validate("old", [1]) == {"ok": True}


def test_formats_are_asserted():
    domain = SchemaDomain("d")
    domain.add_action(
        "a", schema={"properties": {"when": {"format": "date"}, "mail": {"format": "email"}}}
    )
    assert domain.validate("a", {"when": "2024-01-31", "mail": "a@b.c"}) == {"ok": True}
    verdict = domain.validate("a", {"when": "31/01/2024", "mail": "nobody"})
    assert [e["field"] for e in verdict["errors"]] == ["mail", "when"]


def test_actions_may_ref_the_domains_shared_schemas_and_each_other():
    shared = {"$id": "urn:notes:text", "type": "string", "minLength": 1}
    domain = SchemaDomain.from_dict(
        "notes",
        {
            "note": {
                "schema": {
                    "$id": "urn:notes:note",
                    "type": "object",
                    "properties": {"text": {"$ref": "urn:notes:text"}},
                    "required": ["text"],
                }
            },
            "add-many": {"schema": {"type": "array", "items": {"$ref": "urn:notes:note"}}},
        },
        schemas=[shared],
    )
    assert domain.validate("add-many", [{"text": "a"}]) == {"ok": True}
    assert domain.validate("add-many", [{"text": "a"}, {"text": ""}])["errors"] == [
        {"field": "[1].text", "message": "[1].text must not be empty"}
    ]


def test_a_shared_schema_without_an_id_is_refused():
    with pytest.raises(ValueError, match="needs an \\$id"):
        SchemaDomain("d", schemas=[{"type": "string"}])


def test_local_refs_and_anchors_inside_a_schema_resolve():
    domain = SchemaDomain("d")
    domain.add_action(
        "a",
        schema={
            "$defs": {"name": {"$anchor": "name", "type": "string", "minLength": 1}},
            "properties": {"first": {"$ref": "#/$defs/name"}, "last": {"$ref": "#name"}},
        },
    )
    assert domain.validate("a", {"first": "", "last": ""})["hint"] == (
        "first must not be empty; last must not be empty"
    )


def test_repr_names_the_domain_and_its_actions():
    notes, _ = make_notes()
    assert repr(notes) == "SchemaDomain('notes', actions=['add-note', 'count'])"


def test_the_package_exports_exactly_its_public_names():
    import dial_notebook.domains as domains

    public = {
        name
        for name, value in vars(domains).items()
        if not name.startswith("_") and not isinstance(value, type(domains))
    }
    assert set(domains.__all__) == public


def test_a_domain_saved_to_json_or_yaml_loads_back_with_the_same_actions(tmp_path):
    shared = {"$id": "urn:todo:item", "type": "object",
              "properties": {"title": {"type": "string", "minLength": 1}}, "required": ["title"]}
    domain = SchemaDomain.from_dict("todo", {
        "add-todo": {"schema": {"$ref": "urn:todo:item"}, "preview": "Add '{title}'",
                     "description": "Adds a todo."},
        "clear-todos": {"schema": {"type": "object"}, "destructive": True},
    }, schemas=[shared], description="A todo list", context='<context todos="0"/>')
    for name in ("todo.json", "todo.yaml"):
        loaded = SchemaDomain.from_file(domain.save(tmp_path / name))
        assert loaded.to_dict() == domain.to_dict()
        assert loaded.validate("add-todo", {"title": ""})["field"] == "title"
        assert loaded.actions["clear-todos"].destructive
        assert loaded.preview("add-todo", {"title": "milk"}) == "Add 'milk'"
        assert loaded.context() == '<context todos="0"/>'
