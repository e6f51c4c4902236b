"""What a reply being streamed shows while it comes: 'progress' events, readable, paced.

The turn loop feeds each piece of a streamed reply here. ``Progress`` (dial layer) reads it; a
'progress' event (turn, prose, writing) goes to the surface when what a person could read has
changed, at once for the first piece and then at most once per ``PROGRESS_SECONDS`` — the last
change of a burst follows when the interval is over — so a model that writes a token at a time,
or a server that sends a reply in thousands of tiny pieces, costs the kernel and the front end
no more than 20 updates a second. The events are not kept (the 'reply' event that follows has
the whole text); ``close`` drops one still due once the reply is complete.

    feed(piece) ──▶ Progress.feed ──▶ changed? ──▶ due now ──▶ emit
                                               └─▶ not yet ──▶ emit when the interval ends
    close()     ──▶ nothing more is emitted
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from ..dial import Progress

#: The shortest time between two progress events of one reply.
PROGRESS_SECONDS = 0.05


class StreamProgress:
    """The progress events of one streamed reply (turn ``turn``), given to ``emit``."""

    def __init__(self, turn: int, emit: Callable[[dict[str, Any]], None]) -> None:
        self._turn = turn
        self._emit = emit
        self._progress = Progress()
        self._shown: tuple[str, str | None] = ("", None)
        self._last = float("-inf")
        self._due: asyncio.TimerHandle | None = None
        self._closed = False

    def feed(self, piece: str) -> None:
        """Read ``piece``; emit what can be read now, or soon."""
        if self._closed:
            return
        self._progress.feed(piece)
        if self._due is not None:
            return  # an emission is already due: it will read the pieces until then
        loop = asyncio.get_running_loop()
        wait = self._last + PROGRESS_SECONDS - loop.time()
        if wait <= 0:
            self._flush()
        else:
            self._due = loop.call_later(wait, self._flush)

    def close(self) -> None:
        """The reply is complete (or cut short): nothing more is emitted."""
        self._closed = True
        if self._due is not None:
            self._due.cancel()
            self._due = None

    def _flush(self) -> None:
        self._due = None
        if self._closed:
            return
        now = (self._progress.prose, self._progress.writing)
        if now != self._shown:
            self._shown = now
            self._last = asyncio.get_running_loop().time()
            self._emit({"type": "progress", "turn": self._turn, "prose": now[0],
                        "writing": now[1]})
