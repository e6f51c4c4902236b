"""Rules in the turn loop: a proposal like one the person said to always allow is accepted
without asking, and its outcome names the rule.

Which proposals a rule may accept is decided here, not by the rules themselves:

    a <dial-suggest> of an action that changes something (mutates), is not destructive and
    is not a hand-off, whose payload the domain validated (a rule never overrides a refusal),
    in a reply the person has not moved on from ─▶ the rules are asked; a match is accepted:
                                                   'suggestion' event with 'rule', then runs
    anything else (execute steps, asks, delegations, destructive actions, hand-offs, read-only
    actions, which run without asking anyway) ─▶ no rule is asked, none is offered

The rules object (``Rules`` in ``dial_notebook.domains``: JSON Schemas) only says whether a
payload matches: ``match(action, payload)`` → a rule (anything with an ``id``), its id, or
None. Its time is charged to the reply's budget; one that raises matches nothing, so the person
is asked. ``fired(rule_id)``, when it has one, counts what a rule accepted, and
``accepts(rule_id, action, payload)`` checks a surface's "accept with this new rule".
"""

from __future__ import annotations

import contextlib
from typing import Any

from ._budget import charged
from ._ports import ActionSpec


def eligible(spec: ActionSpec) -> bool:
    """Whether proposals of an action with ``spec`` may ever be accepted by a rule."""
    return spec.mutates and not spec.destructive and not spec.handoff


def _rule_id(found: Any) -> str | None:
    if found is None or found is False:
        return None
    rule_id = found if isinstance(found, str) else getattr(found, "id", None)
    return rule_id if isinstance(rule_id, str) and rule_id else None


class RulesPort:
    """The conversation's rules, as the turn loop asks them (see the header)."""

    def __init__(self, rules: Any) -> None:
        if not callable(getattr(rules, "match", None)):
            raise TypeError(f"Conversation: rules must have match(action, payload); "
                            f"{type(rules).__name__} has none")
        self.rules = rules

    def match(self, action: str, payload: Any) -> str | None:
        """The id of the rule that accepts ``payload`` for ``action``, or None."""
        try:
            with charged():
                return _rule_id(self.rules.match(action, payload))
        except Exception:
            return None  # a broken rule accepts nothing: the person decides

    def accepts(self, rule_id: str, action: str, payload: Any) -> bool:
        """Whether the rule ``rule_id`` accepts ``payload`` (a surface's "accept with it")."""
        check = getattr(self.rules, "accepts", None)
        try:
            with charged():
                if callable(check):
                    return bool(check(rule_id, action, payload))
                return _rule_id(self.rules.match(action, payload)) == rule_id
        except Exception:
            return False

    def fired(self, rule_id: str) -> None:
        """Count one proposal the rule accepted."""
        count = getattr(self.rules, "fired", None)
        if callable(count):
            with contextlib.suppress(Exception):  # a failing count must not fail the run
                count(rule_id)
