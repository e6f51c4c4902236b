"""Saving a snapshot to a session file by appending: a save writes, encodes and signs only what
was added since the last save of that file (issue 29: a save at 20,000 events costs what one at
100 does). The file's text: ``_snapshot_text.py``; its signature: ``_trust.py``.

    write_session(unsigned, path)
        this process saved ``path`` last, the file is as it left it (device, inode, size,
        modification time), signed with the same secret, and the snapshot's transcript and
        entries extend what was saved (the same list with the last saved event in its place,
        or another list holding the same events first)
            ─▶ appended: the new events and entries, a state record, a signature chained
               over every byte before it (the HMAC's state kept between saves)
        anything else (a first save, an old single-object file, a file changed since, another
        conversation, superseded state grown past what the conversation holds)
            ─▶ rewritten whole, atomically, the lines already encoded reused

The lines of the last ``FILES`` files saved are kept (and their events, so that their ids stay
their own): a rewrite (compaction) copies them, encoding only what is new. An event is not
changed once it is told (``_events.py``), so its line stays what it was; a list saved again
(the conversation's transcript, the widget's entries: ``WidgetEntries``) only grows, so the
last item saved still in its place says the rest are too.

Compaction: every state record but the last is superseded; once their bytes pass both the
live file's (header, events, entries, last state) and ``COMPACT_FLOOR``, the next save rewrites
the file whole. A rewrite costs the live file, and comes after at least as many bytes of
appended state: amortised, each save costs a constant times what it adds.
"""

from __future__ import annotations

import hmac
import operator
import os
import threading
from collections import OrderedDict
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .._files import append_durably, write_atomically
from ._snapshot_text import HEADER, entry_line, event_line, split_snapshot, state_line
from ._trust import signature_line, user_key

__all__ = ["COMPACT_FLOOR", "FILES", "forget", "write_session"]

#: Files whose lines are kept between saves (the latest saved).
FILES = 8
#: Superseded state a file may hold, at least, before it is rewritten whole.
COMPACT_FLOOR = 256 * 1024

_Key = tuple[str, bytes, str]  # where the secret is (JUPYTER_DATA_DIR), the secret, its HMAC


class _Saved:
    """One file as this process last wrote it."""

    __slots__ = ("entries", "entry_lines", "entry_list", "event_lines", "events", "key",
                 "live", "mac", "stat", "superseded", "tail", "transcript")

    def __init__(self, key: _Key) -> None:
        self.key = key
        self.mac = hmac.new(key[1], digestmod=key[2])  # fed every byte of the file
        self.stat: tuple[int, int, int, int] = (0, 0, 0, 0)
        self.transcript: list[Any] | None = None  # the list last saved (the object)
        self.events: list[Any] = []  # its events saved, held: their ids stay their own
        self.event_lines: list[bytes] = []
        self.entry_list: list[Any] | None = None  # the entries' list last saved (the object)
        self.entries: list[Any] = []
        self.entry_lines: list[bytes] = []
        self.live = 0  # bytes of the header, the events and the entries
        self.tail = 0  # bytes of the last state record and its signature
        self.superseded = 0  # bytes of the state records and signatures before those


_SAVED: OrderedDict[str, _Saved] = OrderedDict()
_LOCK = threading.Lock()


def forget() -> None:
    """Forget every file saved (as a new process would): the next save of each is whole."""
    with _LOCK:
        _SAVED.clear()


def _status(stat: os.stat_result) -> tuple[int, int, int, int]:
    return stat.st_dev, stat.st_ino, stat.st_size, stat.st_mtime_ns


def _secret() -> _Key:
    return (os.environ.get("JUPYTER_DATA_DIR", ""), *user_key(None))


def _extends(saved: list[Any], new: list[Any], last_list: list[Any] | None) -> bool:
    """Whether ``new`` starts with the ``saved`` items (the same objects)."""
    if len(new) < len(saved):
        return False
    if not saved:
        return True
    if new is last_list:  # the list saved, grown: its items are never replaced
        return new[len(saved) - 1] is saved[-1]
    return all(map(operator.is_, saved, new))


