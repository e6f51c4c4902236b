"""What the ChatWidget and its front end say to each other, as types: the synced ``pending``
state, the entries the widget adds to the transcript, and every custom message either way.
The front end mirrors these in ``js/src/contract.js``; the runtime's events are typed in
``dial_notebook.runtime._contract``.

    traits   transcript  runtime events + PersonEntry + ErrorEntry
             pending     PendingDecision | PendingAnswer | {}
             questions   QuestionsRequest | {}        (ask_user's panel)
    front end ─▶ kernel  DecideMessage, AnswerMessage, SayMessage, RetryMessage, PingMessage,
                         QuestionsMessage
    kernel ─▶ front end  PongMessage

    >>> sorted(FRONT_END_MESSAGES)
    ['answer', 'decide', 'ping', 'questions', 'retry', 'say']
"""

# no ``from __future__ import annotations``: TypedDict reads NotRequired from real annotations
from typing import Any, Literal, NotRequired, TypedDict


class PersonEntry(TypedDict):
    """The person's words, as the widget shows them (an answer says which ask it answers;
    the summary of an ``ask_user`` panel's answers, which request it answers)."""

    type: Literal["person"]
    text: str
    answer_to: NotRequired[int | None]
    questions: NotRequired[str]


class ErrorEntry(TypedDict):
    """A say that failed (the agent's transport raised)."""

    type: Literal["error"]
    error: str


class FieldError(TypedDict):
    field: str
    message: str


class IssueShape(TypedDict):
    text: str
    code: str | None
    field: str | None


class PendingDecision(TypedDict):
    """A suggestion waiting for the person's decision."""

    kind: Literal["decide"]
    token: str
    id: str
    action: str
    payload: Any
    issue: IssueShape | None
    errors: list[FieldError]
    edits_left: int | None


class PendingAnswer(TypedDict):
    """A question waiting for the person's answer (``index``: its ask's place in the
    transcript; a confirm has no options: it is Yes / No)."""

    kind: Literal["answer"]
    token: str
    index: int
    response_type: str
    options: list[dict[str, Any]]


class QuestionsRequest(TypedDict):
    """``ask_user``'s questions, shown in one panel until Submit."""

    token: str
    questions: list[dict[str, Any]]


class DecideMessage(TypedDict):
    type: Literal["decide"]
    token: str
    decision: Literal["accept", "dismiss", "edit"]
    payload: NotRequired[Any]


class AnswerMessage(TypedDict):
    """An answer: ``value`` (a confirm: 'yes' / 'no'), or ``file`` with one buffer."""

    type: Literal["answer"]
    token: str
    value: NotRequired[str]
    file: NotRequired[dict[str, Any]]


class SayMessage(TypedDict):
    type: Literal["say"]
    text: str


class RetryMessage(TypedDict):
    type: Literal["retry"]


class PingMessage(TypedDict):
    """Is the kernel still holding this widget? (sent after ipywidgets says the comm changed)"""

    type: Literal["ping"]
    id: str


class QuestionsMessage(TypedDict):
    type: Literal["questions"]
    token: str
    answers: list[dict[str, Any]]


class PongMessage(TypedDict):
    """The kernel's answer to a ping, with its id."""

    type: Literal["pong"]
    id: str


#: ``type`` → the shape of the messages the front end sends.
FRONT_END_MESSAGES: dict[str, type] = {
    "decide": DecideMessage, "answer": AnswerMessage, "say": SayMessage,
    "retry": RetryMessage, "ping": PingMessage, "questions": QuestionsMessage,
}

#: ``type`` → the shape of the entries the widget itself adds to the transcript.
WIDGET_ENTRIES: dict[str, type] = {"person": PersonEntry, "error": ErrorEntry}
