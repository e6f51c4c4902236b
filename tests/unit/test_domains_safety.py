"""Validation is local and bounded: no remote $ref is fetched, no pattern or payload hangs it."""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Iterator

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from referencing import Registry

from dial_notebook.domains import SchemaDomain, _validation
from dial_notebook.domains._formats import FALLBACK_FORMATS, format_checker
from dial_notebook.domains._validation import PayloadValidator
from tests.hypothesis_profiles import examples
from tests.work_clock import cpu_seconds, least_cpu_seconds

SCHEMA_TEXT = b'{"type": "string"}'


class Listener:
    """An HTTP server on 127.0.0.1 that serves a schema and counts the requests it gets."""

    def __init__(self) -> None:
        self.requests: list[str] = []
        listener = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                listener.requests.append(self.path)
                self.send_response(200)
                self.send_header("Content-Type", "application/schema+json")
                self.end_headers()
                self.wfile.write(SCHEMA_TEXT)

            def log_message(self, *args: object) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join()


@pytest.fixture
def listener() -> Iterator[Listener]:
    server = Listener()
    yield server
    server.close()


def test_the_listener_does_see_jsonschemas_own_remote_fetch(listener):
    # the control: plain jsonschema, given no registry, fetches the remote $ref
    with pytest.warns(DeprecationWarning), pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(5, {"$ref": f"{listener.url}/schema.json"})
    assert listener.requests == ["/schema.json"]


def test_a_remote_ref_is_refused_when_the_action_is_defined_and_never_fetched(listener):
    domain = SchemaDomain("d")
    with pytest.raises(ValueError, match="is not one of this domain's schemas"):
        domain.add_action("a", schema={"properties": {"x": {"$ref": f"{listener.url}/s.json"}}})
    assert "a" not in domain.actions
    assert listener.requests == []


def test_a_ref_relative_to_a_remote_id_is_refused_and_never_fetched(listener):
    schema = {"$id": f"{listener.url}/root.json", "properties": {"x": {"$ref": "other.json"}}}
    with pytest.raises(ValueError, match=r"'other\.json' is not one of this domain's schemas"):
        SchemaDomain.from_dict("d", {"a": {"schema": schema}})
    assert listener.requests == []


def test_a_remote_dollar_schema_is_refused_and_never_fetched(listener):
    with pytest.raises(ValueError, match="metaschemas are never fetched"):
        SchemaDomain.from_dict("d", {"a": {"schema": {"$schema": f"{listener.url}/meta"}}})
    assert listener.requests == []


def test_validation_itself_refuses_an_unresolvable_ref_without_fetching(listener):
    # bypass the definition-time check: the validator is still bound to the local registry
    validator = PayloadValidator({"$ref": f"{listener.url}/s.json"}, registry=Registry())
    verdict = validator.validate(5)
    assert verdict["ok"] is False
    assert verdict["code"] == "schema-error"
    assert "remote references are never fetched" in verdict["hint"]
    assert listener.requests == []


def test_a_file_ref_is_refused_and_the_file_never_read(tmp_path):
    target = tmp_path / "secret.json"
    target.write_text('{"type": "string"}')
    before = target.stat().st_atime_ns
    for ref in (target.as_uri(), "secret.json"):
        with pytest.raises(ValueError, match="not one of this domain's schemas"):
            SchemaDomain("d").add_action("a", schema={"$ref": ref})
    assert target.stat().st_atime_ns == before


@pytest.fixture
def small_budget(monkeypatch):
    monkeypatch.setattr(_validation, "VALIDATION_BUDGET", 0.2)


EVIL = "^(a|aa)+$"  # exponential backtracking: days of work on ATTACK without a budget
ATTACK = "a" * 60 + "!"


def test_a_catastrophic_pattern_gives_up_in_time_with_a_hint(small_budget, regex_searches):
    domain = SchemaDomain("d")
    domain.add_action("a", schema={"properties": {"code": {"type": "string", "pattern": EVIL}}})
    verdict = domain.validate("a", {"code": ATTACK})
    # the search in slices (_keywords.search), all of them within the budget
    assert regex_searches and all(t > 0 for t in regex_searches)
    assert sum(regex_searches) <= 0.2 + 1e-9
    assert verdict["field"] == "code"
    assert verdict["hint"] == "code could not be checked against its pattern in time"


