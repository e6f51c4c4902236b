"""The person's "always allow like this" rules: a JSON Schema per rule, saying precisely which
proposals of one action need no confirmation.

    Rules.add("add-note", {"type": "object", "properties": {"text": {"type": "string"}},
                           "required": ["text"], "additionalProperties": False})
        ─▶ Rule(id='r1', action='add-note', schema=…, scope='conversation', created=…, fired=0)
    a valid proposal of add-note whose payload the schema accepts ─▶ accepted without asking
        (the turn loop decides which proposals may be: runtime/_rules.py), fired += 1
    Rules.remove('r1') ─▶ it accepts nothing from then on

A rule is plain JSON (``Rule.to_dict``). Its schema is checked when the rule is made (a schema
that is not valid for its draft, a pattern that does not compile, a ``$ref`` outside itself, an
action the domain does not have, or one that is read-only, destructive or a hand-off: each a
``ValueError`` saying so). A payload is checked against it with the domain's own bounded
validator (``_validation.py``): within the reply's time budget, nothing fetched; a check that
runs out of time is no match, so the person is asked.

Scope: ``'conversation'`` rules belong to one conversation; ``'notebook'`` rules to every
conversation that shares the same ``shared`` store (the notebook widget keeps one per kernel,
saved in each ``session=`` file). Both are listed, matched and removed through either.

A notebook rule read from a file (``load(rules, origin=…)``) applies to the conversation that
read it, but to no other until the person confirms it there (``confirm``): a file is data,
and one chat's file does not make rules for another chat. ``unconfirmed()`` lists those.
"""

from __future__ import annotations

import json
import re
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from referencing import Registry

from .._json_kind import json_kind
from .._ports import RULE_SCOPES, action_spec
from ._validation import PayloadValidator, check_schema

#: The scopes a rule may have (as a saved conversation is read too: dial_notebook/_ports.py).
SCOPES = RULE_SCOPES
#: A rule's schema is at most this long, as JSON.
MAX_SCHEMA_CHARS = 100_000
#: Seconds one rule may spend on one payload (less when the reply has less left).
MATCH_SECONDS = 0.25
_ID = re.compile(r"r([1-9][0-9]{0,8})")
_KEYS = ("id", "action", "schema", "scope", "created", "fired")


def _now() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def check_rule_schema(schema: Any) -> None:
    """Refuse, with ``ValueError`` saying why, a schema that cannot be a rule's.

        >>> check_rule_schema({"type": "object", "properties": {"n": {"minimum": 1}}})
        >>> check_rule_schema({"type": "strin"})
        Traceback (most recent call last):
        ValueError: invalid schema at type: 'strin' is not valid under any of the given schemas
    """
    if not isinstance(schema, dict | bool):
        raise ValueError(f"a rule's schema is a JSON Schema (an object, or true / false), not "
                         f"{json_kind(schema)}")
    try:
        text = json.dumps(schema, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"a rule's schema must be JSON: {exc}") from None
    if len(text) > MAX_SCHEMA_CHARS:
        raise ValueError(f"a rule's schema is {len(text):,} characters as JSON; at most "
                         f"{MAX_SCHEMA_CHARS:,}")
    try:
        check_schema(schema, Registry())
    except ValueError as exc:
        if str(exc).startswith("$ref"):
            raise ValueError("a rule's schema stands alone: its $ref may only name a part of "
                             "itself ('#/$defs/…'); nothing is ever fetched") from None
        raise


