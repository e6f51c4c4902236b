"""The wording of refusals: one readable sentence per problem, with the field's path."""

from __future__ import annotations

import pytest

from dial_notebook.domains import SchemaDomain


def refuse(schema: dict, payload: object) -> dict:
    domain = SchemaDomain("d")
    domain.add_action("a", schema=schema)
    verdict = domain.validate("a", payload)
    assert verdict["ok"] is False
    return verdict


def hint(schema: dict, payload: object) -> str:
    return refuse(schema, payload)["hint"]


def obj(**properties: dict) -> dict:
    return {"type": "object", "properties": properties}


def test_refusal_has_the_shape_the_runtime_and_widget_read():
    verdict = refuse(
        {**obj(text={"type": "string", "minLength": 1}), "required": ["text"]}, {"text": ""}
    )
    assert verdict == {
        "ok": False,
        "code": "invalid-payload",
        "field": "text",
        "hint": "text must not be empty",
        "errors": [{"field": "text", "message": "text must not be empty"}],
    }


def test_required():
    assert hint({"type": "object", "required": ["text"]}, {}) == "text is required"


def test_required_inside_a_list_names_the_full_path():
    schema = obj(columns={"type": "array", "items": {"type": "object", "required": ["name"]}})
    verdict = refuse(schema, {"columns": [{"name": "a"}, {}]})
    assert verdict["field"] == "columns[1].name"
    assert verdict["hint"] == "columns[1].name is required"


@pytest.mark.parametrize(
    ("expected", "value", "wording"),
    [
        ("string", 5, "text must be a string, not 5"),
        ("number", "5", "text must be a number, not a string"),
        ("integer", 2.5, "text must be an integer, not 2.5"),
        ("boolean", "yes", "text must be true or false, not a string"),
        ("object", [1, 2], "text must be an object, not a list of 2 items"),
        ("array", {}, "text must be a list, not an object"),
        (["string", "null"], 1, "text must be a string or null, not 1"),
        ("string", None, "text must be a string, not null"),
    ],
)
def test_type(expected, value, wording):
    assert hint(obj(text={"type": expected}), {"text": value}) == wording


def test_the_payload_itself_is_called_the_payload():
    verdict = refuse({"type": "object"}, [])
    assert verdict["field"] == ""
    assert verdict["hint"] == "the payload must be an object, not a list of 0 items"


def test_enum():
    schema = obj(impact={"enum": ["high", "medium", "low"]})
    assert hint(schema, {"impact": "huge"}) == "impact must be one of 'high', 'medium', 'low'"


def test_enum_suggests_the_value_meant():
    schema = obj(impact={"enum": ["high", "medium", "low"]})
    assert hint(schema, {"impact": "High"}) == (
        "impact must be one of 'high', 'medium', 'low' (did you mean 'high'?)"
    )


def test_enum_with_many_values_is_cut():
    schema = obj(n={"enum": list(range(30))})
    assert hint(schema, {"n": 99}) == (
        "n must be one of 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, … (30 values)"
    )


def test_const():
    assert hint(obj(kind={"const": "circle"}), {"kind": "square"}) == "kind must be 'circle'"


@pytest.mark.parametrize(
    ("keyword", "limit", "value", "wording"),
    [
        ("minLength", 1, "", "text must not be empty"),
        ("minLength", 3, "ab", "text must be at least 3 characters long"),
        ("maxLength", 5, "abcdefgh", "text must be at most 5 characters long (it has 8)"),
        ("maxLength", 1, "ab", "text must be at most 1 character long (it has 2)"),
    ],
)
def test_min_and_max_length(keyword, limit, value, wording):
    assert hint(obj(text={"type": "string", keyword: limit}), {"text": value}) == wording


@pytest.mark.parametrize(
    ("keyword", "limit", "value", "wording"),
    [
        ("minimum", 1, 0, "n must be at least 1"),
        ("maximum", 10, 11, "n must be at most 10"),
        ("exclusiveMinimum", 0, 0, "n must be greater than 0"),
        ("exclusiveMaximum", 1.5, 2, "n must be less than 1.5"),
        ("multipleOf", 5, 7, "n must be a multiple of 5"),
    ],
)
def test_minimum_maximum_and_multiple_of(keyword, limit, value, wording):
    assert hint(obj(n={"type": "number", keyword: limit}), {"n": value}) == wording


