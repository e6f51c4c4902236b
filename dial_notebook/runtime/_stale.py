"""Stale proposals: a card made against a state that changed since is checked again before
Accept runs it.

    a mutating proposal ─▶ domain.version(action, payload), read before it is validated, is
        kept on its Suggestion (``version``; in a snapshot's pending card too)
    the person accepts or edits it ─▶ the version now (charged to the decision's budget)
        the same ─▶ on as usual (an edit is checked, then it runs)
        changed, or unreadable (version raised, the budget was spent, it is not a version)
            ─▶ nothing runs; the payload is validated again
               ├─ refused ─▶ shown back with .issue like a refused edit, and the notice (the
               │             same attempts: the third refusal ends invalid)
               └─ valid   ─▶ preview and dry run again; a 'suggestion' event again, the same
                             id, with ``stale: {why, changed?}``; the person decides again
        stale MAX_STALE times on one card ─▶ invalid, code 'stale'
    a rule's accept ─▶ the version again just before the run ─▶ changed: checked again as
        above and put to the person (a rule never runs what its check did not see)

A version is None (the domain does not track this), a short text, or ``{name: text}`` (one per
table or frame the payload names: a change then names what changed). Only the names in both
the recorded version and the one now are compared, so an edit naming another frame is not
stale for that (its own check runs then).

    >>> changed_names({"sales": "a", "costs": "b"}, {"sales": "a", "costs": "c"})
    ['costs']
    >>> changed_names("v1", "v1") is None, changed_names(None, None) is None
    (True, True)
    >>> stale_note(["sales"])["why"]
    'sales changed since this was proposed'
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ._budget import charged, current_budget
from ._ports import DomainPort, call
from ._review import dry_run
from ._state import State
from ._values import Suggestion

#: How many times one card may be found stale before it ends ``invalid`` (code 'stale').
MAX_STALE = 3
#: What a version that could not be read begins with: it never equals another.
UNREAD = "unread:"
_unread = itertools.count(1)

Version = str | dict[str, str] | None


def _unreadable(why: str) -> str:
    return f"{UNREAD}{next(_unread)}:{why}"


async def read_version(domain: DomainPort, action: str, payload: Any) -> Version:
    """The domain's version of what ``payload`` works on, charged to the current budget; a
    fresh ``UNREAD`` text (never the same as any other) when it raises, returns what is not a
    version, or the budget is spent; None when the domain has no ``version``."""
    version_of = domain.version_of
    if version_of is None:
        return None
    budget = current_budget()
    if budget is not None and budget.exhausted:
        return _unreadable("the time to check was spent")
    try:
        with charged():
            value = await call(version_of, action, payload)
    except Exception as exc:
        return _unreadable(type(exc).__name__)
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, Mapping) and all(
            isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
        return dict(value)
    return _unreadable(f"not a version: {type(value).__name__}")


def changed_names(recorded: Any, now: Any) -> list[str] | None:
    """None when nothing the proposal works on changed; else the names that changed (``[]``:
    which is not known). A recorded version read from a file is any JSON: one that is not a
    version counts as changed."""
    if _unread_text(recorded) or _unread_text(now):
        return []
    if isinstance(recorded, Mapping) and isinstance(now, Mapping):
        return [name for name in recorded if name in now and recorded[name] != now[name]] or None
    return None if recorded == now else []


def _unread_text(version: Any) -> bool:
    return isinstance(version, str) and version.startswith(UNREAD)


def stale_note(names: list[str]) -> dict[str, Any]:
    """The card's ``stale`` field: ``why`` in words, and ``changed`` when the names are known."""
    if not names:
        return {"why": "What this proposal works on changed since it was proposed (or could "
                       "not be checked)"}
    said = names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" and {names[-1]}"
    return {"why": f"{said} changed since this was proposed", "changed": list(names)}


def too_stale() -> dict[str, str]:
    """The outcome of a card found stale ``MAX_STALE`` times."""
    return {"code": "stale", "hint": (
        f"What this proposal works on changed each of the {MAX_STALE} times the person "
        "accepted it, so it never ran: propose it again once the data stays as it is.")}


def card_event(card: Suggestion, *, mutates: bool, rule: str | None = None,
               allowable: bool = False) -> dict[str, Any]:
    """The 'suggestion' event of ``card`` (its version left out: it is the kernel's own;
    ``dry_run`` kept last, where surfaces have always found it)."""
    event = {"type": "suggestion", **card.to_dict(), "mutates": mutates}
    event.pop("version", None)
    effect = event.pop("dry_run", None)
    if rule is not None:
        event["rule"] = rule
    elif allowable:
        event["allowable"] = True  # a rule may be made from this card
    if effect is not None:
        event["dry_run"] = effect
    return event


@dataclass(frozen=True)
class Rechecked:
    """A card found stale, worked out again: ``card`` to show the person, and ``issue`` (the
    refusal for the outcome: code, field, hint) when its payload is no longer valid."""

    card: Suggestion
    issue: dict[str, Any] | None = None


async def recheck(state: State, card: Suggestion, payload: Any, *,
                  allowable: bool = False) -> Rechecked | None:
    """None when what ``payload`` works on is as it was when ``card`` was worked out; else the
    card worked out again for it (validated, previewed, its dry run redone) and shown again
    with ``stale`` (a 'suggestion' event of the same id) — or, refused, with ``issue``."""
    action = card.action
    now = await read_version(state.domain, action, payload)
    names = changed_names(card.version, now)
    if names is None:
        return None
    note = stale_note(names)
    check = await state.domain.validate(action, payload)
    if not check.ok:  # shown back like a refused edit (no dry run of what is refused)
        shown = dataclasses.replace(card, payload=payload, version=now, stale=note,
                                    issue=check.for_person(), dry_run=None)
        state.events.emit(card_event(shown, mutates=True, allowable=allowable))
        return Rechecked(shown, check.issue())
    preview = await state.domain.preview(action, payload)
    effect = await dry_run(state, action, payload)
    shown = dataclasses.replace(card, payload=payload, preview=preview, version=now,
                                stale=note, issue=None, edits_left=None, dry_run=effect)
    state.events.emit(card_event(shown, mutates=True, allowable=allowable))
    return Rechecked(shown)