@dataclass
class Rule:
    """One rule: proposals of ``action`` whose payload ``schema`` accepts run without asking.

        >>> rule = Rule("r1", "add-note", {"required": ["text"]}, "conversation",
        ...             "2026-12-01T10:00:00Z")
        >>> rule.accepts({"text": "milk"}), rule.accepts({})
        (True, False)
    """

    id: str
    action: str
    schema: Any
    scope: str = "conversation"
    created: str = field(default_factory=_now)
    fired: int = 0
    #: The file a notebook rule was read from (None: made in this kernel); not saved.
    origin: str | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        check_rule_schema(self.schema)
        self._validator = PayloadValidator(self.schema, registry=Registry(),
                                           time_budget=MATCH_SECONDS)

    def accepts(self, payload: Any) -> bool:
        """Whether the schema accepts ``payload`` (a check out of time accepts nothing)."""
        return bool(self._validator.validate(payload).get("ok"))

    def to_dict(self) -> dict[str, Any]:
        """The rule as plain JSON: id, action, schema, scope, created, fired."""
        return {"id": self.id, "action": self.action, "schema": self.schema,
                "scope": self.scope, "created": self.created, "fired": self.fired}

    @classmethod
    def from_dict(cls, data: Any) -> Rule:
        """A rule from ``to_dict()``'s JSON; ``ValueError`` naming what is wrong."""
        if not isinstance(data, Mapping):
            raise ValueError(f"a rule is an object, not {json_kind(data)}")
        missing = [key for key in _KEYS if key not in data]
        unknown = sorted(set(data) - set(_KEYS))
        if missing or unknown:
            raise ValueError("a rule has " + "; ".join(
                [f"no {', '.join(missing)}"] * bool(missing)
                + [f"unknown keys {', '.join(unknown)}"] * bool(unknown)))
        rule_id, action, scope, created, fired = (data[k] for k in (
            "id", "action", "scope", "created", "fired"))
        if not isinstance(rule_id, str) or not _ID.fullmatch(rule_id):
            raise ValueError(f"a rule's id is r1, r2, …, not {rule_id!r}")
        if not isinstance(action, str) or not action:
            raise ValueError(f"rule {rule_id}: its action must be a name, not {action!r}")
        if scope not in SCOPES:
            raise ValueError(f"rule {rule_id}: scope {scope!r} is not one of {SCOPES}")
        if not isinstance(created, str) or len(created) > 40:
            raise ValueError(f"rule {rule_id}: created must be an ISO 8601 time")
        if isinstance(fired, bool) or not isinstance(fired, int) or fired < 0:
            raise ValueError(f"rule {rule_id}: fired must be a whole number ≥ 0")
        try:
            return cls(rule_id, action, data["schema"], scope, created, fired)
        except ValueError as exc:
            raise ValueError(f"rule {rule_id}: {exc}") from None


