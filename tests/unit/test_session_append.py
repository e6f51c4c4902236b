"""A session file is saved by appending (issue 29): a save writes and encodes what was added
since the last save of that file, never the whole conversation; a save cut short at any byte
(a killed process, an exception) leaves the previous save, trusted; the file stays signed
whole (an HMAC chained over every byte), old single-object files open as before and are
written in the new form at their next save, and superseded state is compacted away.

Counted (bytes written, encode calls), never timed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from dial_notebook import _files
from dial_notebook.runtime import _session_file, _snapshot_text, _trust
from dial_notebook.runtime._snapshot import (
    SnapshotError,
    load_snapshot,
    read_session_file,
    save_snapshot,
)

FORMAT = "dial-notebook/conversation"


def event(n: int) -> dict[str, Any]:
    return {"type": "inform", "text": f"finding {n} — «ünïcode» \u2028 line\nbreak", "act": "inform"}


def snapshot(events: int, **extra: Any) -> dict[str, Any]:
    return {"format": FORMAT, "version": 1, "saved_at": "2026-12-02T10:00:00+00:00",
            "full_dial": True, "transcript": [event(n) for n in range(events)],
            "owed": {"outcomes": [], "words": []}, "context": {}, "presence": {},
            "ids": {"suggestions": 0, "asks": 0, "executes": 0, "delegations": 0,
                    "replies": 0},
            "running": [], "say": None, "pending": None,
            "surface": {"entries": [[0, {"type": "person", "text": "hi"}]], "title": "t"},
            **extra}


@pytest.fixture
def rewrites(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Every whole rewrite of a file (``write_atomically``), by path."""
    seen: list[Path] = []
    real = _files.write_atomically

    def counting(path: Any, text: str) -> Path:
        seen.append(Path(path))
        return real(path, text)

    monkeypatch.setattr(_session_file, "write_atomically", counting)
    return seen


def grown_by_one_event(tmp_path: Path, events: int) -> int:
    """Bytes the file grows by when one event more is saved, at ``events`` events."""
    data = snapshot(events)
    path = save_snapshot(data, tmp_path / f"s{events}.json")
    before = path.stat().st_size
    data["transcript"].append(event(events))
    save_snapshot(data, path)
    return path.stat().st_size - before


# ---- a save costs what was added ----------------------------------------------------------------

def test_one_event_more_appends_the_same_bytes_at_20000_events_as_at_100(tmp_path, rewrites):
    few, many = grown_by_one_event(tmp_path, 100), grown_by_one_event(tmp_path, 20_000)
    assert rewrites == [tmp_path / "s100.json", tmp_path / "s20000.json"]  # the first saves
    assert 0 < few < 1_000 and abs(many - few) <= 8  # the counts' digits
    read, trusted = read_session_file(tmp_path / "s20000.json")
    assert trusted and len(read["transcript"]) == 20_001
    assert read["transcript"][-1] == event(20_000)


def test_one_event_more_is_one_event_encoded_at_20000_events(tmp_path, monkeypatch):
    data = snapshot(20_000)
    path = save_snapshot(data, tmp_path / "s.json")
    encoded: list[Any] = []
    real = _snapshot_text.dumps
    monkeypatch.setattr(_snapshot_text, "dumps", lambda value: encoded.append(value) or
                        real(value))
    data["transcript"].append({"type": "reply", "turn": 7, "text": "one more"})
    save_snapshot(data, path)
    assert [v for v in encoded if isinstance(v, dict) and "type" in v] == [
        {"type": "reply", "turn": 7, "text": "one more"}]
    assert len(encoded) == 2  # the event, and the state (without the transcript)
    assert load_snapshot(path) == data


def test_the_widgets_entries_are_appended_too(tmp_path):
    data = snapshot(3)
    path = save_snapshot(data, tmp_path / "s.json")
    data["transcript"].append(event(3))
    data["surface"]["entries"].append([4, {"type": "person", "text": "more"}])
    save_snapshot(data, path)
    lines = path.read_text(encoding="utf-8").split("\n")[:-1]
    assert sum(line.startswith('{"entry":') for line in lines) == 2
    assert read_session_file(path) == (data, True)


def test_a_snapshot_that_does_not_extend_the_file_rewrites_it_whole(tmp_path, rewrites):
    data = snapshot(5)
    path = save_snapshot(data, tmp_path / "s.json")
    other = {**snapshot(0), "transcript": [event(100), event(101)]}  # another conversation
    save_snapshot(other, path)
    assert read_session_file(path) == (other, True) and len(rewrites) == 2
    shorter = {**data, "transcript": data["transcript"][:3]}
    save_snapshot(shorter, path)
    assert read_session_file(path) == (shorter, True) and len(rewrites) == 3
    save_snapshot({**shorter, "transcript": shorter["transcript"][:1]}, path)
    assert len(rewrites) == 4 and len(read_session_file(path)[0]["transcript"]) == 1


