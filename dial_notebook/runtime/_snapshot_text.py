"""The text of a session file, saved by appending: JSON Lines, one record a line.

    {"format":"dial-notebook/session-lines","version":1}      the header, first line only
    {"event":{…}}                                              one event of the transcript
    {"entry":[place,{…}]}                                      one of the surface's entries
    {"state":{…the rest of the snapshot…},"events":N,"entries":M|null}
    {"signature":"sha256:…"}                                   the HMAC of every byte before it

A save appends the events and entries added since the last save, then a state record (the
snapshot without its transcript and the surface's entries, with how many of each the file
holds so far: ``null`` when the snapshot had no such list), then a signature (_trust.py). The
snapshot is the last signed state with every event and entry before it.

    >>> state, events, entries = split_snapshot({"format": "f", "transcript": [{"n": 1}],
    ...                                          "surface": {"entries": [], "title": "t"}})
    >>> state, events, entries
    ({'format': 'f', 'surface': {'title': 't'}}, [{'n': 1}], [])
    >>> join_snapshot(state, events, entries)
    {'format': 'f', 'surface': {'title': 't', 'entries': []}, 'transcript': [{'n': 1}]}
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

__all__ = ["HEADER", "LINES_FORMAT", "LINES_VERSION", "dumps", "entry_line", "event_line",
           "join_snapshot", "split_snapshot", "state_line"]

#: The header's format: a session file written as lines (the snapshot's own format inside).
LINES_FORMAT = "dial-notebook/session-lines"
LINES_VERSION = 1
HEADER = f'{{"format":"{LINES_FORMAT}","version":{LINES_VERSION}}}\n'


def dumps(value: Any) -> str:
    """``value`` as compact JSON on one line (control characters, newlines included, are
    escaped in strings; what JSON cannot write becomes its text)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)


def event_line(event: Any) -> str:
    return f'{{"event":{dumps(event)}}}\n'


def entry_line(row: Any) -> str:
    return f'{{"entry":{dumps(row)}}}\n'


def state_line(state: Mapping[str, Any], events: int | None, entries: int | None) -> str:
    counts = ",".join(f'"{key}":{"null" if count is None else count}'
                      for key, count in (("events", events), ("entries", entries)))
    return f'{{"state":{dumps(state)},{counts}}}\n'


def split_snapshot(unsigned: Mapping[str, Any]
                   ) -> tuple[dict[str, Any], list[Any] | None, list[Any] | None]:
    """(the state, the transcript, the surface's entries) of a snapshot; a list it does not
    hold as a list stays in the state, and its place is None."""
    state = dict(unsigned)
    events = state.pop("transcript") if isinstance(state.get("transcript"), list) else None
    surface = state.get("surface")
    entries = None
    if isinstance(surface, Mapping) and isinstance(surface.get("entries"), list):
        entries = surface["entries"]
        state["surface"] = {key: value for key, value in surface.items() if key != "entries"}
    return state, events, entries


def join_snapshot(state: dict[str, Any], events: list[Any] | None,
                  entries: list[Any] | None) -> dict[str, Any]:
    """The snapshot ``split_snapshot`` split (``state`` is changed and returned)."""
    if entries is not None and isinstance(state.get("surface"), dict):
        state["surface"]["entries"] = entries
    if events is not None:
        state["transcript"] = events
    return state
