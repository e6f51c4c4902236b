"""Reading a session file saved by appending (JSON Lines: ``_snapshot_text.py``) back into a
snapshot, and whether this user signed it — bounded like every session file (its size is
checked before: ``_snapshot.read_session_file``; at most ``MAX_EVENTS`` events and entries,
counted before any line is parsed; deep nesting one clear error).

    read_lines(data) ─▶ (snapshot, trusted)
        the lines, each a record: the header, then events, entries, state records, signatures
        what follows the last signature is an unfinished save (a process killed mid-save,
            whatever it left): not read; without any signature (a file this package did not
            sign), the last state record ends what is read
        the snapshot: the last state record read, with every event and entry before it
        trusted: the last signature is this user's HMAC of every byte before it (_trust.py),
            and the state's counts are the events and entries read

Any change anywhere before the last signature (an event edited, a line removed, lines
reordered, a line from another file, another user's secret) fails the HMAC: the file opens
read-only. A line that is no record of a session file, or not JSON, is refused, named.

    >>> from dial_notebook.runtime._snapshot_text import HEADER, event_line, state_line
    >>> text = HEADER + event_line({"type": "sent"}) + state_line({"format": "f"}, 1, None)
    >>> read_lines(text.encode())
    ({'format': 'f', 'transcript': [{'type': 'sent'}]}, False)
"""

from __future__ import annotations

import json
from typing import Any

from .._data_files import MAX_DEPTH
from .._nesting import nesting_depth
from ._snapshot_events import MAX_EVENTS
from ._snapshot_text import LINES_FORMAT, LINES_VERSION, join_snapshot
from ._snapshot_values import SnapshotError
from ._trust import verify_line

__all__ = ["is_lines", "read_lines", "session_file_data"]

#: What a line holds, by its first nine bytes.
_KINDS = {b'{"event":': "event", b'{"entry":': "entry", b'{"state":': "state",
          b'{"signatu': "signature"}
_LONGEST_HEADER = 200


def _header(data: bytes) -> Any:
    end = data.find(b"\n", 0, _LONGEST_HEADER)
    if end < 0:
        return None
    try:
        return json.loads(data[:end])
    except ValueError:
        return None


def is_lines(data: bytes) -> bool:
    """Whether ``data`` begins with the header of a session file saved by appending."""
    header = _header(data)
    return isinstance(header, dict) and header.get("format") == LINES_FORMAT


def session_file_data(data: bytes) -> dict[str, Any] | None:
    """The snapshot a session file saved by appending holds, nested at most ``MAX_DEPTH``
    deep (its fields are not checked: ``read_snapshot`` does that), or None when ``data`` is
    not such a file (one saved before is one JSON object). What a replay reads.

        >>> session_file_data(b'{"format": "dial-notebook/conversation"}') is None
        True
    """
    if not is_lines(data):
        return None
    snapshot = read_lines(data)[0]
    if nesting_depth(snapshot, MAX_DEPTH) > MAX_DEPTH:
        raise SnapshotError(f"is nested more than {MAX_DEPTH} levels deep")
    return snapshot


def _parsed(lines: list[bytes], numbers: list[int], key: str) -> list[Any]:
    """The values of the records ``lines`` (at file lines ``numbers``), each ``{key: …}``."""
    try:
        records = json.loads(b"[" + b",".join(lines) + b"]")
    except (ValueError, RecursionError):
        for line, number in zip(lines, numbers, strict=True):
            _one(line, number)
        raise SnapshotError("the file is not JSON Lines") from None
    values = []
    for record, number in zip(records, numbers, strict=True):
        if not isinstance(record, dict) or len(record) != 1:
            raise SnapshotError(f"line {number} holds more than one {key}")
        values.append(record[key])
    return values


def _one(line: bytes, number: int) -> Any:
    try:
        return json.loads(line)
    except RecursionError:
        raise SnapshotError(f"line {number} is nested more than {MAX_DEPTH} levels deep"
                            ) from None
    except ValueError as exc:
        raise SnapshotError(f"line {number} is not JSON ({exc})") from None


def _state(line: bytes, number: int) -> tuple[dict[str, Any], int | None, int | None]:
    record = _one(line, number)
    if not (isinstance(record, dict) and set(record) == {"state", "events", "entries"}
            and isinstance(record["state"], dict)):
        raise SnapshotError(f"line {number} is not a state record "
                            f'({{"state": {{…}}, "events": …, "entries": …}})')
    counts = [record["events"], record["entries"]]
    for count in counts:
        if count is not None and (type(count) is not int or count < 0):
            raise SnapshotError(f"line {number}: its counts must be whole numbers or null")
    return record["state"], counts[0], counts[1]


def read_lines(data: bytes) -> tuple[dict[str, Any], bool]:
    """The snapshot in a session file saved by appending, and whether this user signed it
    (see the header). Raises ``SnapshotError`` naming the line that is wrong."""
    header = _header(data)
    if not (isinstance(header, dict) and header.get("format") == LINES_FORMAT):
        raise SnapshotError(f"not a session file: its first line is not {LINES_FORMAT!r}")
    if set(header) != {"format", "version"}:
        raise SnapshotError(f"its header has keys {sorted(header)}; a session file's has "
                            f"format and version only")
    if header.get("version") != LINES_VERSION:
        raise SnapshotError(f"version {header.get('version')!r} of the session file form is "
                            f"not known here (this dial-notebook reads version {LINES_VERSION})")
    lines = data.split(b"\n")[:-1]  # the last piece is unfinished (b"": the file ended)
    kinds = [_KINDS.get(line[:9]) for line in lines]
    kinds[0] = "header"
    for kind in ("event", "entry"):
        if kinds.count(kind) > MAX_EVENTS:
            raise SnapshotError(f"holds {kinds.count(kind):,} {kind} lines; at most "
                                f"{MAX_EVENTS:,} are read")
    signed = len(kinds) - 1 - kinds[::-1].index("signature") if "signature" in kinds else None
    if signed is not None:
        end = signed - 1
        if kinds[end] != "state":
            raise SnapshotError(f"line {signed + 1} is a signature of no state record")
    elif "state" in kinds:
        end = len(kinds) - 1 - kinds[::-1].index("state")
    else:
        raise SnapshotError("holds no finished save (no state record)")
    if None in kinds[:end]:  # (after the last signature: an unfinished save, whatever it is)
        raise SnapshotError(f"line {kinds.index(None) + 1} is not a record of a session file")
    numbers: dict[str | None, list[int]] = {"event": [], "entry": [], "state": [],
                                            "signature": [], "header": []}
    for n in range(end):
        numbers[kinds[n]].append(n + 1)
    events = _parsed([lines[n - 1] for n in numbers["event"]], numbers["event"], "event")
    entries = _parsed([lines[n - 1] for n in numbers["entry"]], numbers["entry"], "entry")
    state, told, kept = _state(lines[end], end + 1)
    whole = (told == len(events) or (told is None and not events)) and (
        kept == len(entries) or (kept is None and not entries))
    if told is None and not events:
        events = None  # type: ignore[assignment]
    if kept is None and not entries:
        entries = None  # type: ignore[assignment]
    snapshot = join_snapshot(state, events, entries)
    if signed is None or not whole:
        return snapshot, False
    before = sum(map(len, lines[:signed])) + signed  # its bytes, with their newlines
    return snapshot, verify_line(memoryview(data)[:before], lines[signed] + b"\n")
