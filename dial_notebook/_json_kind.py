"""What kind of JSON value something is, in the words an error message uses.

    >>> [json_kind(v) for v in (None, True, 3, 2.5, "x", [1], {"a": 1})]
    ['null', 'a boolean', 'a number', 'a number', 'text', 'a list', 'an object']
    >>> json_kind(b"raw")   # not JSON at all: its Python type
    'a bytes'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def json_kind(value: Any) -> str:
    """``value``'s JSON type in words ('null', 'a boolean', 'a number', 'text', 'a list',
    'an object'); anything else by its Python type ('a bytes')."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, Mapping):
        return "an object"
    return f"a {type(value).__name__}"
