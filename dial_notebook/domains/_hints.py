"""Readable hints from jsonschema errors: one short sentence per problem, with its field's path.

``str(error)`` can run to thousands of lines and ``best_match`` can pick the wrong ``oneOf``
branch, so each error is read through its keyword (``validator``), the keyword's value, the
instance and the path, and phrased the way a person would say it:

    text must not be empty
    impact must be one of 'high', 'medium', 'low'
    unexpected field 'colour' (did you mean 'color'?)

Values are shown short (strings cut at 40 characters, lists and objects named, never printed).
For ``anyOf`` / ``oneOf`` the branches are compared: when every branch refuses the same field
by ``const`` / ``enum`` (a discriminator) the allowed values are listed; when every branch
refuses the value's type, the allowed types are; otherwise the errors of the closest branch
(fewest errors among those whose type fits) are shown.

The sentence for one keyword is ``_keyword_hints``'s; how values, paths and names are written
(and "did you mean") ``_phrasing``'s, re-exported here.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ._keyword_hints import sentence, type_names
from ._phrasing import (
    MAX_CANDIDATES,
    MAX_SUGGEST_CHARS,
    choices,
    did_you_mean,
    either,
    field_name,
    show,
)
from ._phrasing import subject as _subject

if TYPE_CHECKING:
    from jsonschema import ValidationError

__all__ = [
    "MAX_CANDIDATES",
    "MAX_MESSAGE",
    "MAX_SUGGESTIONS",
    "MAX_SUGGEST_CHARS",
    "PATTERN_TIMEOUT",
    "describe",
    "did_you_mean",
    "field_name",
    "show",
]

#: The message of the error a pattern check yields when it ran out of time (see _keywords).
PATTERN_TIMEOUT = "pattern check timed out"

Path = tuple[str | int, ...]

#: Longest message in an ``errors`` entry.
MAX_MESSAGE = 200
#: Most "did you mean" suggestions one ``describe`` computes (each compares many names).
MAX_SUGGESTIONS = 20

_UNEVALUATED = re.compile(
    r"^Unevaluated properties are not allowed \((.*) (?:was|were) unexpected\)$"
)

_SHAPE_KEYWORDS = ("type", "const", "enum")


class _Suggester:
    """"Did you mean" for one ``describe``: at most ``MAX_SUGGESTIONS`` computed, then none."""

    def __init__(self) -> None:
        self.left = MAX_SUGGESTIONS

    def __call__(self, word: Any, candidates: Iterable[Any]) -> str:
        if self.left <= 0:
            return ""
        self.left -= 1
        return did_you_mean(word, candidates)


def describe(errors: Iterable[ValidationError]) -> list[dict[str, str]]:
    """One ``{'field', 'message'}`` entry per problem, sorted by path, duplicates removed.

        >>> from jsonschema import Draft202012Validator
        >>> schema = {"properties": {"text": {"type": "string", "minLength": 1}}}
        >>> describe(Draft202012Validator(schema).iter_errors({"text": ""}))
        [{'field': 'text', 'message': 'text must not be empty'}]
    """
    entries: dict[tuple[Path, str], None] = {}
    suggest = _Suggester()
    for error in errors:
        for path, message in _describe(error, suggest):
            entries.setdefault((path, message), None)
    ordered = sorted(entries, key=lambda entry: _sort_key(entry[0]))
    return [{"field": field_name(path), "message": _cut(message)} for path, message in ordered]


def _sort_key(path: Path) -> tuple[tuple[int, int | str], ...]:
    return tuple((0, part) if isinstance(part, int) else (1, part) for part in path)


def _cut(message: str) -> str:
    return message if len(message) <= MAX_MESSAGE else message[: MAX_MESSAGE - 1] + "…"


def _describe(error: ValidationError, suggest: _Suggester) -> list[tuple[Path, str]]:
    path: Path = tuple(error.absolute_path)
    keyword = error.validator
    value = error.validator_value
    instance = error.instance
    schema = error.schema if isinstance(error.schema, dict) else {}
    names_key = "propertyNames" in error.absolute_schema_path and isinstance(instance, str)
    if names_key:
        path = (*path, instance)
    if error.message == PATTERN_TIMEOUT:
        on_name = names_key or keyword in ("patternProperties", "additionalProperties")
        subject = f"field name {show(path[-1])}" if on_name and path else _subject(path)
        return [(path, f"{subject} could not be checked against its pattern in time")]
    if names_key:
        return [(path, sentence(error, f"field name {show(instance)}", suggest))]
    if keyword in ("anyOf", "oneOf"):
        return _alternatives(error, path, suggest)
    if keyword == "required":
        missing = [name for name in value if isinstance(instance, dict) and name not in instance]
        return [((*path, name), f"{_subject((*path, name))} is required") for name in missing]
    if keyword in ("dependentRequired", "dependencies") and isinstance(instance, dict):
        return _dependencies(path, value, instance)
    if keyword == "additionalProperties":
        names = getattr(error, "extras", [])
        known = schema.get("properties", {})
        return [_unexpected(path, name, known, suggest) for name in names]
    if keyword == "unevaluatedProperties":
        return _unevaluated(error, path, schema, suggest)
    return [(path, sentence(error, _subject(path), suggest))]


def _dependencies(path: Path, value: Any, instance: dict[str, Any]) -> list[tuple[Path, str]]:
    found = []
    for name, needed in value.items():
        if name not in instance or not isinstance(needed, list):
            continue
        for other in needed:
            if other not in instance:
                other_path = (*path, other)
                text = f"{_subject(other_path)} is required when {_subject((*path, name))} is given"
                found.append((other_path, text))
    return found


def _unexpected(
    path: Path, name: Any, known: Iterable[Any], suggest: _Suggester
) -> tuple[Path, str]:
    where = f" in {field_name(path)}" if path else ""
    return (*path, name), f"unexpected field {show(name)}{where}{suggest(name, known)}"


def _unevaluated(
    error: ValidationError, path: Path, schema: dict[str, Any], suggest: _Suggester
) -> list[tuple[Path, str]]:
    match = _UNEVALUATED.match(error.message) if len(error.message) < 2000 else None
    if match:
        try:
            names = ast.literal_eval(f"[{match.group(1)}]")
        except (ValueError, SyntaxError):
            names = []
        if names:
            known = _property_names(schema)
            return [_unexpected(path, name, known, suggest) for name in names]
    return [(path, f"{_subject(path)} has fields that are not allowed here")]


def _property_names(schema: Any, depth: int = 0) -> list[str]:
    """The names in ``properties`` of a schema and of the subschemas it combines."""
    if not isinstance(schema, dict) or depth > 5:
        return []
    names = list(schema.get("properties", {})) if isinstance(schema.get("properties"), dict) else []
    for keyword in ("allOf", "anyOf", "oneOf"):
        for subschema in schema.get(keyword, []) if isinstance(schema.get(keyword), list) else []:
            names.extend(_property_names(subschema, depth + 1))
    for keyword in ("if", "then", "else"):
        names.extend(_property_names(schema.get(keyword), depth + 1))
    return names


def _alternatives(
    error: ValidationError, path: Path, suggest: _Suggester
) -> list[tuple[Path, str]]:
    """``anyOf`` / ``oneOf``: the discriminator's values, the allowed types, or the errors of
    the closest branch."""
    subject = _subject(path)
    if not error.context:
        message = f"{subject} matches more than one of the allowed forms; it must match exactly one"
        return [(path, message)]
    branches: dict[Any, list[ValidationError]] = {}
    for number, inner in enumerate(error.context):
        # a `false` branch's error has no schema path: it is a branch of its own
        branch = inner.relative_schema_path[0] if inner.relative_schema_path else ("false", number)
        branches.setdefault(branch, []).append(inner)
    if len(branches) > 1:
        found = _discriminator(path, branches, suggest)
        if found:
            return found
    fitting = [
        errors for errors in branches.values()
        if not any(not e.relative_path and e.validator in _SHAPE_KEYWORDS for e in errors)
    ]
    if not fitting:
        expected = []
        for errors in branches.values():
            for inner in errors:
                if not inner.relative_path and inner.validator in _SHAPE_KEYWORDS:
                    expected.extend(_expected(inner))
        return [(path, f"{subject} must be {either(expected)}")]
    closest = min(fitting, key=len)
    return [entry for inner in closest for entry in _describe(inner, suggest)]


def _discriminator(
    path: Path, branches: dict[Any, list[ValidationError]], suggest: _Suggester
) -> list[tuple[Path, str]]:
    tags = [
        {tuple(e.relative_path): e for e in errors if e.validator in ("const", "enum")}
        for errors in branches.values()
    ]
    common = set(tags[0]).intersection(*tags[1:])
    common.discard(())
    if not common:
        return []
    where = min(common, key=lambda p: (len(p), _sort_key(p)))
    values: list[Any] = []
    for tag in tags:
        inner = tag[where]
        allowed = [inner.validator_value] if inner.validator == "const" else inner.validator_value
        for value in allowed:
            if value not in values:
                values.append(value)
    target = (*path, *where)
    instance = tags[0][where].instance
    suggestion = suggest(instance, values)
    return [(target, f"{_subject(target)} must be {choices(values)}{suggestion}")]


def _expected(error: ValidationError) -> list[str]:
    if error.validator == "type":
        return type_names(error.validator_value)
    if error.validator == "const":
        return [show(error.validator_value)]
    return [show(value) for value in error.validator_value]
