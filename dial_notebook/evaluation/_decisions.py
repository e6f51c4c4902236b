# Recorded decisions: what the person decided about each proposal, read, checked and matched.
"""A recorded decision is plain data, as a scenario file holds it::

    {"kind": "accepted",  "action": "add-note", "payload": {...}, "by"?: "rule"}
    {"kind": "corrected", "action": "add-note", "payload": <what the person changed it to>,
                          "original": <what the agent proposed>, "comments"?: [...]}
    {"kind": "dismissed", "action": "add-note", "payload": {...}, "reason"?: "…"}
    + "comments"?: [{"field", "text"}] on any kind, "dropped"?: [names left out (privacy)]

Two payloads are the same when they are equal after normalisation (key order, ``1 == 1.0``,
how a number is written), the fields named in ``dropped`` left out of both; a ``tolerance``
(``{action: JSON Schema}``) widens it: a proposal of that action whose payload meets the
schema is the same as a recorded one that meets it too (checked as a rule checks a payload).

    >>> same({"a": 1, "b": [2.0]}, {"b": [2], "a": 1.0})
    True
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

from .._data_files import shown
from ..domains import Rule

#: The kinds of recorded decision.
KINDS = ("accepted", "corrected", "dismissed")
_KEYS = ("kind", "action", "payload", "original", "reason", "comments", "by", "dropped")
#: A decision's own keys that ``drop`` may not remove (prose and payload fields may go).
STRUCTURE = frozenset({"kind", "action", "payload", "original", "by", "dropped"})


def normal(value: Any) -> Any:
    """``value`` in one form for comparing: numbers as floats when whole (1 and 1.0 alike),
    mappings as sorted tuples, lists as tuples.

        >>> normal({"b": 1.0, "a": [True, 2]}) == normal({"a": [True, 2.0], "b": 1})
        True
    """
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int | float):
        number = float(value)
        if math.isfinite(number) and number == int(number) and abs(number) < 2**53:
            return ("#", int(number))
        return ("#", number)
    if isinstance(value, Mapping):
        return ("{", tuple(sorted((str(k), normal(v)) for k, v in value.items())))
    if isinstance(value, list | tuple):
        return ("[", tuple(normal(v) for v in value))
    return ("?", repr(value))


def without(value: Any, names: frozenset[str] | set[str]) -> Any:
    """``value`` with every key in ``names`` left out, at any depth.

        >>> without({"to": "a@b", "cc": [{"to": 1}], "n": 2}, {"to"})
        {'cc': [{}], 'n': 2}
    """
    if not names:
        return value
    if isinstance(value, Mapping):
        return {k: without(v, names) for k, v in value.items() if k not in names}
    if isinstance(value, list | tuple):
        return [without(v, names) for v in value]
    return value


def same(a: Any, b: Any, dropped: frozenset[str] | set[str] = frozenset()) -> bool:
    """Whether two payloads are the same after normalisation, ``dropped`` fields left out."""
    return normal(without(a, dropped)) == normal(without(b, dropped))


def check_decision(value: Any, where: str) -> dict[str, Any]:
    """A recorded decision checked (see the header), as plain data; ``ValueError`` naming
    ``where`` and the field."""
    if not isinstance(value, Mapping):
        raise ValueError(f"{where}: a decision must be a mapping, not {shown(value)}")
    unknown = [key for key in value if key not in _KEYS]
    if unknown:
        raise ValueError(f"{where}: unknown key {shown(unknown[0])} (known: {', '.join(_KEYS)})")
    if value.get("kind") not in KINDS:
        raise ValueError(f"{where}: kind must be one of {', '.join(KINDS)}, "
                         f"not {shown(value.get('kind'))}")
    action = value.get("action")
    if not isinstance(action, str) or not action:
        raise ValueError(f"{where}: action must be an action name, not {shown(action)}")
    if value["kind"] == "corrected" and "original" not in value:
        raise ValueError(f"{where}: a corrected decision keeps its original")
    if value["kind"] != "corrected" and "original" in value:
        raise ValueError(f"{where}: only a corrected decision has an original")
    if value.get("by", "person") not in ("person", "rule"):
        raise ValueError(f"{where}: by must be person or rule, not {shown(value.get('by'))}")
    dropped = value.get("dropped", [])
    if not isinstance(dropped, list) or not all(isinstance(n, str) and n for n in dropped):
        raise ValueError(f"{where}: dropped must be a list of field names, not {shown(dropped)}")
    if "reason" in value and not isinstance(value["reason"], str):
        raise ValueError(f"{where}: reason must be text, not {shown(value['reason'])}")
    comments = value.get("comments", [])
    if not isinstance(comments, list) or not all(
            isinstance(c, Mapping) and set(c) == {"field", "text"}
            and all(isinstance(c[k], str) for k in c) for c in comments):
        raise ValueError(f"{where}: comments must be a list of {{field, text}} (text), "
                         f"not {shown(comments)}")
    return {key: value[key] for key in _KEYS if key in value}


class Matcher:
    """Which recorded decision a proposal is: ``find(action, payload)`` → (index, decision,
    form) where form is ``payload`` (what the person accepted, corrected it to, or dismissed)
    or ``original`` (what they had to correct), or None. Exact matches first, then the
    tolerance's; the person's latest decision first, or (``order``) the indices given."""

    def __init__(self, decisions: Iterable[Mapping[str, Any]],
                 tolerance: Mapping[str, Any] | None = None) -> None:
        self.decisions = [dict(d) for d in decisions]
        self.rules = tolerance_rules(tolerance)
        # each decision's payloads in the form compared, worked out once
        self._forms = [{form: normal(without(d[form], frozenset(d.get("dropped", ()))))
                        for form in ("payload", "original") if form in d}
                       for d in self.decisions]

    def find(self, action: str, payload: Any, order: Iterable[int] | None = None
             ) -> tuple[int, dict[str, Any], str] | None:
        indices = list(reversed(range(len(self.decisions))) if order is None else order)
        for n in indices:
            decision = self.decisions[n]
            if decision["action"] != action:
                continue
            proposed = normal(without(payload, frozenset(decision.get("dropped", ()))))
            for form, recorded in self._forms[n].items():
                if recorded == proposed:
                    return n, decision, form
        rule = self.rules.get(action)
        if rule is None or not rule.accepts(payload):
            return None
        for n in indices:
            decision = self.decisions[n]
            if decision["action"] != action:
                continue
            for form in ("payload", "original"):
                if form in decision and rule.accepts(decision[form]):
                    return n, decision, form
        return None


def tolerance_rules(tolerance: Mapping[str, Any] | None) -> dict[str, Rule]:
    """Action → a rule of its tolerance schema (the rules' own check and bounded matching)."""
    if tolerance is None:
        return {}
    if not isinstance(tolerance, Mapping):
        raise ValueError(f"tolerance must map action names to JSON Schemas, "
                         f"not {type(tolerance).__name__}")
    rules: dict[str, Rule] = {}
    for n, (action, schema) in enumerate(tolerance.items(), start=1):
        if not isinstance(action, str) or not action:
            raise ValueError(f"tolerance: {shown(action)} is not an action name")
        try:
            rules[action] = Rule(f"r{n}", action, schema)
        except ValueError as exc:
            raise ValueError(f"tolerance.{action}: {exc}") from None
    return rules
