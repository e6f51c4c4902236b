"""The DIAL language: parse replies, extract prose, element types, serialise, outcome replies, lint.

This layer knows nothing of conversations.

    >>> from dial_notebook.dial import parse
    >>> parse('<dial version="0.1" actor="agent"><dial-inform>hi</dial-inform></dial>').elements
    (Inform(text='hi', id=None, observe=None, yields=(), addressed_to=None, lang='en', payload=None, render='prose'),)
"""

from .. import _public
from ._build import nesting_depth
from ._elements import (
    ELEMENT_CLASSES,
    RESPONSE_TYPES,
    SIGNALS,
    Acknowledge,
    Ask,
    Context,
    Declare,
    Delegate,
    Element,
    Execute,
    Inform,
    Option,
    Payload,
    Phatic,
    Repair,
    Step,
    Suggest,
)
from ._envelope import Envelope
from ._lint import Finding, lint
from ._outcome import STATUSES, outcome_json, outcome_reply
from ._parse import MAX_ELEMENTS, MAX_REPLY_CHARS, parse, parse_all
from ._progress import Progress
from ._repair import repair
from ._scan import MAX_ENVELOPES, Span, extract_prose, find_envelopes
from ._serialise import to_xml
from ._unicode import HIDDEN as HIDDEN_CHARACTERS
from ._unicode import hidden_characters, reveal

# exported at the package's top too: shown there as dial_notebook.X
_public.shown_as_top_level(Acknowledge, Ask, Declare, Delegate, Element, Envelope, Execute, Finding, Inform, Option, Payload, Phatic, Repair, Step, Suggest)

__all__ = [
    "ELEMENT_CLASSES",
    "HIDDEN_CHARACTERS",
    "MAX_ELEMENTS",
    "MAX_ENVELOPES",
    "MAX_REPLY_CHARS",
    "RESPONSE_TYPES",
    "SIGNALS",
    "STATUSES",
    "Acknowledge",
    "Ask",
    "Context",
    "Declare",
    "Delegate",
    "Element",
    "Envelope",
    "Execute",
    "Finding",
    "Inform",
    "Option",
    "Payload",
    "Phatic",
    "Progress",
    "Repair",
    "Span",
    "Step",
    "Suggest",
    "extract_prose",
    "find_envelopes",
    "hidden_characters",
    "lint",
    "nesting_depth",
    "outcome_json",
    "outcome_reply",
    "parse",
    "parse_all",
    "repair",
    "reveal",
    "to_xml",
]
