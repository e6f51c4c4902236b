"""Safe replacements for the jsonschema keywords that can hang, and one validation's time budget.

An agent writes the payloads, a person writes the schemas; a schema's ``pattern`` can backtrack
catastrophically on the right input (``^(a|aa)+$`` against ``"aaaa…!"``), and Python's ``re`` can
neither be interrupted from another thread nor given a timeout. Here patterns run on the
``regex`` engine, within the time budget of the validation (``time_budget``: a deadline shared
by every check of one payload): once it has passed, every further pattern check fails at once
with ``PATTERN_TIMEOUT``, and every other keyword raises ``OutOfTime`` the moment it is reached
(``bounded`` wraps them all), so one validation costs the budget plus at most one check.

``uniqueItems`` is made linear (jsonschema compares objects pairwise: minutes for 10,000 rows),
``properties`` keeps the path of a field that a ``false`` subschema forbids, and
``additionalProperties`` names at most ``MAX_NAMED_EXTRAS`` unexpected fields (counting the rest).

    >>> with time_budget(0.2):
    ...     search(r"^(a|aa)+$", "a" * 60 + "!") is None   # timed out, not hung
    True
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

import regex
from jsonschema import ValidationError

from .._budget import budget_clock
from ._hints import PATTERN_TIMEOUT

#: Seconds one search may take when no budget is set.
DEFAULT_BUDGET = 1.0
#: Unexpected fields an ``additionalProperties: false`` refusal names (the rest are counted).
MAX_NAMED_EXTRAS = 100


class OutOfTime(Exception):
    """The validation's time budget ran out before it was done."""


class _Budget:
    """The deadline of the validation in progress (``budget_clock()`` seconds)."""

    __slots__ = ("end",)

    def __init__(self, seconds: float) -> None:
        self.end = budget_clock() + max(0.0, seconds)

    @property
    def left(self) -> float:
        return max(0.0, self.end - budget_clock())


_budget: ContextVar[_Budget | None] = ContextVar("dial_notebook_validation_budget", default=None)


@contextmanager
def time_budget(seconds: float) -> Iterator[None]:
    """Give the checks made inside the block ``seconds`` in all (a deadline)."""
    token = _budget.set(_Budget(seconds))
    try:
        yield
    finally:
        _budget.reset(token)


def budget_end() -> float | None:
    """The deadline (``budget_clock()``) of the validation in progress, or None."""
    budget = _budget.get()
    return None if budget is None else budget.end


def bounded(keyword: Any) -> Any:
    """``keyword`` (a jsonschema keyword function), refusing to start once the budget ran out."""

    @functools.wraps(keyword)
    def within_budget(validator: Any, value: Any, instance: Any, schema: Any) -> Any:
        budget = _budget.get()
        if budget is not None and budget_clock() >= budget.end:
            raise OutOfTime
        return keyword(validator, value, instance, schema)

    return within_budget


@functools.lru_cache(maxsize=1024)
def compiled(pattern: str) -> regex.Pattern[str]:
    """The pattern compiled by ``regex`` (raises ``regex.error`` when it is not a regex)."""
    return regex.compile(pattern)


def search(pattern: str, text: str) -> bool | None:
    """Whether ``pattern`` matches somewhere in ``text``; ``None`` when it ran out of time.

    The ``regex`` engine's timeout counts the time the search spends (CPU, not wall time: on a
    loaded machine a second of it takes longer), so the search runs in slices of that time,
    the budget's clock read before each: the first ``FIRST_SLICE`` seconds, each next one twice
    as long (the search starts again) and no longer than the wall time left, as the slice
    before it went (``slice_after``). A search that outlives the budget gives up, however busy
    the machine."""
    budget = _budget.get() or _Budget(DEFAULT_BUDGET)
    compiled_pattern = compiled(pattern)
    given, ratio = FIRST_SLICE, 1.0
    while (left := budget.left) > 0:
        timeout = min(given, left / ratio)
        started = budget_clock()
        try:
            return compiled_pattern.search(text, timeout=timeout) is not None
        except TimeoutError:
            given, ratio = slice_after(given, timeout, budget_clock() - started)
    return None


#: Seconds of the first slice of a search (most searches end well within it).
FIRST_SLICE = 0.05


def slice_after(given: float, timeout: float, took: float) -> tuple[float, float]:
    """The next slice (twice ``given``) and how much longer than its ``timeout`` a slice takes
    on this machine now, from the one that ``took`` that long (wall time).

        >>> slice_after(0.05, 0.05, 0.2)   # a machine four times as busy
        (0.1, 4.0)
    """
    return given * 2, max(1.0, took / timeout) if timeout > 0 else 1.0


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
        error.extras = extras[:MAX_NAMED_EXTRAS]  # type: ignore[attr-defined]
        error.more_extras = len(extras) - len(error.extras)  # type: ignore[attr-defined]
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
