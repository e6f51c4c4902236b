"""``<dial-declare>``: a fact the agent asserts into the session context, by ``context-key``.

    <dial-declare context-key=K> (not the payload of the suggest right before it)
       ─▶ conversation.context[K] = its value (a later declare of K overwrites)
       ─▶ 'declare' event {key, value, id} — the widget's context panel, and the transcript
       ─▶ domain.declare(K, value), when the domain has that method (optional hook)
       ─▶ its yields fire
    no context-key ─▶ nothing stored; reported like a skipped element, nothing fires

The value is the decoded JSON of a JSON ``<dial-payload>``, the text of any other payload, else
the element's own text — decoded as JSON when it reads as JSON (``{"a": 1}``), kept as text
otherwise. A payload that is not valid JSON is kept as its raw text.

    >>> from dial_notebook.dial import Declare
    >>> declared_value(Declare(context_key="k", text='{"a": 1}'))
    {'a': 1}
"""

from __future__ import annotations

import json
from typing import Any

from ..dial import Declare
from ._outcomes import jsonable
from ._state import Reply
from ._yields import SHOWN, Resolution


def declared_value(declare: Declare) -> Any:
    """What the declare asserts: its payload's value, else its text (JSON when it parses)."""
    payload = declare.payload
    if payload is not None and payload.raw.strip():
        return payload.raw if payload.error is not None else payload.value
    text = declare.text.strip()
    try:
        return json.loads(text) if text else ""
    except (ValueError, RecursionError):
        return text


async def on_declare(reply: Reply, declare: Declare) -> Resolution:
    """Store the fact, tell the surface and the domain; None when it names no key."""
    key = (declare.context_key or "").strip()
    if not key:
        return Resolution(None, note="had no context-key")
    state = reply.state
    value = jsonable(declared_value(declare))
    state.context[key] = value
    state.events.emit({"type": "declare", "id": declare.id, "key": key, "value": value})
    await state.domain.declare(key, value)
    return SHOWN