def write_session(unsigned: Mapping[str, Any], path: str | os.PathLike[str]) -> Path:
    """Save ``unsigned`` (a snapshot without its signature) to ``path``: appended when it
    extends what this process saved there last, else written whole (see the header)."""
    place = os.path.abspath(path)
    with _LOCK:
        saved = _SAVED.pop(place, None)
        saved = _save(unsigned, Path(path), saved)  # (on an error: forgotten, next is whole)
        _SAVED[place] = saved
        while len(_SAVED) > FILES:
            _SAVED.popitem(last=False)
    return Path(path)


def _save(unsigned: Mapping[str, Any], path: Path, saved: _Saved | None) -> _Saved:
    state, events, entries = split_snapshot(unsigned)
    key = _secret()
    try:
        status: tuple[int, int, int, int] | None = _status(path.stat())
    except OSError:
        status = None
    if saved is None or not (_extends(saved.events, events or [], saved.transcript)
                             and _extends(saved.entries, entries or [], saved.entry_list)):
        return _rewrite(path, state, events, entries, key, None)
    if (status == saved.stat and key == saved.key and events is not None
            and (entries is not None or not saved.entries)
            and saved.superseded <= max(saved.live + saved.tail, COMPACT_FLOOR)):
        return _append(saved, path, state, events, entries)
    return _rewrite(path, state, events, entries, key, saved)


def _encoded(lines: list[bytes], items: list[Any], encode: Any) -> bytes:
    """The lines of ``items``, added to ``lines``, joined."""
    added = [encode(item).encode("utf-8") for item in items]
    lines.extend(added)
    return b"".join(added)


def _grow(saved: _Saved, events: list[Any] | None, entries: list[Any] | None) -> bytes:
    """The lines of the events and entries not in ``saved`` yet (now in it)."""
    new_events = (events or [])[len(saved.events):]
    new_entries = (entries or [])[len(saved.entries):]
    body = _encoded(saved.event_lines, new_events, event_line) + _encoded(
        saved.entry_lines, new_entries, entry_line)
    saved.events.extend(new_events)
    saved.entries.extend(new_entries)
    saved.transcript, saved.entry_list = events, entries
    return body


def _tail(saved: _Saved, state: Mapping[str, Any], events: list[Any] | None,
          entries: list[Any] | None) -> bytes:
    """A save's state record, then its signature (``saved.mac`` fed both)."""
    line = state_line(state, None if events is None else len(saved.events),
                      None if entries is None else len(saved.entries)).encode("utf-8")
    saved.mac.update(line)
    signature = signature_line(saved.mac)
    saved.mac.update(signature)
    saved.superseded += saved.tail
    saved.tail = len(line) + len(signature)
    return line + signature


def _append(saved: _Saved, path: Path, state: Mapping[str, Any], events: list[Any],
            entries: list[Any] | None) -> _Saved:
    body = _grow(saved, events, entries)
    saved.mac.update(body)
    saved.live += len(body)
    saved.stat = _status(append_durably(path, body + _tail(saved, state, events, entries)))
    return saved


def _rewrite(path: Path, state: Mapping[str, Any], events: list[Any] | None,
             entries: list[Any] | None, key: _Key, before: _Saved | None) -> _Saved:
    """The whole file, written atomically: the lines ``before`` kept reused."""
    saved = _Saved(key)
    if before is not None and events is not None:
        saved.events, saved.event_lines = before.events, before.event_lines
    if before is not None and entries is not None:
        saved.entries, saved.entry_lines = before.entries, before.entry_lines
    _grow(saved, events, entries)
    body = b"".join((HEADER.encode("utf-8"), *saved.event_lines, *saved.entry_lines))
    saved.mac.update(body)
    saved.live = len(body)
    text = body + _tail(saved, state, events, entries)
    saved.superseded = 0
    written = write_atomically(path, text.decode("utf-8"))
    saved.stat = _status(written.stat())
    return saved
