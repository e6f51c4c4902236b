"""Render hints for informs: the ``render`` attribute and ``<dial-payload>`` of each
``<dial-inform>`` / ``<dial-acknowledge>``, read from the reply the runtime reports.

The runtime's ``inform`` event carries ``text`` and ``act``; the widget also needs the hint and
the payload to show a table, code, cards or an image. They are taken from the ``reply`` event's
text, matched in order with the informs that follow it. An inform with a payload but no text
(which the runtime does not emit) is shown too, just before the next matched inform or when the
turn ends. When the runtime's events carry ``render`` themselves, they are left as they are.

    >>> hints = RenderHints()
    >>> hints.read('<dial><dial-inform render="code">x = 1</dial-inform></dial>')
    >>> hints.enrich({"type": "inform", "text": "x = 1", "act": "inform"})
    [{'type': 'inform', 'text': 'x = 1', 'act': 'inform', 'render': 'code'}]
"""

from __future__ import annotations

from typing import Any

from ..dial import parse

_KINDS = ("inform", "acknowledge")


class RenderHints:
    """The informs of the latest reply, waiting to be matched with their events."""

    def __init__(self) -> None:
        # (act, text, render, payload or None), in document order
        self._waiting: list[tuple[str, str, str, Any]] = []

    def read(self, reply_text: str) -> None:
        """Remember the informs of a reply (replacing what was left of the previous one)."""
        self._waiting = []
        try:
            envelope = parse(reply_text)
        except Exception:
            return  # the runtime reports what it could read; hints are a nicety
        if envelope is None:
            return
        for env in envelope.all():
            for element in env.elements:
                if element.kind not in _KINDS:
                    continue
                payload = getattr(element, "payload", None)
                value = None
                if payload is not None and payload.raw.strip():
                    value = payload.value if payload.error is None else payload.raw
                render = str(getattr(element, "render", "prose") or "prose")
                self._waiting.append((element.kind, element.text, render, value))

    def enrich(self, event: dict[str, Any]) -> list[dict[str, Any]]:
        """The events to show for ``event``: payload-only informs before it, then itself with
        its ``render`` (when not prose) and ``payload``."""
        if "render" in event or "act" not in event:
            return [event]
        for index, (act, text, render, payload) in enumerate(self._waiting):
            if act == event["act"] and text == event.get("text"):
                before = self._payload_only(self._waiting[:index])
                # informs with text before this one stay: with observe/yield an inform can be
                # shown after one that follows it in the reply
                kept = [entry for entry in self._waiting[:index] if entry[1]]
                self._waiting = kept + self._waiting[index + 1:]
                shown = dict(event)
                if render != "prose":
                    shown["render"] = render
                if payload is not None:
                    shown["payload"] = payload
                return [*before, shown]
        return [event]

    def flush(self) -> list[dict[str, Any]]:
        """The payload-only informs not shown yet (the turn is over)."""
        shown = self._payload_only(self._waiting)
        self._waiting = []
        return shown

    @staticmethod
    def _payload_only(entries: list[tuple[str, str, str, Any]]) -> list[dict[str, Any]]:
        return [
            {"type": "inform", "text": "", "act": act, "render": render, "payload": payload}
            for act, text, render, payload in entries
            if not text and payload is not None
        ]