def test_a_file_changed_by_someone_else_is_rewritten_not_appended_to(tmp_path, rewrites):
    data = snapshot(5)
    path = save_snapshot(data, tmp_path / "s.json")
    path.write_text(path.read_text(encoding="utf-8") + '{"event":{"type":"x"}}\n',
                    encoding="utf-8")
    data["transcript"].append(event(5))
    save_snapshot(data, path)
    assert len(rewrites) == 2 and read_session_file(path) == (data, True)


def test_any_snapshot_round_trips_exactly(tmp_path):
    for data in ({"format": FORMAT, "version": 1, "transcript": []},
                 {"format": FORMAT, "version": 1, "transcript": [event(1)], "surface": {}},
                 {"format": FORMAT, "version": 1, "transcript": [event(1)],
                  "surface": {"entries": []}, "agent": {"history": [1, 2]}}):
        path = save_snapshot(data, tmp_path / "r.json")
        assert read_session_file(path) == (data, True)


# ---- crash safety ---------------------------------------------------------------------------------

def two_saves(tmp_path: Path) -> tuple[Path, dict[str, Any], dict[str, Any], int]:
    data = snapshot(3)
    path = save_snapshot(data, tmp_path / "s.json")
    first = json.loads(json.dumps(data))
    boundary = path.stat().st_size
    data["transcript"] += [event(3), event(4)]
    data["surface"]["entries"].append([4, {"type": "person", "text": "more"}])
    data["say"] = {"text": "go", "turn": 2, "phase": "sending", "reached": [], "reply": None}
    save_snapshot(data, path)
    return path, first, data, boundary


def test_a_save_cut_at_any_byte_opens_as_the_previous_save_trusted(tmp_path):
    path, first, second, boundary = two_saves(tmp_path)
    whole = path.read_bytes()
    cut = tmp_path / "cut.json"
    for offset in range(boundary, len(whole)):
        cut.write_bytes(whole[:offset])
        assert read_session_file(cut) == (first, True), offset
    cut.write_bytes(whole)
    assert read_session_file(cut) == (second, True)


