"""What the ChatWidget and its front end say to each other, as types: the synced ``pending``
state, the entries the widget adds to the transcript, and every custom message either way.
The front end mirrors these in ``js/src/contract.js``; the runtime's events are typed in
``dial_notebook.runtime._contract``.

    traits   transcript  runtime events + PersonEntry + ErrorEntry + StoppedEntry +
                         ResumedEntry (grown by AppendMessage, never re-sent whole); a chart
                         inform gets ``chart`` (ChartDrawn | ChartNotDrawn), and so does the
                         result of an outcome holding ``vega_lite`` (WIDGET_FIELDS)
             pending     PendingDecision | PendingAnswer | {}
             questions   QuestionsRequest | {}        (ask_user's panel)
             usage       Usage | {}
             undoable    {suggestion id: True | why not}     code   str (every kept step)
             rules       list[RuleShape]  (every rule this conversation applies: its own and
                         the notebook's; and, with state 'unconfirmed', notebook rules another
                         conversation read from its file, which apply here once confirmed)
             untrusted   UntrustedSession | {}   (a conversation shown read-only)
    front end ─▶ kernel  DecideMessage, AnswerMessage, SayMessage, RetryMessage, StopMessage,
                         PingMessage, SyncMessage, QuestionsMessage, UndoMessage, DryRunMessage,
                         RuleDraftMessage, AllowMessage, RevokeMessage, TrustMessage,
                         ConfirmRuleMessage
    kernel ─▶ front end  PongMessage, AppendMessage, ProgressMessage, DryRunResultMessage,
                         RuleDraftResultMessage, AllowResultMessage, RunProgressMessage,
                         RunStartedMessage (_chat_progress.py)

    >>> sorted(FRONT_END_MESSAGES)  # doctest: +NORMALIZE_WHITESPACE
    ['allow', 'answer', 'confirm-rule', 'decide', 'dry-run', 'ping', 'questions', 'retry',
     'revoke', 'rule-draft', 'say', 'stop', 'sync', 'trust', 'undo']
    >>> sorted(KERNEL_MESSAGES)  # doctest: +NORMALIZE_WHITESPACE
    ['allow', 'append', 'dry-run', 'pong', 'progress', 'rule-draft', 'run-progress',
     'run-started']
"""

# no ``from __future__ import annotations``: TypedDict reads NotRequired from real annotations
from typing import Any, Literal, NotRequired, TypedDict

from ._chat_progress import RunStartedMessage


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


class StoppedEntry(TypedDict):
    """A say the person stopped (Stop, ``chat.stop()``) or whose task was cancelled;
    ``partial``: the prose of the reply being streamed, as far as it had come."""

    type: Literal["stopped"]
    partial: NotRequired[str]


class ResumedEntry(TypedDict):
    """The conversation carried on from a saved session (``session=``, ``ChatWidget.restore``):
    where it was kept, when it was saved, and whether a card or question waits again;
    ``read_only``: opened read-only, from a file this user did not make (not yet trusted)."""

    type: Literal["resumed"]
    session: str
    saved_at: str
    waiting: bool
    read_only: NotRequired[bool]


class Usage(TypedDict):
    """What the agent reported using (``agent.usage``, summed): replies counted, tokens."""

    turns: int
    input: NotRequired[int]
    output: NotRequired[int]
    total: NotRequired[int]


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


class FieldComment(TypedDict):
    """The person's comment on one field of a proposal (``field``: a JSON Pointer such as
    ``/text``; ``""`` is the whole proposal). It reaches the agent with the outcome."""

    field: str
    text: str


class DecideMessage(TypedDict):
    """A decision on the pending card; ``reason`` (a dismissal's) and ``comments`` go to the
    agent with the outcome."""

    type: Literal["decide"]
    token: str
    decision: Literal["accept", "dismiss", "edit"]
    payload: NotRequired[Any]
    reason: NotRequired[str]
    comments: NotRequired[list[FieldComment]]


class RuleShape(TypedDict):
    """A rule: proposals of ``action`` whose payload ``schema`` accepts are accepted without
    asking (``scope`` 'conversation' or 'notebook'; ``created`` ISO 8601 UTC; ``fired``: how
    many proposals it has accepted)."""

    id: str
    action: str
    schema: Any
    scope: Literal["conversation", "notebook"]
    created: str
    fired: int
    state: NotRequired[Literal["unconfirmed"]]


class RuleDraftMessage(TypedDict):
    """The rule being made on the pending card (``token``): is ``schema`` a valid rule, and
    which proposals would it have accepted?"""

    type: Literal["rule-draft"]
    token: str
    schema: Any


class RuleMatch(TypedDict):
    id: str
    preview: str
    status: str
    edited: NotRequired[bool]  # the person edited it before it ran


class RuleDraftResultMessage(TypedDict):
    """The kernel's answer to a RuleDraftMessage, for that very ``schema``: ``error`` (why not
    a rule) or None; the card's action's earlier proposals it accepts (``matches``, at most
    MAX_MATCHES of ``total``, the card left out); ``card``: whether it accepts the card's."""

    type: Literal["rule-draft"]
    token: str
    schema: Any
    error: str | None
    matches: list[RuleMatch]
    total: int
    card: bool


class AllowMessage(TypedDict):
    """Save the rule made on the pending card (``token``) and accept the card with it."""

    type: Literal["allow"]
    token: str
    schema: Any
    scope: Literal["conversation", "notebook"]


