"""The contract between the runtime, the widget and the front end holds: a transcript with
every kind of event (tests/contract_transcript.py, made by a real ChatWidget and the runtime)
fits the types, covers every kind, and is the very file the front end's tests render."""

from __future__ import annotations

import json

from dial_notebook.runtime import EVENT_SHAPES, EVENT_TYPES
from dial_notebook.runtime._contract import shape_errors
from dial_notebook.widget._contract import WIDGET_ENTRIES, WIDGET_FIELDS

from ..contract_transcript import FIXTURE, transcript


def fits(value: object, shape: type) -> bool:
    keys = set(value) if isinstance(value, dict) else set()
    required = shape.__required_keys__
    return isinstance(value, dict) and required <= keys <= required | shape.__optional_keys__


def entry_errors(entry: dict) -> list[str]:
    shape = WIDGET_ENTRIES.get(entry.get("type"))
    if shape is None:  # a runtime event, with the fields the widget adds to its copy
        added = WIDGET_FIELDS.get(entry.get("type"), {})
        return (shape_errors({k: v for k, v in entry.items() if k not in added})
                + [f"{entry['type']}.{name} fits none of its shapes"
                   for name, shapes in added.items()
                   if name in entry and not any(fits(entry[name], s) for s in shapes)])
    required, allowed = shape.__required_keys__, shape.__required_keys__ | shape.__optional_keys__
    return ([f"{entry['type']}: missing {k}" for k in sorted(required - set(entry))]
            + [f"{entry['type']}: unknown key {k}" for k in sorted(set(entry) - allowed)])


def test_every_event_has_a_shape():
    assert set(EVENT_SHAPES) == set(EVENT_TYPES)


def test_the_committed_fixture_is_what_the_widget_makes_now():
    committed = json.loads(FIXTURE.read_text(encoding="utf-8"))
    assert committed == transcript(), "run: python tests/contract_transcript.py"


def test_every_entry_fits_its_type_and_every_kind_is_there():
    entries = json.loads(FIXTURE.read_text(encoding="utf-8"))
    assert [error for entry in entries for error in entry_errors(entry)] == []
    kinds = {entry["type"] for entry in entries}
    assert kinds == set(EVENT_TYPES) | set(WIDGET_ENTRIES)
    acts = {entry.get("act") for entry in entries if entry["type"] == "inform"}
    assert acts == {None, "inform", "acknowledge", "skipped", "addressed-elsewhere", "unread"}
    statuses = {entry["status"] for entry in entries if entry["type"] == "outcome"}
    assert statuses == {"done", "failed", "invalid", "dismissed", "superseded", "handed-off",
                        "skipped", "undone"}
    charts = [entry["chart"] for entry in entries if "chart" in entry]
    assert sorted("src" in chart for chart in charts) == [False, True]  # drawn, and refused
    suggestions = [entry for entry in entries if entry["type"] == "suggestion"]
    assert any(s.get("kind") == "execute" and s.get("suspicious") for s in suggestions)
    assert any(s.get("rule") for s in suggestions) and any(s.get("allowable")
                                                           for s in suggestions)
    outcomes = [entry for entry in entries if entry["type"] == "outcome"]
    assert {key for o in outcomes for key in ("rule", "reason", "comments") if o.get(key)} == {
        "rule", "reason", "comments"}
