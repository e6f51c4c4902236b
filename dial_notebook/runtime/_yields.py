"""Which of an element's ``yield`` events fire, given how the element resolved (branching).

An element resolves in one way (a ``Resolution``: ``how`` plus, for an ask, the answer), and
only the yields that name that way fire. A yield is read by its last ``:`` part, its *word*
(``delete:confirmed`` → ``confirmed``; a name without ``:`` is its own word):

    element       how it resolves          yields that fire
    inform, acknowledge, declare, phatic
                  'shown'                  all
    ask confirm   answer yes ('yes', 'y', 'true', 'ok', …)
                                           words of yes (confirmed, yes, accepted, approved, ok,
                                           proceed, agreed) + the unclassified ones
                  answer no ('no', 'n', 'false', 'cancel', …)
                                           words of no (cancelled, canceled, cancel, no,
                                           declined, rejected, denied, aborted) + unclassified
                  any other answer         the unclassified ones
                  (when no yield is classified: the first fires on yes, the second on no,
                   the rest on any answer — the schema's "yields separate named events")
    ask choice    answer V                 a yield whose word is an option value: only when V
                                           was chosen; every other yield; and, for every
                                           prefix P among the yields, the event ``P:V``
                                           (``yield="filter:chosen"`` + answer ``running`` →
                                           ``filter:chosen`` and ``filter:running``)
    ask (other)   any answer               all
    suggest       its outcome status       done: selected, accepted, done, applied, added,
                                           chosen, ok, success, succeeded, completed,
                                           confirmed · handed-off: handed-off, handoff ·
                                           dismissed: dismissed, declined, rejected,
                                           cancelled, canceled · failed / invalid: failed,
                                           error, invalid · superseded: superseded, ignored
    execute       'done' (every step ran)  done, ok, success, succeeded, complete, completed,
                  'failed' (a step failed) finished, ran · failed, error, errored, invalid ·
                  'dismissed' / 'superseded' / 'invalid'  as for suggest
    delegate      'done' (an actor took it) accepted, delegated, done, ok, handed-off,
                  'failed' (none, or it     resolved, completed · rejected, declined, failed,
                   raised)                  refused, error
    not resolved (an ask left unanswered, an element addressed elsewhere): nothing fires.

A yield whose word is in none of the element's classes is *unclassified*: it fires when the
element succeeds (an ask answered; a suggest done or handed-off; an execute whose steps all
ran; a delegate taken over). Words are compared case-insensitively.

    >>> from dial_notebook.dial import Ask
    >>> ask = Ask(response_type="confirm", yields=("delete:confirmed", "delete:cancelled"))
    >>> fired(ask, Resolution("answered", "no"))
    ('delete:cancelled',)
"""

from __future__ import annotations

from dataclasses import dataclass

from ..dial import Element

_YES_ANSWERS = frozenset({"yes", "y", "true", "ok", "okay", "sure", "confirm", "confirmed",
                          "proceed", "1"})
_NO_ANSWERS = frozenset({"no", "n", "false", "cancel", "cancelled", "canceled", "stop", "0"})

_YES_WORDS = frozenset({"confirmed", "confirm", "yes", "accepted", "approved", "ok",
                        "proceed", "agreed"})
_NO_WORDS = frozenset({"cancelled", "canceled", "cancel", "no", "declined", "rejected",
                       "denied", "aborted"})

_FAILED_WORDS = frozenset({"failed", "error", "errored", "invalid"})
_DISMISSED_WORDS = frozenset({"dismissed", "declined", "rejected", "cancelled", "canceled"})
_SUPERSEDED_WORDS = frozenset({"superseded", "ignored"})