def test_the_pattern_budget_is_shared_by_a_whole_payload(small_budget, regex_searches):
    domain = SchemaDomain("d")
    domain.add_action("a", schema={"type": "array", "items": {"type": "string", "pattern": EVIL}})
    verdict = domain.validate("a", [ATTACK] * 100)  # 100 × 0.2 s if each had its own budget
    # the first item's search spends the budget: no other item's search starts
    assert sum(regex_searches) <= 0.2 + 1e-9
    assert verdict["ok"] is False
    assert verdict["errors"][0] == {
        "field": "[0]",
        "message": "[0] could not be checked against its pattern in time",
    }


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "object", "patternProperties": {EVIL: {"type": "string"}}},
        {"type": "object", "patternProperties": {EVIL: {}}, "additionalProperties": False},
        {"type": "object", "propertyNames": {"pattern": EVIL}},
    ],
    ids=["patternProperties", "additionalProperties", "propertyNames"],
)
def test_catastrophic_patterns_on_field_names_do_not_hang(small_budget, regex_searches, schema):
    domain = SchemaDomain("d")
    domain.add_action("a", schema=schema)
    verdict = domain.validate("a", {ATTACK: "x"})
    assert regex_searches and sum(regex_searches) <= 0.2 + 1e-9
    assert verdict["field"] == f"['{ATTACK}']"
    hint = f"field name '{ATTACK[:39]}…' could not be checked against its pattern in time"
    if "additionalProperties" in schema:  # a keyword after the timed-out pattern: not reached
        hint += "; the rest of the payload was not checked: its checks took more than 0.2 s " \
                "(send less at once)"
    assert verdict["hint"] == hint


@pytest.mark.timeout(30)
def test_unevaluated_properties_with_a_catastrophic_pattern_gives_up_in_time(small_budget):
    """jsonschema matches patternProperties with Python's re while it looks for unevaluated
    keys: no timeout there. The domain's own walk matches within the budget."""
    domain = SchemaDomain("d")
    domain.add_action("a", schema={"patternProperties": {EVIL: {}},
                                   "unevaluatedProperties": False})
    verdict = domain.validate("a", {ATTACK: 1})
    assert verdict["ok"] is False
    assert "could not be checked against its pattern in time" in verdict["hint"]
    assert domain.validate("a", {"aaaa": 1}) == {"ok": True}


@pytest.mark.timeout(60)
def test_unevaluated_properties_over_many_keys_is_not_quadratic(budget_clock):
    """The budget's clock stands still (a busy machine once had this refused "not in time"):
    linear is a ratio of CPU time, ten times the keys for about ten times the work."""
    domain = SchemaDomain("d")
    domain.add_action("a", schema={"patternProperties": {"^k": {}},
                                   "unevaluatedProperties": False})
    small, large = ({f"k{n}": n for n in range(size)} for size in (10_000, 100_000))
    small_seconds = least_cpu_seconds(lambda: domain.validate("a", small))
    verdict, large_seconds = cpu_seconds(lambda: domain.validate("a", large))
    assert verdict == {"ok": True}
    assert large_seconds < 30 * small_seconds  # linear: about 10; jsonschema's walk: about 100


def test_every_deadline_of_a_validation_reads_the_budget_clock(budget_clock):
    """The budget of a validation runs out on the clock a test controls, nowhere else: on a
    clock that moves a millisecond each time it is read, the same keys run out of time on every
    run, at the same key (the machine's load plays no part either way)."""
    domain = SchemaDomain("d")
    domain.add_action("a", schema={"patternProperties": {"^k": {}},
                                   "unevaluatedProperties": False})
    keys = {f"k{n}": n for n in range(20_000)}
    assert domain.validate("a", keys) == {"ok": True}  # the clock stood still
    budget_clock.tick = 0.001  # now 2,000 reads spend the 2 s of VALIDATION_BUDGET
    first = domain.validate("a", keys)
    assert first["ok"] is False and "in time" in first["hint"]
    assert domain.validate("a", keys) == first  # the same cut, every time


