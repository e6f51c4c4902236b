"""``parse``: the envelopes in an agent's reply, read safely and tolerantly.

Each envelope found in the reply goes through three tries, and reports which one read it::

    source ─ strict XML ──────────────────────────────▶ Envelope (repairs = ())
       │ fails
       └─ repair (escape stray & and <, close tags) ─ strict ─▶ Envelope (repairs say what)
             │ fails
             └─ lxml recovery ─────────────────────────▶ Envelope (damaged=True)

Agent text is untrusted: the parser resolves no entities, loads no DTD, touches no file or
network; the source is handed to lxml as UTF-8 bytes starting at ``<dial`` (so a DOCTYPE
before the envelope never reaches it). Replies longer than ``MAX_REPLY_CHARS`` are not parsed:
the result is an empty, damaged envelope whose repair says why, so nothing raises.

A reply is read up to its first ``MAX_ELEMENTS`` elements (the children of all its envelopes
together, in order): the rest are counted (lxml's own count, in C) and never built; each
envelope's ``unread`` says how many of its own were left, and the envelope where the cap was
reached carries a ``too-many-elements`` repair with the reply's totals. Envelopes past
``MAX_ENVELOPES`` are not even looked for: the last one read carries a ``too-many-envelopes``
repair saying how much of the reply was not read.

Several envelopes in one reply: ``parse`` returns the first, and the others follow in order
in ``envelope.rest`` (``envelope.all()`` gives every one). None is dropped.
"""

from __future__ import annotations

from typing import Any

from lxml import etree

from ._build import build_elements, root_attributes
from ._elements import Repair
from ._envelope import Envelope
from ._repair import remove_forbidden_characters, repair
from ._scan import MAX_ENVELOPES, Span, find_envelopes, unread_from

#: Longest reply ``parse`` reads, in characters.
MAX_REPLY_CHARS = 4_000_000
#: Elements of one reply that are read (all its envelopes together); the rest are counted.
MAX_ELEMENTS = 1_000


def _parser(recover: bool = False) -> etree.XMLParser:
    return etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        dtd_validation=False,
        huge_tree=False,
        remove_pis=True,
        recover=recover,
        encoding="utf-8",
    )


_STRICT = _parser()
_RECOVER = _parser(recover=True)


def _strict(source: str) -> Any | None:
    try:
        root = etree.fromstring(source.encode("utf-8", "surrogatepass"), _STRICT)
    except (etree.XMLSyntaxError, ValueError, UnicodeError):
        return None
    return root if root.tag == "dial" else None


def _recover(source: str) -> Any | None:
    try:
        root = etree.fromstring(source.encode("utf-8", "replace"), _RECOVER)
    except (etree.XMLSyntaxError, ValueError, UnicodeError):
        return None
    if root is None or root.tag != "dial":
        return None
    return root


def read_envelope_source(source: str) -> tuple[Any | None, list[Repair], bool]:
    """(root element or None, repairs, damaged) for one envelope's source text."""
    root = _strict(source)
    if root is not None:
        return root, [], False
    fixed, repairs = repair(source)
    root = _strict(fixed)
    if root is not None:
        return root, repairs, False
    root = _recover(fixed)
    repairs.append(Repair(
        "recovered",
        "The envelope is not well-formed XML even after repair; lxml's recovery read what it "
        "could, and text may be altered.",
    ))
    return root, repairs, True


class _Read:
    """One envelope read (its root not yet built into elements), and its element count."""

    def __init__(self, span: Span, text: str, line_offset: int) -> None:
        self.root, self.repairs, self.damaged = read_envelope_source(text[span.start:span.end])
        if not span.closed and not any(r.kind == "closed-tag" for r in self.repairs):
            self.repairs.insert(0, Repair("closed-tag",
                                          "Closed <dial>, which the reply left open."))
        self.line_offset = line_offset
        self.count = 0 if self.root is None else int(self.root.xpath("count(*)"))

    def envelope(self, limit: int, extra: list[Repair]) -> Envelope:
        root, line_offset = self.root, self.line_offset
        repairs = [*self.repairs, *extra]
        if root is None:
            return Envelope(actor=None, version=None, repairs=repairs, damaged=True)
        return Envelope(repairs=repairs, damaged=self.damaged, unread=self.count - limit,
                        _build=lambda: build_elements(root, line_offset, limit),
                        **root_attributes(root))