class AllowResultMessage(TypedDict):
    """The kernel's answer to an AllowMessage: the new rule's id, or why it was refused;
    ``card``: whether the rule accepts the card (then the card is accepted with it; if not,
    it still waits)."""

    type: Literal["allow"]
    token: str
    rule: str | None
    error: str | None
    card: NotRequired[bool]


class RevokeMessage(TypedDict):
    """Revoke on the rules panel: the rule ``id`` accepts nothing from now on."""

    type: Literal["revoke"]
    id: str


class TrustMessage(TypedDict):
    """"Trust this file" on a conversation shown read-only: the kernel signs its file with the
    person's secret, and the conversation carries on (its rules active, its card back)."""

    type: Literal["trust"]


class ConfirmRuleMessage(TypedDict):
    """Confirm on an unconfirmed notebook rule (read from another conversation's file): it
    applies to this conversation too from now on."""

    type: Literal["confirm-rule"]
    id: str


class UntrustedSession(TypedDict):
    """The ``untrusted`` trait while a conversation is shown read-only: the file it came from
    (not made by this user) and the rules in it, none of them active; ``error``: why the last
    "Trust this file" failed (the file could not be signed)."""

    file: str
    rules: list[dict[str, Any]]
    error: NotRequired[str]


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


class StopMessage(TypedDict):
    """The Stop button: cancel the say that is running."""

    type: Literal["stop"]


class UndoMessage(TypedDict):
    """Undo on a done card: take the action ``id`` back (``chat.undo``)."""

    type: Literal["undo"]
    id: str


class DryRunMessage(TypedDict):
    """The payload being edited on the pending card (``token``): what would it do?"""

    type: Literal["dry-run"]
    token: str
    payload: Any


class DryRunResultMessage(TypedDict):
    """The kernel's answer to a DryRunMessage: ``result`` as a suggestion's ``dry_run``
    ({ok, summary, effect, code} or {ok: false, error}), None when the domain has none."""

    type: Literal["dry-run"]
    token: str
    payload: Any
    result: dict[str, Any] | None


class SyncMessage(TypedDict):
    """A view's transcript has ``length`` events; the kernel re-sends the trait if not all."""

    type: Literal["sync"]
    length: int


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


class AppendMessage(TypedDict):
    """Events added to the transcript, ``start`` being the first one's index: each event
    travels once, in one of these."""

    type: Literal["append"]
    start: int
    events: list[dict[str, Any]]


class ProgressMessage(TypedDict):
    """A reply being streamed: its prose so far is the prose shown until ``at`` followed by
    ``text`` (or, from an older kernel, all of ``prose``); neither when only ``writing``
    changed (or the reply's progress budget is spent: the prose shown stays). ``writing`` is
    what the agent writes now, in plain words ("proposing: add-note"), or None. Never kept."""

    type: Literal["progress"]
    turn: int
    writing: str | None
    at: NotRequired[int]
    text: NotRequired[str]
    prose: NotRequired[str]


#: ``type`` → the shape of the messages the front end sends.
FRONT_END_MESSAGES: dict[str, type] = {
    "decide": DecideMessage, "answer": AnswerMessage, "say": SayMessage,
    "retry": RetryMessage, "stop": StopMessage, "ping": PingMessage, "sync": SyncMessage,
    "questions": QuestionsMessage, "undo": UndoMessage, "dry-run": DryRunMessage,
    "rule-draft": RuleDraftMessage, "allow": AllowMessage, "revoke": RevokeMessage,
    "trust": TrustMessage, "confirm-rule": ConfirmRuleMessage,
}

#: ``type`` → the shape of the messages the kernel sends.
class RunProgressMessage(TypedDict):
    """How far a run has come, as the run said (``dial_notebook.report_progress``), for its
    card: paced (the latest wins), never kept (``_chat_progress.py``)."""

    type: Literal["run-progress"]
    id: str
    action: str
    progress: float
    total: float | None
    message: str | None


KERNEL_MESSAGES: dict[str, type] = {
    "pong": PongMessage, "append": AppendMessage, "progress": ProgressMessage,
    "dry-run": DryRunResultMessage, "rule-draft": RuleDraftResultMessage,
    "allow": AllowResultMessage, "run-progress": RunProgressMessage,
    "run-started": RunStartedMessage,  # _chat_progress.py
}

class ChartDrawn(TypedDict):
    """A Vega-Lite chart drawn in the kernel (``_vegalite.py``): the PNG as a data: URL, its
    size in CSS pixels (the image has twice as many), and its alternative text. ``copy``: the
    same chart at one pixel per CSS pixel: the notebook's static copy holds this one."""

    src: str
    width: int
    height: int
    alt: str
    copy: NotRequired[str]  # never sent to the front end (_vegalite.for_front_end)


class ChartNotDrawn(TypedDict):
    """Why a Vega-Lite chart was not drawn (refused, vl-convert missing, too slow, broken)."""

    error: str


#: What the widget adds to a runtime event's copy (the runtime's stays): type → field → shapes.
WIDGET_FIELDS: dict[str, dict[str, tuple[type, ...]]] = {
    "inform": {"chart": (ChartDrawn, ChartNotDrawn)},
}

#: ``type`` → the shape of the entries the widget itself adds to the transcript.
WIDGET_ENTRIES: dict[str, type] = {
    "person": PersonEntry, "error": ErrorEntry, "stopped": StoppedEntry,
    "resumed": ResumedEntry,
}
