"""Payloads made from an action's JSON Schema: valid ones to propose, and ones broken on purpose.

What the offline ``SchemaDemoAgent`` proposes (``_demo_schema.py``). The domain's own
``validate`` has the last word on every payload made here:

    PayloadMaker(domain).valid(action)      the first candidate validate accepts, in order:
        the schema's examples ─▶ its default ─▶ made with every property ─▶ required only
        └─ none accepted: Made(payload=None, why=the domain's refusal of the best candidate)
    PayloadMaker(domain).broken(action)     a valid payload changed one way (a misspelt field,
        a missing required one, a wrong type, a value outside an enum …), kept only when
        validate refuses it and names the field that was broken

The work is done by four modules, each importing only those above it:

    _pattern_strings.py   a string a regex ``pattern`` matches
    _schema_read.py       the schema: ``$ref`` (within the domain's own schemas: nothing is
                          fetched), ``allOf`` merged, a jsonschema check of any subschema
    _schema_values.py     a value for a schema (what it reads: its header), checked as it is made
    _schema_breaks.py     the ways to break a payload (``KINDS``)

This module puts them together and keeps the names the package imports from here. Nothing is
random: the same schema always gives the same payload.

    >>> from dial_notebook.domains import SchemaDomain
    >>> todo = SchemaDomain("todo")
    >>> @todo.action(schema={"type": "object", "required": ["title"], "properties": {
    ...     "title": {"type": "string"}, "due": {"type": "string", "format": "date"}}})
    ... def add_todo(payload):
    ...     return payload
    >>> PayloadMaker(todo).valid("add-todo").payload
    {'title': 'Example title', 'due': '2030-01-15'}
    >>> PayloadMaker(todo).broken("add-todo").kind
    'missing'
"""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from ._pattern_strings import from_pattern
from ._schema_breaks import KIND_WORDS, KINDS, breakages, field_name, refusal_names
from ._schema_read import Schemas, property_schema
from ._schema_values import FULL_DEPTH, MAX_DEPTH, Maker

__all__ = ["FULL_DEPTH", "KINDS", "KIND_WORDS", "MAX_DEPTH", "Broken", "Made", "PayloadMaker",
           "from_pattern", "property_schema", "text_field"]

@dataclass
class Made:
    """A payload for one action, or why there is none.

    ``payload`` is what ``domain.validate`` accepted (None when nothing was); ``source`` says
    where it came from (``"example"``, ``"default"``, ``"full"``: every property,
    ``"required"``: required properties only); ``why`` is the domain's refusal of the best
    candidate when there is no payload; ``candidate`` that refused payload; ``text_field``
    the field that holds the person's text (``with_text``), ``text_refused`` the refusal of
    the person's text when it could not be used; ``full_refusal`` the domain's refusal of
    the payload with every property, when a smaller one was proposed instead.
    """

    action: str
    payload: Any = None
    source: str = ""
    why: dict[str, Any] | None = None
    candidate: Any = None
    text_field: str | None = None
    text_refused: dict[str, Any] | None = None
    full_refusal: dict[str, Any] | None = None


@dataclass
class Broken:
    """A payload broken one way on purpose, which ``domain.validate`` refuses.

    ``kind`` is one of ``KINDS``; ``field`` the field broken (as the refusal names it);
    ``what`` the change in words (``"'priority' misspelt as 'priorty'"``); ``refusal`` what
    the domain said.
    """

    action: str
    kind: str
    field: str
    payload: Any
    what: str
    refusal: dict[str, Any] = field(default_factory=dict)


