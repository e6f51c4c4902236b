"""Preview templates: ``"Add the note '{text}'"`` filled from a payload, safely and briefly.

A placeholder names a field of the payload (``{text}``, ``{author.name}``, ``{columns[0]}``),
optionally with a format spec for numbers (``{price:.2f}``). Fields are looked up in the
payload's dicts and lists only — never through attributes, unlike ``str.format`` — a missing
field renders empty, and every value is cut short so a preview stays one line.

    >>> render("Add the note '{text}'", {"text": "buy milk"})
    "Add the note 'buy milk'"
    >>> render("Drop {columns}", {"columns": ["a", "b"]})
    'Drop a, b'
"""

from __future__ import annotations

import json
import re
import string
from typing import Any

#: Longest preview, and longest value inside one.
MAX_PREVIEW = 300
MAX_VALUE = 80

_PART = re.compile(r"\[(\d+)\]|\.?([^.\[\]]+)")
_FORMATTER = string.Formatter()


def check_template(template: str) -> None:
    """Raise ``ValueError`` unless ``template`` is a well-formed preview template."""
    try:
        fields = [name for _, name, _, _ in _FORMATTER.parse(template) if name is not None]
    except ValueError as error:
        raise ValueError(f"preview template {template!r} is malformed: {error}") from None
    for name in fields:
        if not name or name.isdigit():
            raise ValueError(f"preview template {template!r}: each {{}} must name a payload field")


def render(template: str, payload: Any) -> str:
    """``template`` with each ``{field}`` replaced by that field of ``payload``."""
    pieces = []
    for literal, name, spec, _ in _FORMATTER.parse(template):
        pieces.append(literal)
        if name is None:
            continue
        value = lookup(payload, name)
        if spec and isinstance(value, int | float) and not isinstance(value, bool):
            try:
                pieces.append(format(value, spec))
                continue
            except ValueError:
                pass
        pieces.append(text(value))
    return _cut("".join(pieces), MAX_PREVIEW)


def lookup(payload: Any, name: str) -> Any:
    """The value at ``name`` (``a.b[0]``) in ``payload``; ``None`` when there is none."""
    value = payload
    for index, key in _PART.findall(name):
        if index and isinstance(value, list) and int(index) < len(value):
            value = value[int(index)]
        elif key and isinstance(value, dict):
            value = value.get(key)
        else:
            return None
    return value


def text(value: Any, _depth: int = 0) -> str:
    """A payload value as a person reads it in one line."""
    if _depth > 3:
        return "…"
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return _cut(" ".join(value.split()), MAX_VALUE)
    if isinstance(value, list):
        shown = ", ".join(text(item, _depth + 1) for item in value[:5])
        more = f" and {len(value) - 5} more" if len(value) > 5 else ""
        return _cut(shown, MAX_VALUE) + more
    if isinstance(value, dict):
        try:
            return _cut(json.dumps(value, ensure_ascii=False, default=str), MAX_VALUE)
        except (ValueError, RecursionError):  # cyclic or very deep
            return "{…}"
    return _cut(str(value), MAX_VALUE)


def summary(action: str, payload: Any) -> str:
    """The preview of an action that has none: its name and its first fields.

        >>> summary("add-note", {"text": "buy milk"})
        'add-note (text: buy milk)'
    """
    if not isinstance(payload, dict) or not payload:
        return action
    fields = [f"{key}: {text(value)}" for key, value in list(payload.items())[:3]]
    more = ", …" if len(payload) > 3 else ""
    return _cut(f"{action} ({', '.join(fields)}{more})", MAX_PREVIEW)


def _cut(value: str, limit: int) -> str:
    return value if len(value) <= limit else value[: limit - 1] + "…"
