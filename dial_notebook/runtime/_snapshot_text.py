"""The JSON text of a snapshot saved again and again to one file: each event's text is kept
between the saves of that file, so that a save encodes only the events told since (a session of
20,000 events is saved several times faster; the file is the same, byte for byte).

    snapshot_json(unsigned, place) ─▶ json.dumps(unsigned, ensure_ascii=False,
                                      separators=(",", ":"), default=str), its transcript made
                                      of the texts kept for ``place`` (an event is known by
                                      identity: the same dict, held here so its id stays its
                                      own) and of the new events' texts

An event is not changed once it is told (``_events.py``: recorded, then handed on as it is), so
its text stays what it was. The texts of the last ``FILES`` files are kept.

    >>> text = snapshot_json({"format": "f", "transcript": [{"type": "sent", "turn": 1}]}, "a")
    >>> text == json.dumps({"format": "f", "transcript": [{"type": "sent", "turn": 1}]},
    ...                    ensure_ascii=False, separators=(",", ":"))
    True
"""

from __future__ import annotations

import json
import operator
import uuid
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

__all__ = ["FILES", "snapshot_json"]

#: Files whose events' texts are kept (the latest saved).
FILES = 8

class _Kept:
    """One file's events as last saved: the events (held, so their ids stay their own), their
    texts, and the texts joined."""

    __slots__ = ("events", "joined", "texts")

    def __init__(self, events: list[Any], texts: list[str], joined: str | None = None) -> None:
        self.events, self.texts = events, texts
        self.joined = ",".join(texts) if joined is None else joined


_KEPT: OrderedDict[str, _Kept] = OrderedDict()


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)


def snapshot_json(unsigned: Mapping[str, Any], place: str) -> str:
    """``unsigned`` as JSON text, the events' texts kept for ``place`` reused (see the header)."""
    transcript = unsigned.get("transcript")
    if not isinstance(transcript, list) or not transcript:
        return _dumps(dict(unsigned))
    kept = _events_text(_KEPT.pop(place, None), transcript)
    _KEPT[place] = kept
    while len(_KEPT) > FILES:
        _KEPT.popitem(last=False)
    # the rest of the snapshot around a marker no other value holds, the events in its place
    marker = _dumps(f"dial-transcript-{uuid.uuid4().hex}")
    head, tail = _dumps({**unsigned, "transcript": json.loads(marker)}).split(marker, 1)
    return "".join((head, "[", kept.joined, "]", tail))


def _events_text(before: _Kept | None, transcript: list[Any]) -> _Kept:
    """``transcript``'s texts: those of ``before`` when it is the start of it (the events told
    since encoded and joined on), else each event's kept text found by identity."""
    if before is not None and len(before.events) <= len(transcript) and all(
            map(operator.is_, before.events, transcript)):
        added = transcript[len(before.events):]
        if not added:
            return before
        texts = [_dumps(event) for event in added]
        return _Kept([*before.events, *added], [*before.texts, *texts],
                     ",".join([before.joined, *texts] if before.texts else texts))
    known = {id(event): text for event, text in zip(before.events, before.texts, strict=True)} \
        if before is not None else {}
    held = {id(event): event for event in before.events} if before is not None else {}
    texts = [known[id(event)] if held.get(id(event)) is event else _dumps(event)
             for event in transcript]
    return _Kept(list(transcript), texts)
