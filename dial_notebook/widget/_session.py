"""A ChatWidget's session file: the conversation saved beside the notebook after every event,
and read back when the same cell runs again in a new kernel.

    ChatWidget(..., session="eda") ─▶ .dial/eda.json in the notebook's folder (the kernel's
                                      working directory)
        the file exists  ─▶ read (JSON only, checked: _snapshot.py) ─▶ the conversation and
                            the widget's entries restored, "resumed" said in the widget, then
            signed by this user (_trust.py) ─▶ its rules back, the say that was going taken
                            up (its card back, never accepted by a rule)
            unsigned, changed or foreign    ─▶ read-only (``trust`` trait): shown, its rules
                            listed as not active, nothing runs, nothing is sent, nothing is
                            saved, until the person trusts it ("Trust this file", chat.trust():
                            the file is signed again, with this user's secret, and carries on)
        a run starting, a card or question waiting, a say ending ─▶ saved at once (once the
                            step in progress has done its part)
        any other event ─▶ saved within SETTLE_SECONDS (events that come together are
                            written together), or SPACING times as long as the last save
                            took, if longer (a long conversation's saves stay a flat share)
        every save appends what changed since the last (runtime/_session_file.py: the file
                            is JSON Lines, rewritten whole, atomically, only now and then),
                            a crash at any byte leaves the previous save whole, and it is
                            signed with the user's own Jupyter secret

The file holds the runtime's snapshot; the widget's own entries (the person's words, errors,
"stopped", "resumed") go in its ``surface`` with their places, so no event is written twice.

A name is a plain file name (letters, digits, ``.``, ``_``, ``-``); anything else is taken as
a path to the file itself.

One widget per file in a kernel: running the cell again in the same kernel saves the old
widget's conversation one last time and closes it (its card can no longer be clicked), then the
new widget carries on from the file — so a card is never answerable in two places.
"""

from __future__ import annotations

import asyncio
import os
import re
import time
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dial_notebook.runtime import SnapshotError, read_session_file, save_snapshot

from ._contract import WIDGET_ENTRIES
from ._serialise import json_safe
from ._vegalite import START_SECONDS, with_chart

#: The folder, beside the notebook, where named sessions are kept.
FOLDER = ".dial"
#: Longest an ordinary event waits to be saved (the important ones are saved at once) …
SETTLE_SECONDS = 0.5
#: … unless saving takes long (a long conversation): then this many times as long as the last.
SPACING = 10.0
_NAME = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}")


def session_path(session: str | os.PathLike[str]) -> Path:
    """Where a session is kept: ``.dial/NAME.json`` for a plain name, else the path given.

        >>> session_path("eda").as_posix()
        '.dial/eda.json'
        >>> session_path("runs/monday.json").as_posix()
        'runs/monday.json'
    """
    if isinstance(session, os.PathLike):
        return Path(session)
    if not isinstance(session, str) or not session.strip():
        raise ValueError(f"session must be a name such as 'eda' or a path, not {session!r}")
    if _NAME.fullmatch(session) and not session.endswith(".json"):
        return Path(FOLDER) / f"{session}.json"
    return Path(session)


class UntrustedSessionError(RuntimeError):
    """Something was asked of a conversation shown read-only: its file was not made by this
    user (unsigned, changed, or signed with another secret) and has not been trusted."""


def untrusted_message(origin: str) -> str:
    """What a read-only conversation says when asked to act."""
    return (f"This conversation comes from {origin}, a file you did not make (unsigned, "
            f"changed since you saved it, or saved by someone else): it is shown read-only, "
            f"its rules are not active and nothing in it runs. Read it, then click \"Trust "
            f"this file\" (or chat.trust()) to carry on.")


def read_session(path: Path) -> tuple[dict[str, Any] | None, bool]:
    """The saved conversation at ``path`` (None when there is none yet) and whether this user
    signed it (a missing file: True, there is nothing to distrust).

    A file that cannot be read raises ``SnapshotError`` saying so and what to do; the file is
    left as it is (nothing is lost)."""
    if not path.exists():
        return None, True
    try:
        return read_session_file(path)
    except SnapshotError as exc:
        raise SnapshotError(
            f"{exc}. The file was left as it is: move it away (or choose another session "
            f"name) to start a new conversation.") from None


