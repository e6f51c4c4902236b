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
"""

from __future__ import annotations

import ast
import difflib
import itertools
import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jsonschema import ValidationError

#: The message of the error a pattern check yields when it ran out of time (see _keywords).
PATTERN_TIMEOUT = "pattern check timed out"

Path = tuple[str | int, ...]

#: Longest message in an ``errors`` entry.
MAX_MESSAGE = 200
#: Longest word (and candidate) a "did you mean" compares: longer ones get no suggestion.
MAX_SUGGEST_CHARS = 64
#: Most candidates one "did you mean" compares the word with.
MAX_CANDIDATES = 200
#: Most "did you mean" suggestions one ``describe`` computes (each compares many names).
MAX_SUGGESTIONS = 20

_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")
_UNEVALUATED = re.compile(
    r"^Unevaluated properties are not allowed \((.*) (?:was|were) unexpected\)$"
)

_TYPES = {
    "string": "a string",
    "number": "a number",
    "integer": "an integer",
    "boolean": "true or false",
    "object": "an object",
    "array": "a list",
    "null": "null",
}

_FORMATS = {
    "date": "a date like 2024-01-31",
    "date-time": "a date and time like 2024-01-31T09:30:00Z",
    "time": "a time like 09:30:00Z",
    "duration": "a duration like P3DT4H",
    "email": "an email address",
    "idn-email": "an email address",
    "hostname": "a host name like example.com",
    "idn-hostname": "a host name like example.com",
    "ipv4": "an IPv4 address like 192.0.2.1",
    "ipv6": "an IPv6 address like 2001:db8::1",
    "uri": "an absolute URI like https://example.com/page",
    "iri": "an absolute IRI like https://example.com/page",
    "uri-reference": "a URI reference",
    "iri-reference": "an IRI reference",
    "uuid": "a UUID like 123e4567-e89b-12d3-a456-426614174000",
    "regex": "a regular expression",
    "json-pointer": "a JSON pointer like /items/0",
    "relative-json-pointer": "a relative JSON pointer like 1/name",
    "uri-template": "a URI template like https://example.com/{id}",
}

_SHAPE_KEYWORDS = ("type", "const", "enum")


def field_name(path: Sequence[str | int]) -> str:
    """The path written the way a person reads it; ``""`` for the payload itself.

        >>> field_name(["columns", 1, "name"])
        'columns[1].name'
    """
    text = ""
    for part in path:
        if isinstance(part, int):
            text += f"[{part}]"
        elif _IDENTIFIER.match(part):
            text += f".{part}" if text else part
        else:
            key = part if len(part) <= 100 else part[:99] + "…"
            text += "['" + key.replace("\\", "\\\\").replace("'", "\\'") + "']"
    return text


def show(value: Any) -> str:
    """A value shown short: strings quoted and cut, lists and objects named, JSON literals.

        >>> show("high"), show(True), show(None), show([1, 2])
        ("'high'", 'true', 'null', 'a list of 2 items')
    """
    if isinstance(value, str):
        text = value if len(value) <= 40 else value[:39] + "…"
        return "'" + text.replace("\n", "\\n") + "'"
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, int | float):
        text = repr(value)
        return text if len(text) <= 40 else f"{value:.6g}"
    if isinstance(value, list | tuple):
        return f"a list of {len(value)} item{'' if len(value) == 1 else 's'}"
    if isinstance(value, dict):
        return "an object"
    return "a " + type(value).__name__


def _subject(path: Path) -> str:
    return field_name(path) or "the payload"


def _either(phrases: Sequence[str]) -> str:
    unique = list(dict.fromkeys(phrases))
    if len(unique) == 1:
        return unique[0]
    return ", ".join(unique[:-1]) + " or " + unique[-1]


def _choices(values: Sequence[Any]) -> str:
    if len(values) == 1:
        return show(values[0])
    shown = [show(value) for value in values[:12]]
    more = f", … ({len(values)} values)" if len(values) > 12 else ""
    return "one of " + ", ".join(shown) + more


def did_you_mean(word: Any, candidates: Iterable[Any]) -> str:
    """`` (did you mean 'x'?)`` naming the closest candidate to ``word``, or ``''``.

    Bounded, whatever the agent wrote: a word longer than ``MAX_SUGGEST_CHARS`` gets no
    suggestion, and it is compared with at most ``MAX_CANDIDATES`` names of at most that length.

        >>> did_you_mean("colour", ["color", "size"])
        " (did you mean 'color'?)"
    """
    if not isinstance(word, str) or len(word) > MAX_SUGGEST_CHARS:
        return ""
    names = [name for name in itertools.islice(candidates, MAX_CANDIDATES * 5)
             if isinstance(name, str) and len(name) <= MAX_SUGGEST_CHARS][:MAX_CANDIDATES]
    folded = {name.lower(): name for name in names}
    if word.lower() in folded:
        return f" (did you mean {show(folded[word.lower()])}?)"
    scored = [
        (difflib.SequenceMatcher(None, word, name).ratio(), _shared_prefix(word, name), -i, name)
        for i, name in enumerate(names)
    ]
    best = max(scored, default=None)
    return f" (did you mean {show(best[3])}?)" if best and best[0] >= 0.6 else ""


def _shared_prefix(one: str, two: str) -> int:
    count = 0
    for left, right in zip(one, two, strict=False):
        if left != right:
            break
        count += 1
    return count


def _kind(value: Any) -> str:
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool | int | float) or value is None:
        return show(value)
    return show(value) if isinstance(value, list | tuple) else "an object"


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


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
        return [(path, _sentence(error, f"field name {show(instance)}", suggest))]
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
    return [(path, _sentence(error, _subject(path), suggest))]


def _sentence(error: ValidationError, subject: str, suggest: _Suggester) -> str:
    """The hint for one keyword's failure on one value, about ``subject``."""
    keyword, value, instance = error.validator, error.validator_value, error.instance
    schema = error.schema if isinstance(error.schema, dict) else {}
    if keyword is None:
        return f"{subject} is not allowed"
    if keyword == "type":
        names = [value] if isinstance(value, str) else value
        expected = [_TYPES.get(name, name) for name in names]
        return f"{subject} must be {_either(expected)}, not {_kind(instance)}"
    if keyword == "enum":
        return f"{subject} must be {_choices(list(value))}{suggest(instance, value)}"
    if keyword == "const":
        return f"{subject} must be {show(value)}"
    if keyword == "minLength":
        if value == 1:
            return f"{subject} must not be empty"
        return f"{subject} must be at least {_plural(value, 'character')} long"
    if keyword == "maxLength":
        limit = _plural(value, "character")
        return f"{subject} must be at most {limit} long (it has {len(instance)})"
    if keyword in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        return f"{subject} must be {_bound(keyword, value, schema)}"
    if keyword == "multipleOf":
        return f"{subject} must be a multiple of {show(value)}"
    if keyword == "pattern":
        return f"{subject} must match the pattern {show(value)}"
    if keyword == "format":
        return f"{subject} must be {_FORMATS.get(value, f'a valid {value}')}"
    if keyword == "minItems":
        if value == 1:
            return f"{subject} must not be empty"
        return f"{subject} must have at least {_plural(value, 'item')}"
    if keyword == "maxItems":
        return f"{subject} must have at most {_plural(value, 'item')} (it has {len(instance)})"
    if keyword == "uniqueItems":
        repeated = show(getattr(error, "duplicate", None))
        return f"{subject} must not contain duplicates ({repeated} appears more than once)"
    if keyword == "minProperties":
        return f"{subject} must have at least {_plural(value, 'field')}"
    if keyword == "maxProperties":
        return f"{subject} must have at most {_plural(value, 'field')}"
    if keyword == "contains":
        return _contains(subject, schema, instance)
    if keyword in ("items", "additionalItems") and value is False:
        allowed = len(schema.get("prefixItems" if keyword == "items" else "items", []))
        return f"{subject} must have at most {_plural(allowed, 'item')}"
    if keyword == "unevaluatedItems":
        return f"{subject} has more items than allowed"
    if keyword == "not":
        return f"{subject} has a value that is not allowed here"
    return f"{subject} does not satisfy '{keyword}'"