def test_a_save_interrupted_by_an_exception_leaves_the_previous_one(tmp_path, monkeypatch):
    path, _, second, _ = two_saves(tmp_path)
    real = _files._write_all

    def half_then_fail(fd: int, data: bytes) -> None:
        real(fd, data[: len(data) // 2])
        raise OSError("disk full")

    monkeypatch.setattr(_files, "_write_all", half_then_fail)
    before, size = json.loads(json.dumps(second)), path.stat().st_size
    second["transcript"].append(event(9))
    with pytest.raises(OSError, match="disk full"):
        save_snapshot(second, path)
    assert path.stat().st_size == size  # the half written is cut off again
    assert read_session_file(path) == (before, True)
    monkeypatch.setattr(_files, "_write_all", real)
    save_snapshot(second, path)  # carries on: the next save is whole
    assert read_session_file(path) == (second, True)


def test_a_crash_tail_is_cut_off_by_the_next_save(tmp_path):
    path, _, second, _ = two_saves(tmp_path)
    with path.open("ab") as file:
        file.write(b'{"event":{"type":"inform","te')  # a process killed mid-save
    assert read_session_file(path) == (second, True)
    _session_file.forget()  # a new kernel
    second["transcript"].append(event(7))
    save_snapshot(second, path)
    assert read_session_file(path) == (second, True)
    assert b'"te\n' not in path.read_bytes()


# ---- signed whole: any edit anywhere is untrusted ---------------------------------------------

def swap(lines: list[str], a: int, b: int) -> list[str]:
    lines = list(lines)
    lines[a], lines[b] = lines[b], lines[a]
    return lines


@pytest.mark.parametrize("edit", [
    lambda lines: [line.replace("finding 1 ", "finding 9 ") for line in lines],
    lambda lines: [line.replace("finding 4 ", "finding 8 ") for line in lines],  # last save
    lambda lines: lines[:2] + lines[3:],  # an event removed
    lambda lines: swap(lines, 1, 2),  # reordered
    lambda lines: [lines[0], lines[0], *lines[1:]],  # the header twice
    lambda lines: [line.replace('"title":"t"', '"title":"u"') for line in lines],
    lambda lines: [*lines[:-1], lines[-1].replace('"}', ' "}')],
])
def test_an_edit_anywhere_makes_the_file_untrusted(tmp_path, edit):
    path, *_ = two_saves(tmp_path)
    lines = path.read_text(encoding="utf-8").split("\n")[:-1]
    path.write_text("\n".join(edit(lines)) + "\n", encoding="utf-8")
    try:
        _, trusted = read_session_file(path)
    except SnapshotError as exc:  # refused: what no save of this package writes
        assert "s.json: line 2" in str(exc)
    else:
        assert not trusted


def test_a_line_from_another_of_my_files_makes_it_untrusted(tmp_path):
    path, *_ = two_saves(tmp_path)
    other = save_snapshot(snapshot(9), tmp_path / "other.json")
    stolen = [line for line in other.read_text(encoding="utf-8").split("\n")[:-1]
              if "finding 8 " in line]
    lines = path.read_text(encoding="utf-8").split("\n")[:-1]
    path.write_text("\n".join([*lines[:3], *stolen, *lines[3:]]) + "\n", encoding="utf-8")
    assert not read_session_file(path)[1]


def test_a_file_signed_with_another_secret_is_untrusted(tmp_path, monkeypatch):
    monkeypatch.setenv("JUPYTER_DATA_DIR", str(tmp_path / "someone-else"))
    path, _, second, _ = two_saves(tmp_path)
    assert read_session_file(path) == (second, True)
    monkeypatch.setenv("JUPYTER_DATA_DIR", str(tmp_path / "me"))
    assert read_session_file(path) == (second, False)
    second["transcript"].append(event(5))
    save_snapshot(second, path)  # mine now: rewritten whole with my secret
    assert read_session_file(path) == (second, True)


def test_lines_appended_by_someone_else_are_not_read(tmp_path):
    path, _, second, _ = two_saves(tmp_path)
    forged = '{"event":{"type":"inform","text":"rm -rf","act":"inform"}}\n'
    with path.open("a", encoding="utf-8") as file:
        file.write(forged + '{"state":{"format":"' + FORMAT + '","version":1},"events":6,'
                   '"entries":2}\n')
    assert read_session_file(path) == (second, True)  # an unfinished save: not read
    with path.open("a", encoding="utf-8") as file:
        file.write('{"signature":"sha256:' + "0" * 64 + '"}\n')
    read, trusted = read_session_file(path)
    assert not trusted and read["transcript"][-1]["text"] == "rm -rf"  # shown read-only


def test_the_chained_signature_signs_only_what_is_added():
    mac = _trust.new_mac(secret=b"k")
    mac.update(b'{"a":1}\n')
    line = _trust.signature_line(mac)
    assert _trust.verify_line(b'{"a":1}\n', line, secret=b"k")
    assert not _trust.verify_line(b'{"a":2}\n', line, secret=b"k")
    assert not _trust.verify_line(b'{"a":1}\n', line, secret=b"other")


# ---- old files, compaction ------------------------------------------------------------------------

def test_an_old_single_object_file_opens_as_before_and_is_written_anew(tmp_path):
    data = snapshot(4)
    path = tmp_path / "old.json"
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    path.write_text(_trust.signed(text), encoding="utf-8")
    assert read_session_file(path) == (data, True)
    data["transcript"].append(event(4))
    save_snapshot(data, path)
    first = path.read_text(encoding="utf-8").split("\n", 1)[0]
    assert json.loads(first)["format"] == "dial-notebook/session-lines"
    assert read_session_file(path) == (data, True)


def test_superseded_state_is_compacted_away(tmp_path, rewrites):
    data = snapshot(10)
    path = save_snapshot(data, tmp_path / "s.json")
    for n in range(400):  # each save changes a 4 KB state: superseded at once
        data["context"] = {"notes": f"{n} " + "x" * 4_000}
        save_snapshot(data, path)
    live = len(path.read_bytes())
    assert 1 < len(rewrites) < 20  # amortised: a rewrite now and then, not every save
    assert live < 2 * _session_file.COMPACT_FLOOR
    assert read_session_file(path) == (data, True)


def test_another_list_holding_the_same_events_first_is_appended_to(tmp_path, rewrites):
    data = snapshot(30)
    path = save_snapshot(data, tmp_path / "s.json")
    told = data["transcript"]
    save_snapshot({**data, "transcript": [*told, event(30)]}, path)  # told + queued
    assert len(rewrites) == 1
    equal = [json.loads(json.dumps(e)) for e in told]  # equal events, not the same ones
    save_snapshot({**data, "transcript": equal}, path)
    assert len(rewrites) == 2 and read_session_file(path) == ({**data, "transcript": equal},
                                                              True)


def test_the_widgets_entries_list_only_grows_even_when_its_transcript_is_replaced():
    from dial_notebook.widget._session import WidgetEntries

    entries = WidgetEntries()
    person = {"type": "person", "text": "hi"}
    transcript: list[dict[str, Any]] = [person, {"type": "sent", "turn": 1, "message": "hi"}]
    first = entries.of(transcript)
    assert first == [[0, person]]
    transcript.append({"type": "person", "text": "more"})
    assert entries.of(transcript) is first and len(first) == 2
    redrawn = [*transcript[:1], {"type": "sent", "turn": 1, "message": "hi", "x": 1},
               *transcript[2:]]  # a chart drawn late: the trait replaced, the entries kept
    rows = list(first)
    assert entries.of(redrawn) is first and all(map(lambda a, b: a is b, first, rows))
    assert entries.of([{"type": "person", "text": "other"}]) == [[0, {"type": "person",
                                                                      "text": "other"}]]


def test_whatever_a_crash_leaves_after_the_last_save_is_not_read(tmp_path):
    path, _, second, _ = two_saves(tmp_path)
    with path.open("ab") as file:
        file.write(b"\x00" * 700 + b"\n" + b'{"event":{"type":"inform"}}\n\x00\x00')
    assert read_session_file(path) == (second, True)
