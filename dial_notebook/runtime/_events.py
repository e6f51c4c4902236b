"""Events: every step of a conversation as a plain JSON-able dict, for surfaces and transcripts.

    type         fields
    sent         turn, message
    reply        turn, text
    inform       text, act ('inform' | 'acknowledge'; absent for plain text and prose), of
                 (an acknowledge's ``of``), render and payload (when not prose / present)
                 act 'skipped': an element whose observed event never fired — also element,
                 id, observe, reason; act 'addressed-elsewhere' (full_dial): an element for
                 someone else, not acted on — also addressed_to, element, id
    ask          id, text, response_type, options [{value, label, default, disabled}]
    suggestion   id, action, text, payload, preview, destructive, mutates (valid ones only);
                 an execute block (full_dial) is one too: action 'execute', kind 'execute',
                 payload {steps: [{id, env, label, command}]}, schema, confirmed
    outcome      id, action, status, preview, and result / error / code / field / hint / edited
                 (a step's also carries block and command; a delegation's to and resume)
    declare      id, key, value                         (full_dial: <dial-declare>)
    delegate     id, to, intent, text, context, resume, registered   (full_dial)
    phatic       signal, interval, id (those present)   (full_dial: <dial-phatic>)
    no-reply     turn, error
    turn-limit   turns
    undo-failed  id, error                              (Undo of a done action did not happen)

A suggestion event of a mutating action may carry ``dry_run``: what it would do, as the
domain says ({ok, summary, effect, code} or {ok: false, error}; _review.py). An outcome
``undone`` is a second, later outcome of a done suggestion (the person took it back).

and kinds the callback gets but the transcript does not keep (``TRANSIENT_TYPES``):

    progress     turn, prose, writing   a streamed reply so far, readable: the prose without
                                        markup, and what is being written ("proposing:
                                        add-note"); the 'reply' event that follows has it all
    running      id, action             a run has started (its outcome event follows when it
                                        ends): a surface that saves the conversation saves now

An event is recorded in the transcript before the callback sees it, so a callback that raises
loses nothing; the callback gets the same dict the transcript holds.
"""

from __future__ import annotations

import contextlib
import inspect
from collections.abc import Callable
from typing import Any

#: The events not kept in the transcript (the callback gets them).
TRANSIENT_TYPES = ("progress", "running")

EVENT_TYPES = (
    "sent", "reply", "inform", "ask", "suggestion", "outcome", "no-reply", "turn-limit",
    "declare", "delegate", "phatic", "undo-failed",
)

Event = dict[str, Any]
OnEvent = Callable[[Event], object]


class Events:
    """Records events in order and hands each to the ``on_event`` callback."""

    __slots__ = ("_expected", "_on_event", "transcript")

    def __init__(self, on_event: OnEvent | None) -> None:
        if on_event is not None:
            if not callable(on_event):
                raise TypeError(
                    f"Conversation: on_event must be a callable, not {type(on_event).__name__}"
                )
            if inspect.iscoroutinefunction(on_event):
                raise TypeError(
                    "Conversation: on_event must be a plain function (it is called for every "
                    "event, in order, while the turn runs); an async one would never be awaited"
                )
        self._on_event = on_event
        #: Every event so far, oldest first.
        self.transcript: list[Event] = []
        self._expected: Event | None = None

    def already_shown(self, event: Event | None) -> None:
        """The next event is left out when it equals ``event``: a restored conversation offers
        its pending card again, and the transcript already shows it."""
        self._expected = event

    def emit(self, event: Event) -> None:
        """Record ``event`` (a dict whose first key is ``type``) and pass it to the callback."""
        expected, self._expected = self._expected, None
        if expected is not None and event == expected:
            return
        self.transcript.append(event)
        if self._on_event is not None:
            self._on_event(event)

    def transient(self, event: Event) -> None:
        """Pass ``event`` to the callback without keeping it (a streamed reply's progress:
        the reply event that follows holds the text)."""
        if self._on_event is not None:
            self._on_event(event)

    def emit_quietly(self, event: Event) -> None:
        """``emit`` on a path that is already raising: a failing callback must not hide why."""
        with contextlib.suppress(Exception):  # the transcript has it; the first error wins
            self.emit(event)
