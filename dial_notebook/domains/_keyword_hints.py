"""The sentence for one JSON Schema keyword's failure on one value: ``sentence(error, subject)``.

Each keyword (``type``, ``enum``, ``minLength``, ``format``, …) is read through its value, the
instance and the schema around it, and phrased the way a person would say it:

    text must not be empty
    impact must be one of 'high', 'medium', 'low'
    starts must be a date like 2024-01-31

The keywords that name fields (``required``, ``additionalProperties``, …) and those that
combine schemas (``anyOf``, ``oneOf``) are read in ``_hints``, which calls this for the rest.

    >>> from jsonschema import Draft202012Validator
    >>> [error] = Draft202012Validator({"type": "integer"}).iter_errors("3")
    >>> sentence(error, "count", lambda word, candidates: "")
    'count must be an integer, not a string'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from ._phrasing import choices, either, kind, plural, show

if TYPE_CHECKING:
    from jsonschema import ValidationError

#: "Did you mean" for one hint: ``suggest(word, candidates) -> " (did you mean 'x'?)" or ""``.
Suggest = Callable[[Any, Iterable[Any]], str]

TYPES = {
    "string": "a string",
    "number": "a number",
    "integer": "an integer",
    "boolean": "true or false",
    "object": "an object",
    "array": "a list",
    "null": "null",
}

FORMATS = {
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


def type_names(value: Any) -> list[str]:
    """The types a ``type`` keyword allows, as a person names them."""
    names = [value] if isinstance(value, str) else value
    return [TYPES.get(name, name) for name in names]


def sentence(error: ValidationError, subject: str, suggest: Suggest) -> str:
    """The hint for one keyword's failure on one value, about ``subject``."""
    keyword, value, instance = error.validator, error.validator_value, error.instance
    schema = error.schema if isinstance(error.schema, dict) else {}
    if keyword is None:
        return f"{subject} is not allowed"
    if keyword == "type":
        return f"{subject} must be {either(type_names(value))}, not {kind(instance)}"
    if keyword == "enum":
        return f"{subject} must be {choices(list(value))}{suggest(instance, value)}"
    if keyword == "const":
        return f"{subject} must be {show(value)}"
    if keyword in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        return f"{subject} must be {_bound(keyword, value, schema)}"
    if keyword == "multipleOf":
        return f"{subject} must be a multiple of {show(value)}"
    if keyword == "pattern":
        return f"{subject} must match the pattern {show(value)}"
    if keyword == "format":
        return f"{subject} must be {FORMATS.get(value, f'a valid {value}')}"
    return _size(error, subject) or f"{subject} does not satisfy '{keyword}'"


def _size(error: ValidationError, subject: str) -> str | None:
    """The hint for a keyword about a value's length or its items, else None."""
    keyword, value, instance = error.validator, error.validator_value, error.instance
    schema = error.schema if isinstance(error.schema, dict) else {}
    if keyword == "minLength":
        if value == 1:
            return f"{subject} must not be empty"
        return f"{subject} must be at least {plural(value, 'character')} long"
    if keyword == "maxLength":
        limit = plural(value, "character")
        return f"{subject} must be at most {limit} long (it has {len(instance)})"
    if keyword == "minItems":
        if value == 1:
            return f"{subject} must not be empty"
        return f"{subject} must have at least {plural(value, 'item')}"
    if keyword == "maxItems":
        return f"{subject} must have at most {plural(value, 'item')} (it has {len(instance)})"
    if keyword == "uniqueItems":
        repeated = show(getattr(error, "duplicate", None))
        return f"{subject} must not contain duplicates ({repeated} appears more than once)"
    if keyword == "minProperties":
        return f"{subject} must have at least {plural(value, 'field')}"
    if keyword == "maxProperties":
        return f"{subject} must have at most {plural(value, 'field')}"
    if keyword == "contains":
        return _contains(subject, schema, instance)
    if keyword in ("items", "additionalItems") and value is False:
        allowed = len(schema.get("prefixItems" if keyword == "items" else "items", []))
        return f"{subject} must have at most {plural(allowed, 'item')}"
    if keyword == "unevaluatedItems":
        return f"{subject} has more items than allowed"
    if keyword == "not":
        return f"{subject} has a value that is not allowed here"
    return None


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
            return f"{subject} must contain at most {plural(most, 'matching item')}"
    least = plural(schema.get("minContains", 1), "matching item")
    return f"{subject} must contain at least {least}"
