"""What the turn loop hands the person, turned into plain JSON for the front end.

The runtime passes a suggestion (``id, action, text, payload, preview, destructive`` and
``issue`` after a refused edit) and an ask (``text, response_type, options``) as dicts or as
objects with those attributes; the widget shows them from synced traits, so both become dicts
here. A refused edit's ``issue`` may be a string or the domain's refusal
(``code, field, hint, errors``); either way the front end gets ``issue`` (the words to show)
and ``errors`` (``[{field, message}]``, one per schema error).

    >>> issue, errors = issue_of({"issue": {"code": "invalid", "hint": "text is required",
    ...                     "errors": [{"field": "text", "message": "too short"}]}})
    >>> issue["text"], errors
    ('text is required', [{'field': 'text', 'message': 'too short'}])
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ._serialise import json_safe

SUGGESTION_FIELDS = ("id", "action", "text", "payload", "preview", "destructive", "issue",
                     "edits_left")
ASK_FIELDS = ("text", "response_type", "options")


def as_dict(value: Any, fields: tuple[str, ...]) -> dict[str, Any]:
    """``value`` as a dict of ``fields`` (a mapping is copied, an object read by attribute)."""
    if isinstance(value, Mapping):
        return dict(value)
    return {name: getattr(value, name) for name in fields if hasattr(value, name)}


def _get(value: Any, name: str) -> Any:
    if isinstance(value, Mapping):
        return value.get(name)
    return getattr(value, name, None)


def issue_of(suggestion: Mapping[str, Any]) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    """The refused edit's issue as ``({text, code, field}, errors)``; ``(None, [])`` if none."""
    issue = suggestion.get("issue")
    if issue is None or issue == "" or issue == {}:
        return None, []
    if isinstance(issue, str):
        shown: dict[str, Any] = {"text": issue, "code": None, "field": None}
        raw_errors = suggestion.get("errors") or []
    else:
        hint = _get(issue, "hint") or _get(issue, "message") or _get(issue, "error")
        code = _get(issue, "code")
        shown = {"text": str(hint or code or "The edit was refused."), "code": code,
                 "field": _get(issue, "field")}
        raw_errors = _get(issue, "errors") or suggestion.get("errors") or []
    errors = [
        {"field": str(_get(error, "field") or ""), "message": str(_get(error, "message") or "")}
        for error in list(raw_errors)[:100]
    ]
    if not errors and shown["field"]:
        errors = [{"field": str(shown["field"]), "message": shown["text"]}]
    return json_safe(shown), errors


def options_of(ask: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The ask's options as ``[{value, label, default, disabled}]`` (strings allowed)."""
    shown = []
    for option in ask.get("options") or []:
        if isinstance(option, str):
            shown.append({"value": option, "label": option, "default": False, "disabled": False})
            continue
        value = _get(option, "value")
        label = _get(option, "label") or _get(option, "text") or value
        shown.append({
            "value": "" if value is None else str(value),
            "label": "" if label is None else str(label),
            "default": bool(_get(option, "default")),
            "disabled": bool(_get(option, "disabled")),
        })
    return shown
