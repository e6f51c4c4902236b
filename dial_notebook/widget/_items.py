"""What the conversation shows, before how it looks: the transcript as display items. The one
description of an item that every renderer follows: the static copy and the export draw these
(``_static_log.py``, ``_static_cards.py``); the widget and the replay make the same items in
JavaScript (js/src/items.js: ``itemsOf``), and a test holds the two to each other
(``tests/contract_transcript.py`` writes ``js/test/fixtures/items.json`` from these;
``js/test/items.test.mjs`` checks that ``itemsOf`` makes the same from the same transcript).

    transcript_items(transcript, pending, running=()) ──▶ [Item, …], in the order shown
    (``running``: the ids of the runs going now, never in the transcript — a card without an
    outcome whose run goes, or a block one of whose steps does, is 'running'):
      suggestion       a card; later its outcome, its steps' outcomes (an execute block), the
                       agent's acknowledgements, an Undo's outcome 'undone' or its failure
      person           a bubble, unless it answers a question: then the question's answer
      ask / inform / delegate / no-reply / status (an outcome without a card, the turn limit,
                       an error, a stop, a resumed session, an Undo without a card)
      and only in the copy (COPY_KINDS): wire (each turn's sent and reply, at the turn's end),
                       declare, phatic, unknown, undo-failed (said at its place in the log;
                       the widget says it on its card only)

Keys are the widget's: a letter for the kind and the index of the event that made the item
(``s12``: the card of transcript[12]); ``describe`` writes items as plain JSON.

    >>> [(i.kind, i.key) for i in transcript_items([{"type": "person", "text": "hi"}], {})]
    [('person', 'p0')]
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from ._static_text import as_list, as_string

__all__ = ["COPY_KINDS", "Item", "Reader", "block_status", "context_of", "describe", "settle",
           "steps_of", "transcript_items"]

#: Kinds only the static copy draws as items (the widget: declares in its context panel,
#: phatic signals as its typing line, no wire, an Undo that failed on its card, nothing unknown).
COPY_KINDS = frozenset({"wire", "declare", "phatic", "unknown", "undo-failed"})

_LETTER = {"person": "p", "inform": "i", "ask": "a", "suggestion": "s", "delegate": "d",
           "no-reply": "n", "declare": "c", "phatic": "h", "wire": "w", "unknown": "k",
           "undo-failed": "u"}
_STATUS_LETTER = {"outcome": "o", "undo-failed": "u"}  # else 'x'


@dataclass
class Item:
    """One thing shown: ``kind``, the ``event`` it shows, where it came from (``index``)."""

    kind: str
    event: Mapping[str, Any]
    index: int = -1
    key: str = ""
    #: A card's outcome (a done one stays, once undone); a wire's reply or no-reply.
    outcome: Mapping[str, Any] | None = None
    #: An execute block's steps' outcomes by step id.
    steps: dict[str, Mapping[str, Any]] = field(default_factory=dict)
    acks: list[Mapping[str, Any]] = field(default_factory=list)
    #: A question's answer (the person's words that answered it).
    answer: str | None = None
    #: What waits for the person on this card or question, else None.
    pending: Mapping[str, Any] | None = None
    status: str = ""
    #: The latest note that the agent did not reply offers Retry (in the widget).
    retry: bool = False
    #: A done card's later outcome 'undone' (Undo took it back; the done result stays shown).
    undone: Mapping[str, Any] | None = None
    #: The latest Undo of this card that did not happen.
    undo_failed: Mapping[str, Any] | None = None


def transcript_items(transcript: list[Any], pending: Mapping[str, Any],
                     running: Collection[str] = ()) -> list[Item]:
    """Cards get their outcome, steps and acknowledgements; answers join their question; each
    turn ends with what the agent received and replied (a 'wire' item); then each card and
    question is told whether it is what ``pending`` waits for, and each card its status."""
    reader = Reader()
    for index, event in enumerate(transcript):
        reader.read(index, event)
    reader.end_turn()
    _settle(reader.items, reader.cards, pending, running)
    return reader.items


class Reader:
    """The transcript read in order (the state ``transcript_items`` keeps between events)."""

    def __init__(self) -> None:
        self.items: list[Item] = []
        self.cards: dict[str, Item] = {}  # suggestion id -> its latest card
        self.asks: dict[Any, Item] = {}  # transcript index -> its question
        self.wire: Item | None = None  # this turn's sent and reply, shown at its end
        self.resumed_at = -1  # the latest "carried on from …" line
        #: Items an event read since the caller last cleared it changed (joined to them).
        self.touched: list[Item] = []

    def add(self, kind: str, event: Mapping[str, Any], index: int) -> Item:
        letter = _LETTER.get(kind) or _STATUS_LETTER.get(str(event.get("type")), "x")
        item = Item(kind, event, index, key=f"{letter}{index}")
        self.items.append(item)
        return item

    def end_turn(self) -> None:
        if self.wire is not None:
            self.items.append(self.wire)
            self.wire = None

    def read(self, index: int, event: Any) -> None:
        if not isinstance(event, Mapping):
            self.add("unknown", {"type": type(event).__name__}, index)
            return
        kind = event.get("type")
        if kind == "person":
            ask = self.asks.get(event.get("answer_to")) if _hashable(event.get("answer_to")) \
                else None
            if ask is not None and ask.answer is None:
                ask.answer = as_string(event.get("text"))
                self.touched.append(ask)
            else:
                self.end_turn()
                self.add("person", event, index)
        elif kind == "inform":
            of = event.get("of")
            card = (self.cards.get(str(of)) if event.get("act") == "acknowledge"
                    and of is not None else None)
            if card is not None:
                card.acks.append(event)
                self.touched.append(card)
            else:
                self.add("inform", event, index)
        elif kind == "ask":
            self.asks[index] = self.add("ask", event, index)
        elif kind == "suggestion":
            self.suggestion(index, event)
        elif kind == "outcome":
            self.outcome(index, event)
        elif kind in ("delegate", "declare", "phatic"):
            self.add(str(kind), event, index)
        else:
            self.turn_event(index, event, kind)

    def turn_event(self, index: int, event: Mapping[str, Any], kind: Any) -> None:
        """The turn's own events: no reply, limits and stops, the wire; else unknown."""
        if kind == "no-reply":
            self.add("no-reply", event, index)
            if self.wire is not None:
                self.wire.outcome = event
            self.end_turn()
        elif kind == "undo-failed":
            card = self.cards.get(str(event.get("id")))
            if card is not None:
                card.undo_failed = event  # the widget says it on the card; the copy in place
                self.touched.append(card)
            self.add("undo-failed" if card is not None else "status", event, index)
        elif kind in ("turn-limit", "error", "stopped", "resumed"):
            self.resumed_at = index if kind == "resumed" else self.resumed_at
            self.add("status", event, index)
        elif kind == "sent":
            self.end_turn()
            self.wire = Item("wire", event, index, key=f"w{index}")
        elif kind == "reply":
            if self.wire is None:
                self.wire = Item("wire", {"type": "sent", "turn": event.get("turn")}, index,
                                 key=f"w{index}")
            self.wire.outcome = event
        else:
            self.add("unknown", event, index)

    def suggestion(self, index: int, event: Mapping[str, Any]) -> None:
        # after a restart the waiting card is offered again (its dry run made anew): it is
        # the card above "what was waiting for you is back, above", shown once, as now; so is
        # a card checked again before it ran (``stale``: what it was made against changed)
        earlier = self.cards.get(str(event.get("id")))
        if (earlier is not None and (earlier.index < self.resumed_at or event.get("stale"))
                and earlier.outcome is None
                and not earlier.steps and earlier.event.get("kind") == event.get("kind")):
            earlier.event = event
            self.touched.append(earlier)
            return
        self.cards[str(event.get("id"))] = self.add("suggestion", event, index)

    def outcome(self, index: int, event: Mapping[str, Any]) -> None:
        block_id = event.get("block")
        block = self.cards.get(str(block_id)) if block_id is not None else None
        card = self.cards.get(str(event.get("id")))
        if block is not None and block.event.get("kind") == "execute":
            block.steps[str(event.get("id"))] = event
            self.touched.append(block)
        elif card is not None and card.outcome is None and not card.steps:
            card.outcome = event
            self.touched.append(card)
        elif (card is not None and event.get("status") == "undone" and card.undone is None
              and card.outcome is not None and card.outcome.get("status") == "done"):
            card.undone = event
            self.touched.append(card)
        elif event.get("status") != "skipped":
            self.add("status", event, index)
        # a skipped proposal without a card of its own: its 'skipped' note says why


