"""The static copy of a live conversation, drawn as it grows: each item's HTML is kept, and a new
event draws only what it changed, so that keeping the notebook's copy current costs the same at
20,000 events as at 100 (the copy is the same HTML ``conversation_html`` makes from scratch).

    LiveCopy().html(transcript, title=…, pending=…)
        the same list as last time, grown ──▶ only the new events read (``Reader``: items
                           made, or joined to an earlier one: a card's outcome, an answer)
                           ──▶ those items, and the ones ``pending``, ``running`` (the runs
                           going: their cards say Running) and Retry moved between,
                           settled and drawn again; every other item's HTML as it was
        anything else (another list, fewer events, an entry replaced: a chart drawn late, a
                           session taken back) ──▶ read again from the start
        past the notebook copy's bound (``NOTEBOOK_LOG_CHARS`` of log) ──▶ the latest items
                           that fit, the oldest left out and said so (found by the chunks'
                           sizes, then item by item in one chunk), as ``conversation_html`` does
        past the latest ``NOTEBOOK_WIRE_TURNS`` turns ──▶ an earlier turn's wire drawn as
                           nothing (one per turn, as a turn ends), and the note says so
        past the images' bound (they are within the log's, so only if that is raised)
                           ──▶ drawn whole by ``conversation_html``

``drawn`` counts the items drawn (a test holds it constant per event).

    >>> copy = LiveCopy()
    >>> copy.html([{"type": "person", "text": "hi"}]) == conversation_html(
    ...     [{"type": "person", "text": "hi"}])
    True
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from . import _static
from ._items import COPY_KINDS, Item, Reader, settle
from ._static import conversation_html, left_out_note, page_fragment, wire_left_out_note
from ._static_log import context_html, draw
from ._static_text import NOTEBOOK_WIRE_TURNS
from ._static_values import IMAGES_CHARS, Budget

__all__ = ["LiveCopy"]

#: Items whose HTML is joined together and kept (see ``_chunks``).
CHUNK = 256
#: Entries put in the place of others at once that are drawn again without reading again (a
#: saved session's charts, drawn again off the loop, come in place between two updates of the
#: copy: 200 at 20,000 events; each swap draws one item, a reading again draws them all).
SWAPS = 4_096


def _swap(item: Item, swaps: Mapping[int, Any], found: set[int]) -> bool:
    """``item`` with each event of ``swaps`` (by the id of the one it replaces) in its place;
    whether it held one (their ids added to ``found``)."""
    held = False
    for name in ("event", "outcome", "undone", "undo_failed"):
        new = swaps.get(id(getattr(item, name)))
        if new is not None:
            found.add(id(getattr(item, name)))
            setattr(item, name, new)
            held = True
    for key, step in list(item.steps.items()):
        if id(step) in swaps:
            found.add(id(step))
            item.steps[key] = swaps[id(step)]
            held = True
    for n, ack in enumerate(item.acks):
        if id(ack) in swaps:
            found.add(id(ack))
            item.acks[n] = swaps[id(ack)]
            held = True
    return held


class LiveCopy:
    """One live conversation's static copy, with each item's HTML kept between drawings."""

    def __init__(self) -> None:
        #: Items drawn so far (each drawing of one item counts once).
        self.drawn = 0
        self._start(None)

    def _start(self, transcript: list[Any] | None) -> None:
        self._list = transcript
        self._read = 0  # events read from it
        self._last_event: Any = None  # the latest read (an entry replaced in place: read again)
        self._reader = Reader()
        self._html: list[str] = []  # each item's HTML, in the order of the reader's items
        self._spent: list[int] = []  # the image characters each one showed
        self._chars = self._images = 0  # the sums of the two
        self._joined: dict[int, str] = {}  # the HTML of each CHUNK items in a row, joined
        self._sizes: dict[int, int] = {}  # the characters of each CHUNK items in a row
        self._at: dict[int, int] = {}  # id(item) -> its place
        self._context: dict[str, Any] = {}  # what the agent declared, a later one last
        self._pending: Mapping[str, Any] = {}
        self._running: frozenset[str] = frozenset()  # the ids of the runs going
        self._steps: dict[str, Item] = {}  # an execute step's id -> its block
        self._last: Item | None = None  # the latest item the widget shows (Retry)
        self._made: tuple[Any, str] | None = None  # (what it was made of, the last fragment)
        self._wires: list[Item] = []  # the ended turns' wires, in order
        self._wire_at: dict[int, int] = {}  # id(wire) -> its place in them
        self._emptied = 0  # the earliest wires drawn as nothing (past the latest turns')

    def html(self, transcript: list[Any], *, title: str = "",
             pending: Mapping[str, Any] | None = None, running: Collection[str] = ()) -> str:
        """The copy of ``transcript`` now (``conversation_html``'s fragment; ``running``: the
        ids of the runs going)."""
        pending = pending if isinstance(pending, Mapping) else {}
        swapped: list[Item] = []
        if not self._continues(transcript) and not self._swapped(transcript, swapped):
            self._start(transcript)
        again = self._read_new(transcript, pending, frozenset(map(str, running)))
        drawing = {id(item) for item in again}
        for item in swapped:
            if id(item) not in drawing:
                settle(item, self._reader.cards, self._pending, self._last, self._running)
                again.append(item)
        for item in again:
            self._draw(item)
        wire = self._reader.wire
        self._bound_wires(wire is not None)
        made_of = (title, len(transcript), wire and (id(wire.event), id(wire.outcome)))
        if not again and self._made is not None and self._made[0] == made_of:
            return self._made[1]  # nothing changed since
        tail, tail_spent = self._drawn(wire) if wire is not None else ("", 0)
        room = _static.NOTEBOOK_LOG_CHARS - len(tail)
        if self._chars > room:
            parts = self._latest(room)
        elif self._images + tail_spent > IMAGES_CHARS:
            return conversation_html(transcript, title=title, pending=pending)
        else:
            parts = self._chunks()
        unshown = len(self._wires) + (wire is not None) - NOTEBOOK_WIRE_TURNS  # turns' wires
        fragment = page_fragment([wire_left_out_note(unshown), *parts, tail], context_html(
            list(self._context.items())), events=len(transcript), title=title)
        self._made = (made_of, fragment)
        return fragment

    def _chunks(self) -> list[str]:
        """The items' HTML in chunks of ``CHUNK``, each joined once until one of its items is
        drawn again (so a drawing joins a few long strings, not every item's)."""
        chunks = []
        for chunk in range(0, len(self._html), CHUNK):
            joined = self._joined.get(chunk)
            if joined is None:
                joined = self._joined[chunk] = "".join(self._html[chunk:chunk + CHUNK])
            chunks.append(joined)
        return chunks

    def _latest(self, room: int) -> list[str]:
        """The latest items whose HTML fits in ``room`` characters, after the note saying how
        many were left out: whole chunks dropped by their sizes, then items of one chunk."""
        left = self._chars
        for chunk in range(0, len(self._html), CHUNK):
            size = self._sizes.get(chunk)
            if size is None:
                size = self._sizes[chunk] = sum(map(len, self._html[chunk:chunk + CHUNK]))
            if left - size > room:
                left -= size
                continue
            first = chunk
            while left > room:
                left -= len(self._html[first])
                first += 1
            end = chunk + CHUNK
            return [left_out_note(first, _static.NOTEBOOK_LOG_CHARS),
                    "".join(self._html[first:end]), *self._chunks()[end // CHUNK:]]
        return [left_out_note(len(self._html), _static.NOTEBOOK_LOG_CHARS)]

    def _continues(self, transcript: list[Any]) -> bool:
        return (transcript is self._list and len(transcript) >= self._read
                and (self._read == 0 or transcript[self._read - 1] is self._last_event))

    def _swapped(self, transcript: list[Any], items: list[Item]) -> bool:
        """Whether ``transcript`` is the list read so far with a few informs or outcomes put
        in its place (a chart drawn late: _chat_events.py), each now in the items that showed
        the one before it (``items``: those, to draw again); False: read it from the start."""
        old = self._list
        if old is None or len(transcript) < self._read or len(old) < self._read:
            return False
        places = [n for n in range(self._read) if transcript[n] is not old[n]]
        if len(places) > SWAPS or any(
                not isinstance(old[n], Mapping) or old[n].get("type") not in ("inform", "outcome")
                for n in places):
            return False
        swaps = {id(old[n]): transcript[n] for n in places}
        found = set()
        for item in [*self._reader.items, *([self._reader.wire] if self._reader.wire else [])]:
            if _swap(item, swaps, found):
                items.append(item)
        if len(found) < len(swaps):
            return False  # an event no item shows as it is (an answer, a declare): read again
        self._list = transcript
        self._last_event = transcript[self._read - 1] if self._read else None
        return True

    def _read_new(self, transcript: list[Any], pending: Mapping[str, Any],
                  running: frozenset[str]) -> list[Item]:
        """Read the events not read yet: the items to draw again (new, changed, or moved by
        ``pending``, by the runs going or by which item is the latest shown), each settled."""
        reader = self._reader
        known = len(reader.items)
        for index in range(self._read, len(transcript)):
            event = transcript[index]
            reader.read(index, event)
            if isinstance(event, Mapping) and event.get("type") == "declare" \
                    and isinstance(event.get("key"), str):
                self._context.pop(event["key"], None)
                self._context[event["key"]] = event.get("value")
        self._read = len(transcript)
        self._last_event = transcript[-1] if transcript else None
        again = {id(item): item for item in [*reader.items[known:], *reader.touched]}
        reader.touched.clear()
        for item in reader.items[known:]:  # an execute block's steps: found by their ids
            if item.kind == "suggestion" and item.event.get("kind") == "execute":
                payload = item.event.get("payload")
                steps = payload.get("steps") if isinstance(payload, Mapping) else None
                for step in steps if isinstance(steps, list) else []:
                    if isinstance(step, Mapping):
                        self._steps[str(step.get("id"))] = item
        if running != self._running:
            for sid in running ^ self._running:
                card = reader.cards.get(sid) or self._steps.get(sid)
                if card is not None:
                    again[id(card)] = card
            self._running = running
        if pending != self._pending:
            for moved in (self._pending, pending):
                again.update((id(item), item) for item in self._waiting_on(moved))
            self._pending = dict(pending)
        last = next((item for item in reversed(reader.items) if item.kind not in COPY_KINDS),
                    None)
        if last is not self._last:
            again.update((id(item), item) for item in (self._last, last) if item is not None)
            self._last = last
        for item in again.values():
            settle(item, reader.cards, self._pending, last, self._running)
        return list(again.values())

    def _waiting_on(self, pending: Mapping[str, Any]) -> list[Item]:
        """The card or question ``pending`` is for, when it has one here."""
        if pending.get("kind") == "decide":
            card = self._reader.cards.get(str(pending.get("id")))
            return [card] if card is not None else []
        if pending.get("kind") == "answer":
            ask = self._reader.asks.get(pending.get("index")) \
                if isinstance(pending.get("index"), int) else None
            return [ask] if ask is not None else []
        return []

    def _bound_wires(self, open_turn: bool) -> None:
        """Draw as nothing the ended turns' wires before the latest ``NOTEBOOK_WIRE_TURNS``
        turns' (``open_turn``: the turn going is one of them), as ``conversation_html`` does."""
        empty = max(0, len(self._wires) - max(0, NOTEBOOK_WIRE_TURNS - open_turn))
        low, high = sorted((self._emptied, empty))
        self._emptied = empty
        for item in self._wires[low:high]:
            self._draw(item)

    def _draw(self, item: Item) -> None:
        if item is self._reader.wire:
            return  # the turn's wire, not in the items yet: drawn at the end each time
        place = self._at.get(id(item))
        if place is None:
            self._at[id(item)] = place = len(self._html)
            self._html.append("")
            self._spent.append(0)
            if item.kind == "wire":
                self._wire_at[id(item)] = len(self._wires)
                self._wires.append(item)
        emptied = self._wire_at.get(id(item), self._emptied) < self._emptied
        html, spent = ("", 0) if emptied else self._drawn(item)
        self._chars += len(html) - len(self._html[place])
        self._images += spent - self._spent[place]
        self._html[place], self._spent[place] = html, spent
        self._joined.pop(place - place % CHUNK, None)
        self._sizes.pop(place - place % CHUNK, None)

    def _drawn(self, item: Item) -> tuple[str, int]:
        """``item``'s HTML drawn alone, and the image characters it showed (while the whole
        copy's images stay within ``IMAGES_CHARS``, that is how the shared budget draws it)."""
        self.drawn += 1
        budget = Budget()
        html = draw(item, budget)
        return html, IMAGES_CHARS - budget.images
