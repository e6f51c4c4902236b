"""What a replay reads: a saved conversation, checked, as the list of events to step through.

    a snapshot dict ─┐
    a path to its JSON file ──▶ read_saved(source) ──▶ Saved(transcript, name, saved_at, title)
    a ChatWidget / Conversation ┘        (a ValueError naming what is wrong, and where)

A snapshot is the plain JSON that ``conversation.snapshot()`` and a ChatWidget's session file
hold (the runtime owns that format; a replay only reads it)::

    {"format": "dial-notebook/conversation", "version": 1, "saved_at": "…",
     "transcript": [ …the runtime's events… ], …,
     "surface": {"transcript": [ …the same events and the widget's own, such as 'person'… ]}}

The surface's transcript is preferred when there is one: it has the person's words. A
ChatWidget's session file (``chat.save(path)``, ``session=``) keeps only the widget's own
entries there, with their places (``surface.entries``): they are put back among the events.

A file is untrusted: it is read as JSON and nothing else (never unpickled, no object hooks),
at most ``MAX_BYTES``, nested at most ``MAX_DEPTH`` levels (``_data_files``, the package's one
reader of such files); every event must be an object with a string ``type``; a ``sent`` event
must carry its ``message`` as text and a ``reply`` its ``text`` (the replay shows both exactly);
and every field of every event of a snapshot must be of its kind (the runtime's event shapes,
the widget's entries and the fields it adds): ``transcript[3].turn: must be a whole number``.

    >>> read_saved({"format": FORMAT, "version": 1, "transcript": [{"type": "sent",
    ...             "turn": 1, "message": "hi"}]}).transcript
    [{'type': 'sent', 'turn': 1, 'message': 'hi'}]
    >>> read_saved({"format": FORMAT, "version": 1, "transcript": [{"turn": 1}]})
    Traceback (most recent call last):
    ...
    ValueError: Replay: the snapshot: transcript[0] has no 'type'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Union

from dial_notebook._data_files import DataFileError, parse_json, read_bytes, type_error
from dial_notebook._data_files import at as field_at
from dial_notebook._json_kind import json_kind
from dial_notebook.runtime import EVENT_SHAPES, MAX_SNAPSHOT_BYTES, SnapshotError, session_file_data
from dial_notebook.runtime import MAX_SNAPSHOT_EVENTS as MAX_EVENTS
from dial_notebook.runtime import SNAPSHOT_FORMAT as FORMAT
from dial_notebook.runtime import SNAPSHOT_VERSION as VERSION

from ._contract import WIDGET_ENTRIES, WIDGET_FIELDS
from ._serialise import json_safe

#: The snapshot versions a replay reads (the runtime's snapshot format, _snapshot.py, owns
#: FORMAT, the largest file read and the most events a transcript may hold).
VERSIONS = (VERSION,)
MAX_BYTES = MAX_SNAPSHOT_BYTES
#: The fields a replay shows exactly, by event type: each must be text.
_TEXT_FIELDS = {"sent": "message", "reply": "text"}


@dataclass(frozen=True)
class Saved:
    """A saved conversation, read and checked.

    ``transcript``: its events, JSON-safe copies; ``name``: where it came from (the file's
    path, ``'the snapshot'``, ``'a ChatWidget'`` …); ``saved_at``: when it was saved, as the
    snapshot says (``''`` if it does not); ``title``: a ChatWidget's title, or the one its
    surface saved (``surface.title``), else ``''``.
    """

    transcript: list[dict[str, Any]]
    name: str
    saved_at: str = ""
    title: str = ""


def read_saved(source: Any) -> Saved:
    """Read ``source``: a snapshot (a dict), a path to its JSON file (``str`` or ``Path``), a
    ChatWidget or a Conversation (their ``transcript``), or a transcript (a list of events).

    Raises ``ValueError`` naming the file (or the source) and what is wrong with it, and
    ``TypeError`` for a source of none of those kinds.
    """
    if isinstance(source, str | Path):
        return _from_snapshot(_read_file(source), str(source))
    if isinstance(source, Mapping):
        return _from_snapshot(source, "the snapshot")
    if isinstance(source, list | tuple):
        return Saved(_checked(list(source), "the transcript", "transcript", strict=False),
                     "a transcript")
    events = getattr(source, "transcript", None)
    if isinstance(events, list | tuple):
        kind = type(source).__name__
        title = getattr(source, "title", "")
        return Saved(_checked(list(events), f"the {kind}", "transcript", strict=False),
                     f"a {kind}", title=title if isinstance(title, str) else "")
    raise TypeError(
        "Replay: give a snapshot (a dict), the path of its JSON file, a ChatWidget or a "
        f"Conversation, not {type(source).__name__}")


def _read_file(source: str | Path) -> Any:
    name = str(source)
    if isinstance(source, str) and source.lstrip().startswith(("{", "[")):
        raise ValueError("Replay: that is JSON text, not the path of a file: give "
                         "json.loads(text), or save it to a file")
    path = Path(source).expanduser()
    if not path.exists():
        raise ValueError(f"Replay: {name}: there is no such file")
    if not path.is_file():
        raise ValueError(f"Replay: {name}: not a file")
    try:  # the package's one reader of a file a person was sent: bounded, JSON only
        data = read_bytes(path, max_bytes=MAX_BYTES, file=name)
        saved = session_file_data(data)  # a session file saved by appending (JSON Lines)
        return saved if saved is not None else parse_json(data, name)
    except DataFileError as error:
        raise ValueError(f"Replay: {error}") from None
    except SnapshotError as error:
        raise ValueError(f"Replay: {name}: {error}") from None


def _from_snapshot(snapshot: Any, name: str) -> Saved:
    if not isinstance(snapshot, Mapping):
        raise ValueError(f"Replay: {name}: holds {json_kind(snapshot)}, not a saved conversation "
                         f"(an object with \"format\": \"{FORMAT}\")")
    if "format" not in snapshot:
        raise ValueError(f"Replay: {name}: has no 'format'; a saved conversation says "
                         f"\"format\": \"{FORMAT}\"")
    if snapshot["format"] != FORMAT:
        raise ValueError(f"Replay: {name}: its 'format' is {_shown(snapshot['format'])}, not "
                         f"{FORMAT!r}: not a saved conversation")
    version = snapshot.get("version")
    if "version" not in snapshot:
        raise ValueError(f"Replay: {name}: has no 'version'")
    if isinstance(version, bool) or not isinstance(version, int):
        raise ValueError(f"Replay: {name}: its 'version' is {_shown(version)}, not a whole "
                         "number")
    if version not in VERSIONS:
        known = ", ".join(str(v) for v in VERSIONS)
        raise ValueError(f"Replay: {name}: version {version} is not one this dial-notebook "
                         f"reads (it reads version {known}); a newer dial-notebook may")
    surface = snapshot.get("surface")
    if surface is not None and not isinstance(surface, Mapping):
        raise ValueError(f"Replay: {name}: its 'surface' is {json_kind(surface)}, not an object")
    if surface is not None and "transcript" in surface:
        events = _checked(surface["transcript"], name, "surface.transcript")
    elif "transcript" in snapshot:
        events = _checked(snapshot["transcript"], name, "transcript")
        if surface is not None and "entries" in surface:
            events = _with_entries(events, surface["entries"], name)
    else:
        raise ValueError(f"Replay: {name}: has no 'transcript'")
    saved_at = snapshot.get("saved_at")
    title = surface.get("title") if surface is not None else None
    return Saved(events, name,
                 saved_at=saved_at[:80] if isinstance(saved_at, str) else "",
                 title=title[:200] if isinstance(title, str) else "")


def _with_entries(events: list[dict[str, Any]], entries: Any, name: str) -> list[dict[str, Any]]:
    """The runtime's events with a ChatWidget's own entries (the person's words …) back in
    their places: its session file keeps them as ``surface.entries``, ``[[place, entry], …]``
    (``_session.widget_transcript``, whose reading this is)."""
    from ._session import widget_transcript

    try:
        merged = widget_transcript({"transcript": events, "surface": {"entries": entries}})
    except ValueError as error:  # SnapshotError: it says which entry is wrong, and how
        raise ValueError(f"Replay: {name}: {error}") from None
    return _checked(merged, name, "the widget's transcript")


def _checked(events: Any, name: str, where: str, *, strict: bool = True
             ) -> list[dict[str, Any]]:
    """JSON-safe copies of ``events``, each an object with a string type (else a ValueError
    saying which one is not, as ``transcript[12]``). ``strict`` (a snapshot: data from a
    file): every field of every event of its kind too (``_field_error``); a live
    conversation's own transcript is the runtime's, and only made JSON-safe."""
    if not isinstance(events, list | tuple):
        raise ValueError(f"Replay: {name}: its '{where}' is {json_kind(events)}, not a list of "
                         "events")
    if len(events) > MAX_EVENTS:
        raise ValueError(f"Replay: {name}: its '{where}' has {len(events):,} events; a replay "
                         f"steps through up to {MAX_EVENTS:,}")
    checked: list[dict[str, Any]] = []
    for index, event in enumerate(events):
        at = f"{where}[{index}]"
        if not isinstance(event, Mapping):
            raise ValueError(f"Replay: {name}: {at} is {json_kind(event)}, not an event (an "
                             "object with a 'type')")
        if "type" not in event:
            raise ValueError(f"Replay: {name}: {at} has no 'type'")
        kind = event["type"]
        if not isinstance(kind, str):
            raise ValueError(f"Replay: {name}: {at}'s 'type' is {_shown(kind)}, not a string")
        field = _TEXT_FIELDS.get(kind)
        if field is not None and not isinstance(event.get(field), str):
            raise ValueError(f"Replay: {name}: {at} is a '{kind}' event without its "
                             f"'{field}' as text")
        wrong = _field_error(event, at) if strict else None
        if wrong is not None:
            raise ValueError(f"Replay: {DataFileError(name, *wrong)}")
        try:
            checked.append(json_safe(event))
        except RecursionError:
            raise ValueError(f"Replay: {name}: {at} nests too deeply") from None
    return checked


def _field_error(event: Mapping[str, Any], where: str) -> tuple[str, str] | None:
    """Where and how ``event`` is not of its kind: a runtime event (``EVENT_SHAPES``, with
    the fields the widget adds, ``WIDGET_FIELDS``) or one of the widget's own entries
    (``WIDGET_ENTRIES``); ``None`` when it is."""
    kind = event["type"]
    if kind in WIDGET_ENTRIES:
        return type_error(dict(event), WIDGET_ENTRIES[kind], where)
    if kind not in EVENT_SHAPES:
        return field_at(where, "type"), f"{_shown(kind)} is not an event type a replay shows"
    added = WIDGET_FIELDS.get(kind, {})
    for key, shapes in added.items():
        if key in event:
            wrong = type_error(event[key], Union[shapes], field_at(where, key))  # noqa: UP007
            if wrong is not None:
                return wrong
    own = {key: value for key, value in event.items() if key not in added}
    return type_error(own, EVENT_SHAPES[kind], where)


def _shown(value: Any) -> str:
    """A value from the file, short, for an error message."""
    text = repr(value)
    return text if len(text) <= 60 else f"{text[:59]}…"


def _megabytes(size: int) -> str:
    return f"{size / (1024 * 1024):.1f} MB"