class PayloadMaker:
    """Makes payloads for the actions of ``domain`` from their JSON Schemas.

    Args:
        domain: a ``SchemaDomain`` (or any domain with ``actions``, ``schema(action)`` or
            ``describe()``, and ``validate``).

        >>> from dial_notebook.domains.notes import NotesDomain
        >>> maker = PayloadMaker(NotesDomain())
        >>> maker.valid("add-note").payload, maker.broken("add-note", "extra").what
        ({'text': 'Example text'}, "an unexpected field 'extra'")
    """

    def __init__(self, domain: Any) -> None:
        self.domain = domain
        self._schemas: dict[str, Schemas] = {}

    def schema(self, action: str) -> Any:
        """The JSON Schema of ``action``'s payload (any object when the domain has none)."""
        reader = getattr(self.domain, "schema", None)
        if callable(reader):
            try:
                return reader(action)
            except (KeyError, LookupError):
                return {"type": "object"}
        spec = (getattr(self.domain, "actions", None) or {}).get(action)
        found = spec.get("schema") if isinstance(spec, Mapping) else getattr(spec, "schema", None)
        return found if found is not None else {"type": "object"}

    def validate(self, action: str, payload: Any) -> dict[str, Any]:
        """The domain's verdict on ``payload``, as a dict with ``ok`` (and code/field/hint);
        a validate that raises is a refusal, as the runtime counts it."""
        try:
            verdict = self.domain.validate(action, payload)
        except Exception as error:
            return {"ok": False, "code": "validation-error", "field": "",
                    "hint": f"validate raised {type(error).__name__}: {error}"}
        if isinstance(verdict, Mapping):
            return dict(verdict)
        return {key: getattr(verdict, key, None) for key in ("ok", "code", "field", "hint",
                                                              "errors")}

    def valid(self, action: str, text: str | None = None) -> Made:
        """A payload for ``action`` that the domain accepts, or why there is none.

        ``text``: the person's words, put in the action's first text field (a string
        property without an enum, format or pattern, required ones first).
        """
        schemas = self._for(action)
        made = Made(action)
        key = text_field(schemas.flat_root()) if text is not None else None
        made.text_field = key
        first_refusal: tuple[Any, dict[str, Any]] | None = None
        for source, candidate in self._candidates(schemas):
            if key is not None and isinstance(candidate, dict):
                candidate = {**candidate, key: text}
            verdict = self.validate(action, candidate)
            if verdict.get("ok"):
                made.payload, made.source = candidate, source
                return made
            if source == "full":
                made.full_refusal = verdict
            if first_refusal is None or source == "full":
                first_refusal = (candidate, verdict)
        if key is not None:  # perhaps it was the person's text: try without it
            without = self.valid(action)
            if without.payload is not None:
                without.text_field = key
                without.text_refused = first_refusal[1] if first_refusal else None
                return without
        if first_refusal is not None:
            made.candidate, made.why = first_refusal
        else:
            made.why = {"ok": False, "code": "not-generated", "field": "",
                        "hint": "no value made here satisfies the schema"}
        return made

    def text_field(self, action: str) -> str | None:
        """The field of ``action``'s payload that takes the person's free text, if any."""
        return text_field(self._for(action).flat_root())

    def broken(self, action: str, kind: str | None = None) -> Broken | None:
        """A payload for ``action`` broken on purpose (the first of ``KINDS`` that works,
        or ``kind``), which the domain refuses naming the field; None when there is none."""
        for found in self.ways_to_break(action, only=kind):
            return found
        return None

    def ways_to_break(self, action: str, only: str | None = None) -> Iterator[Broken]:
        """Every way ``action``'s payload can be broken that the domain refuses, in ``KINDS``
        order (only ``only`` when given), each verified with ``domain.validate``."""
        schemas = self._for(action)
        base = self._base(action, schemas)
        if not isinstance(base, dict):
            return
        root, resolver = schemas.flat_root_with_resolver()
        for kind in KINDS if only is None else (only,):
            for key, payload, what in breakages(kind, base, root, resolver, schemas):
                verdict = self.validate(action, payload)
                if not verdict.get("ok") and refusal_names(verdict, key):
                    yield Broken(action, kind, field_name(key), payload, what, verdict)
                    break

    # -- internals ------------------------------------------------------------------------

    def _for(self, action: str) -> Schemas:
        if action not in self._schemas:
            self._schemas[action] = Schemas(self.schema(action), self._others(action))
        return self._schemas[action]

    def _others(self, action: str) -> list[Any]:
        """The schemas a ``$ref`` may name: the domain's shared ones and its actions'."""
        found: list[Any] = []
        to_dict = getattr(self.domain, "to_dict", None)
        if callable(to_dict):
            with contextlib.suppress(Exception):  # if it fails: the action's own schema only
                found.extend(to_dict().get("schemas") or [])
        for name in getattr(self.domain, "actions", None) or {}:
            if name != action:
                found.append(self.schema(name))
        return found

    def _candidates(self, schemas: Schemas) -> Iterator[tuple[str, Any]]:
        root = schemas.root
        seen: list[Any] = []

        def fresh(value: Any) -> bool:
            if value in seen:
                return False
            seen.append(value)
            return True

        if isinstance(root, dict):
            for example in root.get("examples") or []:
                if fresh(example):
                    yield "example", copy.deepcopy(example)
            if "default" in root and fresh(root["default"]):
                yield "default", copy.deepcopy(root["default"])
        for mode in ("full", "required"):
            try:
                value = Maker(schemas, full=mode == "full").top()
            except Exception:  # Cannot, a recursion, a schema misread: no candidate, no crash
                continue
            if fresh(value):
                yield mode, value

    def _base(self, action: str, schemas: Schemas) -> Any:
        """What to break: the valid payload, else the schema's best candidate."""
        made = self.valid(action)
        if made.payload is not None:
            return made.payload
        if made.candidate is not None:
            return made.candidate
        try:
            return Maker(schemas, full=True).top()
        except Exception:  # as in _candidates
            return None


def text_field(schema: Any) -> str | None:
    """The property of an object schema that takes free text: the first string property
    without enum, const, format or pattern, required ones first.

        >>> text_field({"properties": {"n": {"type": "integer"}, "title": {"type": "string"}}})
        'title'
    """
    if not isinstance(schema, dict) or not isinstance(schema.get("properties"), dict):
        return None
    properties = schema["properties"]
    required = [r for r in schema.get("required") or [] if r in properties]
    for key in [*required, *(p for p in properties if p not in required)]:
        sub = properties[key]
        if not isinstance(sub, dict):
            continue
        kind = sub.get("type")
        if (kind == "string" or (isinstance(kind, list) and "string" in kind)) and not any(
                word in sub for word in ("enum", "const", "format", "pattern", "$ref")):
            return key
    return None

