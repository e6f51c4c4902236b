"""Payload validation against one action's JSON Schema: safe, local, and answered in words.

- Draft 2020-12 unless the schema's ``$schema`` names another draft; formats are asserted.
- ``$ref`` resolves only inside the registry it is given (the domain's own schemas): nothing is
  ever fetched (jsonschema 4.26 fetches remote refs when no registry is passed). A schema whose
  refs do not resolve locally is refused when the action is defined (``check_schema``).
- One validation has a time budget (``VALIDATION_BUDGET``, less when the reply has less left):
  patterns run on the ``regex`` engine within it, every keyword stops once it has passed, and
  no format check is slower than linear (``_formats``). Payloads nested deeper than
  ``MAX_DEPTH`` are refused before validation (counted without recursion, so a cyclic Python
  value is refused too), and a ``RecursionError`` during validation is a refusal, not a crash.
- A refusal is ``{'ok': False, 'code': 'invalid-payload', 'field', 'hint', 'errors'}`` with the
  errors sorted by path and capped (see ``_hints``).

    >>> from referencing import Registry
    >>> schema = {"type": "object", "required": ["text"]}
    >>> PayloadValidator(schema, registry=Registry()).validate({})["hint"]
    'text is required'
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import attrs
import jsonschema
import jsonschema.validators
import referencing.exceptions
import referencing.jsonschema
import regex
from jsonschema_specifications import REGISTRY as SPECIFICATIONS
from referencing import Registry

from .._budget import time_left
from ..dial import nesting_depth
from ._errors import refusal
from ._formats import format_checker
from ._hints import describe
from ._keywords import SAFE_KEYWORDS, OutOfTime, bounded, time_budget
from ._unevaluated import unevaluated_properties

#: How deep a payload may nest (objects and lists) before it is refused unread.
MAX_DEPTH = 64
#: How many problems a refusal lists.
MAX_ERRORS = 20
#: How many errors are read from jsonschema before giving up counting.
MAX_SCANNED = 1000
#: Seconds one validation may take (less when the reply it checks has less left: _budget.py).
VALIDATION_BUDGET = 2.0

_EXTENDED: dict[type, type] = {}
# Keywords whose values are data, not subschemas: not searched for $ref or patterns.
_DATA_KEYWORDS = frozenset(
    {"enum", "const", "examples", "default", "title", "description", "$comment"}
)
# Keywords whose values map names (which may be anything, "title" included) to subschemas.
_NAME_MAPS = frozenset(
    {"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"}
)


def validator_class(schema: Any) -> Any:
    """The validator class for ``schema``'s draft (2020-12 by default), with the safe keywords.

    Raises ``ValueError`` for a ``$schema`` that names no known draft (it is never fetched).
    """
    base: Any = jsonschema.Draft202012Validator
    if isinstance(schema, dict) and "$schema" in schema:
        base = jsonschema.validators.validator_for(schema, default=None)
        if base is None:
            raise ValueError(
                f"$schema {schema['$schema']!r} is not a JSON Schema draft this package knows "
                "(drafts 3, 4, 6, 7, 2019-09, 2020-12); metaschemas are never fetched"
            )
    return _safe(base)


def _safe(base: Any) -> Any:
    """``base`` with the safe keywords, every keyword within the time budget, and an
    ``evolve`` that stays safe: jsonschema's own switches to its plain class for a subschema
    with a ``$schema`` (a ``$ref`` to the root, a ``$defs`` entry), which would leave the
    time budget and the safe keywords behind."""
    if base not in _EXTENDED:
        safe = {**SAFE_KEYWORDS, "unevaluatedProperties": unevaluated_properties}
        keywords = {name: bounded(safe.get(name, fn)) for name, fn in base.VALIDATORS.items()}
        extended = jsonschema.validators.extend(base, keywords)
        fields = [(f.name, f.alias) for f in attrs.fields(extended) if f.init]

        def evolve(self: Any, **changes: Any) -> Any:
            schema = changes.setdefault("schema", self.schema)
            plain = jsonschema.validators.validator_for(schema, default=base)
            for name, alias in fields:
                changes.setdefault(alias, getattr(self, name))
            return _safe(plain)(**changes)

        extended.evolve = evolve
        _EXTENDED[base] = extended
    return _EXTENDED[base]


def check_schema(schema: Any, registry: Registry) -> None:
    """Refuse, with ``ValueError``, a schema that is not valid for its draft, has a pattern the
    regex engine cannot compile, or has a ``$ref`` that does not resolve inside ``registry``.

        >>> check_schema({"type": "nope"}, Registry())
        Traceback (most recent call last):
        ValueError: invalid schema at type: 'nope' is not valid under any of the given schemas
    """
    cls = validator_class(schema)
    try:
        cls.check_schema(schema)
    except jsonschema.SchemaError as error:
        where = "/".join(str(part) for part in error.absolute_path) or "the schema"
        raise ValueError(f"invalid schema at {where}: {error.message[:200]}") from None
    specification = referencing.jsonschema.specification_with(
        cls.META_SCHEMA["$schema"], default=referencing.jsonschema.DRAFT202012
    )
    resource = specification.create_resource(schema)
    resolver = registry.combine(SPECIFICATIONS).resolver_with_root(resource)
    for kind, value, scope in _references(schema, resolver, specification, ()):
        if kind == "pattern":
            try:
                regex.compile(value)
            except regex.error as error:
                message = f"pattern {value!r} at {scope} does not compile: {error}"
                raise ValueError(message) from None
            continue
        try:
            scope.lookup(value)
        except referencing.exceptions.Unresolvable:
            raise ValueError(
                f"$ref {value!r} is not one of this domain's schemas; remote and file references "
                "are never fetched: add the schema it names to the domain's schemas"
            ) from None


def _references(
    node: Any, resolver: Any, specification: Any, path: tuple[str, ...], *, names: bool = False
) -> Iterator[tuple[str, str, Any]]:
    """Every ``$ref`` / ``$dynamicRef`` with the resolver in scope, and every pattern with where
    it is, in a schema. ``names``: ``node`` maps names to subschemas (``properties``, …)."""
    if isinstance(node, list):
        for item in node:
            yield from _references(item, resolver, specification, path)
        return
    if not isinstance(node, dict):
        return
    if names:
        for key, value in node.items():
            yield from _references(value, resolver, specification, (*path, key))
        return
    if isinstance(specification.id_of(node), str) and path:
        resolver = resolver.in_subresource(specification.create_resource(node))
    where = "/".join(path) or "the root"
    for key, value in node.items():
        if key in ("$ref", "$dynamicRef") and isinstance(value, str):
            yield "ref", value, resolver
        elif key == "pattern" and isinstance(value, str):
            yield "pattern", value, where
        elif key == "patternProperties" and isinstance(value, dict):
            for patrn in value:
                yield "pattern", patrn, where
        if key not in _DATA_KEYWORDS:
            yield from _references(
                value, resolver, specification, (*path, key), names=key in _NAME_MAPS
            )


def _too_deep() -> dict[str, Any]:
    message = f"the payload is nested too deeply (more than {MAX_DEPTH} levels)"
    return refusal([{"field": "", "message": message}])


class PayloadValidator:
    """Validates payloads against one schema, within ``registry``, and words the refusals.

        >>> todo = PayloadValidator({"type": "object", "required": ["title"]}, registry=Registry())
        >>> todo.validate({"title": "milk"}), todo.validate({})["hint"]
        ({'ok': True}, 'title is required')

    Args:
        schema: the action's JSON Schema.
        registry: the schemas ``$ref`` may name; nothing outside it is ever retrieved.
        time_budget: seconds one validation may take (``VALIDATION_BUDGET`` when None); never
            more than the reply being handled has left (``time_left()``, _budget.py).
    """

    def __init__(
        self, schema: Any, *, registry: Registry, time_budget: float | None = None
    ) -> None:
        cls = validator_class(schema)
        self.schema = schema
        self._budget = time_budget
        self._validator = cls(
            schema, registry=registry, format_checker=format_checker(cls.FORMAT_CHECKER)
        )

    def validate(self, payload: Any) -> dict[str, Any]:
        """``{'ok': True}``, or the refusal for ``payload``."""
        seconds = VALIDATION_BUDGET if self._budget is None else self._budget
        left = time_left()
        if left is not None:
            seconds = min(seconds, left)
        errors = []
        try:
            with time_budget(seconds):  # from here on, everything counts
                if nesting_depth(payload, MAX_DEPTH) > MAX_DEPTH:
                    return _too_deep()
                for error in self._validator.iter_errors(payload):
                    errors.append(error)
                    if len(errors) >= MAX_SCANNED:
                        break
            entries = describe(errors)
        except OutOfTime:
            # what was found so far, then why the rest was not checked
            message = (f"the rest of the payload was not checked: its checks took more than "
                       f"{seconds:.2g} s (send less at once)" if errors else
                       f"the payload was not checked: its checks took more than {seconds:.2g} s "
                       "(it is too large, or too costly for its schema: send less at once)")
            entries = [*describe(errors)[:MAX_ERRORS - 1], {"field": "", "message": message}]
            return refusal(entries, code="invalid-payload" if errors else "time-budget")
        except RecursionError:
            message = (
                "the payload could not be checked: validation recursed too deeply "
                "(does the schema refer to itself without end?)"
            )
            return refusal([{"field": "", "message": message}], code="schema-error")
        except referencing.exceptions.Unresolvable as error:
            hint = (
                f"the schema refers to {getattr(error, 'ref', '?')!r}, which is not one of this "
                "domain's schemas (remote references are never fetched)"
            )
            return refusal([{"field": "", "message": hint}], code="schema-error")
        if not errors:
            return {"ok": True}
        named = len(entries) + sum(getattr(error, "more_extras", 0) for error in errors)
        total = named if len(errors) < MAX_SCANNED else max(named, MAX_SCANNED)
        return refusal(entries[:MAX_ERRORS], total=total)
