"""Breaking a valid payload on purpose, one way at a time, for ``PayloadMaker.broken``.

``breakages(kind, …)`` changes one top-level field of a payload one way, ``kind`` (one of
``KINDS``: a misspelt name, a missing required field, a wrong type, a value outside an
enum …, read from the field's flattened subschema), and yields each candidate as (the field,
the payload, the change in words). ``PayloadMaker`` keeps the first that the domain's
``validate`` refuses naming that field (``refusal_names``, with the field written as the
domain's refusals write it: ``field_name``). Nothing is random.

Uses ``_schema_read.py`` (the schema) and ``_schema_values.py`` (``fit``).

    >>> schema = {"type": "object", "required": ["n"], "properties": {"n": {"maximum": 3}}}
    >>> schemas = Schemas(schema, [])
    >>> next(breakages("high", {"n": 1}, schema, schemas.resolver, schemas))
    ('n', {'n': 4}, "'n' set to 4, above its maximum 3")
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ._schema_read import (
    Cannot,
    Schemas,
    bounds,
    flatten,
    is_number,
    property_schema,
    schema_types,
)
from ._schema_values import fit

#: The ways a payload is broken, in the order ``broken`` tries them.
KINDS = ("typo", "missing", "type", "enum", "format", "short", "long", "low", "high",
         "pattern", "const", "few", "many", "extra")
#: Words a person may use for a kind.
KIND_WORDS = {
    "typo": "typo", "misspelt": "typo", "misspelled": "typo", "misspelling": "typo",
    "spelling": "typo", "name": "typo", "missing": "missing", "required": "missing",
    "type": "type", "enum": "enum", "value": "enum", "format": "format", "short": "short",
    "empty": "short", "long": "long", "low": "low", "small": "low", "minimum": "low",
    "high": "high", "large": "high", "big": "high", "maximum": "high", "pattern": "pattern",
    "const": "const", "few": "few", "many": "many", "extra": "extra", "unexpected": "extra",
}

_BAD_FORMATS = {"date": "next week", "date-time": "tomorrow morning", "time": "noon",
                "email": "not an email", "idn-email": "not an email", "uri": "not a uri",
                "iri": "not an iri", "ipv4": "999.0.0.1", "ipv6": "not:an:ip:v6:address",
                "uuid": "not-a-uuid", "hostname": "not a host", "duration": "three days"}
_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")

_NOTHING = object()  # no wrong value found

#: One candidate: (the field, the payload with it broken, the change in words).
Breakage = tuple[str, dict[str, Any], str]


def breakages(kind: str, base: dict[str, Any], root: dict[str, Any], resolver: Any,
              schemas: Schemas) -> Iterator[Breakage]:
    """Candidate breakages of one kind: (the field, the payload, the change in words)."""
    target = _Target.read(base, root, resolver, schemas)
    breaker = _BREAKERS.get(kind)
    if breaker is not None:
        yield from breaker(target)


@dataclass
class _Target:
    """The payload to break (``base``) and what its flat object schema (``root``) says."""

    base: dict[str, Any]
    root: dict[str, Any]
    resolver: Any
    schemas: Schemas
    properties: dict[str, Any]
    required: list[str]
    closed: bool  # whether the schema refuses fields it does not name
    present: list[str]  # the fields of base, the schema's properties first
    optional_first: list[str]  # the same, the optional ones first

    @classmethod
    def read(cls, base: dict[str, Any], root: dict[str, Any], resolver: Any,
             schemas: Schemas) -> _Target:
        properties = root.get("properties") if isinstance(root.get("properties"), dict) else {}
        required = [r for r in root.get("required") or [] if isinstance(r, str)]
        closed = root.get("additionalProperties") is False or \
            root.get("unevaluatedProperties") is False
        present = [key for key in base if key in properties] + [k for k in base if k not in
                                                                properties]
        optional_first = [k for k in present if k not in required] + [k for k in present
                                                                       if k in required]
        return cls(base, root, resolver, schemas, properties, required, closed, present,
                   optional_first)

    def flat(self, key: str) -> dict[str, Any]:
        """The flattened subschema of the field ``key`` ({} when it cannot be read)."""
        try:
            return flatten(self.schemas, property_schema(self.root, key), self.resolver)[0]
        except Cannot:
            return {}

    def changed(self, key: str, value: Any) -> dict[str, Any]:
        """The payload with ``key`` set to ``value``."""
        return {**self.base, key: value}


# -- one function for each kind, in KINDS order ---------------------------------------------


def _typos(t: _Target) -> Iterator[Breakage]:
    if not t.closed:
        return
    for key in t.optional_first:
        wrong = _typo(key, set(t.properties) | set(t.base))
        if wrong:
            payload = {(wrong if k == key else k): v for k, v in t.base.items()}
            yield wrong, payload, f"'{key}' misspelt as '{wrong}'"


def _missing(t: _Target) -> Iterator[Breakage]:
    for key in t.required:
        if key in t.base:
            yield key, {k: v for k, v in t.base.items() if k != key}, \
                f"no '{key}', which is required"


def _wrong_types(t: _Target) -> Iterator[Breakage]:
    for key in t.present:
        sub = t.flat(key)
        kinds = schema_types(sub, False) if "type" in sub or "enum" not in sub else []
        wrong = _wrong_type(kinds, t.base[key])
        if wrong is not _NOTHING:
            yield key, t.changed(key, wrong), \
                f"'{key}' set to {_json(wrong)}, which is not {_a(kinds)}"


def _not_in_enum(t: _Target) -> Iterator[Breakage]:
    for key in t.present:
        values = t.flat(key).get("enum")
        if isinstance(values, list) and values:
            wrong = _outside(values)
            yield key, t.changed(key, wrong), \
                f"'{key}' set to {_json(wrong)}, which is not one of its values"


def _bad_formats(t: _Target) -> Iterator[Breakage]:
    for key in t.present:
        fmt = t.flat(key).get("format")
        if isinstance(fmt, str):
            wrong = _BAD_FORMATS.get(fmt, f"not a {fmt}")
            yield key, t.changed(key, wrong), \
                f"'{key}' set to {_json(wrong)}, which is not a valid {fmt}"


def _too_short(t: _Target) -> Iterator[Breakage]:
    for key in t.present:
        least = t.flat(key).get("minLength")
        if is_number(least) and least >= 1 and isinstance(t.base[key], str):
            wrong = t.base[key][:int(least) - 1]
            what = f"'{key}' empty" if not wrong else \
                f"'{key}' shorter than its {int(least)} characters"
            yield key, t.changed(key, wrong), what


def _too_long(t: _Target) -> Iterator[Breakage]:
    for key in t.present:
        most = t.flat(key).get("maxLength")
        if is_number(most) and isinstance(t.base[key], str):
            wrong = fit(t.base[key] + "x" * (int(most) + 1), 0, int(most) + 1)
            yield key, t.changed(key, wrong), \
                f"'{key}' {len(wrong)} characters long, over its {int(most)}"


def _out_of_bounds(t: _Target, kind: str) -> Iterator[Breakage]:
    """``kind`` "low": below a field's minimum; "high": above its maximum."""
    for key in t.present:
        low, high, _, _ = bounds(t.flat(key))
        edge = low if kind == "low" else high
        if edge is not None and is_number(t.base[key]):
            wrong = math.floor(edge) - 1 if kind == "low" else math.ceil(edge) + 1
            word = "below its minimum" if kind == "low" else "above its maximum"
            yield key, t.changed(key, wrong), f"'{key}' set to {wrong}, {word} {edge}"