def test_draft_4_boolean_exclusive_maximum():
    schema = {
        "$schema": "http://json-schema.org/draft-04/schema#",
        **obj(n={"maximum": 10, "exclusiveMaximum": True}),
    }
    assert hint(schema, {"n": 10}) == "n must be less than 10"


def test_pattern():
    schema = obj(sku={"type": "string", "pattern": "^[A-Z]{3}-\\d+$"})
    assert hint(schema, {"sku": "ab-1"}) == "sku must match the pattern '^[A-Z]{3}-\\d+$'"


def test_additional_properties_names_the_field_and_suggests_the_one_meant():
    schema = {**obj(color={"type": "string"}), "additionalProperties": False}
    verdict = refuse(schema, {"colour": "red"})
    assert verdict["field"] == "colour"
    assert verdict["hint"] == "unexpected field 'colour' (did you mean 'color'?)"


def test_additional_properties_lists_every_extra_field_in_place():
    inner = {**obj(a={}), "additionalProperties": False}
    verdict = refuse(obj(style=inner), {"style": {"a": 1, "zzz": 2, "qqq": 3}})
    assert verdict["errors"] == [
        {"field": "style.qqq", "message": "unexpected field 'qqq' in style"},
        {"field": "style.zzz", "message": "unexpected field 'zzz' in style"},
    ]


def test_additional_properties_respects_pattern_properties():
    schema = {
        "type": "object",
        "patternProperties": {"^x-": {"type": "string"}},
        "additionalProperties": False,
    }
    domain = SchemaDomain("d")
    domain.add_action("a", schema=schema)
    assert domain.validate("a", {"x-note": "ok"}) == {"ok": True}
    assert domain.validate("a", {"x-note": 1})["hint"] == "x-note must be a string, not 1"
    assert domain.validate("a", {"note": "ok"})["hint"] == "unexpected field 'note'"


def test_unevaluated_properties_reads_like_additional_properties():
    schema = {"allOf": [obj(color={})], "unevaluatedProperties": False}
    assert hint(schema, {"color": 1, "colour": 2}) == (
        "unexpected field 'colour' (did you mean 'color'?)"
    )


@pytest.mark.parametrize(
    ("fmt", "value", "wording"),
    [
        ("date", "31/01/2024", "when must be a date like 2024-01-31"),
        ("date-time", "yesterday", "when must be a date and time like 2024-01-31T09:30:00Z"),
        ("email", "nobody", "when must be an email address"),
        ("uri", "not a uri", "when must be an absolute URI like https://example.com/page"),
        ("ipv4", "300.1.1.1", "when must be an IPv4 address like 192.0.2.1"),
        ("uuid", "123", "when must be a UUID like 123e4567-e89b-12d3-a456-426614174000"),
    ],
)
def test_format(fmt, value, wording):
    assert hint(obj(when={"type": "string", "format": fmt}), {"when": value}) == wording


def test_any_of_types_lists_the_allowed_types():
    schema = obj(size={"anyOf": [{"type": "string"}, {"type": "integer"}]})
    assert hint(schema, {"size": 1.5}) == "size must be a string or an integer"


def test_one_of_type_or_constant_lists_both():
    schema = obj(width={"oneOf": [{"type": "number"}, {"const": "auto"}]})
    assert hint(schema, {"width": "wide"}) == "width must be a number or 'auto'"


SHAPE = obj(
    shape={
        "oneOf": [
            {
                **obj(kind={"const": "circle"}, radius={"type": "number"}),
                "required": ["kind", "radius"],
            },
            {
                **obj(kind={"const": "square"}, side={"type": "number"}),
                "required": ["kind", "side"],
            },
        ]
    }
)


def test_one_of_with_a_discriminator_lists_its_values():
    assert hint(SHAPE, {"shape": {"kind": "triangle"}}) == (
        "shape.kind must be one of 'circle', 'square'"
    )


def test_one_of_shows_the_errors_of_the_branch_that_fits():
    verdict = refuse(SHAPE, {"shape": {"kind": "square", "side": "big"}})
    assert verdict["field"] == "shape.side"
    assert verdict["hint"] == "shape.side must be a number, not a string"