def _settle(items: list[Item], cards: dict[str, Item], pending: Mapping[str, Any],
            running: Collection[str] = ()) -> None:
    """Each card's and question's part of ``pending``, each card's status, the latest no-reply's
    Retry (the latest of what the widget shows)."""
    shown = [item for item in items if item.kind not in COPY_KINDS]
    last = shown[-1] if shown else None
    for item in items:
        settle(item, cards, pending, last, running)


def settle(item: Item, cards: Mapping[str, Item], pending: Mapping[str, Any],
           last: Item | None, running: Collection[str] = ()) -> None:
    """One item's part of ``pending``, a card's status (``running``: the ids of the runs
    going), a no-reply's Retry (when it is ``last``, the latest item the widget shows): what
    ``transcript_items`` settles for each."""
    decide = pending if pending.get("kind") == "decide" else None
    answer = pending if pending.get("kind") == "answer" else None
    if item.kind == "no-reply":
        item.retry = item is last
    elif item.kind == "suggestion":
        mine = (decide is not None and str(decide.get("id")) == str(item.event.get("id"))
                and cards.get(str(decide.get("id"))) is item)
        item.pending = decide if mine else None
        block = item.event.get("kind") == "execute"  # its status is its steps'
        item.status = ("undone" if item.undone is not None
                       else str(item.outcome.get("status")) if item.outcome is not None
                       else ("pending" if mine and not item.steps
                             else block_status(item, running)) if block
                       else "running" if str(item.event.get("id")) in running
                       else "pending" if mine
                       else "proposed")
    elif item.kind == "ask":
        item.pending = (answer if answer is not None and answer.get("index") == item.index
                        else None)