#: For a suggest, an execute and a delegate: the words each way of resolving fires.
_CLASSES: dict[str, dict[str, frozenset[str]]] = {
    "suggest": {
        "done": frozenset({"selected", "accepted", "done", "applied", "added", "chosen", "ok",
                           "success", "succeeded", "completed", "confirmed"}),
        "handed-off": frozenset({"handed-off", "handoff"}),
        "dismissed": _DISMISSED_WORDS,
        "failed": _FAILED_WORDS,
        "invalid": _FAILED_WORDS,
        "superseded": _SUPERSEDED_WORDS,
        "skipped": frozenset(),
    },
    "execute": {
        "done": frozenset({"done", "ok", "success", "succeeded", "complete", "completed",
                           "finished", "ran"}),
        "failed": _FAILED_WORDS,
        "invalid": _FAILED_WORDS,
        "dismissed": _DISMISSED_WORDS,
        "superseded": _SUPERSEDED_WORDS,
        "skipped": frozenset(),
    },
    "delegate": {
        "done": frozenset({"accepted", "delegated", "done", "ok", "handed-off", "resolved",
                           "completed"}),
        "failed": frozenset({"rejected", "declined", "failed", "refused", "error"}),
    },
}

#: The ways of resolving that count as success (unclassified yields fire on them).
_SUCCESS = {"suggest": frozenset({"done", "handed-off"}), "execute": frozenset({"done"}),
            "delegate": frozenset({"done"})}


@dataclass(frozen=True)
class Resolution:
    """How an element resolved: ``how`` ('shown', 'answered', an outcome status …, or None
    when it did not resolve) and, for an ask, the person's ``answer``."""

    how: str | None
    answer: str | None = None
    #: For one that did not resolve: why, in words ("was addressed to billing-agent").
    note: str | None = None


#: Nothing fires.
UNRESOLVED = Resolution(None)
#: Every yield fires (an inform shown, a declare stored …).
SHOWN = Resolution("shown")


def word(event: str) -> str:
    """The part of an event name that says what happened: ``delete:confirmed`` → ``confirmed``."""
    return event.rsplit(":", 1)[-1].strip().lower()


def prefix(event: str) -> str | None:
    """The part before the last ``:``, or None: ``filter:chosen`` → ``filter``."""
    return event.rsplit(":", 1)[0] if ":" in event else None


def confirm_answer(answer: str) -> str | None:
    """'yes', 'no' or None for the person's answer to a confirm ask."""
    text = answer.strip().strip(".!").strip().lower()
    if text in _YES_ANSWERS:
        return "yes"
    if text in _NO_ANSWERS:
        return "no"
    return None


def fired(element: Element, resolution: Resolution) -> tuple[str, ...]:
    """The events ``element`` yields now that it resolved as ``resolution`` (no duplicates)."""
    yields = element.yields
    if resolution.how is None or not yields:
        return ()
    kind = element.kind
    if kind == "ask":
        events = _ask(element, resolution.answer or "")
    elif kind in _CLASSES:
        events = _by_class(yields, _CLASSES[kind], resolution.how, _SUCCESS[kind])
    else:
        events = list(yields)
    return tuple(dict.fromkeys(events))


def _by_class(yields: tuple[str, ...], classes: dict[str, frozenset[str]], how: str,
              success: frozenset[str]) -> list[str]:
    known = frozenset().union(*classes.values())
    wanted = classes.get(how, frozenset())
    return [y for y in yields
            if word(y) in wanted or (word(y) not in known and how in success)]


def _ask(element: Element, answer: str) -> list[str]:
    yields = element.yields
    response_type = getattr(element, "response_type", "text")
    if response_type == "confirm":
        return _confirm(yields, confirm_answer(answer))
    if response_type == "choice":
        values = {o.value.lower() for o in getattr(element, "options", ()) if o.value}
        chosen = answer.strip()
        events = [y for y in yields if word(y) not in values or word(y) == chosen.lower()]
        prefixes = dict.fromkeys(p for p in map(prefix, yields) if p)
        events += [f"{p}:{chosen}" for p in prefixes if chosen]
        return events
    return list(yields)


def _confirm(yields: tuple[str, ...], said: str | None) -> list[str]:
    classified = [y for y in yields if word(y) in _YES_WORDS | _NO_WORDS]
    if not classified:
        first, second, rest = yields[:1], yields[1:2], list(yields[2:])
        if said == "yes":
            return [*first, *rest]
        if said == "no":
            return [*second, *rest]
        return rest
    events = []
    for y in yields:
        w = word(y)
        if (w in _YES_WORDS and said == "yes") or (w in _NO_WORDS and said == "no") or (
                w not in _YES_WORDS | _NO_WORDS):
            events.append(y)
    return events
