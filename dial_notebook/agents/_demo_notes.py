"""The demo brain for the notes domain: add, remove, list, polls — and its reactions.

    "add a note: buy milk"      ─▶ suggest add-note                 (asks for the text if none)
    "remove note 2"             ─▶ suggest remove-note              (asks which, when unclear)
    "remove the note about milk"
    "list notes"                ─▶ suggest list-notes (read-only: runs at once)
    "poll: Lunch? pizza, sushi" ─▶ suggest open-poll (hand-off)

    done      "Added 'buy milk'. You now have 3 notes."  (says so when the person edited it)
    invalid   a text too long is shortened and proposed again; a note that does not exist
              becomes a question listing the notes
    failed    says why and offers to list the notes
    dismissed "OK, I left that out."  (and what the person said: their reason, comments)
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from ..dial import Inform
from ._demo_base import Arg, Brain, Elements, Then, ack, heard
from ._reachable import undo_hint

_ADD = re.compile(
    r"^(?:please\s+)?(?:(?:add|create|make|write|new)\s+(?:a\s+|another\s+|one\s+more\s+)?"
    r"note|note|remember(?:\s+to)?)\b\s*(?:[:,\-–—]|saying|that)?\s*(?P<text>.*)$",
    re.IGNORECASE | re.DOTALL,
)
_REMOVE = re.compile(r"\b(?:remove|delete|drop|erase|forget)\b", re.IGNORECASE)
_LIST = re.compile(r"\b(?:list|show|what|which|read)\b.*\bnotes?\b|^notes\??$", re.IGNORECASE)
_POLL = re.compile(r"^(?:(?:open|start|create|make|run)\s+(?:a\s+)?)?poll\b\s*[:\-–—]?\s*"
                   r"(?P<rest>.*)$", re.IGNORECASE | re.DOTALL)
_HELLO = re.compile(r"^(?:hi|hello|hey|help|what can you do)\b", re.IGNORECASE)
_MAX_TEXT = 1000


class NotesBrain(Brain):
    """Understands plain requests about notes (see the module's table)."""

    prefix = "note"
    kind = "notes"
    continuations: ClassVar[dict[str, tuple[Arg, ...]]] = {"_add": (), "_remove_chosen": ()}
    examples = (
        "add a note: buy milk",
        "remove note 2 (or: remove the note about milk)",
        "list notes",
        "poll: Lunch? pizza, sushi, salad",
    )

    @property
    def notes(self) -> list[dict[str, Any]]:
        return list(getattr(self.domain, "notes", []))

    def _how_many(self) -> str:
        count = len(self.notes)
        return f"{count} note" + ("" if count == 1 else "s")

    # -- requests -------------------------------------------------------------------------

    def respond(self, words: str) -> Elements:
        text = words.strip()
        if not text:
            return []
        if _HELLO.match(text):
            return self.help(f"Hello! You have {self._how_many()}.")
        poll = _POLL.match(text)
        if poll:
            return self._poll(poll.group("rest"))
        if _REMOVE.search(text) and re.search(r"\bnotes?\b|\d", text, re.IGNORECASE):
            return self._remove(text)
        added = _ADD.match(text)
        if added:
            return self._add(added.group("text").strip().strip("\"'“”‘’"))
        if _LIST.search(text):
            return [self.suggest("list-notes", {}, "Let me list your notes.")]
        return self.help("I didn't catch that.")

    def _add(self, text: str) -> Elements:
        if not text:
            return [self.ask_text("What should the note say?", Then("_add"))]
        return [self.suggest("add-note", {"text": text}, f"Add a note saying '{text}'?")]

    def _remove(self, words: str) -> Elements:
        notes = self.notes
        if not notes:
            return [Inform(text="There are no notes to remove.")]
        number = re.search(r"\b(?:note\s*#?\s*|number\s*|#)?(\d+)\b", words, re.IGNORECASE)
        if number:
            return self._propose_removal(int(number.group(1)))
        about = re.search(r"\b(?:about|saying|with|containing|called)\s+(.+)$", words,
                          re.IGNORECASE)
        if about:
            wanted = about.group(1).strip().strip("\"'“”‘’.?!").lower()
            matches = [n for n in notes if wanted in n["text"].lower()]
            if len(matches) == 1:
                return self._propose_removal(matches[0]["id"])
            if matches:
                return [self._which(f"{len(matches)} notes mention '{wanted}'. Which one "
                                    "should I remove?", matches)]
            return [self._which(f"No note mentions '{wanted}'. Which one should I remove?",
                                notes)]
        if re.search(r"\blast\b", words, re.IGNORECASE):
            return self._propose_removal(notes[-1]["id"])
        if re.search(r"\bfirst\b", words, re.IGNORECASE):
            return self._propose_removal(notes[0]["id"])
        if len(notes) == 1:
            return self._propose_removal(notes[0]["id"])
        return [self._which(f"You have {len(notes)} notes. Which one should I remove?", notes)]

    def _which(self, text: str, notes: list[dict[str, Any]]) -> Any:
        options = [(str(n["id"]), f"{n['id']}. {n['text']}") for n in notes]
        return self.ask(text, options, Then("_remove_chosen"))

    def _remove_chosen(self, value: str) -> Elements:
        """The answer to ``_which``: the id of the note to remove."""
        if not value.isdecimal():  # only a restored question could offer another value
            return self.respond(value)
        return self._propose_removal(int(value))

    def _propose_removal(self, note_id: int) -> Elements:
        note = next((n for n in self.notes if n["id"] == note_id), None)
        what = f"'{note['text']}'" if note else f"note {note_id}"
        return [self.suggest("remove-note", {"id": note_id}, f"Remove {what}?")]

    def _poll(self, rest: str) -> Elements:
        question, _, choices = rest.partition("?")
        if not choices:
            question, _, choices = rest.partition(":")
        options = [c.strip().strip(".") for c in re.split(r",|/|\bor\b", choices) if c.strip()]
        options = list(dict.fromkeys(o for o in options if o))
        if not question.strip() or len(options) < 2:
            return [Inform(text="For a poll, write the question and at least two options, "
                                "e.g. 'poll: Lunch? pizza, sushi, salad'.")]
        question = question.strip() + "?"
        return [self.suggest("open-poll", {"question": question, "options": options[:10]},
                             f"Open a poll: {question}")]

    # -- reactions ------------------------------------------------------------------------

    def on_done(self, outcome: dict[str, Any]) -> Elements:
        action, result = outcome.get("action"), outcome.get("result") or {}
        if action == "add-note":
            edited = " your edited version:" if outcome.get("edited") else ""
            return [ack(outcome, f"Added{edited} '{result.get('text', '')}'. "
                                 f"You now have {self._how_many()}.{heard(outcome)}")]
        if action == "remove-note":
            return [ack(outcome, f"Removed '{result.get('text', '')}'. {self._how_many()} left. "
                                 f"(Undo on its card, or {undo_hint(self.domain)}, brings "
                                 "it back.)")]
        if action == "list-notes":
            notes = result.get("notes") or []
            if not notes:
                return [ack(outcome, "You have no notes yet. Try: add a note: buy milk")]
            count = len(notes)  # the card shows them: not repeated here
            return [ack(outcome, f"You have {count} note{'' if count == 1 else 's'}, listed "
                                 "above.")]
        return [ack(outcome, "Done.")]

    def on_invalid(self, outcome: dict[str, Any]) -> Elements:
        action, payload = self.proposed.get(str(outcome.get("id")), (None, {}))
        if action == "add-note" and isinstance(payload.get("text"), str):
            text = payload["text"].strip()
            if len(text) > _MAX_TEXT:
                short = text[:_MAX_TEXT - 1].rstrip() + "…"
                return [Inform(text=f"That note was too long (at most {_MAX_TEXT} characters): "
                                    "here it is shortened."),
                        self.suggest("add-note", {"text": short}, "Add the shortened note?")]
            if not text:
                return [self.ask_text("That note was empty. What should it say?",
                                      Then("_add"))]
        if action == "remove-note" and outcome.get("code") == "not-found":
            # the refusal may be of the person's edit, not of what was proposed: say what the
            # domain said, never a guess from the proposal
            notes = self.notes
            said = str(outcome.get("hint") or "that note does not exist").rstrip(".")
            if not notes:
                return [Inform(text=f"{said[:1].upper()}{said[1:]}, and there are no notes.")]
            return [self._which(f"{said[:1].upper()}{said[1:]}. Which one did you mean?", notes)]
        if action == "remove-note":  # refused for another reason (an edit out of range …)
            return [Inform(text=f"That removal was refused: {outcome.get('hint')}. Nothing was "
                                "removed; say 'remove note N' to try again.")]
        return super().on_invalid(outcome)

    def on_failed(self, outcome: dict[str, Any]) -> Elements:
        if outcome.get("action") == "remove-note":
            error = outcome.get("error") or "the note could not be removed"
            return [ack(outcome, f"That didn't work: {error}. Want me to list the notes? "
                                 "Say 'list notes'.")]
        return super().on_failed(outcome)

    def on_handed_off(self, outcome: dict[str, Any]) -> Elements:
        return [ack(outcome, "The poll is open in its own panel.")]
