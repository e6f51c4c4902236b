"""Replay: a saved conversation, one event at a time — for a teacher walking a class through it.

    ┌ ◆ Replay · notes.json · saved …   [⏮ First] [◀ Back] [Next ▶] [Last ⏭] ──●── event 7 of 31 ┐
    │ the conversation after the first 7 events,   │ this event: its type, what it means, fields │
    │ drawn by the ChatWidget's own front end,     │ what the agent received (exact, <pre>)      │
    │ read-only (no button works)                  │ the agent's raw reply (on a 'reply')        │
    └──────────────────────────────────────────────┴─────────────────────────────────────────────┘

    source ──▶ read_saved (checked; a ValueError says what is wrong) ──▶ transcript trait (once)
    Next / Back / slider / a tick ──▶ step trait (front end) ──▶ replay.step here
    replay.step = k / next() / back() ──▶ step trait ──▶ the view redraws

Step k shows the conversation after its first k events (0: before anything happened); the
current event is the k-th. The front end draws a step from the transcript alone, so stepping
needs no round trip to the kernel. Everything in the transcript is untrusted agent text: the
front end sets it as text, never as HTML.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any, ClassVar

import anywidget
import traitlets

from ._chat_widget import STATIC
from ._replay_source import read_saved
from ._vegalite import for_front_end


class Replay(anywidget.AnyWidget):
    """A saved conversation, replayed one event at a time, read-only.

    Args:
        source: a snapshot (the dict ``conversation.snapshot()`` returns), the path of its
            JSON file (``str`` or ``Path``), a ChatWidget or a Conversation (their
            transcript). A snapshot's ``surface.transcript`` is replayed when it has one (it
            holds the person's words), else its ``transcript``.
        step: the step to show first: 0 (before the first event, the default) to the number
            of events.
        title: a heading (by default the ChatWidget's title, else "Replay").

    Raises ``ValueError`` naming what is wrong with the source (a missing file, invalid JSON,
    another format or version, an event without a type: ``transcript[12] has no 'type'``).

    ``step`` (settable), ``event`` (the current event, ``None`` at step 0), ``received`` (the
    exact message the agent had received by then, ``None`` before the first), ``next()``,
    ``back()``, ``first()``, ``last()``. ``Replay.EXAMPLE`` is a conversation shipped with the
    package.

    Example (in a notebook cell):

        replay = Replay("conversation.json")
        replay            # Next / Back in the notebook, or:
        replay.next()
        replay.event["type"], replay.received
    """

    # the package's one front end (ChatWidget's too): its render draws a replay for `_view`
    _esm = STATIC / "widget.js"
    _css = STATIC / "widget.css"
    _view = traitlets.Unicode("replay", read_only=True).tag(sync=True)

    #: A conversation shipped with the package (notes: a card accepted, a question answered, a
    #: destructive card dismissed, a payload the domain refused); made by
    #: scripts/make_replay_example.py.
    EXAMPLE: ClassVar[Path] = Path(__file__).resolve().parent / "replays" / "notes.json"

    transcript = traitlets.List(read_only=True, help="The events replayed, in order (JSON).",
                                ).tag(sync=True)
    step = traitlets.Int(0, help="How many events are shown: 0 to len(transcript)."
                         ).tag(sync=True)
    title = traitlets.Unicode("").tag(sync=True)
    source = traitlets.Unicode("", help="Where the conversation came from (a file's path)."
                               ).tag(sync=True)
    saved_at = traitlets.Unicode("", help="When it was saved, as the snapshot says.").tag(
        sync=True)

    def __init__(self, source: Any, *, step: int = 0, title: str = "", **kwargs: Any) -> None:
        saved = read_saved(source)
        super().__init__(title=title or saved.title or "Replay", source=saved.name,
                         saved_at=saved.saved_at, **kwargs)
        # as the live widget's front end gets it: a chart without the static copy's own image
        self.set_trait("transcript", [for_front_end(event) for event in saved.transcript])
        self.step = step

    @traitlets.validate("step")
    def _valid_step(self, proposal: dict[str, Any]) -> int:
        step = proposal["value"]
        count = len(self.transcript)
        if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step <= count:
            raise ValueError(f"Replay: step must be a whole number from 0 to {count} (the "
                             f"number of events), not {step!r}")
        return step

    # ---- stepping ------------------------------------------------------------------------

    def next(self) -> bool:
        """Show one more event; False (and nothing changes) at the last."""
        if self.step >= len(self.transcript):
            return False
        self.step += 1
        return True

    def back(self) -> bool:
        """Show one event less; False (and nothing changes) at step 0."""
        if self.step <= 0:
            return False
        self.step -= 1
        return True

    def first(self) -> None:
        """Back to step 0: nothing has happened yet."""
        self.step = 0

    def last(self) -> None:
        """To the end: every event shown."""
        self.step = len(self.transcript)

    # ---- what this step shows --------------------------------------------------------------

    @property
    def event(self) -> dict[str, Any] | None:
        """The current event (the step-th; a copy), or ``None`` at step 0."""
        return copy.deepcopy(self.transcript[self.step - 1]) if self.step else None

    @property
    def received(self) -> str | None:
        """The exact message the agent had received by this step (the latest ``sent`` event's
        ``message``), or ``None`` when nothing had been sent yet."""
        for event in reversed(self.transcript[:self.step]):
            if event.get("type") == "sent":
                return str(event.get("message"))
        return None

    def __repr__(self) -> str:  # the text/plain of the output, where widgets do not render
        event = self.event
        shown = f" ({event.get('type')})" if event else ""
        return (f"<Replay of {self.source}: event {self.step} of {len(self.transcript)}{shown};"
                " shown as a widget in JupyterLab and Notebook 7>")
