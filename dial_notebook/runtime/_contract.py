"""The events of a conversation as types: one ``TypedDict`` per ``type``, the contract every
surface reads (the notebook widget's front end mirrors it in ``js/src/contract.js``).

An event is a plain JSON-able dict; these say which keys each kind has (``NotRequired``: only
when it applies). ``tests/unit/test_contract.py`` holds a transcript with every kind of event
to them, and the front end's tests render that same transcript (``js/test/fixtures``), so the
two sides cannot drift apart silently.

    >>> from dial_notebook.runtime import EVENT_TYPES
    >>> sorted(EVENT_SHAPES) == sorted(EVENT_TYPES)
    True
"""

# no ``from __future__ import annotations``: TypedDict reads NotRequired from real annotations
from typing import Any, Literal, NotRequired, TypedDict


class OptionShape(TypedDict):
    """One option of a question (``<dial-option>``)."""

    value: str
    label: str
    default: bool
    disabled: bool


class SentEvent(TypedDict):
    """A message sent to the agent (outcome reply, context, the person's words)."""

    type: Literal["sent"]
    turn: int
    message: str


class ReplyEvent(TypedDict):
    """The agent's reply, as it came (only its beginning when it was too long to read)."""

    type: Literal["reply"]
    turn: int
    text: str
    truncated: NotRequired[bool]
    chars: NotRequired[int]


class InformEvent(TypedDict):
    """Something to show: an inform or acknowledge element, prose, or a runtime note (``act``
    'skipped', 'addressed-elsewhere', 'unread')."""

    type: Literal["inform"]
    text: str
    act: NotRequired[str]
    of: NotRequired[str]
    render: NotRequired[str]
    payload: NotRequired[Any]
    element: NotRequired[str]
    id: NotRequired[str | None]
    observe: NotRequired[str | None]
    reason: NotRequired[str]
    addressed_to: NotRequired[str]


class AskEvent(TypedDict):
    """A question of the agent (``<dial-ask>``); a confirm has no options."""

    type: Literal["ask"]
    id: str
    text: str
    response_type: str
    options: list[OptionShape]


class SuggestionEvent(TypedDict):
    """A valid proposal the person gets (or a read-only / hand-off one running at once); an
    execute block is one too (``kind`` 'execute', its steps in ``payload``)."""

    type: Literal["suggestion"]
    id: str
    action: str
    text: str
    payload: Any
    preview: str
    destructive: bool
    mutates: bool
    issue: NotRequired[dict[str, Any]]
    edits_left: NotRequired[int]
    kind: NotRequired[Literal["execute"]]
    schema: NotRequired[dict[str, Any]]
    confirmed: NotRequired[bool]
    suspicious: NotRequired[dict[str, list[str]]]
    dry_run: NotRequired[dict[str, Any]]
    allowable: NotRequired[bool]
    rule: NotRequired[str]
    stale: NotRequired[dict[str, Any]]


class OutcomeEvent(TypedDict):
    """What became of a proposal (or of one step of a block)."""

    type: Literal["outcome"]
    id: str
    action: str
    status: str
    preview: str
    result: NotRequired[Any]
    error: NotRequired[str]
    code: NotRequired[str | None]
    field: NotRequired[str | None]
    hint: NotRequired[str | None]
    edited: NotRequired[bool]
    payload: NotRequired[Any]
    rule: NotRequired[str]
    reason: NotRequired[str]
    comments: NotRequired[list[dict[str, str]]]
    block: NotRequired[str]
    command: NotRequired[str]
    to: NotRequired[str]
    resume: NotRequired[bool]


class NoReplyEvent(TypedDict):
    """The agent did not answer in time."""

    type: Literal["no-reply"]
    turn: int
    error: str


class TurnLimitEvent(TypedDict):
    """A say used all its turns."""

    type: Literal["turn-limit"]
    turns: int


class DeclareEvent(TypedDict):
    """A fact the agent declared into the session's context."""

    type: Literal["declare"]
    id: str | None
    key: str
    value: Any


class DelegateEvent(TypedDict):
    """A hand-off to another actor."""

    type: Literal["delegate"]
    id: str
    to: str
    intent: str | None
    text: str
    context: Any
    resume: bool
    registered: bool


class PhaticEvent(TypedDict):
    """A channel signal (typing, thinking, heartbeat …)."""

    type: Literal["phatic"]
    signal: str
    interval: NotRequired[float | int]
    id: NotRequired[str]


class UndoFailedEvent(TypedDict):
    """Undo of a done action did not happen (no longer exact, or the domain's undo raised):
    the suggestion stays done."""

    type: Literal["undo-failed"]
    id: str
    error: str


class ProgressEvent(TypedDict):
    """A streamed reply so far (to the callback only, never kept in the transcript)."""

    type: Literal["progress"]
    turn: int
    prose: str
    writing: str | None


class RunningEvent(TypedDict):
    """A run has started (to the callback only, never kept): its outcome follows when it
    ends. A surface that saves the conversation saves it now."""

    type: Literal["running"]
    id: str
    action: str


#: ``type`` → the shape of its events.
EVENT_SHAPES: dict[str, type] = {
    "sent": SentEvent, "reply": ReplyEvent, "inform": InformEvent, "ask": AskEvent,
    "suggestion": SuggestionEvent, "outcome": OutcomeEvent, "no-reply": NoReplyEvent,
    "turn-limit": TurnLimitEvent, "declare": DeclareEvent, "delegate": DelegateEvent,
    "phatic": PhaticEvent, "undo-failed": UndoFailedEvent,
}

AnyEvent = (SentEvent | ReplyEvent | InformEvent | AskEvent | SuggestionEvent | OutcomeEvent
            | NoReplyEvent | TurnLimitEvent | DeclareEvent | DelegateEvent | PhaticEvent
            | UndoFailedEvent)


def shape_errors(event: dict[str, Any]) -> list[str]:
    """What is wrong with ``event`` against its shape: a missing key, an unknown one
    (``[]`` when it fits).

        >>> shape_errors({"type": "turn-limit", "turns": 8})
        []
        >>> shape_errors({"type": "turn-limit", "turn": 8})
        ['turn-limit: missing turns', 'turn-limit: unknown key turn']
    """
    shape = EVENT_SHAPES.get(str(event.get("type")))
    if shape is None:
        return [f"unknown event type {event.get('type')!r}"]
    kind = event["type"]
    required = set(shape.__required_keys__)  # type: ignore[attr-defined]
    allowed = required | set(shape.__optional_keys__)  # type: ignore[attr-defined]
    return ([f"{kind}: missing {key}" for key in sorted(required - set(event))]
            + [f"{kind}: unknown key {key}" for key in sorted(set(event) - allowed)])
