"""How the chat widget's transcript travels to the front end: each new event once, appended.

Flat traffic: a new event travels once, and adding one costs the same however long the
conversation is. It is appended to the trait's own list in place (no copy, no validation of the
whole list) and waits in an outbox; the events added in one turn of the loop (a reply's hundred
informs) go together in one append message, sent before anything else the widget sends (a
trait, a progress message), so the front end sees everything in order. The ``transcript`` trait
is never re-sent when an event is added (``_should_send_property``); the front end adds the
events to its copy of the trait, so a second view and a reloaded page still show the whole
conversation. A view that finds a gap (a message missed while the front end loaded) asks for
the trait once ('sync').

Stored once: the transcript is not part of the widget's state as a whole (``get_state()``, what
opening the comm and a reloaded page's request carry): a front end asks for it ('sync', which
live.js sends as soon as the model exists), and it is sent only to a front end that asked. So
the widget state a headless run leaves in the notebook (nbclient, papermill) holds none of the
conversation, and JupyterLab saves none of it either (js/src/unsaved.js): the static copy beside
the widget (``_static.py``, an HTML output) is the conversation's one copy in the notebook,
images included, readable without a kernel.

    event ──▶ transcript.append (in place) ──▶ outbox ──▶ one append message per loop turn
    a view's 'sync' ──▶ the whole trait, to that front end (and, from then on, a chart drawn
                   late replaces its entry by the trait)
    either way, a drawn chart travels without its ``copy`` (``for_front_end``: the append
    message, the trait in ``get_state``); the kernel's transcript keeps it for the static copy
    a say ends ──▶ outbox sent; the static copy updated now

``ChatWidget`` mixes ``AppendTraffic`` in: it hooks the widget's own sending (``_send``,
``_should_send_property``, ``get_state``) and its traits' validation and observation, which
only the widget class can do.
"""

from __future__ import annotations

import asyncio
from typing import Any

import traitlets
from traitlets.utils.bunch import Bunch

from ._serialise import json_safe
from ._vegalite import for_front_end


def running_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop running in this thread, or None."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


class Outbox:
    """The events added since the last append message (``start``: the first one's index);
    ``due`` while a send is scheduled; ``viewed`` once a front end said 'sync'.

        >>> outbox = Outbox()
        >>> outbox.add(3, [{"type": "sent"}]); outbox.add(4, [{"type": "reply"}])
        >>> outbox.take()
        (3, [{'type': 'sent'}, {'type': 'reply'}])
    """

    def __init__(self) -> None:
        self.start = 0
        self.events: list[dict[str, Any]] = []
        self.due = False
        self.viewed = False

    def add(self, start: int, events: list[dict[str, Any]]) -> None:
        """Queue ``events``, the first of which is the transcript's entry ``start``."""
        if not self.events:
            self.start = start
        self.events.extend(events)

    def take(self) -> tuple[int, list[dict[str, Any]]]:
        """The queued events (and the first one's index); the outbox is empty after."""
        events, self.events = self.events, []
        return self.start, events


class AppendTraffic(traitlets.HasTraits):
    """The transcript's traffic, as a part of ``ChatWidget``: ``_extend`` adds events in place
    and sends them in one append message per turn of the loop. Uses the widget's
    ``transcript``, ``running``, ``send``, ``send_state``, ``_loop``, ``_outbox``, ``_static``
    and ``_changed``."""

    _appending = False  # transcript grows by an append message, not by its trait

    def _extend(self, events: list[dict[str, Any]]) -> None:
        """Add ``events`` to the transcript, in place: O(1) each however long it is. They
        travel to the front end once, with the other events of this turn of the loop, in one
        append message (the trait itself is not re-sent: see the header)."""
        added = [json_safe(event) for event in events]
        if not added:
            return
        transcript = self.transcript
        self._outbox.add(len(transcript), added)
        transcript.extend(added)
        loop = running_loop()
        if loop is None or (self._loop is not None and loop is not self._loop):
            self._flush_appends()  # no loop to wait for (or another thread's): sent now
        elif not self._outbox.due:
            self._outbox.due = True
            loop.call_soon(self._flush_appends)
        self._static.changed()
        self._changed()

    def _flush_appends(self) -> None:
        """Send the events waiting in the outbox, in one append message, and tell the code
        that watches ``transcript`` (once per message, not per event)."""
        self._outbox.due = False
        start, events = self._outbox.take()
        if not events:
            return
        self.send({"type": "append", "start": start,
                   "events": [for_front_end(event) for event in events]})
        transcript = self.transcript
        self._appending = True  # observers are told; the trait is not re-sent
        try:
            self.notify_change(Bunch(name="transcript", old=transcript, new=transcript,
                                     owner=self, type="change"))
        finally:
            self._appending = False

    def _send(self, msg: dict[str, Any], buffers: Any = None) -> None:
        # every message to the front end (a trait, a progress, a pong …) goes after the events
        # added before it: the outbox is sent first
        outbox = getattr(self, "_outbox", None)
        if outbox is not None and outbox.events:
            self._flush_appends()
        super()._send(msg, buffers=buffers)  # type: ignore[misc]

    @traitlets.validate("transcript")
    def _own_transcript(self, proposal: Any) -> list[Any]:
        # a list given from code is copied once: events are appended to the widget's own list
        return list(proposal["value"])

    @traitlets.observe("running")
    def _say_ended(self, change: Any) -> None:
        """A say is over: everything it added is sent, and the static copy shows it now (not a
        second later: a headless run may end first)."""
        if change["new"] or getattr(self, "_outbox", None) is None:
            return
        self._flush_appends()
        self._static.flush()

    def get_state(self, key: Any = None, drop_defaults: bool = False) -> dict[str, Any]:
        # the state as a whole (the comm's opening, a reloaded page's request) leaves the
        # transcript out: a front end asks for it ('sync'); only a trait named is sent with it
        # (a chart's ``copy`` stays in the kernel: the trait is sent without it)
        if key is None:
            key = [name for name in self.keys if name != "transcript"]  # type: ignore[attr-defined]
        state: dict[str, Any] = super().get_state(  # type: ignore[misc]
            key, drop_defaults=drop_defaults)
        if isinstance(state.get("transcript"), list):
            state["transcript"] = [for_front_end(event) for event in state["transcript"]]
        return state

    def _should_send_property(self, key: str, value: Any) -> bool:
        if key == "transcript" and (getattr(self, "_appending", False)
                                    or not getattr(self, "_outbox", Outbox()).viewed):
            return False  # the append message carries it; no front end asked for it
        return bool(super()._should_send_property(key, value))  # type: ignore[misc]