def _not_matching(t: _Target) -> Iterator[Breakage]:
    for key in t.present:
        pattern = t.flat(key).get("pattern")
        if isinstance(pattern, str):
            for wrong in ("!", " ", "", "0", "a", "A", "-"):
                sub = {"pattern": pattern}
                if not t.schemas.ok(sub, t.resolver, wrong):
                    yield key, t.changed(key, wrong), \
                        f"'{key}' set to {_json(wrong)}, which does not match {pattern}"
                    break


def _not_const(t: _Target) -> Iterator[Breakage]:
    for key in t.present:
        sub = t.flat(key)
        if "const" in sub:
            wrong = _outside([sub["const"]])
            yield key, t.changed(key, wrong), \
                f"'{key}' set to {_json(wrong)} instead of {_json(sub['const'])}"


def _too_few(t: _Target) -> Iterator[Breakage]:
    for key in t.present:
        least = t.flat(key).get("minItems")
        if is_number(least) and least >= 1 and isinstance(t.base[key], list):
            wrong = t.base[key][:int(least) - 1]
            yield key, t.changed(key, wrong), \
                f"'{key}' with {len(wrong)} items, fewer than its {int(least)}"


def _too_many(t: _Target) -> Iterator[Breakage]:
    for key in t.present:
        most = t.flat(key).get("maxItems")
        if is_number(most) and isinstance(t.base[key], list) and t.base[key]:
            wrong = [*t.base[key], *([t.base[key][-1]] * (int(most) + 1 - len(t.base[key])))]
            yield key, t.changed(key, wrong), \
                f"'{key}' with {len(wrong)} items, more than its {int(most)}"


