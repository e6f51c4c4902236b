"""Finding ``<dial>`` envelopes in an agent's reply, and the prose around them.

An agent's reply is prose with zero or more envelopes in it. LLMs wrap envelopes in markdown
code fences and put an ``<?xml …?>`` prolog first; that debris belongs to neither the envelope
nor the prose. Every scan here is linear: ``str.find`` moves forward only, so a reply full of
unclosed ``<dial`` openers costs one pass.

    >>> text = 'Hi <dial actor="a"></dial> bye'
    >>> [text[s.start:s.end] for s in find_envelopes(text)]
    ['<dial actor="a"></dial>']
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: Envelopes of one reply that are read; the text from the next one on is not (see
#: ``unread_from``): a reply of 500,000 ``<dial/>`` costs no more than one of a hundred.
MAX_ENVELOPES = 100

_OPEN = "<dial"
# '</dial' then optional whitespace then '>': a character class and one '>' – linear.
_CLOSER = re.compile(r"</dial[ \t\r\n]*>")
_NAME_END = frozenset(" \t\r\n/>")


@dataclass(frozen=True)
class Span:
    """Where one envelope stands in the reply: ``start``/``end`` are string offsets.

    ``closed`` is False when the reply ended before ``</dial>``. ``outer_start``/``outer_end``
    widen the span over a code fence and an XML prolog wrapped around the envelope.
    """

    start: int
    end: int
    closed: bool
    outer_start: int
    outer_end: int


def _find_opener(text: str, pos: int) -> int:
    """Offset of the next ``<dial`` start tag (not ``<dial-…>``) at or after ``pos``, or -1."""
    while True:
        i = text.find(_OPEN, pos)
        if i < 0:
            return -1
        after = i + len(_OPEN)
        if after >= len(text) or text[after] in _NAME_END:
            return i
        pos = after


def _find_closer(text: str, pos: int) -> tuple[int, int]:
    """(start, end) of the next ``</dial>`` at or after ``pos``; (-1, -1) when there is none."""
    m = _CLOSER.search(text, pos)
    return (m.start(), m.end()) if m else (-1, -1)


def _widen_left(text: str, start: int, floor: int) -> int:
    """Move ``start`` left over whitespace, an ``<?xml …?>`` prolog and a fence opener line."""
    i = start
    while i > floor and text[i - 1] in " \t\r\n":
        i -= 1
    if text.endswith("?>", floor, i):
        p = text.rfind("<?xml", floor, i)
        if p >= 0 and "\n" not in text[p:i].strip():
            i = p
            while i > floor and text[i - 1] in " \t\r\n":
                i -= 1
    line_start = text.rfind("\n", floor, i) + 1
    line_start = max(line_start, floor)
    line = text[line_start:i].strip()
    # A fence line right before the envelope wraps it only if it opens a block: an even
    # number of fences stand before it in this stretch of prose.
    if (line.startswith("```") and " " not in line[3:].strip()
            and text.count("```", floor, line_start) % 2 == 0):
        return line_start
    return start if i == start else i


def _widen_right(text: str, end: int, ceiling: int) -> int:
    """Move ``end`` right over whitespace and a closing code fence."""
    i = end
    while i < ceiling and text[i] in " \t\r\n":
        i += 1
    if text.startswith("```", i):
        j = i + 3
        while j < ceiling and text[j] not in "\r\n":
            j += 1
        if not text[i + 3:j].strip():
            return j
    return end


def find_envelopes(text: str, limit: int | None = MAX_ENVELOPES) -> list[Span]:
    """The envelopes in ``text`` in order, at most ``limit`` of them (None: every one). One
    linear pass, which stops at the limit.

    An envelope runs from ``<dial`` to the next ``</dial>``; an opener with no closer runs to
    the end of the text (the parser then closes what is open).
    """
    spans: list[Span] = []
    pos = 0
    prev_end = 0
    gt = -1  # the last '>' found; reused so that many openers share one forward search
    while limit is None or len(spans) < limit:
        start = _find_opener(text, pos)
        if start < 0:
            break
        if gt < start:
            gt = text.find(">", start)
        lt = text.find("<", start + 1)
        if gt > 0 and text[gt - 1] == "/" and not 0 <= lt < gt:
            closed, end = True, gt + 1  # a self-closing <dial …/>
        else:
            close_start, close_end = _find_closer(text, start + len(_OPEN))
            closed = close_start >= 0
            end = close_end if closed else len(text)
        outer_start = _widen_left(text, start, prev_end)
        spans.append(Span(start, end, closed, outer_start, end))
        prev_end = end
        pos = end
        if not closed:
            break
    # Widen to the right only now, bounded by the next envelope's outer start.
    widened: list[Span] = []
    for k, s in enumerate(spans):
        ceiling = spans[k + 1].outer_start if k + 1 < len(spans) else len(text)
        widened.append(Span(s.start, s.end, s.closed, s.outer_start,
                            _widen_right(text, s.end, ceiling)))
    return widened


def unread_from(text: str, spans: list[Span], limit: int | None = MAX_ENVELOPES) -> int | None:
    """Where the text past the envelope limit starts (the next envelope's ``<dial``), or None
    when ``spans`` (``find_envelopes(text, limit)``) holds every envelope of ``text``.

        >>> unread_from("<dial/> <dial/> <dial/>", find_envelopes("<dial/> <dial/> <dial/>", 2), 2)
        16
    """
    if limit is None or len(spans) < limit or not spans:
        return None
    following = _find_opener(text, spans[-1].end)
    return following if following >= 0 else None


def _tidy_prose(piece: str) -> str:
    """Trim a prose piece and drop fence lines that wrap nothing."""
    lines = piece.strip().splitlines()
    kept = [ln for ln in lines if not (ln.strip().startswith("```") and len(lines) == 1)]
    return "\n".join(kept).strip()


def extract_prose(text: str) -> str:
    """The reply's text outside envelopes, as a person should read it.

    Code fences and ``<?xml …?>`` prologs around envelopes are removed; the pieces of prose are
    joined by one blank line. Text from the envelope after the MAX_ENVELOPES-th on is not
    read, so it is not prose either.

        >>> extract_prose('Here you go:\\n```xml\\n<dial actor="agent"></dial>\\n```\\nAnything else?')
        'Here you go:\\n\\nAnything else?'
    """
    if not isinstance(text, str):
        raise TypeError(f"extract_prose() takes a str, not {type(text).__name__}")
    pieces: list[str] = []
    pos = 0
    spans = find_envelopes(text)
    for span in spans:
        pieces.append(text[pos:span.outer_start])
        pos = span.outer_end
    rest = unread_from(text, spans)  # past MAX_ENVELOPES: not read, so not prose either
    pieces.append(text[pos:rest])
    tidy = (_tidy_prose(p) for p in pieces)
    return "\n\n".join(p for p in tidy if p)
