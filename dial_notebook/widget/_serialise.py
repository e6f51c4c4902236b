"""JSON-safe copies of events for the widget's synced traits.

The browser's ``JSON.parse`` rejects Python's ``NaN`` / ``Infinity``, and a trait must hold
plain JSON: this module turns any event into dicts, lists, strings, finite numbers, booleans
and ``None``.

    >>> json_safe({"x": float("nan"), "t": (1, 2)})
    {'x': None, 't': [1, 2]}
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

_MAX_DEPTH = 200


def json_safe(value: Any, _depth: int = 0) -> Any:
    """A copy of ``value`` that ``JSON.parse`` accepts.

    Non-finite floats become ``None``; tuples and sets become lists; mapping keys become
    strings; objects that are none of these become their ``str``; nesting past 200 levels is
    cut to a ``"…"`` string.

        >>> json_safe([1.5, float("inf"), {1: "a"}])
        [1.5, None, {'1': 'a'}]
    """
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if _depth >= _MAX_DEPTH:
        return "…"
    if isinstance(value, Mapping):
        return {str(key): json_safe(item, _depth + 1) for key, item in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [json_safe(item, _depth + 1) for item in value]
    if isinstance(value, bytes):
        return f"<{len(value)} bytes>"
    return str(value)
