"""``unevaluatedProperties`` within the time budget: jsonschema's, with three things changed.

jsonschema finds the keys a schema evaluated (``find_evaluated_property_keys_by_schema``) with
Python's ``re`` for ``patternProperties`` — a catastrophic pattern and an agent's key hang it,
with no timeout — and then tests each key against that list, which is quadratic in the number
of keys. Here the same walk runs patterns on the budgeted ``regex`` engine (``search``), keeps
the evaluated keys in a set, and checks the deadline as it goes; the verdicts are jsonschema's
(the JSON-Schema-Test-Suite's unevaluatedProperties cases pass through it).

    >>> from jsonschema import Draft202012Validator, validators
    >>> V = validators.extend(Draft202012Validator,
    ...                       {"unevaluatedProperties": unevaluated_properties})
    >>> schema = {"patternProperties": {"^x": {}}, "unevaluatedProperties": False}
    >>> [e.message for e in V(schema).iter_errors({"x1": 1, "y": 2})]
    ["Unevaluated properties are not allowed ('y' was unexpected)"]
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from jsonschema import ValidationError

from .._budget import budget_clock
from ._keywords import PATTERN_TIMEOUT, OutOfTime, budget_end, search


def _valid(errors: Iterator[Any]) -> bool:
    return next(errors, None) is None


def _in_time() -> None:
    end = budget_end()
    if end is not None and budget_clock() >= end:
        raise OutOfTime


def evaluated_keys(validator: Any, instance: dict[str, Any], schema: Any) -> set[str]:
    """The keys of ``instance`` that ``schema`` evaluates (jsonschema's walk; see the header).

    Raises ``OutOfTime`` when the budget runs out, or a pattern could not be matched in time.
    """
    _in_time()
    if validator.is_type(schema, "boolean"):
        return set()
    found: set[str] = set()
    for keyword in ("$ref", "$dynamicRef"):
        ref = schema.get(keyword)
        if ref is not None:
            resolved = validator._resolver.lookup(ref)
            deeper = validator.evolve(schema=resolved.contents, _resolver=resolved.resolver)
            found |= evaluated_keys(deeper, instance, resolved.contents)
    properties = schema.get("properties")
    if validator.is_type(properties, "object"):
        found |= properties.keys() & instance.keys()
    for keyword in ("additionalProperties", "unevaluatedProperties"):
        subschema = schema.get(keyword)
        if subschema is not None:
            found |= {key for key, value in instance.items()
                      if _valid(validator.descend(value, subschema))}
    patterns = schema.get("patternProperties")
    if isinstance(patterns, dict):
        for key in instance:
            for pattern in patterns:
                matched = search(pattern, key)
                if matched is None:
                    raise OutOfTime
                if matched:
                    found.add(key)
    for key, subschema in (schema.get("dependentSchemas") or {}).items():
        if key in instance:
            found |= evaluated_keys(validator, instance, subschema)
    for keyword in ("allOf", "oneOf", "anyOf"):
        for subschema in schema.get(keyword, []):
            if _valid(validator.descend(instance, subschema)):
                found |= evaluated_keys(validator, instance, subschema)
    if "if" in schema:
        if validator.evolve(schema=schema["if"]).is_valid(instance):
            found |= evaluated_keys(validator, instance, schema["if"])
            if "then" in schema:
                found |= evaluated_keys(validator, instance, schema["then"])
        elif "else" in schema:
            found |= evaluated_keys(validator, instance, schema["else"])
    return found


def _listed(keys: list[str]) -> str:
    shown = ", ".join(repr(key) for key in keys)
    return f"{shown} {'was' if len(keys) == 1 else 'were'}"


def unevaluated_properties(validator: Any, unevaluated: Any, instance: Any,
                           schema: Any) -> Iterator[ValidationError]:
    """``unevaluatedProperties``, within the budget (a pattern out of time refuses)."""
    if not validator.is_type(instance, "object"):
        return
    try:
        evaluated = evaluated_keys(validator, instance, schema)
    except OutOfTime:
        yield ValidationError(PATTERN_TIMEOUT)
        return
    rejected = []
    for key in instance:
        if key in evaluated:
            continue
        _in_time()
        if not _valid(validator.descend(instance[key], unevaluated, path=key, schema_path=key)):
            rejected.append(key)
    if not rejected:
        return
    if unevaluated is False:
        yield ValidationError(
            f"Unevaluated properties are not allowed ({_listed(sorted(rejected, key=str))} "
            "unexpected)")
    else:
        yield ValidationError(
            f"Unevaluated properties are not valid under the given schema ({_listed(rejected)} "
            "unevaluated and invalid)")