def surface_of(transcript: list[dict[str, Any]], *, entries: WidgetEntries | None = None,
               **extra: Any) -> dict[str, Any]:
    """What the widget keeps beside the runtime's snapshot: its own entries with their
    places in its transcript (the runtime's events are in the snapshot already); ``entries``
    keeps them between saves, so that a save reads only the events added since.

        >>> surface_of([{"type": "sent"}, {"type": "person", "text": "hi"}])
        {'entries': [[1, {'type': 'person', 'text': 'hi'}]]}
    """
    return {"entries": (entries or WidgetEntries()).of(transcript), **extra}


class WidgetEntries:
    """The widget's own entries of a transcript that grows, with their places: the events
    added since the last call read; the list read again when it is another one (or an entry
    read before was replaced), its rows kept when they are still the same entries in the
    same places (a chart drawn late replaces the transcript, not the person's words)."""

    def __init__(self) -> None:
        self._list: list[dict[str, Any]] | None = None
        self._read = 0
        self._last: Any = None
        self._entries: list[list[Any]] = []

    def of(self, transcript: list[dict[str, Any]]) -> list[list[Any]]:
        """``[[place, entry], …]`` for ``transcript`` now: the list kept here, which only
        grows (so that a save appends only the entries added: runtime/_session_file.py), or a
        new one when the entries before are not all still there. Write it out at once; do not
        change it."""
        if not (transcript is self._list and len(transcript) >= self._read
                and (self._read == 0 or transcript[self._read - 1] is self._last)):
            rows = [[n, event] for n, event in enumerate(transcript)
                    if event.get("type") in WIDGET_ENTRIES]
            kept = self._entries
            if len(rows) >= len(kept) and all(
                    row[0] == old[0] and row[1] is old[1]
                    for row, old in zip(rows[:len(kept)], kept, strict=True)):
                kept.extend(rows[len(kept):])  # the same rows: the list only grows
            else:
                self._entries = rows
            self._list, self._read = transcript, len(transcript)
        self._entries.extend([n, event] for n, event in
                             enumerate(transcript[self._read:], start=self._read)
                             if event.get("type") in WIDGET_ENTRIES)
        self._read = len(transcript)
        self._last = transcript[-1] if transcript else None
        return self._entries


def widget_transcript(saved: dict[str, Any], *,
                      draw_charts: bool = False) -> list[dict[str, Any]]:
    """The widget's transcript of a saved session: the runtime's events with the widget's own
    entries back in their places (just the runtime's events when it has none). The file holds
    the runtime's events, without chart images: ``draw_charts`` draws each Vega-Lite chart
    again, waiting for the renderer (off the kernel's loop only: the command line's export);
    by default none is drawn here (the widget draws them off the loop, _vegalite.py).

        >>> widget_transcript({"transcript": [{"type": "sent", "turn": 1, "message": "hi"}],
        ...                    "surface": {"entries": [[0, {"type": "person", "text": "hi"}]]}})
        [{'type': 'person', 'text': 'hi'}, {'type': 'sent', 'turn': 1, 'message': 'hi'}]
    """
    # the runtime's events as the widget holds them: a chart drawn only when asked to
    events = [json_safe(with_chart(event, wait=START_SECONDS) if draw_charts else event)
              for event in saved.get("transcript") or []]
    surface = saved.get("surface")
    entries = surface.get("entries", []) if isinstance(surface, dict) else []
    if not isinstance(entries, list):
        raise SnapshotError("surface.entries must be a list")
    merged: list[dict[str, Any]] = []
    queue = iter(events)
    for n, row in enumerate(entries):
        where = f"surface.entries[{n}]"
        if not (isinstance(row, list) and len(row) == 2 and isinstance(row[0], int)
                and not isinstance(row[0], bool) and isinstance(row[1], dict)):
            raise SnapshotError(f"{where} must be [place, entry]")
        place, entry = row
        if entry.get("type") not in WIDGET_ENTRIES:
            raise SnapshotError(f"{where} is a {entry.get('type')!r}, not one of the widget's "
                                f"own entries ({', '.join(WIDGET_ENTRIES)})")
        _check_entry(entry, where)
        if place < len(merged):
            raise SnapshotError(f"{where} is out of order (place {place})")
        while len(merged) < place:
            following = next(queue, None)
            if following is None:
                raise SnapshotError(f"{where} has place {place}, past the end of the "
                                    f"transcript")
            merged.append(following)
        merged.append(json_safe(entry))
    merged.extend(queue)
    return merged


