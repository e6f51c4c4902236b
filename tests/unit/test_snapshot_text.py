"""The text of a session file (``runtime._snapshot_text``): JSON Lines, one record a line, every
value on one line whatever it holds; a snapshot split into its state, transcript and entries
and joined back is the same snapshot (issue 29: a save appends what was added; the counting of
what a save encodes is in test_session_append.py)."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

from dial_notebook.runtime import read_session_file, save_snapshot
from dial_notebook.runtime._snapshot_text import (
    HEADER,
    entry_line,
    event_line,
    join_snapshot,
    split_snapshot,
    state_line,
)


def events(count: int, start: int = 0) -> list[dict[str, Any]]:
    return [{"type": "inform", "text": f"finding {n} — «ünïcode» \u2028\n\r", "act": "inform",
             "payload": {"when": date(2026, 12, 2), "rows": [n, n + 0.5, None, True]}}
            for n in range(start, start + count)]


def test_every_record_is_one_line_whatever_its_text_holds():
    lines = [HEADER, *map(event_line, events(3)), entry_line([1, {"type": "person",
                                                                  "text": "a\nb"}]),
             state_line({"format": "f", "say": {"text": "x\n"}}, 3, 1)]
    assert all(line.endswith("\n") and line.count("\n") == 1 for line in lines)
    first = json.loads(lines[1])["event"]
    assert first["payload"]["when"] == "2026-12-02"  # what JSON cannot write: its text
    assert json.loads(lines[-1]) == {"state": {"format": "f", "say": {"text": "x\n"}},
                                     "events": 3, "entries": 1}


def test_a_snapshot_split_and_joined_is_the_same():
    for snapshot in ({"format": "f", "transcript": events(2), "surface": {"entries": [],
                                                                          "rules": []}},
                     {"format": "f", "transcript": "not a list", "surface": "nor this"},
                     {"format": "f"}):
        state, transcript, entries = split_snapshot(snapshot)
        assert "transcript" not in state or transcript is None
        assert join_snapshot(state, transcript, entries) == snapshot


def test_a_file_saved_twice_reads_back_signed(tmp_path):
    snapshot = {"format": "dial-notebook/conversation", "version": 1, "saved_at": "x",
                "full_dial": True,
                "transcript": [{"type": "sent", "turn": 1, "message": "hi"}],
                "owed": {"outcomes": [], "words": []}, "context": {}, "presence": {},
                "ids": {"suggestions": 0, "asks": 0, "executes": 0, "delegations": 0,
                        "replies": 0},
                "running": [], "say": None, "pending": None}
    path = tmp_path / "s.json"
    save_snapshot(snapshot, path)
    snapshot["transcript"].append({"type": "reply", "turn": 1, "text": "hello"})
    save_snapshot(snapshot, path)
    read, trusted = read_session_file(path)
    assert trusted and read["transcript"] == snapshot["transcript"]
