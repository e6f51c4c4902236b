"""Safe replacements for the jsonschema keywords that can hang, and the format checker.

An agent writes the payloads, a person writes the schemas; a schema's ``pattern`` can backtrack
catastrophically on the right input (``^(a|aa)+$`` against ``"aaaa…!"``), and Python's ``re`` can
neither be interrupted from another thread nor given a timeout. Here patterns run on the
``regex`` engine with a time budget shared by one validation (``pattern_budget``: seconds spent
matching, not waiting): once it is spent, every further pattern check fails at once with
``PATTERN_TIMEOUT``, so a validation costs at most the budget in pattern matching.

``uniqueItems`` is made linear (jsonschema compares objects pairwise: minutes for 10,000 rows),
and ``properties`` keeps the path of a field that a ``false`` subschema forbids.

    >>> with pattern_budget(0.2):
    ...     search(r"^(a|aa)+$", "a" * 60 + "!") is None   # timed out, not hung
    True
"""

from __future__ import annotations

import functools
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

import regex
from jsonschema import FormatChecker, ValidationError

from ._hints import PATTERN_TIMEOUT

#: Seconds one search may take when no budget is set.
DEFAULT_BUDGET = 1.0

class _Budget:
    """Seconds of pattern matching left to the validation in progress."""

    def __init__(self, seconds: float) -> None:
        self.left = seconds


_budget: ContextVar[_Budget | None] = ContextVar("dial_notebook_pattern_budget", default=None)


@contextmanager
def pattern_budget(seconds: float) -> Iterator[None]:
    """Give the pattern checks made inside the block ``seconds`` of matching in all."""
    token = _budget.set(_Budget(seconds))
    try:
        yield
    finally:
        _budget.reset(token)


@functools.lru_cache(maxsize=1024)
def compiled(pattern: str) -> regex.Pattern[str]:
    """The pattern compiled by ``regex`` (raises ``regex.error`` when it is not a regex)."""
    return regex.compile(pattern)


def search(pattern: str, text: str) -> bool | None:
    """Whether ``pattern`` matches somewhere in ``text``; ``None`` when it ran out of time."""
    budget = _budget.get() or _Budget(DEFAULT_BUDGET)
    if budget.left <= 0:
        return None
    started = time.monotonic()
    try:
        return compiled(pattern).search(text, timeout=budget.left) is not None
    except TimeoutError:
        return None
    finally:
        budget.left -= time.monotonic() - started


def _timeout(path: Any = ()) -> ValidationError:
    return ValidationError(PATTERN_TIMEOUT, path=path)


def pattern(validator: Any, patrn: str, instance: Any, schema: Any) -> Iterator[ValidationError]:
    """``pattern`` on the regex engine, within the budget."""
    if not validator.is_type(instance, "string"):
        return
    found = search(patrn, instance)
    if found is None:
        yield _timeout()
    elif not found:
        yield ValidationError(f"does not match {patrn!r}")


def pattern_properties(
    validator: Any, properties: dict[str, Any], instance: Any, schema: Any
) -> Iterator[ValidationError]:
    """``patternProperties`` on the regex engine, within the budget."""
    if not validator.is_type(instance, "object"):
        return
    for patrn, subschema in properties.items():
        for key, value in instance.items():
            found = search(patrn, key)
            if found is None:
                yield _timeout((key,))
            elif found:
                yield from validator.descend(value, subschema, path=key, schema_path=patrn)


def additional_properties(
    validator: Any, additional: Any, instance: Any, schema: Any
) -> Iterator[ValidationError]:
    """``additionalProperties``; a ``False`` refusal carries the extra keys as ``extras``."""
    if not validator.is_type(instance, "object"):
        return
    known = schema.get("properties", {})
    patterns = list(schema.get("patternProperties", {}))
    extras = []
    for key in instance:
        if key in known:
            continue
        matches = [search(patrn, key) for patrn in patterns]
        if None in matches:
            yield _timeout((key,))
        elif not any(matches):
            extras.append(key)
    if validator.is_type(additional, "object"):
        for key in extras:
            yield from validator.descend(instance[key], additional, path=key)
    elif additional is False and extras:
        error = ValidationError(f"{len(extras)} unexpected properties")
        error.extras = extras  # type: ignore[attr-defined]
        yield error


