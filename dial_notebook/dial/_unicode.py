"""Characters a person cannot see in a command: found, named and made visible.

A command shown on a card must read as what will run. Unicode direction controls (U+202E and
U+2066–U+2069, the "Trojan Source" characters) reorder what is displayed without changing what
runs; zero-width and other invisible characters hide text in plain sight; control characters
(an ESC starting a terminal sequence) can rewrite what a terminal shows. All of them are
*hidden characters* here:

    category Cc (controls) except tab, newline and carriage return
    category Cf (format: direction controls, zero-width space and joiners, soft hyphen, tags)
    categories Zl, Zp (line / paragraph separators), Cs (lone surrogates)
    variation selectors (U+FE00–U+FE0F, U+E0100–U+E01EF) and the Hangul fillers
    (U+115F, U+1160, U+3164, U+FFA0), letters that draw nothing

``reveal`` replaces each with its visible name, ``⟨U+202E⟩``; the front end does the same with
one regular expression over the same categories (``js/src/text.js: revealHidden``), and a test
checks that both agree over every code point.

    >>> hidden_characters("ls\\u202e -la")
    ['U+202E']
    >>> reveal("ls\\u202e -la")
    'ls⟨U+202E⟩ -la'
"""

from __future__ import annotations

import regex

#: One character class of every hidden character (``regex``'s Unicode tables, which are newer
#: than ``unicodedata``'s on Python 3.11 and match the browser's).
HIDDEN = regex.compile(
    r"[[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\u115F\u1160\u3164\uFFA0\uFE00-\uFE0F"
    r"\U000E0100-\U000E01EF]--[\t\n\r]]",
    regex.VERSION1,
)


def is_hidden(char: str) -> bool:
    """Whether ``char`` (one character) is invisible or changes how text around it shows."""
    return HIDDEN.fullmatch(char) is not None


def name(char: str) -> str:
    """``U+202E`` for ``'\\u202e'``."""
    return f"U+{ord(char):04X}"


def hidden_characters(text: str) -> list[str]:
    """The hidden characters in ``text``, each named once, in order of first appearance."""
    return list(dict.fromkeys(name(match.group()) for match in HIDDEN.finditer(text)))


def reveal(text: str) -> str:
    """``text`` with every hidden character replaced by its visible name, ``⟨U+202E⟩``."""
    return HIDDEN.sub(lambda match: f"⟨{name(match.group())}⟩", text)
