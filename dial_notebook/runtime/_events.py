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
``undone`` is a second, later outcome of a done suggestion (the person took it back). A second
'suggestion' event of the same id with ``stale`` ({why, changed?}) is that card worked out
again before it ran, because what it works on changed since it was proposed (_stale.py).

and signals, kinds the transcript does not keep (``TRANSIENT_TYPES``), for surfaces. They go
to ``on_signal`` when a conversation has one (the ChatWidget does, in both modes); without
one, to ``on_event`` with ``full_dial`` only: with ``full_dial=False`` (the reference)
``on_event`` gets exactly the runtime document's events — ``sent`` … ``turn-limit``, and
``undo-failed`` only when ``Conversation.undo``, which the reference has not, is called:

    progress     turn, prose, writing   a streamed reply so far, readable: the prose without
                                        markup, and what is being written ("proposing:
                                        add-note"); the 'reply' event that follows has it all
    progress     id, action, progress,  how far a run has come, as the run said
                 total, message         (dial_notebook.report_progress), paced: the latest wins
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

    __slots__ = ("_expected", "_on_event", "_on_signal", "transcript")

    def __init__(self, on_event: OnEvent | None, on_signal: OnEvent | None = None, *,
                 signals_to_on_event: bool = True) -> None:
        for name, callback in (("on_event", on_event), ("on_signal", on_signal)):
            _check_callback(name, callback)
        self._on_event = on_event
        #: Where signals (``TRANSIENT_TYPES``) go: ``on_signal``, else ``on_event`` when the
        #: conversation is not in reference mode, else nowhere.
        self._on_signal = on_signal if on_signal is not None else (
            on_event if signals_to_on_event else None)
        #: Every event so far, oldest first.
        self.transcript: list[Event] = []
        self._expected: list[Event] = []

    def already_shown(self, events: list[Event] | None) -> None:
        """Events equal to these (in order) are left out: a restored conversation takes up the
        item that was going where it stood, and the transcript already shows what that item
        had shown (its card, its question …). None: every event is recorded again."""
        self._expected = list(events or ())

    def emit(self, event: Event) -> None:
        """Record ``event`` (a dict whose first key is ``type``) and pass it to the callback."""
        if self._expected and event in self._expected:  # already shown (a restored item)
            del self._expected[:self._expected.index(event) + 1]
            return
        self.transcript.append(event)
        if self._on_event is not None:
            self._on_event(event)

    def transient(self, event: Event) -> None:
        """Pass the signal ``event`` on without keeping it (a streamed reply's progress: the
        reply event that follows holds the text), to ``on_signal`` (see the header)."""
        if self._on_signal is not None:
            self._on_signal(event)

    def emit_quietly(self, event: Event) -> None:
        """``emit`` on a path that is already raising: a failing callback must not hide why."""
        with contextlib.suppress(Exception):  # the transcript has it; the first error wins
            self.emit(event)


def _check_callback(name: str, callback: OnEvent | None) -> None:
    if callback is None:
        return
    if not callable(callback):
        raise TypeError(f"Conversation: {name} must be a callable, not {type(callback).__name__}")
    if inspect.iscoroutinefunction(callback):
        raise TypeError(
            f"Conversation: {name} must be a plain function (it is called for every event, in "
            "order, while the turn runs); an async one would never be awaited"
        )