def test_one_of_matching_more_than_one_branch():
    schema = obj(n={"oneOf": [{"type": "integer"}, {"minimum": 0}]})
    assert hint(schema, {"n": 3}) == (
        "n matches more than one of the allowed forms; it must match exactly one"
    )


@pytest.mark.parametrize(
    ("schema", "value", "wording"),
    [
        ({"type": "array", "minItems": 1}, [], "tags must not be empty"),
        ({"type": "array", "minItems": 2}, [1], "tags must have at least 2 items"),
        ({"type": "array", "maxItems": 1}, [1, 2], "tags must have at most 1 item (it has 2)"),
        (
            {"type": "array", "uniqueItems": True},
            ["a", "b", "a"],
            "tags must not contain duplicates ('a' appears more than once)",
        ),
        (
            {"type": "array", "contains": {"type": "string"}},
            [1],
            "tags must contain at least 1 matching item",
        ),
        (
            {"type": "array", "prefixItems": [{}], "items": False},
            [1, 2],
            "tags must have at most 1 item",
        ),
        ({"type": "object", "minProperties": 1}, {}, "tags must have at least 1 field"),
        ({"not": {"type": "string"}}, "x", "tags has a value that is not allowed here"),
    ],
)
def test_list_and_object_keywords(schema, value, wording):
    assert hint(obj(tags=schema), {"tags": value}) == wording


def test_dependent_required():
    schema = {"type": "object", "dependentRequired": {"currency": ["amount"]}}
    verdict = refuse(schema, {"currency": "EUR"})
    assert verdict["field"] == "amount"
    assert verdict["hint"] == "amount is required when currency is given"


def test_property_names_names_the_offending_key():
    schema = {"type": "object", "propertyNames": {"pattern": "^[a-z]+$"}}
    verdict = refuse(schema, {"Bad Key": 1})
    assert verdict["field"] == "['Bad Key']"
    assert verdict["hint"] == "field name 'Bad Key' must match the pattern '^[a-z]+$'"


def test_a_false_schema_refuses_the_field():
    assert hint(obj(secret=False), {"secret": 1}) == "secret is not allowed"


def test_errors_are_sorted_by_path_and_the_hint_joins_the_first_three():
    schema = {
        **obj(
            b={"type": "string"},
            a={"type": "string"},
            c={"type": "string"},
            d={"type": "string"},
            items={"type": "array", "items": {"type": "integer"}},
        ),
    }
    verdict = refuse(schema, {"d": 1, "c": 1, "b": 1, "a": 1, "items": ["x"] * 12})
    fields = [e["field"] for e in verdict["errors"]]
    assert fields[:4] == ["a", "b", "c", "d"]
    assert fields[4:] == [
        f"items[{i}]" for i in range(12)
    ]  # numerically: items[2] before items[10]
    assert verdict["hint"] == (
        "a must be a string, not 1; b must be a string, not 1; c must be a string, not 1; "
        "and 13 more"
    )


def test_the_error_list_is_capped_and_says_how_many_there_were():
    schema = {"type": "array", "items": {"type": "string"}}
    verdict = refuse(schema, list(range(500)))
    assert len(verdict["errors"]) == 20
    assert verdict["hint"].endswith("; and 497 more")


def test_messages_never_echo_huge_values():
    big = "x" * 100_000
    verdict = refuse(
        obj(n={"type": "number"}, tags={"type": "string", "maxLength": 3}),
        {"n": [big] * 100, "tags": big},
    )
    assert verdict["hint"] == (
        "n must be a number, not a list of 100 items; "
        "tags must be at most 3 characters long (it has 100000)"
    )
    assert all(len(e["message"]) <= 200 for e in verdict["errors"])


def test_a_long_enum_string_is_shown_cut():
    assert hint(obj(k={"enum": ["a"]}), {"k": "y" * 500}) == "k must be 'a'"
    assert hint(obj(k={"const": "z" * 100}), {"k": 1}) == f"k must be '{'z' * 39}…'"


def test_keys_that_are_not_identifiers_are_quoted_in_the_path():
    schema = obj(**{"unit price": {"type": "number"}})
    verdict = refuse(schema, {"unit price": "1"})
    assert verdict["field"] == "['unit price']"