@pytest.mark.timeout(30)
def test_a_subschema_with_its_own_schema_keyword_keeps_the_budget(small_budget):
    """jsonschema switches to its plain validator for a subschema that names a $schema; the
    domain's stays in force there (a catastrophic pattern would otherwise run unbounded)."""
    draft = "https://json-schema.org/draft/2020-12/schema"
    domain = SchemaDomain("d")
    domain.add_action("a", schema={
        "$defs": {"code": {"$schema": draft, "type": "string", "pattern": EVIL}},
        "properties": {"code": {"$ref": "#/$defs/code"}}})
    assert domain.validate("a", {"code": ATTACK})["hint"] == (
        "code could not be checked against its pattern in time")
    domain.add_action("b", schema={"$schema": draft, "properties": {"next": {"$ref": "#"}},
                                   "additionalProperties": False})
    assert domain.validate("b", {"next": {"other": 1}})["hint"] == (
        "unexpected field 'other' in next")


def test_ordinary_patterns_still_match_after_a_budget_ran_out(small_budget):
    domain = SchemaDomain("d")
    domain.add_action("a", schema={"properties": {"code": {"type": "string", "pattern": EVIL}}})
    domain.validate("a", {"code": ATTACK})
    assert domain.validate("a", {"code": "aaaa"}) == {"ok": True}


@pytest.mark.parametrize("shape", ["objects", "lists"])
def test_a_deeply_nested_payload_is_a_refusal_not_a_crash(shape):
    payload: object = {}
    for _ in range(5000):
        payload = {"a": payload} if shape == "objects" else [payload]
    domain = SchemaDomain("d")
    domain.add_action(
        "a",
        schema={
            "$defs": {
                "any": {
                    "anyOf": [
                        {"type": "object", "additionalProperties": {"$ref": "#/$defs/any"}},
                        {"type": "array", "items": {"$ref": "#/$defs/any"}},
                    ]
                }
            },
            "$ref": "#/$defs/any",
        },
    )
    verdict = domain.validate("a", payload)
    assert verdict["hint"] == "the payload is nested too deeply (more than 64 levels)"
    assert domain.preview("a", payload) == ("a (a: {…})" if shape == "objects" else "a")


def test_a_recursive_schema_validates_payloads_up_to_the_depth_limit():
    tree = {
        "$defs": {
            "node": {
                "type": "object",
                "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/node"}}},
            }
        },
        "$ref": "#/$defs/node",
    }
    payload: dict = {}
    for _ in range(31):  # 63 levels: an object and a list per step, plus the root
        payload = {"children": [payload]}
    domain = SchemaDomain("d")
    domain.add_action("a", schema=tree)
    assert domain.validate("a", payload) == {"ok": True}


def test_a_cyclic_python_payload_is_refused():
    payload: dict = {}
    payload["self"] = payload
    domain = SchemaDomain("d")
    domain.add_action("a")
    assert domain.validate("a", payload)["ok"] is False


def test_a_schema_that_refers_to_itself_without_end_is_a_refusal_not_a_crash():
    loop = {"$defs": {"loop": {"$ref": "#/$defs/loop"}}, "$ref": "#/$defs/loop"}
    domain = SchemaDomain("d")
    domain.add_action("a", schema=loop)
    verdict = domain.validate("a", {})
    assert verdict["code"] == "schema-error"
    assert "recursed too deeply" in verdict["hint"]


def test_unique_items_over_ten_thousand_objects_is_fast_and_finds_the_repeat(budget_clock):
    rows = [{"id": i, "tags": ["a", i]} for i in range(10_000)]
    domain = SchemaDomain("d")
    domain.add_action("a", schema={"type": "array", "uniqueItems": True})
    small_seconds = least_cpu_seconds(lambda: domain.validate("a", rows[:1_000]))
    verdict, large_seconds = cpu_seconds(lambda: domain.validate("a", rows))
    assert verdict == {"ok": True}
    # ten times the rows for about ten times the work: jsonschema's pairwise check is 100 times
    # (it takes minutes here)
    assert large_seconds < 30 * small_seconds
    verdict = domain.validate("a", [*rows, {"tags": ["a", 3.0], "id": 3}])  # 3 == 3.0
    assert (
        verdict["hint"]
        == "the payload must not contain duplicates (an object appears more than once)"
    )