def properties(
    validator: Any, properties: dict[str, Any], instance: Any, schema: Any
) -> Iterator[ValidationError]:
    """``properties``, keeping the field's path on errors from a ``false`` subschema (which
    jsonschema leaves without one)."""
    if not validator.is_type(instance, "object"):
        return
    for name, subschema in properties.items():
        if name in instance:
            for error in validator.descend(instance[name], subschema, path=name, schema_path=name):
                if subschema is False and not error.path:
                    error.path.appendleft(name)
                    error.schema_path.appendleft(name)
                yield error


def unique_items(
    validator: Any, unique: Any, instance: Any, schema: Any
) -> Iterator[ValidationError]:
    """``uniqueItems`` in linear time; a refusal carries the first repeated item as
    ``duplicate``."""
    if not unique or not validator.is_type(instance, "array"):
        return
    seen: set[Any] = set()
    for item in instance:
        key = _identity(item)
        if key in seen:
            error = ValidationError("has non-unique elements")
            error.duplicate = item  # type: ignore[attr-defined]
            yield error
            return
        seen.add(key)


def _identity(value: Any) -> Any:
    """A hashable key equal for values JSON Schema calls equal (``1 == 1.0``, ``True != 1``)."""
    if isinstance(value, bool):
        return ("b", value)
    if isinstance(value, int | float):
        return ("n", value)
    if isinstance(value, str):
        return ("s", value)
    if value is None:
        return ("z",)
    if isinstance(value, list | tuple):
        return ("a", tuple(_identity(item) for item in value))
    if isinstance(value, dict):
        return ("o", frozenset((key, _identity(item)) for key, item in value.items()))
    try:
        hash(value)
    except TypeError:
        return ("?", id(value))
    return ("?", value)


#: The keyword implementations that replace jsonschema's own.
SAFE_KEYWORDS = {
    "properties": properties,
    "pattern": pattern,
    "patternProperties": pattern_properties,
    "additionalProperties": additional_properties,
    "uniqueItems": unique_items,
}


# Formats: jsonschema asserts some formats only when optional libraries are installed and
# silently passes the rest; these stand in for the common ones when those libraries are absent.

_RFC3339_TIME = r"(\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):(\d{2}))"
_DATE_TIME = re.compile(rf"^(\d{{4}})-(\d{{2}})-(\d{{2}})[Tt ]{_RFC3339_TIME}$", re.ASCII)
_TIME = re.compile(rf"^{_RFC3339_TIME}$", re.ASCII)
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*$")
_LABEL = re.compile(r"^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$")


def _is_time(
    hour: str, minute: str, second: str, off_hour: str | None, off_min: str | None
) -> bool:
    in_range = int(hour) < 24 and int(minute) < 60 and int(second) < 61
    return in_range and (off_hour is None or (int(off_hour) < 24 and int(off_min or 0) < 60))


def _date_time(instance: object) -> bool:
    if not isinstance(instance, str):
        return True
    match = _DATE_TIME.match(instance)
    if not match:
        return False
    year, month, day, hour, minute, second, _, _, off_hour, off_min = match.groups()
    try:
        datetime(int(year), int(month), int(day))
    except ValueError:
        return False
    return _is_time(hour, minute, second, off_hour, off_min)


def _time(instance: object) -> bool:
    if not isinstance(instance, str):
        return True
    match = _TIME.match(instance)
    if not match:
        return False
    hour, minute, second, _, _, off_hour, off_min = match.groups()
    return _is_time(hour, minute, second, off_hour, off_min)


def _uri(instance: object) -> bool:
    if not isinstance(instance, str):
        return True
    if any(char.isspace() or ord(char) < 32 for char in instance):
        return False
    try:
        parts = urlsplit(instance)
    except ValueError:
        return False
    return bool(_SCHEME.match(parts.scheme))


def _uri_reference(instance: object) -> bool:
    if not isinstance(instance, str):
        return True
    return not any(char.isspace() or ord(char) < 32 for char in instance)


def _hostname(instance: object) -> bool:
    if not isinstance(instance, str):
        return True
    labels = instance.rstrip(".").split(".")
    return len(instance) <= 253 and all(_LABEL.match(label) for label in labels)


#: Stand-ins for formats whose jsonschema checkers need optional libraries.
FALLBACK_FORMATS = {
    "date-time": _date_time,
    "time": _time,
    "uri": _uri,
    "uri-reference": _uri_reference,
    "hostname": _hostname,
}


def format_checker(base: FormatChecker) -> FormatChecker:
    """``base``'s checkers, plus the fallbacks for the formats it cannot check."""
    checker = FormatChecker(formats=())
    checker.checkers = dict(base.checkers)
    for name, function in FALLBACK_FORMATS.items():
        checker.checkers.setdefault(name, (function, ()))
    return checker
