"""Saving an agent's own state and checking it on the way back: ``snapshot()`` / ``restore()``.

An agent that keeps state between turns (the SDK agents' history and usage, how far a
``ScriptedAgent`` is in its script, a demo brain's open question) writes it as plain JSON:
``{"kind": …, "version": 1, …}``. What ``restore`` reads comes from a file and is untrusted:
every field is checked here, strictly, before anything is changed, and a wrong one raises
``ValueError`` naming it (``history[3].role must be …``). Sizes are bounded: at most
``MAX_MESSAGES`` messages (and entries of any list or object), ``MAX_TEXT`` characters of
text in all, ``MAX_DEPTH`` levels of nesting and ``MAX_VALUES`` values in saved payloads.

    >>> saved = Saved({"kind": "scripted", "version": 1, "used": 2}, "scripted", "Agent")
    >>> saved.fields("used")
    >>> saved.count("used", most=5)
    2
    >>> Saved({"kind": "openai", "version": 1}, "scripted", "Agent")
    Traceback (most recent call last):
    ...
    ValueError: cannot restore Agent: kind is 'openai', not 'scripted' (this is a saved openai agent)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any, NoReturn

from .._json_kind import json_kind

#: The one version of an agent's saved state this package writes and reads.
VERSION = 1
#: Most messages in a saved history (and entries in any saved list or object).
MAX_MESSAGES = 10_000
#: Most characters of text (strings, keys included) in one saved agent: 20 million.
MAX_TEXT = 20_000_000
#: Deepest nesting of a saved JSON value (a payload inside the state).
MAX_DEPTH = 64
#: Most values (numbers, strings, lists … at any depth) in the saved payloads of one agent.
MAX_VALUES = 1_000_000
#: Largest count (tokens, replies used): what JavaScript's numbers hold exactly.
MAX_COUNT = 2**53 - 1
#: The roles of a saved history, in turn: user first.
ROLES = ("user", "assistant")


def header(kind: str) -> dict[str, Any]:
    """The start of every saved agent.

        >>> header("openai")
        {'kind': 'openai', 'version': 1}
    """
    return {"kind": kind, "version": VERSION}


def plain(value: Any, depth: int = 0) -> Any:
    """A copy of ``value`` as plain JSON (dicts with str keys, lists, str, int, float, bool,
    None) to save: tuples become lists; a float that JSON cannot hold (NaN, ±inf), or
    anything else, becomes its text.

        >>> plain({"a": (1, 2.5, float("nan")), "b": None})
        {'a': [1, 2.5, 'nan'], 'b': None}
    """
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if depth >= MAX_DEPTH:
        return str(value)
    if isinstance(value, Mapping):
        return {str(key): plain(item, depth + 1) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [plain(item, depth + 1) for item in value]
    return str(value)


class Saved:
    """Reads one saved agent: checks its kind, version and keys on creation, then each field
    as it is asked for, and counts its text against ``MAX_TEXT``.

    Args:
        data: what ``restore`` was given.
        kind: the kind this agent writes (``"openai"`` …).
        agent: the agent's class name, for the messages.
    """

    def __init__(self, data: Any, kind: str, agent: str) -> None:
        self.agent = agent
        #: Characters of text, and payload values, read so far.
        self.text = 0
        self.values = 0
        if not isinstance(data, Mapping):
            self.fail(f"a saved agent is a JSON object, not {json_kind(data)}")
        self.data = data
        found = data.get("kind")
        if found != kind:
            shown = repr(found) if isinstance(found, str) else json_kind(found)
            known = f" (this is a saved {found[:40]} agent)" if isinstance(found, str) and \
                found else ""
            self.fail(f"kind is {shown[:60]}, not {kind!r}{known}")
        version = data.get("version")
        if isinstance(version, bool) or not isinstance(version, int):
            self.fail(f"version must be a whole number, not {json_kind(version)}")
        if version != VERSION:
            self.fail(f"version {version} is not known (this dial-notebook reads version "
                      f"{VERSION})")

    def fail(self, problem: str) -> NoReturn:
        """Raise the ``ValueError`` that says what is wrong."""
        raise ValueError(f"cannot restore {self.agent}: {problem}")

    def fields(self, *names: str) -> None:
        """Check that the saved agent has exactly ``kind``, ``version`` and ``names``."""
        allowed = {"kind", "version", *names}
        keys(self, self.data, "the saved agent", allowed, required=allowed)

    # -- one field each -------------------------------------------------------------------

    def count(self, name: str, most: int = MAX_COUNT) -> int:
        """The whole number ``name``, from 0 to ``most``."""
        return count(self, self.data[name], name, most)

    def string(self, name: str, *, null: bool = False, most: int = MAX_TEXT) -> str | None:
        """The text ``name`` (None allowed when ``null``)."""
        return string(self, self.data[name], name, null=null, most=most)

    def history(self, name: str = "history") -> list[dict[str, str]]:
        """A model's history: a list of ``{"role", "content"}``, roles alternating user,
        assistant (user first), every user message with its reply."""
        value = sized_list(self, self.data[name], name, MAX_MESSAGES, "messages")
        turns: list[dict[str, str]] = []
        for index, message in enumerate(value):
            where = f"{name}[{index}]"
            if not isinstance(message, Mapping):
                self.fail(f"{where} must be an object with role and content, not "
                          f"{json_kind(message)}")
            keys(self, message, where, {"role", "content"}, required={"role", "content"})
            role = message["role"]
            if role not in ROLES:
                shown = repr(role[:40]) if isinstance(role, str) else json_kind(role)
                self.fail(f"{where}.role must be 'user' or 'assistant', not {shown}")
            expected = ROLES[index % 2]
            if role != expected:
                self.fail(f"{where}.role must be {expected!r} (turns alternate, user first), "
                          f"not {role!r}")
            content = string(self, message["content"], f"{where}.content")
            turns.append({"role": role, "content": str(content)})
        if len(turns) % 2:
            self.fail(f"{name} ends with a user message without its reply "
                      f"({name}[{len(turns) - 1}])")
        return turns

    def usage(self, name: str, turns: int) -> list[dict[str, int | None]]:
        """Token usage: ``{"turns": [{"input", "output", "total"}, …]}``, one per completed
        turn (``turns`` of them), each count a whole number from 0, or null (not reported)."""
        value = self.data[name]
        if not isinstance(value, Mapping):
            self.fail(f"{name} must be an object with turns, not {json_kind(value)}")
        keys(self, value, name, {"turns"}, required={"turns"})
        listed = sized_list(self, value["turns"], f"{name}.turns", MAX_MESSAGES, "turns")
        if len(listed) != turns:
            self.fail(f"{name}.turns has {len(listed)} entries, but the history has {turns} "
                      f"completed turn{'' if turns == 1 else 's'}")
        out: list[dict[str, int | None]] = []
        for index, turn in enumerate(listed):
            where = f"{name}.turns[{index}]"
            if not isinstance(turn, Mapping):
                self.fail(f"{where} must be an object with input, output and total, not "
                          f"{json_kind(turn)}")
            names = {"input", "output", "total"}
            keys(self, turn, where, names, required=names)
            out.append({key: None if turn[key] is None else count(self, turn[key],
                                                                  f"{where}.{key}")
                        for key in ("input", "output", "total")})
        return out

    def mapping(self, name: str, read: Callable[[Any, str], Any]) -> dict[str, Any]:
        """An object of at most ``MAX_MESSAGES`` entries, each value read by
        ``read(value, where)``."""
        return mapping(self, self.data[name], name, read)


# -- checks, each naming where it failed ---------------------------------------------------


def keys(saved: Saved, value: Mapping[Any, Any], where: str, allowed: set[str],
         required: set[str]) -> None:
    """``value`` has every key of ``required`` and none outside ``allowed``."""
    missing = sorted(required - set(value))
    if missing:
        saved.fail(f"{where} has no {', '.join(repr(k) for k in missing)}")
    extra = [k for k in value if k not in allowed]
    if extra:
        shown = ", ".join(repr(str(k)[:40]) for k in extra[:5])
        saved.fail(f"{where} has unexpected key{'s' if len(extra) > 1 else ''} {shown}")


def count(saved: Saved, value: Any, where: str, most: int = MAX_COUNT) -> int:
    """A whole number from 0 to ``most`` (not a bool, not a float)."""
    if isinstance(value, bool) or not isinstance(value, int):
        saved.fail(f"{where} must be a whole number, not {json_kind(value)}")
    shown = value if abs(value) <= MAX_COUNT else "a number too large to show"
    if value < 0:
        saved.fail(f"{where} must not be negative ({shown})")
    if value > most:
        saved.fail(f"{where} is {shown}, more than {most}")
    return int(value)


def string(saved: Saved, value: Any, where: str, *, null: bool = False,
           most: int = MAX_TEXT) -> str | None:
    """A str (or None when ``null``), counted against the text budget."""
    if value is None and null:
        return None
    if not isinstance(value, str):
        saved.fail(f"{where} must be text{' or null' if null else ''}, not {json_kind(value)}")
    if len(value) > most:
        saved.fail(f"{where} is {len(value):,} characters long, more than {most:,}")
    spend(saved, len(value))
    return str(value)


def flag(saved: Saved, value: Any, where: str) -> bool:
    """true or false."""
    if not isinstance(value, bool):
        saved.fail(f"{where} must be true or false, not {json_kind(value)}")
    return bool(value)


def sized_list(saved: Saved, value: Any, where: str, most: int = MAX_MESSAGES,
               what: str = "entries") -> list[Any]:
    """A list of at most ``most`` entries."""
    if not isinstance(value, list):
        saved.fail(f"{where} must be a list, not {json_kind(value)}")
    if len(value) > most:
        saved.fail(f"{where} has {len(value):,} {what}, more than {most:,}")
    return value


def mapping(saved: Saved, value: Any, where: str,
            read: Callable[[Any, str], Any]) -> dict[str, Any]:
    """An object of at most ``MAX_MESSAGES`` entries with text keys; each value read by
    ``read(value, where)``."""
    if not isinstance(value, Mapping):
        saved.fail(f"{where} must be an object, not {json_kind(value)}")
    if len(value) > MAX_MESSAGES:
        saved.fail(f"{where} has {len(value):,} entries, more than {MAX_MESSAGES:,}")
    out: dict[str, Any] = {}
    for key, item in value.items():
        if not isinstance(key, str):
            saved.fail(f"{where} has a key that is not text ({json_kind(key)})")
        spend(saved, len(key))
        out[key] = read(item, f"{where}[{key[:40]!r}]")
    return out


def json_value(saved: Saved, value: Any, where: str, depth: int = 0) -> Any:
    """A copy of a plain JSON value (a payload): dicts with text keys, lists, text, numbers
    (finite), true, false, null; at most ``MAX_DEPTH`` deep."""
    if depth > MAX_DEPTH:
        saved.fail(f"{where} is nested more than {MAX_DEPTH} levels deep")
    saved.values += 1
    if saved.values > MAX_VALUES:
        saved.fail(f"its payloads hold more than {MAX_VALUES:,} values")
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            saved.fail(f"{where} is {value}, which JSON cannot hold")
        return float(value)
    if isinstance(value, str):
        return string(saved, value, where)
    if isinstance(value, list):
        items = sized_list(saved, value, where)
        return [json_value(saved, item, f"{where}[{index}]", depth + 1)
                for index, item in enumerate(items)]
    if isinstance(value, Mapping):
        return mapping(saved, value, where,
                       lambda item, inner: json_value(saved, item, inner, depth + 1))
    saved.fail(f"{where} must be a JSON value, not {json_kind(value)}")


def spend(saved: Saved, characters: int) -> None:
    """Count ``characters`` of text against ``MAX_TEXT``."""
    saved.text += characters
    if saved.text > MAX_TEXT:
        saved.fail(f"it holds more than {MAX_TEXT:,} characters of text")
