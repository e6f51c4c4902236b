"""Text for the static copy: escaped, bounded, readable (as js/src/text.js writes it). Every
string from a transcript reaches the HTML through ``esc`` or ``text_html``; past its bound a text
is clipped and says so; direction controls are shown by name.

    >>> text_html("<b>" + "x" * 5, 4)
    '&lt;b&gt;x<span class="dial-clipped">… 4 more characters not shown</span>'
    >>> js_string(2.0), summarise({"a": 1}), humanise("due_date")
    ('2', '{"a":1}', 'Due date')
"""

from __future__ import annotations

import html
import json
import math
import re
from collections.abc import Mapping
from typing import Any

from dial_notebook.dial import HIDDEN_CHARACTERS as HIDDEN

#: Characters of one text shown (prose, a preview, an answer …); the rest is clipped, said so.
TEXT_CHARS = 20_000
#: Characters of one JSON block (a payload, a result) and of each wire text (sent, reply) in an
#: export.
JSON_CHARS = 20_000
#: Characters of each wire text in the notebook's copy: the median turn's whole text (the long
#: ones are outcomes' declares, a chart's data included, which made the copy twice the session
#: file); the session file and an export hold them whole.
NOTEBOOK_WIRE_CHARS = 1_200
#: Turns whose wire the notebook's copy shows, the latest (a 2,000-event analysis session has
#: 300, whose wire was a third of its copy; the widget shows none): an export shows every turn's.
NOTEBOOK_WIRE_TURNS = 20
#: Characters of one command: shown whole up to this (a longer one says how much is not shown).
COMMAND_CHARS = 200_000
#: Items of a list or card list, options of a question.
CARD_ITEMS = 100

_NAME = re.compile(r"[^a-z0-9-]+")
_DIRECTION = re.compile("[\u202a-\u202e\u2066-\u2069]")


def esc(value: Any) -> str:
    """``value`` as text safe anywhere in HTML: in an element or a quoted attribute."""
    return html.escape(value if isinstance(value, str) else str(value), quote=True)


def as_string(value: Any) -> str:
    return value if isinstance(value, str) else "" if value is None else js_string(value)


def clip(value: Any, limit: int) -> str:
    text = as_string(value)
    return text if len(text) <= limit else text[:limit]


def text_only(value: str) -> str:
    """``value`` escaped for an element's text, not an attribute: ``&`` and ``<`` (and ``>``),
    quotes left as they are (a wire text is full of them: six characters each, escaped)."""
    return html.escape(value, quote=False)


def clipped_note(more: int) -> str:
    return f'<span class="dial-clipped">… {more:,} more characters not shown</span>'


def text_html(value: Any, limit: int = TEXT_CHARS, *, exact: bool = False) -> str:
    """``value`` escaped; past ``limit`` characters, clipped with a note that says so. The
    direction controls (the "Trojan Source" characters, which make text read otherwise than it
    is) are shown by name, unless ``exact``: the wire text, whose hidden characters are named
    above it."""
    text = as_string(value)
    shown, more = (text, 0) if len(text) <= limit else (text[:limit], len(text) - limit)
    body = esc(shown) if exact or _DIRECTION.search(shown) is None else marked(shown, _DIRECTION)
    return body + (clipped_note(more) if more else "")


def revealed(text: str, limit: int) -> str:
    """``text`` escaped, with every hidden character shown by name, ⟨U+202E⟩, marked."""
    shown, more = (text, 0) if len(text) <= limit else (text[:limit], len(text) - limit)
    out = marked(shown, HIDDEN)
    if more:
        out += (f'<span class="dial-clipped">… {more:,} more characters not shown: this '
                "copy does not hold the whole command</span>")
    return out


def marked(text: str, pattern: Any) -> str:
    out, last = [], 0
    for match in pattern.finditer(text):
        out.append(esc(text[last:match.start()]))
        code = f"U+{ord(match.group()):04X}"
        out.append(f'<span class="dial-hidden-char" title="Invisible character {code}">'
                   f"⟨{code}⟩</span>")
        last = match.end()
    out.append(esc(text[last:]))
    return "".join(out)


def js_string(value: Any) -> str:
    """A scalar as JavaScript's String() writes it (true, null, 12 for 12.0)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if not math.isfinite(value):
            return "NaN" if math.isnan(value) else "Infinity" if value > 0 else "-Infinity"
        if value.is_integer() and abs(value) < 1e21:
            return str(int(value))
        return repr(value)
    if isinstance(value, int | str):
        return str(value)
    return summarise(value, 240)


def cell_text(value: Any) -> str:
    """A table cell: numbers to six significant digits, objects summarised (inform.js)."""
    if value is None:
        return ""
    if isinstance(value, float) and math.isfinite(value) and not value.is_integer():
        return js_string(float(f"{value:.6g}"))
    if isinstance(value, Mapping | list):
        return summarise(value, 120)
    return js_string(value)


def json_text(value: Any, *, indent: int | None = 2) -> str:
    try:
        return json.dumps(value, indent=indent, ensure_ascii=False, default=str,
                          separators=None if indent else (",", ":"))
    except (TypeError, ValueError, RecursionError):
        return str(value)


def summarise(value: Any, limit: int = 240) -> str:
    """Short, readable text for any JSON value (text.js: summarise)."""
    text = "" if value is None else value if isinstance(value, str) else json_text(
        value, indent=None)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def result_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, Mapping) and value and len(value) <= 6 and all(
            not isinstance(v, Mapping | list) for v in value.values()):
        return summarise(", ".join(f"{k}: {js_string(v)}" for k, v in value.items()))
    return summarise(value)


def humanise(name: str) -> str:
    text = re.sub(r"[_-]+", " ", name).strip()
    return text[:1].upper() + text[1:]


def class_name(value: str) -> str:
    """A class-name part made from a status or type: lower-case letters, digits, hyphens."""
    return _NAME.sub("", value.lower())[:40] or "unknown"


def as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []




def json_block(value: Any) -> str:
    return f'<pre class="dial-code"><code>{text_html(json_text(value), JSON_CHARS)}</code></pre>'


def details_html(summary: str, body: str, kind: str) -> str:
    return (f'<details class="{kind}"><summary>{esc(summary)}</summary>'
            f'<div class="dial-details-body">{body}</div></details>')
