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
from ._scan import Span, find_envelopes

#: Longest reply ``parse`` reads, in characters.
MAX_REPLY_CHARS = 4_000_000


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


def _envelope_from(span: Span, text: str, line_offset: int) -> Envelope:
    source = text[span.start:span.end]
    root, repairs, damaged = read_envelope_source(source)
    if not span.closed and not any(r.kind == "closed-tag" for r in repairs):
        repairs.insert(0, Repair("closed-tag", "Closed <dial>, which the reply left open."))
    if root is None:
        return Envelope(actor=None, version=None, repairs=repairs, damaged=True)
    attrs = root_attributes(root)
    return Envelope(repairs=repairs, damaged=damaged, _build=lambda: build_elements(root, line_offset), **attrs)


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
    envelopes: list[Envelope] = []
    line_offset, counted_to = 0, 0
    for span in find_envelopes(text):
        line_offset += text.count("\n", counted_to, span.start)
        counted_to = span.start
        envelopes.append(_envelope_from(span, text, line_offset))
    if cleaned and envelopes:
        first = envelopes[0]
        envelopes[0] = Envelope(
            version=first.version, actor=first.actor, turn=first.turn, session=first.session,
            repairs=[*cleaned, *first.repairs], damaged=first.damaged,
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
        repairs=first.repairs, damaged=first.damaged, rest=rest,
        _build=lambda: (first.elements, first.ignored),
    )
