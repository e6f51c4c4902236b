"""The check of a saved conversation's transcript: every event of a known shape
(``_contract``), every field of its kind, every enumerated field among its values.

    >>> check_transcript([{"type": "sent", "turn": 1, "message": "hi"}])
    >>> check_transcript([{"type": "sent", "turn": -1, "message": "hi"}])
    Traceback (most recent call last):
    ...
    dial_notebook.SnapshotError: transcript[0].turn must be a whole number ≥ 0, not -1
"""

from __future__ import annotations

from typing import Any

from ..dial import RESPONSE_TYPES, SIGNALS, STATUSES
from ._contract import shape_errors
from ._snapshot_values import as_count, as_dict, as_list, as_str, fail, one_of

#: Most events a transcript may hold.
MAX_EVENTS = 200_000

#: What an inform event's ``act`` may be: an element's kind, or a note of the runtime's.
INFORM_ACTS = ("inform", "acknowledge", "skipped", "addressed-elsewhere", "unread")
#: Enumerated fields of the events: (type, field) → the values they may take.
EVENT_ENUMS: dict[tuple[str, str], tuple[str, ...]] = {
    ("outcome", "status"): tuple(STATUSES), ("ask", "response_type"): RESPONSE_TYPES,
    ("inform", "act"): INFORM_ACTS, ("suggestion", "kind"): ("execute",),
    ("phatic", "signal"): SIGNALS,
}
_STRINGS = {
    "sent": ("message",), "reply": ("text",), "no-reply": ("error",), "declare": ("key",),
    "inform": ("text", "of", "render", "element", "reason", "addressed_to"),
    "ask": ("id", "text"), "suggestion": ("id", "action", "text", "preview", "rule"),
    "outcome": ("id", "action", "preview", "error", "rule", "reason", "block", "command", "to"),
    "delegate": ("id", "to", "text"), "undo-failed": ("id", "error"), "phatic": ("id",),
}
_BOOLEANS = {
    "reply": ("truncated",), "suggestion": ("destructive", "mutates", "confirmed", "allowable"),
    "outcome": ("edited", "resume"), "delegate": ("resume", "registered"),
}
_COUNTS = {
    "sent": ("turn",), "reply": ("turn", "chars"), "no-reply": ("turn",),
    "turn-limit": ("turns",), "suggestion": ("edits_left",),
}


def event_values(event: dict[str, Any], where: str) -> None:
    """Every field of a known event with a value of its kind; enumerated ones in their set."""
    kind = event["type"]
    for key in _STRINGS.get(kind, ()):
        if key in event and event[key] is not None:
            as_str(event[key], f"{where}.{key}")
    for key in _BOOLEANS.get(kind, ()):
        if key in event and not isinstance(event[key], bool):
            raise fail(f"{where}.{key}", "must be true or false")
    for key in _COUNTS.get(kind, ()):
        if key in event:
            as_count(event[key], f"{where}.{key}")
    for (of, key), values in EVENT_ENUMS.items():
        if of == kind and key in event:
            one_of(event[key], values, f"{where}.{key}")
    if kind == "ask":
        for n, option in enumerate(as_list(event["options"], f"{where}.options")):
            here = f"{where}.options[{n}]"
            as_dict(option, here)
            for key in ("value", "label"):
                as_str(option.get(key), f"{here}.{key}")
            for key in ("default", "disabled"):
                if not isinstance(option.get(key), bool):
                    raise fail(f"{here}.{key}", "must be true or false")
    if kind == "outcome":
        for key in ("code", "field", "hint"):
            if event.get(key) is not None:
                as_str(event[key], f"{where}.{key}")


def check_transcript(value: Any) -> None:
    events = as_list(value, "transcript")
    if len(events) > MAX_EVENTS:
        raise fail("transcript", f"has {len(events):,} events; at most {MAX_EVENTS:,} are read")
    for n, event in enumerate(events):
        where = f"transcript[{n}]"
        as_dict(event, where)
        if not isinstance(event.get("type"), str):
            raise fail(where, "has no 'type'")
        errors = shape_errors(event)
        if errors:
            raise fail(where, f"is not an event: {errors[0]}")
        event_values(event, where)
