"""One agent reply: its text and elements, handled envelope by envelope, one handler per kind.

    reply text ─ no <dial> envelope ─▶ 'inform' (the trimmed text, if any)
       └─ envelopes ─▶ prose outside them ─▶ 'inform'
                    ─▶ each envelope's elements, activated as their observed events fire
                       (_schedule.py; a reply without observe: in order of appearance)
                         inform, acknowledge   'inform' with act (when it has text)
                         ask                   see _ask.py
                         suggest (+ declare)   see _suggestion.py (the declare right after a
                                               suggest without payload is its payload)
                       with ``full_dial`` (the rest of schema v0.1) also:
                         execute               see _execute.py
                         declare               see _context.py
                         delegate              see _delegate.py
                         phatic                see _signals.py
                         addressed-to someone else: not acted on (_signals.py)
                       without it those are ignored, as by the reference runtime

``HANDLERS`` (and ``FULL_HANDLERS``) map an element kind to its handler; a handler returns how
the element resolved (a ``Resolution``), which decides the yields that fire (_yields.py). A
damaged envelope's elements are handled like any others.

A reply longer than the parser reads (``MAX_REPLY_CHARS``) is not handled: its 'reply' event
keeps only its beginning (``truncated``, ``chars``) and an 'inform' (act ``unread``) says so,
so neither the transcript nor a surface ever holds it whole. A reply's elements past
``MAX_ELEMENTS`` are not read either (the parser counts them): an 'inform' (act ``unread``) says
how many, and none of them is handled (no suggestion, so no outcome, is made of them); so
does the text past the reply's ``MAX_ENVELOPES``-th envelope, which is not read at all.

If handling stops part-way (a human or callback raised, the task was cancelled), every
proposal of the reply not yet reached is still settled — a suggestion ``superseded`` (or
``invalid`` for an unknown action), an execute block ``superseded`` — and the answers given so
far are kept: the agent is told with the next turn.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, NamedTuple

from ..dial import (
    MAX_ELEMENTS,
    MAX_REPLY_CHARS,
    Declare,
    Element,
    Envelope,
    Suggest,
    extract_prose,
    parse,
)
from ._ask import on_ask, person_words
from ._budget import REPLY_SECONDS, Budget, spending
from ._context import on_declare
from ._delegate import on_delegate
from ._execute import on_execute, settle_block
from ._schedule import run_envelope
from ._signals import addressed_elsewhere, for_this_surface, on_phatic
from ._state import Reply
from ._suggestion import has_payload, on_suggest, payload_of, supersede
from ._yields import SHOWN, UNRESOLVED, Resolution


class Item(NamedTuple):
    """One thing to handle: an element, and for a suggest the declare that is its payload."""

    element: Element
    declare: Declare | None = None


Handler = Callable[[Reply, Item], Awaitable[Resolution]]


def inform_event(element: Any) -> dict[str, Any]:
    """The ``inform`` event of an inform or acknowledge element: ``text`` and ``act`` as the
    spec says, plus ``of`` (an acknowledge's element id), ``render`` (when it is not prose)
    and the ``payload`` value (when there is one) so that a surface can show tables, code,
    media and charts."""
    event: dict[str, Any] = {"type": "inform", "text": element.text, "act": element.kind}
    acknowledged = getattr(element, "of", None)
    if acknowledged:  # an acknowledge of a proposal: a surface shows it with that card
        event["of"] = acknowledged
    render = getattr(element, "render", None)
    if render and render != "prose":
        event["render"] = render
    payload = element.payload
    if payload is not None and payload.raw.strip():
        event["payload"] = payload.value if payload.error is None else payload.raw
    return event


async def _inform(reply: Reply, item: Item) -> Resolution:
    event = inform_event(item.element)
    # An element with empty text emits nothing (the reference); full DIAL shows a
    # payload-only inform (a table, a chart) too.
    if item.element.text or ("payload" in event and reply.state.full):
        reply.state.events.emit(event)
    return SHOWN


async def _ask(reply: Reply, item: Item) -> Resolution:
    answer = await on_ask(reply, item.element)  # type: ignore[arg-type]
    if not answer:
        return Resolution(None, note="was not answered")
    return Resolution("answered", answer)


async def _suggest(reply: Reply, item: Item) -> Resolution:
    await on_suggest(reply, item.element, item.declare)  # type: ignore[arg-type]
    return Resolution(reply.outcomes[-1]["status"])


async def _execute(reply: Reply, item: Item) -> Resolution:
    return await on_execute(reply, item.element)  # type: ignore[arg-type]


async def _declare(reply: Reply, item: Item) -> Resolution:
    return await on_declare(reply, item.element)  # type: ignore[arg-type]


async def _delegate(reply: Reply, item: Item) -> Resolution:
    return await on_delegate(reply, item.element)  # type: ignore[arg-type]


async def _phatic(reply: Reply, item: Item) -> Resolution:
    return await on_phatic(reply, item.element)  # type: ignore[arg-type]


#: Element kind → handler, as the runtime spec has it. Kinds without one are ignored.
HANDLERS: dict[str, Handler] = {
    "inform": _inform,
    "acknowledge": _inform,
    "ask": _ask,
    "suggest": _suggest,
}

#: With ``full_dial``: every element of schema v0.1.
FULL_HANDLERS: dict[str, Handler] = {
    **HANDLERS,
    "execute": _execute,
    "declare": _declare,
    "delegate": _delegate,
    "phatic": _phatic,
}


def _handler(reply: Reply, element: Element) -> Handler | None:
    return (FULL_HANDLERS if reply.state.full else HANDLERS).get(element.kind)


def items_of(envelope: Envelope) -> list[Item]:
    """One envelope's elements in order, each suggest paired with the declare that follows it."""
    items: list[Item] = []
    elements = envelope.elements
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


def _outcome_ends(reply: Reply, outcome: dict[str, Any]) -> Resolution:
    """A suggest's or a delegate's one outcome ends it, resolved as its status."""
    return Resolution(outcome["status"])


def _block_ends(reply: Reply, outcome: dict[str, Any]) -> Resolution | None:
    """An execute block ends with its own outcome (it never ran), or with the outcome of its
    last step still to settle: 'done' when every step was done, else 'failed'."""
    block = outcome.get("block")
    if block is None:
        return Resolution(outcome["status"])
    item = list(reply.current or ())
    if any(entry.get("reply") == reply.serial and entry.get("item") == item
           for entry in reply.state.running.values()):
        return None  # steps still to settle
    steps = [o["status"] for o in reply.outcomes if o.get("block") == block]
    return Resolution("done" if all(status == "done" for status in steps) else "failed")


#: Element kind → how the outcome that ends such an item resolves it (record, then tell:
#: the item is resolved before that outcome's event is emitted; _state.py).
ENDS = {"suggest": _outcome_ends, "delegate": _outcome_ends, "execute": _block_ends}


async def _activate(reply: Reply, item: Item) -> Resolution:
    """Handle one item, recording how it resolved (what a snapshot keeps) — before its last
    event when that is an outcome; an item a restored reply had already resolved is recalled,
    not handled again (_resume.py)."""
    key = reply.keys[id(item)]
    if key in reply.resolved:
        return reply.resolved[key]
    ends = ENDS.get(item.element.kind)
    if reply.restored is not None and reply.restored.current == key:
        resolution = await reply.restored.take_up(reply, lambda: _handle_item(reply, item),
                                                  ends)
    else:
        reply.begin(key)
        reply.ends = ends
        resolution = await _handle_item(reply, item)
    reply.current = key
    return reply.finish(resolution)


async def _handle_item(reply: Reply, item: Item) -> Resolution:
    handler = _handler(reply, item.element)
    if handler is None:
        return UNRESOLVED
    if reply.state.full and not for_this_surface(item.element):
        resolution = addressed_elsewhere(reply, item.element)
        reply.finish(resolution)  # resolved before its outcome is told
        _settle_skipped(reply, item, f"It {resolution.note}.")
        return resolution
    return await handler(reply, item)


def _skip(reply: Reply, item: Item, reason: str) -> None:
    """Report, once, an element whose observed event never fired: recorded as skipped (with
    its outcome, for a proposal) before the report and the outcome are told."""
    key = reply.keys[id(item)]
    if key in reply.skipped:
        return  # a restored reply: reported before the snapshot
    reply.skipped.add(key)
    element = item.element
    if _handler(reply, element) is None:
        return  # ignored anyway
    article = "an" if element.kind[:1] in "aeiou" else "a"
    name = f"{element.kind} '{element.id}'" if element.id else f"{article} {element.kind}"
    report = {
        "type": "inform", "text": f"Skipped {name}: {reason}.", "act": "skipped",
        "element": element.kind, "id": element.id, "observe": element.observe,
        "reason": reason,
    }
    if not _settle_skipped(reply, item, f"It was not shown: {reason}.", first=report):
        reply.tell(report)


def _settle_skipped(reply: Reply, item: Item, hint: str, *,
                    first: dict[str, Any] | None = None) -> bool:
    """A proposal that will never be shown still ends in one outcome: skipped, saying why
    (told after ``first``). False when the element is no proposal (nothing settled)."""
    element = item.element
    state = reply.state
    if isinstance(element, Suggest):
        action = element.action or ""
        payload, _ = payload_of(element, item.declare)
        preview = state.domain.preview_now(action, payload) if state.domain.spec(action) else ""
        reply.settle(state.suggestion_id(element.id), action, "skipped", preview, hint=hint,
                     first=first)
        return True
    if element.kind == "execute":
        if first is not None:
            reply.queued.append(first)  # told before the block's outcome
        settle_block(reply, element, "skipped", hint=hint)  # type: ignore[arg-type]
        return True
    return False


def _settle_unreached(reply: Reply, item: Item) -> None:
    element = item.element
    if isinstance(element, Suggest):
        supersede(reply, element, item.declare)
    elif element.kind == "execute" and reply.state.full:
        settle_block(reply, element, "superseded", quiet=True)  # type: ignore[arg-type]


#: Characters of an unreadable (over-long) reply kept in its 'reply' event.
KEPT_OF_TOO_LONG = 2_000


def _too_long(reply: Reply, turn: int, text: str, chars: int) -> None:
    """A reply over the parser's limit: its beginning is kept, it is said that it went unread."""
    reply.tell({"type": "reply", "turn": turn, "text": text[:KEPT_OF_TOO_LONG],
                "truncated": True, "chars": chars},
               {"type": "inform", "act": "unread",
                "text": f"The agent's reply was not read: it is {chars:,} characters long, "
                        f"over the limit of {MAX_REPLY_CHARS:,}."})


def _opening(turn: int, text: str, envelope: Any) -> list[dict[str, Any]]:
    """The events a reply opens with: 'reply', then an 'inform' of its text without an
    envelope, or of its prose, and one saying what of it was not read."""
    events: list[dict[str, Any]] = [{"type": "reply", "turn": turn, "text": text}]
    if envelope is None:
        if text.strip():
            events.append({"type": "inform", "text": text.strip()})
        return events
    prose = extract_prose(text).strip()
    if prose:
        events.append({"type": "inform", "text": prose})
    unread = sum(env.unread for env in envelope.all())  # past MAX_ELEMENTS (dial/_parse.py)
    if unread:
        events.append({"type": "inform", "act": "unread",
                       "text": f"{unread:,} element{'s' if unread != 1 else ''} of the agent's "
                               f"reply {'were' if unread != 1 else 'was'} not read: a reply is "
                               f"read up to its first {MAX_ELEMENTS:,} elements."})
    cuts = [r.message for env in envelope.all() for r in env.repairs
            if r.kind == "too-many-envelopes"]  # past MAX_ENVELOPES: not read at all
    events += [{"type": "inform", "act": "unread", "text": cut} for cut in cuts]
    return events


def reply_items(text: str) -> list[list[Item]]:
    """The reply's items, one list per envelope: what (envelope, position) keys refer to."""
    envelope = parse(text)
    return [items_of(env) for env in envelope.all()] if envelope is not None else []


async def handle(reply: Reply, turn: int, text: str, chars: int | None = None) -> None:
    """Emit and settle everything in the reply ``text``; the person's words become owed.
    ``chars``: the reply's real length when ``text`` is only its beginning (a streamed reply
    over the limit is not kept whole).

    A reply restored from a snapshot (``reply.restored``) is taken up where it stood: what
    was shown is not shown again, what resolved is recalled (_resume.py)."""
    reply.turn = turn
    resuming = reply.restored is not None
    chars = max(chars or 0, len(text))
    if chars > MAX_REPLY_CHARS:
        if not resuming:
            _too_long(reply, turn, text, chars)
        return
    envelope = parse(text)
    groups = [items_of(env) for env in envelope.all()] if envelope is not None else []
    reply.keys = {id(item): (g, i) for g, items in enumerate(groups)
                  for i, item in enumerate(items)}
    unreached = {id(item): item for items in groups for item in items
                 if reply.keys[id(item)] not in reply.resolved
                 and reply.keys[id(item)] not in reply.skipped}
    reply.asks = sum(1 for items in groups for item in items if item.element.kind == "ask")

    def settle_the_rest() -> None:  # when the handling stops part-way (Reply.stop)
        for key in list(unreached):
            _settle_unreached(reply, unreached.pop(key))

    reply.on_stop = settle_the_rest
    try:
        if not resuming:  # the reply and what is said of it as a whole, recorded, then told
            reply.tell(*_opening(turn, text, envelope))
        if envelope is None:
            return
        with spending(Budget(REPLY_SECONDS)):  # the domain work this reply may cause
            for items in groups:
                await run_envelope(reply, items, unreached, _activate, _skip)
    except BaseException:
        reply.stop()  # recorded first: the say over, the words owed, the rest settled
        raise
    finally:
        words = person_words(reply) if not reply.stopped else ""  # (stopped: owed already)
        if words:
            reply.state.owed_words.append(words)