class Rules:
    """The person's rules for one conversation (and, through ``shared``, the notebook's).

    Args:
        rules: rules to start with (``Rule`` objects or their ``to_dict()``).
        domain: the domain the rules are for: a rule is refused for an action it does not
            have, or one that is read-only, destructive or a hand-off.
        shared: the store of ``'notebook'`` rules, shared with other conversations; without
            one, notebook rules are kept here.

    Example::

        rules = Rules(domain=notes)
        rule = rules.add("add-note", {"type": "object", "required": ["text"]})
        Conversation(agent=agent, domain=notes, human=human, rules=rules)
        rules.remove(rule.id)
    """

    def __init__(self, rules: Iterable[Rule | Mapping[str, Any]] = (), *, domain: Any = None,
                 shared: Rules | None = None) -> None:
        self._rules: dict[str, Rule] = {}
        self._domain = domain
        self._shared = shared
        self._listeners: list[Callable[[], Callable[[], None] | None]] = []
        self._issued = 0  # the highest id number given out (the shared store's: for all)
        self._confirmed: set[str] = set()  # shared rules from a file that apply here too
        if shared is not None:
            shared.on_change(self._changed)
        for rule in rules:
            self._keep(rule if isinstance(rule, Rule) else Rule.from_dict(rule))

    # -- reading -----------------------------------------------------------------------------

    def _stores(self) -> list[Rules]:
        return [self] if self._shared is None else [self, self._shared]

    def __iter__(self) -> Iterator[Rule]:
        every = [rule for store in self._stores() for rule in store._rules.values()]
        return iter(sorted(every, key=lambda rule: _number(rule.id)))

    def __len__(self) -> int:
        return sum(len(store._rules) for store in self._stores())

    def __contains__(self, rule_id: object) -> bool:
        return any(rule_id in store._rules for store in self._stores())

    def __getitem__(self, rule_id: str) -> Rule:
        for store in self._stores():
            if rule_id in store._rules:
                return store._rules[rule_id]
        known = ", ".join(rule.id for rule in self) or "none"
        raise KeyError(f"there is no rule {rule_id!r} (rules: {known})")

    def to_list(self) -> list[dict[str, Any]]:
        """Every rule that applies here as plain JSON, in the order they were made (what a
        session file keeps; ``unconfirmed()`` ones are left out)."""
        return [rule.to_dict() for rule in self.active()]

    def active(self) -> list[Rule]:
        """The rules that accept proposals here: this conversation's, and the notebook's
        except those read from another conversation's file and not confirmed here."""
        return [rule for rule in self if not self._waits(rule)]

    def unconfirmed(self) -> list[Rule]:
        """Notebook rules another conversation read from its file, not confirmed here: they
        accept nothing here until ``confirm``."""
        return [rule for rule in self if self._waits(rule)]

    def confirm(self, rule_id: str) -> Rule:
        """Let an ``unconfirmed()`` notebook rule apply to this conversation too. Returns it.

            >>> shared = Rules()
            >>> mine, theirs = Rules(shared=shared), Rules(shared=shared)
            >>> rule = mine.load([{"id": "r1", "action": "a", "schema": True, "scope": "notebook",
            ...                    "created": "2026-12-01T10:00:00Z", "fired": 0}],
            ...                  origin="a.json")[0]
            >>> mine.match("a", {}) is rule, theirs.match("a", {}) is None
            (True, True)
            >>> theirs.confirm("r1") is rule and theirs.match("a", {}) is rule
            True
        """
        rule = self[rule_id]
        if self._waits(rule):
            self._confirmed.add(rule_id)
            self._changed()
        return rule

    def _waits(self, rule: Rule) -> bool:
        return (rule.origin is not None and self._shared is not None
                and rule.id in self._shared._rules and rule.id not in self._confirmed)

    def __repr__(self) -> str:
        if not len(self):
            return "Rules(): none — every proposal asks the person"
        lines = [f"Rules: {len(self)}"]
        for rule in self:
            schema = json.dumps(rule.schema, ensure_ascii=False)
            schema = schema if len(schema) <= 80 else schema[:79] + "…"
            lines.append(f"  {rule.id}  {rule.action}  ({rule.scope}, accepted {rule.fired})"
                         f"  {schema}")
        return "\n".join(lines)

    # -- what the turn loop asks (runtime/_rules.py) -----------------------------------------

    def match(self, action: str, payload: Any) -> Rule | None:
        """The first rule for ``action`` that accepts ``payload``, or None."""
        for rule in self.active():
            if rule.action == action and rule.accepts(payload):
                return rule
        return None

    def accepts(self, rule_id: str, action: str, payload: Any) -> bool:
        """Whether the rule ``rule_id`` exists, is for ``action`` and accepts ``payload``."""
        if rule_id not in self:
            return False
        rule = self[rule_id]
        return not self._waits(rule) and rule.action == action and rule.accepts(payload)

    def fired(self, rule_id: str) -> None:
        """Count one proposal the rule accepted."""
        if rule_id in self:
            self[rule_id].fired += 1
            self._store_of(rule_id)._changed()

    # -- changing ----------------------------------------------------------------------------

    def add(self, action: str, schema: Any, *, scope: str = "conversation") -> Rule:
        """Make a rule: proposals of ``action`` whose payload ``schema`` accepts run without
        asking. ``ValueError`` when the schema is invalid or the action cannot have rules.

            rules.add("add-note", {"type": "object", "properties": {"text": {"maxLength": 40}}})
        """
        if scope not in SCOPES:
            raise ValueError(f"scope must be 'conversation' or 'notebook', not {scope!r}")
        self.check_action(action)
        rule = Rule(self._new_id(), action, schema, scope)
        store = self._shared if scope == "notebook" and self._shared is not None else self
        store._keep(rule)
        store._changed()
        return rule

    def check_action(self, action: str) -> None:
        """``ValueError`` unless proposals of ``action`` may be accepted by a rule."""
        if not isinstance(action, str) or not action:
            raise ValueError(f"a rule is for one action, named; not {action!r}")
        if self._domain is None:
            return
        spec = action_spec(self._domain, action)
        if spec is None:
            names = ", ".join(sorted(getattr(self._domain, "actions", None) or {})) or "none"
            raise ValueError(f"there is no action {action!r} (actions: {names})")
        if spec.destructive:
            raise ValueError(f"{action} is destructive: it always asks, and has no rules")
        if spec.handoff:
            raise ValueError(f"{action} is a hand-off: it opens its own panel, and has no rules")
        if not spec.mutates:
            raise ValueError(f"{action} is read-only: it runs without asking, and needs no rule")

    def remove(self, rule_id: str) -> Rule:
        """Revoke a rule: it accepts nothing from now on. Returns it."""
        rule = self[rule_id]
        store = self._store_of(rule_id)
        del store._rules[rule_id]
        store._changed()
        return rule

    def load(self, rules: Iterable[Mapping[str, Any]], *,
             origin: str | None = None) -> list[Rule]:
        """Take back saved rules (``to_list()``): conversation rules here, notebook rules into
        the shared store; one already there (same id and schema) is not added twice, and one
        whose id is taken by another rule gets a new id. ``origin``: the file they were read
        from; its notebook rules apply here, and to other conversations only once confirmed
        there. Returns the rules added."""
        if not isinstance(rules, list | tuple):
            raise ValueError(f"saved rules are a list, not {json_kind(rules)}")
        read = [Rule.from_dict(data) for data in rules]  # all checked before any is added
        added = []
        for rule in read:
            if rule.id in self:
                known = self[rule.id]
                if (known.action, known.schema, known.scope) == (rule.action, rule.schema,
                                                                 rule.scope):
                    if self._waits(known):
                        self._confirmed.add(known.id)  # this file has it too
                        self._changed()
                    continue
                rule = Rule(self._new_id(), rule.action, rule.schema, rule.scope,
                            rule.created, rule.fired)
            store = (self._shared if rule.scope == "notebook" and self._shared is not None
                     else self)
            if store is not self:
                rule.origin = origin
                self._confirmed.add(rule.id)
            store._keep(rule)
            store._changed()
            added.append(rule)
        return added

    def on_change(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` after every change (a rule added, removed, or fired); a bound
        method is held weakly, so a listener that is gone is dropped."""
        if hasattr(callback, "__self__") and hasattr(callback, "__func__"):
            self._listeners.append(weakref.WeakMethod(callback))  # type: ignore[arg-type]
        else:
            self._listeners.append(lambda: callback)

    # -- inside ------------------------------------------------------------------------------

    def _keep(self, rule: Rule) -> None:
        if rule.id in self:
            raise ValueError(f"there is already a rule {rule.id}")
        self._rules[rule.id] = rule
        for store in {id(s): s for s in (self, self._shared) if s is not None}.values():
            store._issued = max(store._issued, _number(rule.id))

    def _store_of(self, rule_id: str) -> Rules:
        return next(store for store in self._stores() if rule_id in store._rules)

    def _new_id(self) -> str:
        # ids come from the shared store when there is one, so that no two conversations
        # sharing notebook rules ever show two rules with one id
        issuer = self._shared if self._shared is not None else self
        number = max([issuer._issued, self._issued, *(_number(rule.id) for rule in self)]) + 1
        issuer._issued = self._issued = number
        return f"r{number}"

    def _changed(self) -> None:
        alive = []
        for listener in self._listeners:
            callback = listener()
            if callback is not None:
                alive.append(listener)
                callback()
        self._listeners = alive


def _number(rule_id: str) -> int:
    found = _ID.fullmatch(rule_id)
    return int(found.group(1)) if found else 0
