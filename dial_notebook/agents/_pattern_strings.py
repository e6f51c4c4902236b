"""Strings that a regex ``pattern`` matches, made from the pattern itself, for schema payloads.

``from_pattern`` reads a pattern with Python's own regex parser and writes one string it
matches: literals, character classes (a plain character of the class: a letter, a digit or
one of ``_-. @``, when it has one), repeats (their minimum, plus ``stretch``), groups and
alternatives (the first branch). Lookarounds, back references and whatever Python's parser
does not read give None, and the value maker (``_schema_values.py``) falls back to its other
candidates. Nothing is random. It uses no other module of the package.
"""

from __future__ import annotations

from typing import Any


class _Unmade(Exception):
    """A part of the pattern that no string made here matches."""


#: The characters tried for a character class, in order.
_NICE = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-. @"


def from_pattern(pattern: str, stretch: int = 0) -> str | None:
    """A string that ``pattern`` matches, for simple patterns; None for the rest
    (lookarounds, back references, what Python's parser does not read). Each repeat is
    made ``stretch`` times more than its minimum.

        >>> from_pattern(r"^[A-Z]{2}-\\d{3}$"), from_pattern(r"^[a-z]+(_[a-z]+)*$", 1)
        ('AA-000', 'aa_aa')
    """
    try:
        import re._parser as parser

        parsed = parser.parse(pattern)
    except Exception:
        return None
    try:
        return _emit(list(parsed), stretch, 0)
    except (_Unmade, RecursionError):
        return None


def _emit(items: list[Any], stretch: int, depth: int) -> str:
    if depth > 20:
        raise _Unmade("pattern nests too deeply")
    out = []
    for op, arg in items:
        kind = str(op)
        if kind == "LITERAL":
            out.append(chr(arg))
        elif kind == "NOT_LITERAL":
            out.append("a" if chr(arg) != "a" else "b")
        elif kind == "ANY":
            out.append("a")
        elif kind == "IN":
            out.append(_pick(arg))
        elif kind in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            low, high, sub = arg
            times = min(low + stretch, high) if low or stretch else 0
            out.append(_emit(list(sub), stretch, depth + 1) * times if times else "")
        elif kind == "SUBPATTERN":
            out.append(_emit(list(arg[-1]), stretch, depth + 1))
        elif kind == "ATOMIC_GROUP":
            out.append(_emit(list(arg), stretch, depth + 1))
        elif kind == "BRANCH":
            out.append(_emit(list(arg[1][0]), stretch, depth + 1))
        elif kind == "AT":
            continue
        else:  # GROUPREF, ASSERT, ASSERT_NOT, GROUPREF_EXISTS …
            raise _Unmade(f"pattern element {kind} is not made here")
    return "".join(out)


def _pick(items: list[Any]) -> str:
    negate = any(str(op) == "NEGATE" for op, _ in items)
    for char in _NICE:
        if _in_set(items, char) != negate:
            return char
    if not negate:
        for op, arg in items:
            if str(op) == "LITERAL":
                return chr(arg)
            if str(op) == "RANGE":
                return chr(arg[0])
    raise _Unmade("no character of the class is made here")


def _in_set(items: list[Any], char: str) -> bool:
    code = ord(char)
    for op, arg in items:
        kind = str(op)
        if (kind == "LITERAL" and arg == code) or (kind == "RANGE" and arg[0] <= code <= arg[1]):
            return True
        if kind == "CATEGORY":
            category = str(arg)
            matched = {
                "CATEGORY_DIGIT": char.isdigit(), "CATEGORY_NOT_DIGIT": not char.isdigit(),
                "CATEGORY_WORD": char.isalnum() or char == "_",
                "CATEGORY_NOT_WORD": not (char.isalnum() or char == "_"),
                "CATEGORY_SPACE": char.isspace(), "CATEGORY_NOT_SPACE": not char.isspace(),
            }.get(category, False)
            if matched:
                return True
    return False

