"""One agent reply: its text and elements, handled in order, one handler per element kind.

    reply text ─ no <dial> envelope ─▶ 'inform' (the trimmed text, if any)
       └─ envelopes ─▶ prose outside them ─▶ 'inform'
                    ─▶ elements of every envelope, in order (envelope.all()):
                         inform, acknowledge   'inform' with act (when it has text)
                         ask                   see _ask.py
                         suggest (+ declare)   see _suggestion.py (the declare right after a
                                               suggest without payload is its payload)
                         anything else         ignored, for now

``HANDLERS`` maps an element kind to its handler, so a kind is supported by adding one entry
(observe/yield, execute, declare and delegate come later). A damaged envelope's elements are
handled like any others.

If handling stops part-way (a human or callback raised, the task was cancelled), every
suggestion of the reply not yet reached is still settled — ``superseded``, or ``invalid`` for
an unknown action — and the answers given so far are kept: the agent is told with the next turn.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import NamedTuple

from ..dial import Declare, Element, Envelope, Suggest, extract_prose, parse
from ._ask import on_ask, person_words
from ._state import Reply
from ._suggestion import has_payload, on_suggest, supersede


class Item(NamedTuple):
    """One thing to handle: an element, and for a suggest the declare that is its payload."""

    element: Element
    declare: Declare | None = None


Handler = Callable[[Reply, Item], Awaitable[None]]


async def _inform(reply: Reply, item: Item) -> None:
    if item.element.text:
        reply.state.events.emit(
            {"type": "inform", "text": item.element.text, "act": item.element.kind}
        )


async def _ask(reply: Reply, item: Item) -> None:
    await on_ask(reply, item.element)  # type: ignore[arg-type]


async def _suggest(reply: Reply, item: Item) -> None:
    await on_suggest(reply, item.element, item.declare)  # type: ignore[arg-type]


#: Element kind → handler. Kinds without one are ignored.
HANDLERS: dict[str, Handler] = {
    "inform": _inform,
    "acknowledge": _inform,
    "ask": _ask,
    "suggest": _suggest,
}


def items_of(envelope: Envelope) -> list[Item]:
    """The reply's elements in order, each suggest paired with the declare that follows it."""
    items: list[Item] = []
    for env in envelope.all():
        elements = env.elements
        i = 0
        while i < len(elements):
            element = elements[i]
            following = elements[i + 1] if i + 1 < len(elements) else None
            if (isinstance(element, Suggest) and not has_payload(element)
                    and isinstance(following, Declare)):
                items.append(Item(element, following))
                i += 2
                continue
            items.append(Item(element))
            i += 1
    return items


async def handle(reply: Reply, turn: int, text: str) -> None:
    """Emit and settle everything in the reply ``text``; the person's words become owed."""
    events = reply.state.events
    envelope = parse(text)
    items = items_of(envelope) if envelope is not None else []
    reply.asks = sum(1 for item in items if item.element.kind == "ask")
    started = 0
    try:
        events.emit({"type": "reply", "turn": turn, "text": text})
        if envelope is None:
            if text.strip():
                events.emit({"type": "inform", "text": text.strip()})
            return
        prose = extract_prose(text).strip()
        if prose:
            events.emit({"type": "inform", "text": prose})
        for item in items:
            started += 1
            handler = HANDLERS.get(item.element.kind)
            if handler is not None:
                await handler(reply, item)
    except BaseException:
        for item in items[started:]:
            if isinstance(item.element, Suggest):
                supersede(reply, item.element, item.declare)
        raise
    finally:
        words = person_words(reply)
        if words:
            reply.state.owed_words.append(words)