def test_unique_items_keeps_true_and_one_apart():
    domain = SchemaDomain("d")
    domain.add_action("a", schema={"type": "array", "uniqueItems": True})
    assert domain.validate("a", [1, True, 0, False, None, "1"]) == {"ok": True}
    assert domain.validate("a", [[1, 2], [1, 2.0]])["ok"] is False


@pytest.mark.parametrize(
    ("fmt", "good", "bad"),
    [
        ("date-time", "2024-01-31T09:30:00Z", "2024-02-30T09:30:00Z"),
        ("date-time", "2024-01-31T09:30:00.5+01:00", "2024-01-31 25:00:00Z"),
        ("time", "09:30:00Z", "9:30"),
        ("uri", "https://example.com/a?b=1", "example.com/a"),
        ("uri-reference", "../a", "a b"),
        ("hostname", "example.com", "-bad-.com"),
    ],
)
def test_format_fallbacks_assert_formats_without_the_optional_libraries(fmt, good, bad):
    bare = jsonschema.FormatChecker(formats=())  # as if no format library were installed
    checker = format_checker(bare)
    assert fmt in FALLBACK_FORMATS
    assert checker.conforms(good, fmt)
    assert not checker.conforms(bad, fmt)
    assert checker.conforms(5, fmt)  # formats apply to strings only


RICH_SCHEMA = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "minLength": 1, "maxLength": 20, "pattern": "^[a-z ]+$"},
        "impact": {"enum": ["high", "medium", "low"]},
        "size": {"anyOf": [{"type": "integer", "minimum": 0}, {"const": "auto"}]},
        "when": {"type": "string", "format": "date"},
        "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": True, "maxItems": 3},
        "shape": {
            "oneOf": [
                {
                    "type": "object",
                    "properties": {"kind": {"const": "circle"}},
                    "required": ["kind"],
                },
                {
                    "type": "object",
                    "properties": {"kind": {"const": "square"}},
                    "required": ["kind"],
                },
            ]
        },
    },
    "required": ["name"],
    "propertyNames": {"maxLength": 10},
    "additionalProperties": False,
}

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=4)
    ),
    max_leaves=20,
)
payloads = st.dictionaries(
    st.sampled_from([*RICH_SCHEMA["properties"], "colour", "x" * 12]), json_values, max_size=6
)


@functools.cache
def rich_domain() -> SchemaDomain:
    domain = SchemaDomain("d")
    domain.add_action("a", schema=RICH_SCHEMA)
    return domain


@settings(max_examples=examples(200), deadline=None)
@given(payload=payloads | json_values)
def test_any_json_payload_gets_a_verdict_of_the_documented_shape(payload):
    verdict = rich_domain().validate("a", payload)
    if verdict["ok"]:
        assert verdict == {"ok": True}
        return
    assert set(verdict) == {"ok", "code", "field", "hint", "errors"}
    assert verdict["code"] == "invalid-payload"
    assert 1 <= len(verdict["errors"]) <= 20
    assert verdict["field"] == verdict["errors"][0]["field"]
    for error in verdict["errors"]:
        assert isinstance(error["field"], str)
        assert 0 < len(error["message"]) <= 200


def test_a_remote_ref_under_a_property_named_like_a_keyword_is_found(listener):
    schema = {"properties": {"description": {"$ref": f"{listener.url}/s.json"}}}
    with pytest.raises(ValueError, match="is not one of this domain's schemas"):
        SchemaDomain("d").add_action("a", schema=schema)
    assert listener.requests == []


def test_dynamic_refs_to_the_schemas_own_anchors_resolve():
    tree = {
        "$dynamicAnchor": "node",
        "type": "object",
        "properties": {"children": {"type": "array", "items": {"$dynamicRef": "#node"}}},
    }
    domain = SchemaDomain("d")
    domain.add_action("a", schema=tree)
    assert domain.validate("a", {"children": [{"children": []}]}) == {"ok": True}
    assert domain.validate("a", {"children": [1]})["hint"] == (
        "children[0] must be an object, not 1"
    )
