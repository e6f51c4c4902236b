"""The notes domain: the runtime spec's example vocabulary, kept in memory.

| action      | kind                 | payload                              | result               |
|-------------|----------------------|--------------------------------------|----------------------|
| add-note    | mutates, undoable    | ``{"text"}``                         | ``{"id", "text"}``   |
| remove-note | destructive, undoable| ``{"id"}``                           | ``{"id", "text"}``   |
| list-notes  | read-only            | ``{}``                               | ``{"notes": [...]}`` |
| open-poll   | hand-off             | ``{"question", "options": [2..10]}`` | ``{"poll": {...}}``  |

``context()`` is ``<context notes="N"/>``. Undo puts the notes back exactly as they were (an
added note goes, a removed one returns to its place with its id); ids are never reused, and
``undoable`` says when a run can no longer be taken back (the note was removed since).

    >>> notes = NotesDomain(["buy milk"])
    >>> notes.run("add-note", {"text": "call Sam"})
    {'id': 2, 'text': 'call Sam'}
    >>> notes.context()
    '<context notes="2"/>'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ._errors import ActionError
from ._schema_domain import SchemaDomain

_TEXT = {"type": "string", "minLength": 1, "maxLength": 1000}


class NotesDomain(SchemaDomain):
    """Notes in memory: add, remove (destructive), list (read-only), open a poll (hand-off).

    Args:
        notes: the texts of the notes to start with.

    ``notes`` holds ``{"id", "text"}`` dicts in order; ``polls`` the polls handed off.
    """

    def __init__(self, notes: Iterable[str] = ()) -> None:
        super().__init__(
            "notes", context=self._summary, description="A list of short notes, kept in memory."
        )
        self.notes: list[dict[str, Any]] = []
        self.polls: list[dict[str, Any]] = []
        self._next_id = 1
        for text in notes:
            self._add(text)

        @self.action(
            schema=_object({"text": _TEXT}, required=["text"]),
            preview="Add the note '{text}'",
            undo=lambda payload, result: self._take_back_add(result),
            undoable=lambda payload, result: self._can_take_back_add(result),
        )
        def add_note(payload: dict[str, Any]) -> dict[str, Any]:
            """Add a note with the given text."""
            return self._add(payload["text"])

        @self.action(
            schema=_object({"id": {"type": "integer", "minimum": 1}}, required=["id"]),
            destructive=True,
            preview=lambda payload: f"Remove the note '{self._find(payload['id'])['text']}'",
            undo=lambda payload, result: self._restore(result),
            undoable=lambda payload, result: self._can_restore(result),
            check=lambda payload: self._check_exists(payload["id"]),
        )
        def remove_note(payload: dict[str, Any]) -> dict[str, Any]:
            """Remove the note with the given id (ids come from list-notes)."""
            return self._remove(payload["id"])

        @self.action(schema=_object({}), mutates=False, preview="List the notes")
        def list_notes(payload: dict[str, Any]) -> dict[str, Any]:
            """List every note with its id."""
            return {"notes": [dict(note) for note in self.notes]}

        options = {
            "type": "array", "items": {"type": "string", "minLength": 1, "maxLength": 200},
            "minItems": 2, "maxItems": 10, "uniqueItems": True,
        }
        @self.action(
            schema=_object(
                {"question": _TEXT, "options": options}, required=["question", "options"]
            ),
            mutates=False, handoff=True, preview="Open a poll: '{question}' ({options})",
        )
        def open_poll(payload: dict[str, Any]) -> dict[str, Any]:
            """Open a poll for the person to answer in its own panel."""
            poll = {"question": payload["question"], "options": list(payload["options"])}
            self.polls.append(poll)
            return {"poll": poll}

    def _summary(self) -> str:
        return f'<context notes="{len(self.notes)}"/>'

    def _add(self, text: str) -> dict[str, Any]:
        note = {"id": self._next_id, "text": text}
        self._next_id += 1
        self.notes.append(note)
        return dict(note)

    def _find(self, note_id: int) -> dict[str, Any]:
        for note in self.notes:
            if note["id"] == note_id:
                return note
        ids = ", ".join(str(note["id"]) for note in self.notes) or "none"
        raise ActionError(
            f"there is no note {note_id}", code="not-found", field="id",
            hint=f"there is no note {note_id} (the notes' ids: {ids})",
        )

    def _check_exists(self, note_id: int) -> None:
        self._find(note_id)

    def _remove(self, note_id: int) -> dict[str, Any]:
        note = self._find(note_id)
        self.notes.remove(note)
        return dict(note)

    def _take_back_add(self, added: dict[str, Any]) -> None:
        reason = self._can_take_back_add(added)
        if reason is not True:
            raise ActionError(f"the note cannot be taken back: {reason}", code="not-undoable")
        self._remove(added["id"])

    def _can_take_back_add(self, added: dict[str, Any]) -> bool | str:
        note = next((n for n in self.notes if n["id"] == added.get("id")), None)
        if note is None:
            return f"note {added.get('id')} was removed since: undo that first"
        if note["text"] != added.get("text"):
            return f"note {added.get('id')} holds another text now"
        return True

    def _restore(self, note: dict[str, Any]) -> None:
        reason = self._can_restore(note)
        if reason is not True:
            raise ActionError(f"the note cannot be put back: {reason}", code="not-undoable")
        at = sum(1 for other in self.notes if other["id"] < note["id"])  # the notes keep id order
        self.notes.insert(at, {"id": note["id"], "text": note["text"]})

    def _can_restore(self, note: dict[str, Any]) -> bool | str:
        if not isinstance(note.get("id"), int) or not isinstance(note.get("text"), str):
            return "it cannot be undone"
        if any(other["id"] == note["id"] for other in self.notes):
            return f"note {note['id']} is there already"
        return True


def _object(properties: dict[str, Any], *, required: Iterable[str] = ()) -> dict[str, Any]:
    return {
        "type": "object", "properties": properties, "required": list(required),
        "additionalProperties": False,
    }
