"""The ``<dial>`` envelope: root attributes, the elements in order, and what parsing repaired.

Elements are built from the parsed tree the first time they are read, so parsing a reply costs
little more than lxml's own parse; an envelope built in code holds its elements directly.

    >>> from dial_notebook.dial import Inform
    >>> Envelope(elements=(Inform(text="hi"),)).actor
    'agent'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from ._elements import Element, Repair


class Envelope:
    """One ``<dial>`` envelope. Immutable; equal when root attributes and elements are equal.

    Args:
        elements: the elements in document order.
        version: the root's ``version`` (``"0.1"``).
        actor: who produced the envelope.
        turn: the turn index, when given.
        session: the session id, when given.
        repairs: what the parser had to fix (empty for well-formed input).
        damaged: True when only lxml's recovery could read the envelope: text may be altered.
        rest: envelopes that followed this one in the same reply, in order.
        ignored: names of child elements that are not DIAL and were left out.
        unread: elements of this envelope past the reply's cap (``MAX_ELEMENTS``), not read.
    """

    __slots__ = (
        "_build", "_elements", "actor", "damaged", "ignored", "repairs", "rest",
        "session", "turn", "unread", "version",
    )

    def __init__(
        self,
        elements: Iterable[Element] = (),
        *,
        version: str | None = "0.1",
        actor: str | None = "agent",
        turn: int | None = None,
        session: str | None = None,
        repairs: Iterable[Repair] = (),
        damaged: bool = False,
        rest: Iterable[Envelope] = (),
        ignored: Iterable[str] = (),
        unread: int = 0,
        _build: Callable[[], tuple[tuple[Element, ...], tuple[str, ...]]] | None = None,
    ) -> None:
        set_ = object.__setattr__
        set_(self, "_elements", None if _build else tuple(elements))
        set_(self, "_build", _build)
        set_(self, "version", version)
        set_(self, "actor", actor)
        set_(self, "turn", turn)
        set_(self, "session", session)
        set_(self, "repairs", tuple(repairs))
        set_(self, "damaged", damaged)
        set_(self, "rest", tuple(rest))
        set_(self, "ignored", tuple(ignored))
        set_(self, "unread", unread)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Envelope is immutable")

    def _materialise(self) -> None:
        if self._elements is None and self._build is not None:
            elements, ignored = self._build()
            object.__setattr__(self, "_elements", elements)
            object.__setattr__(self, "ignored", self.ignored + ignored)
            object.__setattr__(self, "_build", None)

    @property
    def elements(self) -> tuple[Element, ...]:
        """The envelope's elements in document order."""
        self._materialise()
        assert self._elements is not None
        return self._elements

    def all(self) -> list[Envelope]:
        """This envelope followed by the ones after it in the same reply."""
        return [self, *self.rest]

    def __iter__(self) -> Iterator[Element]:
        return iter(self.elements)

    def __len__(self) -> int:
        return len(self.elements)

    def _key(self) -> tuple[Any, ...]:
        return (self.version, self.actor, self.turn, self.session, self.elements)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Envelope):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        extra = f", repairs={len(self.repairs)}" if self.repairs else ""
        extra += ", damaged=True" if self.damaged else ""
        return (
            f"Envelope(actor={self.actor!r}, turn={self.turn!r}, "
            f"elements={[e.kind for e in self.elements]}{extra})"
        )
