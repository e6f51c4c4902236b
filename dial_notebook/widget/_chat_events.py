"""The runtime's events, as the chat widget shows them.

The widget is the conversation's event sink (``on_event``, and ``on_signal`` for what is not
kept: progress, a run starting). Each event is copied into the widget's transcript — the
runtime's own stays as it is — with what the widget adds to it:

    runtime event ──▶ transcript (+ thinking while the agent is called), sent once as an
                      {type: 'append', start, events} message (_chat_traffic.py)
    streamed reply  ──▶ {type: 'progress', turn, at, text | prose, writing} messages: the
                      prose so far, readable (the runtime strips the markup), and what the
                      agent is writing ("proposing: add-note"); never kept (_chat_progress.py)
    running         ──▶ {type: 'run-started', id, action, stoppable} to the front end (its
                      card says Running… until its outcome; said again to a page that
                      comes back and asks 'sync', until then); the session is saved now
    suggestion      ──▶ its action's JSON Schema learnt (the card's edit form)
    a chart (an inform's, an outcome's result's) ──▶ drawn as a PNG (_vegalite.py): now, or
                      "Drawing the chart…" and put in place once drawn off the loop; an
                      outcome's chart that ends undrawn is owed to the agent
    outcome, undo-failed ──▶ what Undo can take back, and the code so far
    reply           ──▶ the tokens the agent reported (``usage``)

``ChatWidget`` mixes ``RuntimeEvents`` in.
"""

from __future__ import annotations

from typing import Any

import traitlets

from ._chat_progress import action_stoppable, run_started
from ._chat_traffic import running_loop
from ._serialise import json_safe
from ._vegalite import drawing_later, with_chart  # a Vega-Lite chart, drawn as a PNG

#: Runs going that a page coming back is told of (the latest; a run past them still ends).
RUNS_KEPT = 64


class RuntimeEvents(traitlets.HasTraits):
    """The event sink of ``ChatWidget``. Uses the widget's ``transcript``, ``thinking``,
    ``usage`` and ``schemas`` traits, its ``agent``, ``domain``, ``_conversation``,
    ``_stream``, ``_static``, ``_unsent`` and its methods (``_append``, ``_changed``,
    ``_refresh_review``); keeps ``_charts_due``, the charts drawn late not yet put in, and
    ``_runs_going``, the run-started messages of the runs without an outcome yet (a page
    that asks ``sync`` is told them again: ``runs_going``)."""

    def runs_going(self) -> list[dict[str, Any]]:
        """The run-started messages of the runs going now, oldest first."""
        return list(self._runs_going.values())

    def _on_event(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "progress":
            self._progress(event)
            return
        if kind == "running":  # a run started: its card says so; the session is saved now
            self._changed(urgent=True)
            started = run_started(event, action_stoppable(self.domain, str(event.get("action"))))
            if started is not None:
                self._runs_going[started["id"]] = started  # said again to a page come back
                while len(self._runs_going) > RUNS_KEPT:
                    self._runs_going.pop(next(iter(self._runs_going)))
                self.send(started)
            return
        if kind == "outcome":  # a step's ends its block's too: the block says the rest
            self._runs_going.pop(str(event.get("id")), None)
            if event.get("block") is not None:
                self._runs_going.pop(str(event.get("block")), None)
        if kind == "sent":
            self.thinking = True
        elif kind in ("reply", "no-reply"):
            self._stream.reset()
            if kind == "reply" or event.get("turn") != 1:
                self._unsent = ""
        if kind == "suggestion":
            self._learn_schema(str(event.get("action") or ""))
        self._append(self._charted(event))  # the widget's copy; the runtime's stays as it is
        if kind in ("outcome", "undo-failed"):
            self._refresh_review()
        if kind in ("reply", "no-reply"):
            # after the reply itself, so the front end swaps the streamed bubble for it at once
            self.thinking = False
            if kind == "reply":
                self._learn_usage()

    def _progress(self, event: dict[str, Any]) -> None:
        """A streamed reply so far, to the front end: what changed since the prose sent,
        within the reply's budget (``StreamedReply``); nothing when nothing visible changed."""
        message = self._stream.message(event)
        if message is not None:
            self.send(message)

    def _learn_usage(self) -> None:
        usage = getattr(self.agent, "usage", None)
        if not isinstance(usage, dict):
            return
        turns = usage.get("turns")
        summary = {"turns": len(turns) if isinstance(turns, list) else 0,
                   **{key: usage[key] for key in ("input", "output", "total")
                      if isinstance(usage.get(key), int)}}
        if summary.get("total") and summary != self.usage:
            self.usage = summary

    def _learn_schema(self, action: str) -> None:
        schema_of = getattr(self.domain, "schema", None)
        if not callable(schema_of) or not action or action in self.schemas:
            return
        try:
            schema = schema_of(action)
        except Exception:
            return  # no form; the raw JSON view still edits the payload
        if isinstance(schema, dict):
            self.schemas = {**self.schemas, action: json_safe(schema)}

    def _charted(self, event: dict[str, Any], index: int | None = None, *,
                 now: bool = True) -> dict[str, Any]:
        """``event`` with its chart (_vegalite.py) for place ``index`` of the transcript: drawn
        now when the renderer is free, else "Drawing the chart…" and, once drawn off the
        loop, put in place (the trait is sent whole: once per second at most while charts are
        drawn late — a cold renderer's first chart, a saved session's charts)."""
        at = len(self.transcript) if index is None else index
        # a live outcome's undrawn chart is owed to the agent (a restored one's is history)
        tell = getattr(self._conversation, "chart_not_drawn", None) if index is None else None
        told = (lambda why: tell(event, why)) if callable(tell) else None
        loop = running_loop()
        if loop is None:
            return with_chart(event, now=now, not_drawn=told)

        def drawn(copy: dict[str, Any]) -> None:  # on the loop; charts drawn one after the
            due: dict[int, Any] = getattr(self, "_charts_due", {})  # other go in together
            if not due:  # the first: put in at once, or within a second if more are coming
                loop.call_later(0 if not drawing_later() else 1.0, put)
            due[at] = (json_safe(pending), json_safe(copy))
            self._charts_due = due

        def put() -> None:
            due, self._charts_due = getattr(self, "_charts_due", {}), {}
            entries = list(self.transcript)
            for n, (was, copy) in due.items():
                if n < len(entries) and entries[n] == was:  # still the one drawn for
                    entries[n] = copy
            if entries != self.transcript:
                self.transcript = entries
                self._static.changed()
                self._changed()

        pending = with_chart(event, later=drawn, now=now, not_drawn=told)
        return pending
