"""The notes domain: the runtime spec's example vocabulary, in memory."""

from __future__ import annotations

import pytest

from dial_notebook.domains import ActionError, NotesDomain


def test_actions_are_those_of_the_runtime_spec_example():
    notes = NotesDomain()
    kinds = {name: (s.mutates, s.destructive, s.handoff) for name, s in notes.actions.items()}
    assert kinds == {
        "add-note": (True, False, False),
        "remove-note": (True, True, False),
        "list-notes": (False, False, False),
        "open-poll": (False, False, True),
    }


def test_add_note_adds_and_context_counts_the_notes():
    notes = NotesDomain()
    assert notes.context() == '<context notes="0"/>'
    assert notes.preview("add-note", {"text": "buy milk"}) == "Add the note 'buy milk'"
    assert notes.run("add-note", {"text": "buy milk"}) == {"id": 1, "text": "buy milk"}
    assert notes.context() == '<context notes="1"/>'


def test_add_note_refuses_an_empty_text_and_unknown_fields():
    notes = NotesDomain()
    assert notes.validate("add-note", {"text": ""})["hint"] == "text must not be empty"
    assert notes.validate("add-note", {"txt": "x"})["hint"] == (
        "text is required; unexpected field 'txt' (did you mean 'text'?)"
    )


def test_remove_note_previews_the_notes_text_and_refuses_a_missing_note():
    notes = NotesDomain(["buy milk", "call Sam"])
    assert notes.preview("remove-note", {"id": 2}) == "Remove the note 'call Sam'"
    verdict = notes.validate("remove-note", {"id": 9})
    assert (verdict["code"], verdict["field"], verdict["hint"]) == (
        "not-found",
        "id",
        "there is no note 9 (the notes' ids: 1, 2)",
    )
    assert notes.run("remove-note", {"id": 1}) == {"id": 1, "text": "buy milk"}
    assert [n["text"] for n in notes.notes] == ["call Sam"]


def test_list_notes_is_read_only_and_returns_copies():
    notes = NotesDomain(["a"])
    listed = notes.run("list-notes", {})
    listed["notes"][0]["text"] = "changed"
    assert notes.notes == [{"id": 1, "text": "a"}]
    assert notes.history == []


def test_open_poll_hands_the_poll_off():
    notes = NotesDomain()
    payload = {"question": "Lunch?", "options": ["pizza", "salad"]}
    assert notes.preview("open-poll", payload) == "Open a poll: 'Lunch?' (pizza, salad)"
    assert notes.run("open-poll", payload) == {"poll": payload}
    assert notes.polls == [payload]
    assert notes.validate("open-poll", {"question": "?", "options": ["a", "a"]})["hint"] == (
        "options must not contain duplicates ('a' appears more than once)"
    )


def test_undo_takes_back_adds_and_removes_in_place():
    notes = NotesDomain(["a", "b", "c"])
    notes.run("remove-note", {"id": 2})
    notes.run("add-note", {"text": "d"})
    assert notes.undo_last().action == "add-note"
    assert notes.undo_last().action == "remove-note"
    assert notes.notes == [{"id": 1, "text": "a"}, {"id": 2, "text": "b"}, {"id": 3, "text": "c"}]
    assert notes.undo_last() is None


def test_removing_a_note_that_is_gone_fails_with_the_ids():
    notes = NotesDomain(["a"])
    notes.run("remove-note", {"id": 1})
    with pytest.raises(ActionError) as raised:
        notes.run("remove-note", {"id": 1})
    assert raised.value.code == "not-found"
    assert raised.value.hint == "there is no note 1 (the notes' ids: none)"
