"""Repairs for the XML mistakes LLMs really make, each one reported.

Strict XML is tried first; when it fails, ``repair`` rewrites the envelope's source so that a
strict parse can read it *without changing any text*: a stray ``&`` becomes ``&amp;``, a ``<``
that opens no DIAL tag becomes ``&lt;`` (so ``make && ./run < in.txt 2>&1`` comes back
exactly), tags left open are closed, closing tags that close nothing are dropped, and
characters XML forbids (NUL, most control characters) are removed. Every scan is linear.

    >>> fixed, repairs = repair('<dial actor="a"><dial-inform>a && b</dial-inform>')
    >>> fixed
    '<dial actor="a"><dial-inform>a &amp;&amp; b</dial-inform></dial>'
    >>> [r.kind for r in repairs]
    ['escaped-ampersand', 'closed-tag']
"""

from __future__ import annotations

import re
from collections import Counter

from ._elements import ELEMENT_CLASSES, Repair

#: Tags a DIAL envelope may contain. Any other ``<dial-…>`` (a misspelt element) is kept as a
#: tag too, so it is reported rather than turned into text; every other ``<name`` is text.
KNOWN_TAGS = frozenset(
    {"dial", "dial-payload", "dial-option", "dial-context", "step", *ELEMENT_CLASSES}
)
_TAG_NAME = r"(?:dial-[A-Za-z0-9_.-]+|" + "|".join(
    sorted(map(re.escape, KNOWN_TAGS), key=len, reverse=True)) + ")"


def is_tag_name(name: str) -> bool:
    """True for names repair treats as tags: the known ones and any ``dial-…``."""
    return name in KNOWN_TAGS or name.startswith("dial-")

# A start or end tag: name, then attributes without '<' or '>'. Character classes only, and
# no nested quantifiers, so a failed match costs at most the distance to the next '<' or '>'.
_TAG = re.compile(r"<(/?)([A-Za-z_][\w.:-]*)([^<>]*)>")
_BAD_CHARS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_SURROGATES = re.compile("[\ud800-\udfff]")
_ANY_BAD = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


def remove_forbidden_characters(text: str) -> tuple[str, list[Repair]]:
    """Drop characters XML 1.0 cannot carry (NUL, C0 controls but tab/newline/CR, U+FFFE/F)."""
    if not _ANY_BAD.search(text):
        return text, []
    cleaned, n = _BAD_CHARS.subn("", text)
    # Lone surrogates (from bad decoding) cannot be encoded as UTF-8 either.
    if _SURROGATES.search(cleaned):
        cleaned = cleaned.encode("utf-8", "replace").decode("utf-8")
        n += 1
    if not n:
        return text, []
    return cleaned, [Repair("control-characters",
                            f"Removed {n} character(s) that XML does not allow (NUL or control).")]


_STRAY_AMPERSAND = re.compile(r"&(?!(?:amp|lt|gt|quot|apos|#[0-9]{1,8}|#x[0-9A-Fa-f]{1,8});)")
# A '<' that opens no known tag (one that reaches its '>' before any other '<') and no comment.
_STRAY_LESS_THAN = re.compile(
    r"<(?!!--|/?" + _TAG_NAME + r"(?=[\s/>])[^<>]*>)"
)


def _outside_cdata(text: str) -> list[tuple[bool, str]]:
    """The text cut into (is_cdata, piece); an unclosed CDATA section is ordinary text."""
    pieces: list[tuple[bool, str]] = []
    pos = 0
    while True:
        i = text.find("<![CDATA[", pos)
        j = text.find("]]>", i + 9) if i >= 0 else -1
        if i < 0 or j < 0:
            pieces.append((False, text[pos:]))
            return pieces
        pieces.append((False, text[pos:i]))
        pieces.append((True, text[i:j + 3]))
        pos = j + 3


def _escape_strays(text: str) -> tuple[str, int, int]:
    """Escape stray ``&`` and ``<`` outside CDATA; (text, ampersands, less-thans)."""
    out: list[str] = []
    n_amp = n_lt = 0
    for is_cdata, piece in _outside_cdata(text):
        if not is_cdata:
            piece, a = _STRAY_AMPERSAND.subn("&amp;", piece)
            piece, b = _STRAY_LESS_THAN.subn("&lt;", piece)
            n_amp += a
            n_lt += b
        out.append(piece)
    return "".join(out), n_amp, n_lt


def _balance_tags(text: str) -> tuple[str, list[Repair]]:
    """Close tags left open and drop closing tags that close nothing — in one pass, linear
    in the tags whatever they are (which names are open is counted, not searched)."""
    out: list[str] = []
    stack: list[str] = []
    open_count: Counter[str] = Counter()
    closed: list[str] = []
    dropped: list[str] = []
    pos = 0
    for m in _TAG.finditer(text):
        slash, name, rest = m.group(1), m.group(2), m.group(3)
        if not is_tag_name(name):
            continue
        out.append(text[pos:m.start()])
        pos = m.end()
        if not slash:
            out.append(m.group(0))
            if not rest.rstrip().endswith("/"):
                stack.append(name)
                open_count[name] += 1
        elif open_count[name]:
            while stack[-1] != name:
                missing = stack.pop()
                open_count[missing] -= 1
                closed.append(missing)
                out.append(f"</{missing}>")
            open_count[stack.pop()] -= 1
            out.append(m.group(0))
        else:
            dropped.append(name)
    out.append(text[pos:])
    while stack:
        missing = stack.pop()
        closed.append(missing)
        out.append(f"</{missing}>")
    repairs: list[Repair] = []
    if closed:
        repairs.append(Repair("closed-tag", f"Closed {_named(closed, '<{}>')}, which the "
                                            "reply left open."))
    if dropped:
        repairs.append(Repair("dropped-closing-tag",
                              f"Dropped {_named(dropped, '</{}>')}, which closed nothing that "
                              "was open."))
    return "".join(out), repairs


#: Tags a repair names one by one; the rest are counted.
_NAMED_TAGS = 5


def _named(names: list[str], form: str) -> str:
    """``<a>, <b>`` — or, for many, the first few and how many in all.

        >>> _named(["dial-ask"] * 7, "</{}>")
        '7 tags (</dial-ask> ×7)'
        >>> _named(["a", "b"], "<{}>")
        '<a>, <b>'
    """
    if len(names) <= _NAMED_TAGS:
        return ", ".join(form.format(n) for n in names)
    counts = Counter(names).most_common(_NAMED_TAGS)
    listed = ", ".join(f"{form.format(n)} ×{c:,}" for n, c in counts)
    return f"{len(names):,} tags ({listed}{', …' if len(counts) < len(set(names)) else ''})"


def repair(source: str) -> tuple[str, list[Repair]]:
    """Rewrite an envelope's source so strict XML can read it; report each kind of fix."""
    repairs: list[Repair] = []
    text, found = remove_forbidden_characters(source)
    repairs += found
    text, n_amp, n_lt = _escape_strays(text)
    if n_amp:
        repairs.append(Repair("escaped-ampersand",
                              f"Escaped {n_amp} '&' that began no entity (write it as &amp;)."))
    if n_lt:
        repairs.append(Repair("escaped-less-than",
                              f"Escaped {n_lt} '<' that began no DIAL tag (write it as &lt;)."))
    text, found = _balance_tags(text)
    repairs += found
    return text, repairs
