"""The runtime's values: what the person is shown (a suggestion, a question) and what an actor
receives (a delegation) — plain frozen dataclasses, each with ``to_dict`` for events.

    Suggestion   a proposal as the person sees it (``human.decide`` gets one)
    PendingAsk   a question of the agent put to the person (``human.answer`` gets one);
                 not the DIAL element ``dial.Ask``, which it is made from
    Delegation   a hand-off as an actor receives it (``<dial-delegate>``)

They live apart from the handlers that make them (``_suggestion``, ``_ask``, ``_delegate``),
so that state and handlers import them without importing each other.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Suggestion:
    """A proposal as the person sees it.

    ``text`` is the agent's own wording, ``preview`` the domain's, ``issue`` why the last
    edit was refused: a dict with ``code`` / ``field`` / ``hint`` (those the domain gave) and
    ``errors`` when the domain itemised them. ``dry_run`` is what the domain says it would do
    (``{'ok': True, 'summary', 'effect', …}`` or ``{'ok': False, 'error'}``), the same as on
    its 'suggestion' event, when the domain has a dry run for it. ``version`` is the domain's
    version of what the payload works on when it was worked out (_stale.py: kept for the
    check before it runs and in a snapshot, never on the event); ``stale`` why it was worked
    out again (``{'why', 'changed'?}``), on the card shown again.

        >>> Suggestion(id="sg-1", action="add-note", payload={"text": "milk"}).to_dict()["id"]
        'sg-1'
    """

    id: str
    action: str
    text: str = ""
    payload: Any = None
    preview: str = ""
    destructive: bool = False
    issue: dict[str, Any] | None = None
    #: After a refused edit: how many more refusals end the proposal ``invalid`` (1: the next).
    edits_left: int | None = None
    #: What it would do, as the domain's dry run says (None: no dry run; _review.py).
    dry_run: dict[str, Any] | None = None
    #: The domain's version of what it works on, when worked out (None: not tracked).
    version: Any = None
    #: Why it was worked out again: what it works on changed since it was proposed.
    stale: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        """The suggestion as a JSON-able dict (``issue`` and ``edits_left`` only after a
        refused edit, ``dry_run``, ``version`` and ``stale`` when there are)."""
        data = {
            "id": self.id, "action": self.action, "text": self.text, "payload": self.payload,
            "preview": self.preview, "destructive": self.destructive,
        }
        if self.issue is not None:
            data["issue"] = dict(self.issue)
        if self.edits_left is not None:
            data["edits_left"] = self.edits_left
        if self.dry_run is not None:
            data["dry_run"] = dict(self.dry_run)
        if self.version is not None:
            data["version"] = self.version
        if isinstance(self.stale, dict):
            data["stale"] = dict(self.stale)
        return data


@dataclass(frozen=True)
class PendingAsk:
    """A question of the agent (a ``<dial-ask>``) put to the person: what ``human.answer``
    gets. Not the DIAL element (``dial.Ask``): this is the runtime's question, with its id.

    ``id`` is the element's id, or ``ask-N`` when it had none; ``options`` are dicts with
    ``value``, ``label``, ``default`` and ``disabled``.

        >>> PendingAsk(id="zone", text="Which zone?").to_dict()["response_type"]
        'text'
    """

    id: str
    text: str
    response_type: str = "text"
    options: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """The ask as a JSON-able dict (the ``ask`` event's fields)."""
        return {
            "id": self.id,
            "text": self.text,
            "response_type": self.response_type,
            "options": [dict(o) for o in self.options],
        }


@dataclass(frozen=True)
class Delegation:
    """A hand-off as an actor receives it: ``context`` is the ``<dial-context>`` payload's
    value (or its text), None when there is none."""

    id: str
    to: str
    intent: str | None = None
    text: str = ""
    context: Any = None
    resume: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "to": self.to, "intent": self.intent, "text": self.text,
                "context": self.context, "resume": self.resume}

    def message(self) -> str:
        """The hand-off as a message to an agent: text, intent, context JSON (those present)."""
        parts = [self.text] if self.text else []
        if self.intent:
            parts.append(f"Intent: {self.intent}")
        if self.context is not None:
            parts.append(json.dumps(self.context, ensure_ascii=False))
        return "\n\n".join(parts)
