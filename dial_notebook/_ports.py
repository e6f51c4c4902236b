"""What the runtime and the domains both read of the domain port: an action's spec, and the
scopes a person's rule may have. Defined once here, so neither layer imports the other for it:
the runtime's ``DomainPort.spec`` (runtime/_ports.py) and the rules' check of an action
(domains/_rules.py) read a spec the same way, and a saved rule's scope is checked against the
same names the rules use (runtime/_snapshot.py).

An action's spec is a dict or an object with ``mutates``, ``destructive`` and ``handoff``; an
action whose spec does not say ``mutates`` counts as mutating.

    >>> class Notes:
    ...     actions = {"add-note": {"destructive": False}, "list-notes": {"mutates": False}}
    >>> action_spec(Notes(), "add-note")
    ActionSpec(mutates=True, destructive=False, handoff=False)
    >>> action_spec(Notes(), "list-notes").mutates, action_spec(Notes(), "drop") is None
    (False, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

#: The scopes a person's rule may have: one conversation's, or every conversation's of the
#: notebook (``dial_notebook.domains.Rules``; a saved conversation's rules are checked
#: against these).
RULE_SCOPES = ("conversation", "notebook")


@dataclass(frozen=True, slots=True)
class ActionSpec:
    """What the domain says of one action."""

    mutates: bool = True
    destructive: bool = False
    handoff: bool = False


def field_of(obj: Any, name: str, default: Any = None) -> Any:
    """``obj[name]`` for a mapping, else ``obj.name`` (``default`` when it has none)."""
    if isinstance(obj, Mapping):
        return obj.get(name, default)
    return getattr(obj, name, default)


def action_spec(domain: Any, action: str) -> ActionSpec | None:
    """``action``'s spec as ``domain.actions`` gives it, or None when there is no such action.
    ``TypeError`` when ``domain.actions`` is not a mapping."""
    actions = getattr(domain, "actions", None) or {}
    if not isinstance(actions, Mapping):
        raise TypeError(
            f"domain.actions must map action names to specs, not {type(actions).__name__}"
        )
    spec = actions.get(action)
    if spec is None:
        return None
    return ActionSpec(
        mutates=field_of(spec, "mutates", True) is not False,
        destructive=bool(field_of(spec, "destructive", False)),
        handoff=bool(field_of(spec, "handoff", False)),
    )
