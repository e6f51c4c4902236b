"""A session file saved again and again encodes only the events told since the last save of that
file (``runtime._snapshot_text``), and is the same file, byte for byte, as encoding it whole
(issue 29: a long conversation's saves; counted, not timed)."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

import pytest

from dial_notebook.runtime import _snapshot_text, read_session_file, save_snapshot
from dial_notebook.runtime._snapshot_text import snapshot_json


def whole(snapshot: dict[str, Any]) -> str:
    return json.dumps(snapshot, ensure_ascii=False, separators=(",", ":"), default=str)


def events(count: int, start: int = 0) -> list[dict[str, Any]]:
    return [{"type": "inform", "text": f"finding {n} — «ünïcode» \u2028", "act": "inform",
             "payload": {"when": date(2026, 12, 2), "rows": [n, n + 0.5, None, True]}}
            for n in range(start, start + count)]


def test_each_save_is_the_whole_encoding_as_the_transcript_grows_and_changes():
    transcript = events(50)
    snapshot = {"format": "dial-conversation", "version": 1, "transcript": transcript,
                "owed": {"outcomes": [], "words": ["dial-transcript-x"]}, "say": None}
    assert snapshot_json(snapshot, "f") == whole(snapshot)
    transcript.extend(events(3, 50))
    assert snapshot_json(snapshot, "f") == whole(snapshot)
    transcript[10] = {"type": "inform", "text": "another event in its place"}
    assert snapshot_json(snapshot, "f") == whole(snapshot)
    other = {**snapshot, "transcript": events(5, 900)}  # a list of its own
    assert snapshot_json(other, "f") == whole(other)
    assert snapshot_json({"transcript": []}, "f") == whole({"transcript": []})


def test_one_event_more_is_one_event_encoded_at_5000_events(monkeypatch: pytest.MonkeyPatch):
    transcript = events(5_000)
    snapshot = {"format": "dial-conversation", "transcript": transcript}
    snapshot_json(snapshot, "g")
    encoded: list[Any] = []
    real = _snapshot_text._dumps
    monkeypatch.setattr(_snapshot_text, "_dumps", lambda value: encoded.append(value) or
                        real(value))
    transcript.append({"type": "reply", "turn": 7, "text": "one more"})
    text = snapshot_json(snapshot, "g")
    assert text == whole(snapshot)
    events_encoded = [v for v in encoded if isinstance(v, dict) and "transcript" not in v]
    assert events_encoded == [{"type": "reply", "turn": 7, "text": "one more"}]


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
