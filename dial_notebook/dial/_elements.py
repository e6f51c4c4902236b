"""The DIAL v0.1 element types: immutable values, one class per element of the schema.

Every class carries the schema's attributes under Python names (``yield`` is ``yields``, a
tuple of event names; ``addressed-to`` is ``addressed_to``; ``response-type`` is
``response_type``) with the schema's defaults. ``text`` is the element's own text, trimmed and
dedented, entities decoded, child elements left out. ``payload`` is the ``<dial-payload>`` child.

    >>> Inform(text="Hello").render
    'prose'
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, ClassVar

JSON_TYPES = ("application/json", "text/json")

#: Values the schema lists for enumerated attributes.
RENDER_VALUES = (
    "prose", "card-list", "table", "chart", "code", "media", "map", "diagram", "raw",
)
RESPONSE_TYPES = ("text", "choice", "confirm", "number", "file")
SIGNALS = ("typing", "thinking", "heartbeat", "presence", "done-typing")
ENVS = ("shell", "python", "http")


def is_json_type(mime: str) -> bool:
    """True for MIME types whose content is JSON (``application/json``, ``*+json``)."""
    base = mime.split(";", 1)[0].strip().lower()
    return base in JSON_TYPES or base.endswith("+json")


@dataclass(frozen=True)
class Payload:
    """A ``<dial-payload>``: structured content with its MIME type.

    ``value`` is the decoded JSON for JSON types (``None`` with ``error`` set when the text is
    not valid JSON) and the text itself for other types. ``raw`` is the text as written.

        >>> Payload.of({"text": "buy milk"}).value
        {'text': 'buy milk'}
    """

    type: str = "application/json"
    value: Any = None
    encoding: str = "utf-8"
    schema: str | None = None
    raw: str = field(default="", compare=False)
    error: str | None = None

    @classmethod
    def of(cls, value: Any, *, type: str = "application/json") -> Payload:
        """A payload holding ``value`` (JSON-encoded for JSON types)."""
        if is_json_type(type):
            return cls(type=type, value=value, raw=json.dumps(value, ensure_ascii=False))
        return cls(type=type, value=str(value), raw=str(value))

    @property
    def is_json(self) -> bool:
        return is_json_type(self.type)


@dataclass(frozen=True)
class Option:
    """A ``<dial-option>`` of a choice ask: ``value`` is yielded, ``label`` is shown."""

    value: str
    label: str = ""
    default: bool = False
    disabled: bool = False
    id: str | None = None


@dataclass(frozen=True)
class Step:
    """A ``<step>`` of ``<dial-execute>``: a raw command for the executor registered by ``env``."""

    command: str = ""
    env: str = "shell"
    id: str | None = None
    label: str | None = None
    observe: str | None = None
    yields: tuple[str, ...] = ()

    @property
    def display_label(self) -> str:
        """The label, or the command's first line as the schema says."""
        if self.label:
            return self.label
        return self.command.splitlines()[0] if self.command else ""


@dataclass(frozen=True)
class Context:
    """A ``<dial-context>``: structured hand-off data inside ``<dial-delegate>``."""

    payload: Payload | None = None
    text: str = ""


@dataclass(frozen=True)
class Element:
    """The base attributes every DIAL element shares."""

    tag: ClassVar[str] = ""
    text: str = ""
    id: str | None = None
    observe: str | None = None
    yields: tuple[str, ...] = ()
    addressed_to: str | None = None
    lang: str = "en"
    payload: Payload | None = None
    #: 1-based line of the element's start tag in the reply (0 when built in code).
    line: int = field(default=0, compare=False, repr=False)

    @property
    def kind(self) -> str:
        """The element's name without the ``dial-`` prefix: ``inform``, ``ask`` …"""
        return self.tag.removeprefix("dial-")


@dataclass(frozen=True)
class Inform(Element):
    """``<dial-inform>``: an assertion; no response is expected."""

    tag: ClassVar[str] = "dial-inform"
    render: str = "prose"


@dataclass(frozen=True)
class Ask(Element):
    """``<dial-ask>``: a question that gates what observes its yields."""

    tag: ClassVar[str] = "dial-ask"
    response_type: str = "text"
    timeout: float | int | None = None
    options: tuple[Option, ...] = ()


@dataclass(frozen=True)
class Suggest(Element):
    """``<dial-suggest>``: a proposal for ``action``; it does not gate the exchange."""

    tag: ClassVar[str] = "dial-suggest"
    render: str = "card-list"
    action: str | None = None
    multi: bool = False


@dataclass(frozen=True)
class Execute(Element):
    """``<dial-execute>``: a block of steps with their own observe/yield tree."""

    tag: ClassVar[str] = "dial-execute"
    steps: tuple[Step, ...] = ()


@dataclass(frozen=True)
class Acknowledge(Element):
    """``<dial-acknowledge>``: receipt of the element whose id is ``of``."""

    tag: ClassVar[str] = "dial-acknowledge"
    of: str | None = None


@dataclass(frozen=True)
class Declare(Element):
    """``<dial-declare>``: a fact put in the session's shared context under ``context_key``."""

    tag: ClassVar[str] = "dial-declare"
    context_key: str | None = None


@dataclass(frozen=True)
class Delegate(Element):
    """``<dial-delegate>``: a hand-off of the exchange to the actor ``to``."""

    tag: ClassVar[str] = "dial-delegate"
    to: str | None = None
    intent: str | None = None
    resume: bool = False
    context: Context | None = None


@dataclass(frozen=True)
class Phatic(Element):
    """``<dial-phatic>``: a channel signal (typing, heartbeat …) with no meaning of its own."""

    tag: ClassVar[str] = "dial-phatic"
    signal: str | None = None
    interval: float | int | None = None


ELEMENT_CLASSES: dict[str, type[Element]] = {
    cls.tag: cls
    for cls in (Inform, Ask, Suggest, Execute, Acknowledge, Declare, Delegate, Phatic)
}


@dataclass(frozen=True)
class Repair:
    """One thing the parser had to fix in a reply, said for a person.

    ``kind`` is stable (``escaped-ampersand``, ``escaped-less-than``, ``closed-tag``,
    ``dropped-closing-tag``, ``control-characters``, ``recovered``, ``too-large``,
    ``too-many-elements``, ``too-many-envelopes``);
    ``message`` explains it.
    """

    kind: str
    message: str