#: The fields of the widget's own entries and the kinds of values they hold.
_ENTRY_FIELDS: dict[str, tuple[type, ...]] = {
    "text": (str,), "questions": (str,), "error": (str,), "partial": (str,),
    "session": (str,), "saved_at": (str,), "waiting": (bool,), "read_only": (bool,),
    "answer_to": (int, type(None)),
}


def _check_entry(entry: dict[str, Any], where: str) -> None:
    """``SnapshotError`` unless ``entry`` has exactly its shape's keys, each of its kind."""
    shape = WIDGET_ENTRIES[entry["type"]]
    required = set(shape.__required_keys__)  # type: ignore[attr-defined]
    allowed = required | set(shape.__optional_keys__)  # type: ignore[attr-defined]
    missing, unknown = sorted(required - set(entry)), sorted(set(entry) - allowed)
    if missing or unknown:
        raise SnapshotError(f"{where} ({entry['type']}) has "
                            + ("no " + ", ".join(missing) if missing
                               else "unknown keys " + ", ".join(unknown)))
    for key, value in entry.items():
        kinds = _ENTRY_FIELDS.get(key)
        if kinds is not None and (not isinstance(value, kinds) or (
                isinstance(value, bool) and bool not in kinds)):
            raise SnapshotError(f"{where}.{key} must be {' or '.join(k.__name__ for k in kinds)}"
                                f", not {type(value).__name__}")


_LIVE: dict[Path, weakref.ReferenceType[Any]] = {}


def take_over(path: Path, widget: Any) -> None:
    """``widget`` is now the one that keeps ``path``; the one before it (the same cell run
    again in this kernel) saves a last time, stops saving and is closed."""
    key = path.resolve()
    before = _LIVE.get(key)
    previous = before() if before is not None else None
    _LIVE[key] = weakref.ref(widget)
    if previous is None or previous is widget:
        return
    saver = getattr(previous, "_saver", None)
    if saver is not None:
        saver.save()
        previous._saver = None
    previous.close()


class Saver:
    """Saves the conversation whenever asked, at most once per turn of the event loop."""

    def __init__(self, path: Path, snapshot: Callable[[], dict[str, Any]],
                 on_error: Callable[[str], None] | None = None) -> None:
        self.path = path
        self._snapshot = snapshot
        self._on_error = on_error
        self._due: asyncio.Handle | asyncio.TimerHandle | None = None
        self._urgent = False
        #: How many times the file was written (for tests and benchmarks).
        self.saves = 0
        #: Seconds the last save took.
        self.cost = 0.0
        #: The last save's error, if it failed (the conversation goes on; the widget says so).
        self.error: str | None = None

    def changed(self, *, urgent: bool = False) -> None:
        """Something changed: saved within ``SETTLE_SECONDS``; ``urgent`` (a run starts, a
        card waits, a say ends): as soon as the step in progress has done its part."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self.save()
            return
        if self._due is not None and (self._urgent or not urgent):
            return  # already due, as soon or sooner
        if self._due is not None:
            self._due.cancel()
        self._urgent = urgent
        # an ordinary change waits as many times longer as a save takes (a long conversation's
        # saves stay a flat share of the kernel's time); an urgent one is saved at once
        self._due = (loop.call_soon(self.save) if urgent
                     else loop.call_later(max(SETTLE_SECONDS, SPACING * self.cost), self.save))

    def save(self) -> Path:
        """Write the file now."""
        if self._due is not None:
            self._due.cancel()
        self._due, self._urgent = None, False
        started = time.monotonic()
        try:
            save_snapshot(self._snapshot(), self.path)
        except (OSError, TypeError, ValueError) as exc:
            first = self.error is None
            self.error = f"The conversation could not be saved to {self.path}: {exc}"
            if first and self._on_error is not None:
                self._on_error(self.error)  # said once; it is tried again at every change
        else:
            self.error = None
            self.saves += 1
        self.cost = time.monotonic() - started
        return self.path
