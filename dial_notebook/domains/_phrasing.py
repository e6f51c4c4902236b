"""How a refusal writes things for a person: a field's path, a value, a list of choices, the
closest name ("did you mean"), a count with its noun.

Values are shown short (strings cut at 40 characters, lists and objects named, never
printed), and "did you mean" is bounded whatever the agent wrote (``MAX_SUGGEST_CHARS``,
``MAX_CANDIDATES``). Every hint of the domains (``_hints``, the frames' checks, expressions,
action options) is phrased with these.

    >>> field_name(["where", 0, "column"]), show("high"), plural(2, "item")
    ('where[0].column', "'high'", '2 items')
"""

from __future__ import annotations

import difflib
import itertools
import re
from collections.abc import Iterable, Sequence
from typing import Any

#: Longest word (and candidate) a "did you mean" compares: longer ones get no suggestion.
MAX_SUGGEST_CHARS = 64
#: Most candidates one "did you mean" compares the word with.
MAX_CANDIDATES = 200

_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")


def field_name(path: Sequence[str | int]) -> str:
    """The path written the way a person reads it; ``""`` for the payload itself.

        >>> field_name(["columns", 1, "name"])
        'columns[1].name'
    """
    text = ""
    for part in path:
        if isinstance(part, int):
            text += f"[{part}]"
        elif _IDENTIFIER.match(part):
            text += f".{part}" if text else part
        else:
            key = part if len(part) <= 100 else part[:99] + "…"
            text += "['" + key.replace("\\", "\\\\").replace("'", "\\'") + "']"
    return text


def subject(path: Sequence[str | int]) -> str:
    """What a sentence about ``path`` is about: its field, or the payload itself."""
    return field_name(path) or "the payload"


def show(value: Any) -> str:
    """A value shown short: strings quoted and cut, lists and objects named, JSON literals.

        >>> show("high"), show(True), show(None), show([1, 2])
        ("'high'", 'true', 'null', 'a list of 2 items')
    """
    if isinstance(value, str):
        text = value if len(value) <= 40 else value[:39] + "…"
        return "'" + text.replace("\n", "\\n") + "'"
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, int | float):
        text = repr(value)
        return text if len(text) <= 40 else f"{value:.6g}"
    if isinstance(value, list | tuple):
        return f"a list of {len(value)} item{'' if len(value) == 1 else 's'}"
    if isinstance(value, dict):
        return "an object"
    return "a " + type(value).__name__


def kind(value: Any) -> str:
    """What kind of JSON value ``value`` is, as a refusal names it ("not a string")."""
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool | int | float) or value is None:
        return show(value)
    return show(value) if isinstance(value, list | tuple) else "an object"


def either(phrases: Sequence[str]) -> str:
    """``a, b or c`` (each phrase once)."""
    unique = list(dict.fromkeys(phrases))
    if len(unique) == 1:
        return unique[0]
    return ", ".join(unique[:-1]) + " or " + unique[-1]


def choices(values: Sequence[Any]) -> str:
    """``one of 'a', 'b'`` (at most 12 shown), or the only value."""
    if len(values) == 1:
        return show(values[0])
    shown = [show(value) for value in values[:12]]
    more = f", … ({len(values)} values)" if len(values) > 12 else ""
    return "one of " + ", ".join(shown) + more


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def did_you_mean(word: Any, candidates: Iterable[Any]) -> str:
    """`` (did you mean 'x'?)`` naming the closest candidate to ``word``, or ``''``.

    Bounded, whatever the agent wrote: a word longer than ``MAX_SUGGEST_CHARS`` gets no
    suggestion, and it is compared with at most ``MAX_CANDIDATES`` names of at most that length.

        >>> did_you_mean("colour", ["color", "size"])
        " (did you mean 'color'?)"
    """
    if not isinstance(word, str) or len(word) > MAX_SUGGEST_CHARS:
        return ""
    names = [name for name in itertools.islice(candidates, MAX_CANDIDATES * 5)
             if isinstance(name, str) and len(name) <= MAX_SUGGEST_CHARS][:MAX_CANDIDATES]
    folded = {name.lower(): name for name in names}
    if word.lower() in folded:
        return f" (did you mean {show(folded[word.lower()])}?)"
    scored = [
        (difflib.SequenceMatcher(None, word, name).ratio(), _shared_prefix(word, name), -i, name)
        for i, name in enumerate(names)
    ]
    best = max(scored, default=None)
    return f" (did you mean {show(best[3])}?)" if best and best[0] >= 0.6 else ""


def _shared_prefix(one: str, two: str) -> int:
    count = 0
    for left, right in zip(one, two, strict=False):
        if left != right:
            break
        count += 1
    return count