def _hashable(value: Any) -> bool:
    return value is None or isinstance(value, int | str | float | bool)


def block_status(item: Item, running: Collection[str] = ()) -> str:
    """An execute block's status from its steps' outcomes, or one of ``running`` started
    (js/src/items.js: blockStatus).

        >>> block_status(Item("suggestion", {"kind": "execute", "confirmed": True}))
        'confirmed'
    """
    steps = steps_of(item.event)
    if not item.steps:  # its run said started (the block's id), or one of its steps
        if str(item.event.get("id")) in running or any(
                isinstance(s, Mapping) and str(s.get("id")) in running for s in steps):
            return "running"
        return "confirmed" if item.event.get("confirmed") else "proposed"
    if len(item.steps) < len(steps):
        return "running"
    return "done" if all(o.get("status") == "done" for o in item.steps.values()) else "failed"


def steps_of(event: Mapping[str, Any]) -> list[Any]:
    """An execute block's steps as proposed (its payload's ``steps``), else []."""
    payload = event.get("payload")
    return as_list(payload.get("steps")) if isinstance(payload, Mapping) else []


def context_of(transcript: list[Any]) -> list[tuple[str, Any]]:
    """What the agent declared, by key, a later declare winning (items.js: contextOf).

        >>> context_of([{"type": "declare", "key": "a", "value": 1},
        ...             {"type": "declare", "key": "b", "value": 2},
        ...             {"type": "declare", "key": "a", "value": 3}])
        [('b', 2), ('a', 3)]
    """
    context: dict[str, Any] = {}
    for event in transcript:
        if isinstance(event, Mapping) and event.get("type") == "declare" \
                and isinstance(event.get("key"), str):
            context.pop(event["key"], None)
            context[event["key"]] = event.get("value")
    return list(context.items())


def describe(items: list[Item], transcript: list[Any]) -> list[dict[str, Any]]:
    """Items as plain JSON, each event named by its index in ``transcript`` (the items fixture
    the front end's test compares ``itemsOf`` with).

        >>> entries = [{"type": "ask", "text": "Sure?"},
        ...            {"type": "person", "text": "yes", "answer_to": 0}]
        >>> describe(transcript_items(entries, {}), entries)
        [{'kind': 'ask', 'key': 'a0', 'event': 0, 'answer': 'yes', 'pending': False}]
    """
    at = {id(event): index for index, event in enumerate(transcript)}

    def ref(event: Mapping[str, Any] | None) -> int | None:
        return None if event is None else at.get(id(event))

    described = []
    for item in items:
        shown: dict[str, Any] = {"kind": item.kind, "key": item.key, "event": ref(item.event)}
        if item.kind == "suggestion":
            shown.update(outcome=ref(item.outcome),
                         steps={key: ref(step) for key, step in item.steps.items()},
                         acks=[ref(ack) for ack in item.acks], undone=ref(item.undone),
                         undo_failed=ref(item.undo_failed), status=item.status,
                         pending=item.pending is not None)
        elif item.kind == "ask":
            shown.update(answer=item.answer, pending=item.pending is not None)
        elif item.kind == "no-reply":
            shown["retry"] = item.retry
        elif item.kind == "wire":
            shown["reply"] = ref(item.outcome)
        described.append(shown)
    return described
