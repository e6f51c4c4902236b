"""The payload of a proposal: a ``<dial-suggest>``'s own, else its ``<dial-declare>``'s.

    >>> from dial_notebook.dial import parse
    >>> envelope = parse('<dial><dial-suggest id="s" action="add-note">'
    ...                  '<dial-payload type="application/json">{"text": "milk"}</dial-payload>'
    ...                  '</dial-suggest></dial>')
    >>> payload_of(envelope.elements[0], None)
    ({'text': 'milk'}, None)
"""

from __future__ import annotations

import json
from typing import Any

from ..dial import Declare, Payload, Suggest


def has_payload(suggest: Suggest) -> bool:
    """Whether the suggest carries its own payload (an empty ``<dial-payload/>`` is none)."""
    return suggest.payload is not None and bool(suggest.payload.raw.strip())


def payload_of(suggest: Suggest, declare: Declare | None) -> tuple[Any, str | None]:
    """(payload, why it cannot be read, or None): the suggest's own, else its declare's.

    A declare's JSON may be its ``<dial-payload>`` or its text; text that is not JSON, like
    no payload at all, is read as ``{}``.
    """
    if has_payload(suggest):
        return _value(suggest.payload)
    if declare is None:
        return {}, None
    if declare.payload is not None and declare.payload.raw.strip():
        return _value(declare.payload)
    return _declare_text(declare), None


def _value(payload: Payload) -> tuple[Any, str | None]:
    if payload.error is not None:
        return None, payload.error
    return payload.value, None


def _declare_text(declare: Declare) -> Any:
    text = declare.text.strip()
    if not text:
        return {}
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return {}