def _extra(t: _Target) -> Iterator[Breakage]:
    if not t.closed:
        return
    name = next(n for n in ("extra", "extra_field", "unexpected")
                if n not in t.properties and n not in t.base)
    yield name, {**t.base, name: 1}, f"an unexpected field '{name}'"


_BREAKERS: dict[str, Callable[[_Target], Iterator[Breakage]]] = {
    "typo": _typos, "missing": _missing, "type": _wrong_types, "enum": _not_in_enum,
    "format": _bad_formats, "short": _too_short, "long": _too_long,
    "low": lambda t: _out_of_bounds(t, "low"), "high": lambda t: _out_of_bounds(t, "high"),
    "pattern": _not_matching, "const": _not_const, "few": _too_few, "many": _too_many,
    "extra": _extra,
}
assert tuple(_BREAKERS) == KINDS


# -- helpers --------------------------------------------------------------------------------


def _wrong_type(kinds: list[str], value: Any) -> Any:
    if not kinds:
        return _NOTHING
    for candidate in (42, "not a number", True, None, ["x"], {"x": 1}):
        if not any(_is_type(candidate, kind) for kind in kinds) and candidate != value:
            return candidate
    return _NOTHING


def _is_type(value: Any, kind: str) -> bool:
    return {
        "string": isinstance(value, str), "boolean": isinstance(value, bool),
        "integer": isinstance(value, int) and not isinstance(value, bool),
        "number": is_number(value), "null": value is None,
        "array": isinstance(value, list), "object": isinstance(value, dict),
    }.get(kind, False)


def _a(kinds: list[str]) -> str:
    words = {"string": "text", "integer": "a whole number", "number": "a number",
             "boolean": "true or false", "array": "a list", "object": "an object",
             "null": "null"}
    return " or ".join(words.get(kind, kind) for kind in kinds)


def _outside(values: list[Any]) -> Any:
    first = values[0]
    if isinstance(first, str):
        for candidate in (first.upper(), first.capitalize(), first + "x", "other"):
            if candidate not in values:
                return candidate
    for candidate in ("other", 9999, "unknown-value"):
        if candidate not in values:
            return candidate
    return None


def _typo(key: str, taken: set[str]) -> str | None:
    """``priority`` → ``priorty``: the last vowel inside the word dropped, else the last two
    letters swapped; None when that gives a name already used."""
    inner = [i for i, char in enumerate(key) if char.lower() in "aeiou" and 0 < i < len(key) - 1]
    if inner:
        wrong = key[:inner[-1]] + key[inner[-1] + 1:]
    elif len(key) >= 2:
        wrong = key[:-2] + key[-1] + key[-2]
    else:
        wrong = key + key
    return wrong if wrong not in taken and wrong != key else None


def field_name(key: str) -> str:
    """The key as the domain's refusals name a top-level field."""
    if _IDENTIFIER.match(key):
        return key
    return "['" + key.replace("\\", "\\\\").replace("'", "\\'") + "']"


def refusal_names(verdict: Mapping[str, Any], key: str) -> bool:
    """Whether the refusal is about ``key`` (its field, or one of its errors')."""
    wanted = field_name(key)
    fields = [verdict.get("field")] + [e.get("field") for e in verdict.get("errors") or []
                                       if isinstance(e, Mapping)]
    return any(f == wanted or (isinstance(f, str) and f.startswith((wanted + ".",
                                                                      wanted + "[")))
               for f in fields)


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)
