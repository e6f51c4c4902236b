"""The checks of one value of a saved conversation, each naming where it is wrong.

Every reader of a snapshot's parts (``_snapshot``, ``_snapshot_events``, ``_snapshot_say``)
checks its values with these: the value is returned when it is of its kind, else a
``SnapshotError`` names the place ("say.turn must be a whole number ≥ 0, not -1").

    >>> as_count(3, "ids.asks")
    3
    >>> as_list({}, "transcript")
    Traceback (most recent call last):
    ...
    dial_notebook.SnapshotError: transcript must be a list, not an object
"""

from __future__ import annotations

from typing import Any

from .._json_kind import json_kind
from ..dial import STATUSES


class SnapshotError(ValueError):
    """A saved conversation that cannot be read back; the message says what is wrong.

        >>> from dial_notebook.runtime import read_snapshot
        >>> read_snapshot({"format": "something else"})
        Traceback (most recent call last):
        ...
        dial_notebook.SnapshotError: not a saved conversation: format is 'something else', expected 'dial-notebook/conversation'
    """


def fail(where: str, what: str) -> SnapshotError:
    return SnapshotError(f"{where} {what}" if where else what)


def as_dict(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise fail(where, f"must be an object, not {json_kind(value)}")
    return value


def as_list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise fail(where, f"must be a list, not {json_kind(value)}")
    return value


def as_str(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise fail(where, f"must be a string, not {json_kind(value)}")
    return value


def as_count(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise fail(where, f"must be a whole number ≥ 0, not {value!r}")
    return value


def as_key(value: Any, where: str) -> tuple[int, int]:
    pair = as_list(value, where)
    if len(pair) != 2:
        raise fail(where, "must be [envelope, position]")
    return as_count(pair[0], f"{where}[0]"), as_count(pair[1], f"{where}[1]")


def outcome(value: Any, where: str) -> dict[str, Any]:
    """An outcome: id, action, status (one of the language's) and preview."""
    found = as_dict(value, where)
    for key in ("id", "action", "status", "preview"):
        as_str(found.get(key), f"{where}.{key}")
    if found["status"] not in STATUSES:
        raise fail(f"{where}.status", f"is {found['status']!r}, not an outcome status "
                                     f"({', '.join(STATUSES)})")
    return found


def outcomes(value: Any, where: str) -> list[dict[str, Any]]:
    return [outcome(o, f"{where}[{n}]") for n, o in enumerate(as_list(value, where))]


def one_of(value: Any, values: tuple[str, ...], where: str) -> None:
    if not isinstance(value, str) or value not in values:
        raise fail(where, f"is {value!r}, not one of {', '.join(values)}")
