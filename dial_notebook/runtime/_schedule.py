"""Observe/yield inside one envelope: which element activates next, and what never did.

    the envelope's elements, in order of appearance
      │
      ├─▶ next: the first element, in order of appearance, not yet activated whose observed
      │         events have all fired (an element without ``observe`` is always ready)
      │           ─▶ activated: its handler runs to its end — one element at a time, since a
      │              person answers one thing at a time (the schema's "in parallel" elements
      │              are taken in order of appearance)
      │           ─▶ the yields that fit how it resolved fire (_yields.py); events fired by a
      │              confirm ask answered yes are remembered as *confirmed* (an execute card
      │              they offer says so; it is still the person's to accept, _execute.py)
      │           ─▶ back to next
      └─▶ nothing ready: every element still waiting is skipped — reported once, with why
          (``skip``: an 'inform' event with act 'skipped'; a suggest or execute also ends in
          the outcome 'skipped' so the agent is told)

A reply without any ``observe`` is therefore handled exactly in order of appearance, as the
runtime spec says. Each element activates at most once and events are only ever added, so the
loop ends after at most one pass per element: a cycle (a observes b, b observes a) or an event
nothing yields leaves its elements skipped, never waiting. Events are scoped to one envelope.

    >>> from dial_notebook.dial import Inform
    >>> name_of(Inform(id="result"), 0), name_of(Inform(), 2)
    ("inform 'result'", 'inform #3')
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from ..dial import Element
from ._gate import Gate, observed
from ._state import Reply
from ._yields import Resolution, confirm_answer, fired

Activate = Callable[[Reply, Any], Awaitable[Resolution]]
Skip = Callable[[Reply, Any, str], None]


def name_of(element: Element, index: int) -> str:
    """How a reason names an element: ``ask 'confirm-delete'``, or ``inform #3`` without id."""
    return f"{element.kind} '{element.id}'" if element.id else f"{element.kind} #{index + 1}"


def describe(resolution: Resolution) -> str:
    """How an element resolved, in words, for the reasons of what it did not fire."""
    if resolution.how is None:
        return resolution.note or "did not resolve"
    if resolution.how == "answered":
        return f"was answered '{resolution.answer}'"
    if resolution.how == "shown":
        return "was shown"
    return f"ended {resolution.how}"


def _confirmed_yes(element: Element, resolution: Resolution) -> bool:
    return (element.kind == "ask" and getattr(element, "response_type", "") == "confirm"
            and resolution.how == "answered"
            and confirm_answer(resolution.answer or "") == "yes")


async def run_envelope(reply: Reply, items: Sequence[Any], unreached: dict[int, Any],
                       activate: Activate, skip: Skip) -> None:
    """Activate ``items`` (each with an ``.element``) as their observed events fire.

    ``unreached`` holds the reply's items not yet activated or skipped, by ``id(item)``; each
    is removed the moment it starts, so an interrupted reply knows what it never reached.
    """
    elements = [item.element for item in items]
    gate = Gate([observed(e.observe) for e in elements], [e.yields for e in elements],
                [name_of(e, i) for i, e in enumerate(elements)], "the reply")
    while (index := gate.pop_ready()) is not None:
        item = items[index]
        unreached.pop(id(item), None)
        resolution = await activate(reply, item)
        events = fired(item.element, resolution)
        if _confirmed_yes(item.element, resolution):
            reply.confirmed.update(events)
        gate.resolve(index, describe(resolution), events)
    for index in gate.never_ready():
        unreached.pop(id(items[index]), None)
        skip(reply, items[index], gate.why_not(index))