def _bound(keyword: str, value: Any, schema: dict[str, Any]) -> str:
    exclusive = keyword.startswith("exclusive") or schema.get(f"exclusive{keyword.title()}") is True
    if keyword in ("minimum", "exclusiveMinimum"):
        return f"greater than {show(value)}" if exclusive else f"at least {show(value)}"
    return f"less than {show(value)}" if exclusive else f"at most {show(value)}"


def _contains(subject: str, schema: dict[str, Any], instance: Any) -> str:
    most = schema.get("maxContains")
    if most is not None and isinstance(instance, list) and len(instance) > most:
        least = schema.get("minContains", 1)
        if least <= most:
            return f"{subject} must contain at most {_plural(most, 'matching item')}"
    least = _plural(schema.get("minContains", 1), "matching item")
    return f"{subject} must contain at least {least}"


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
        return [(path, f"{subject} must be {_either(expected)}")]
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
    return [(target, f"{_subject(target)} must be {_choices(values)}{suggestion}")]


def _expected(error: ValidationError) -> list[str]:
    if error.validator == "type":
        value = error.validator_value
        names = [value] if isinstance(value, str) else value
        return [_TYPES.get(name, name) for name in names]
    if error.validator == "const":
        return [show(error.validator_value)]
    return [show(value) for value in error.validator_value]
