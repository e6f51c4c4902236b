"""What DIAL v0.1 allows where, as lint checks it: each element's attributes, its children, and
where a child element belongs.

    >>> ALLOWED_CHILDREN["dial-execute"], WHERE["step"]
    (('step',), 'inside <dial-execute>')
"""

from __future__ import annotations

COMMON_ATTRIBUTES = ("id", "observe", "yield", "addressed-to", "lang")
ROOT_ATTRIBUTES = ("version", "turn", "actor", "session")
#: Attributes of each element beyond the common ones.
OWN_ATTRIBUTES: dict[str, tuple[str, ...]] = {
    "dial-inform": ("render",),
    "dial-ask": ("response-type", "timeout"),
    "dial-suggest": ("render", "action", "multi"),
    "dial-execute": (),
    "dial-acknowledge": ("of",),
    "dial-declare": ("context-key",),
    "dial-delegate": ("to", "intent", "resume"),
    "dial-phatic": ("signal", "interval"),
}
#: Attributes of the child elements (which do not take the common set).
CHILD_ATTRIBUTES: dict[str, tuple[str, ...]] = {
    "dial-payload": ("type", "encoding", "schema"),
    "dial-option": ("value", "default", "disabled", "id"),
    "step": ("env", "id", "label", "observe", "yield"),
    "dial-context": (),
}
#: Which child elements each element may hold.
ALLOWED_CHILDREN: dict[str, tuple[str, ...]] = {
    "dial-inform": ("dial-payload",),
    "dial-ask": ("dial-option", "dial-payload"),
    "dial-suggest": ("dial-payload",),
    "dial-execute": ("step",),
    "dial-acknowledge": (),
    "dial-declare": ("dial-payload",),
    "dial-delegate": ("dial-context", "dial-payload"),
    "dial-phatic": (),
    "dial-context": ("dial-payload",),
    "dial-payload": (),
    "dial-option": (),
    "step": (),
}
#: Where each child element belongs, for a hint when it stands elsewhere.
WHERE = {
    "dial-option": 'inside <dial-ask response-type="choice">',
    "step": "inside <dial-execute>",
    "dial-payload": "inside an element that carries data (inform, ask, suggest, declare, context)",
    "dial-context": "inside <dial-delegate>",
}
#: Attributes holding true or false; attributes holding seconds.
BOOLEANS = ("multi", "default", "disabled", "resume")
NUMBERS = ("timeout", "interval")
#: Most attributes of one element checked (past them, one finding says so).
MAX_ATTRIBUTES = 64