def _too_many_envelopes(chars: int) -> Repair:
    return Repair("too-many-envelopes",
                  f"The agent's reply has more than {MAX_ENVELOPES} envelopes: the rest of it "
                  f"({chars:,} characters) was not read.")


def _too_many(total: int) -> Repair:
    return Repair("too-many-elements",
                  f"The reply has {total:,} elements; the first {MAX_ELEMENTS:,} were read "
                  f"and {total - MAX_ELEMENTS:,} were not.")


def _too_large(n: int) -> Envelope:
    return Envelope(
        actor=None,
        version=None,
        damaged=True,
        repairs=[Repair(
            "too-large",
            f"The reply is {n:,} characters long, over the {MAX_REPLY_CHARS:,}-character limit; "
            "it was not parsed.",
        )],
    )


def parse_all(text: str) -> list[Envelope]:
    """Every envelope in the reply, in order (an empty list when there is none).

        >>> [e.actor for e in parse_all('<dial actor="a"/> and <dial actor="b"/>')]
        ['a', 'b']
    """
    if not isinstance(text, str):
        raise TypeError(f"parse() takes a str, not {type(text).__name__}")
    if len(text) > MAX_REPLY_CHARS:
        return [_too_large(len(text))] if "<dial" in text else []
    text, cleaned = remove_forbidden_characters(text)
    read: list[_Read] = []
    line_offset, counted_to = 0, 0
    spans = find_envelopes(text)  # at most MAX_ENVELOPES: the rest of the text is not read
    for span in spans:
        line_offset += text.count("\n", counted_to, span.start)
        counted_to = span.start
        read.append(_Read(span, text, line_offset))
    total = sum(one.count for one in read)
    envelopes: list[Envelope] = []
    left, said = MAX_ELEMENTS, False
    for one in read:
        limit = min(one.count, left)
        first_unread = limit < one.count and not said  # the cap is said where it was reached
        said = said or first_unread
        envelopes.append(one.envelope(limit, [_too_many(total)] if first_unread else []))
        left -= limit
    rest = unread_from(text, spans)
    if rest is not None:  # said on the last envelope read
        last = envelopes[-1]
        envelopes[-1] = Envelope(
            version=last.version, actor=last.actor, turn=last.turn, session=last.session,
            repairs=[*last.repairs, _too_many_envelopes(len(text) - rest)],
            damaged=last.damaged, unread=last.unread, _build=lambda: (last.elements, last.ignored))
    if cleaned and envelopes:
        first = envelopes[0]
        envelopes[0] = Envelope(
            version=first.version, actor=first.actor, turn=first.turn, session=first.session,
            repairs=[*cleaned, *first.repairs], damaged=first.damaged, unread=first.unread,
            _build=lambda: (first.elements, first.ignored),
        )
    return envelopes


def parse(text: str) -> Envelope | None:
    """The DIAL envelope in an agent's reply, or None when the reply holds none.

    Later envelopes of the same reply are in ``envelope.rest``; ``envelope.repairs`` says what
    had to be fixed to read it.

        >>> env = parse('Sure.\\n<dial version="0.1" actor="agent">'
        ...             '<dial-inform>Done &amp; dusted</dial-inform></dial>')
        >>> env.elements[0].text
        'Done & dusted'
    """
    envelopes = parse_all(text)
    if not envelopes:
        return None
    first, *rest = envelopes
    if not rest:
        return first
    return Envelope(
        version=first.version, actor=first.actor, turn=first.turn, session=first.session,
        repairs=first.repairs, damaged=first.damaged, rest=rest, unread=first.unread,
        _build=lambda: (first.elements, first.ignored),
    )
