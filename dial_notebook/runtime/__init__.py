"""The consumer runtime: one conversation with a DIAL agent, and the life of every suggestion.

The rules between an agent, a domain and a person live here, so a test, a terminal and the
notebook widget behave the same. This layer knows nothing of Jupyter.

    >>> from dial_notebook.runtime import Conversation, policy_human
    >>> class Notes:
    ...     actions = {"add-note": {"mutates": True}}
    ...     def run(self, action, payload):
    ...         return {"count": 1}
    >>> replies = iter([
    ...     '<dial><dial-suggest action="add-note"><dial-payload>{"text": "milk"}'
    ...     '</dial-payload></dial-suggest></dial>',
    ...     "<dial><dial-acknowledge>Added.</dial-acknowledge></dial>",
    ... ])
    >>> conversation = Conversation(agent=lambda message: next(replies), domain=Notes(),
    ...                             human=policy_human("accept"))
    >>> result = conversation.say_sync("add a note: buy milk")
    >>> result.status, result.turns, [o["status"] for o in result.outcomes]
    ('idle', 2, ['done'])
"""

from .. import _public
from ._budget import REPLY_SECONDS, time_left
from ._contract import (
    EVENT_SHAPES,
    AskEvent,
    DeclareEvent,
    DelegateEvent,
    InformEvent,
    NoReplyEvent,
    OutcomeEvent,
    PhaticEvent,
    ProgressEvent,
    ReplyEvent,
    RunningEvent,
    SentEvent,
    SuggestionEvent,
    TurnLimitEvent,
    UndoFailedEvent,
)
from ._conversation import Conversation, ConversationBusyError, SayResult
from ._events import EVENT_TYPES, TRANSIENT_TYPES
from ._executors import StepError, python_executor, shell_executor
from ._feedback import MAX_COMMENTS, read_comment
from ._http import http_executor
from ._humans import PolicyHuman, ScriptedHuman, policy_human, scripted_human
from ._outcomes import NEEDS_REPLY
from ._ports import Agent, Domain, Human
from ._session_lines import session_file_data
from ._snapshot import FORMAT as SNAPSHOT_FORMAT
from ._snapshot import MAX_EVENTS as MAX_SNAPSHOT_EVENTS
from ._snapshot import (
    MAX_SNAPSHOT_BYTES,
    SnapshotError,
    load_snapshot,
    read_session_file,
    read_snapshot,
    save_snapshot,
)
from ._snapshot import VERSION as SNAPSHOT_VERSION
from ._suggestion import MAX_EDIT_ATTEMPTS
from ._sync import BlockingSayError
from ._told_later import NOT_FROM_THE_USER
from ._values import Delegation, PendingAsk, Suggestion

# exported at the package's top too: shown there as dial_notebook.X
_public.shown_as_top_level(BlockingSayError, Conversation, ConversationBusyError, Delegation, SayResult, SnapshotError, StepError, Suggestion)

__all__ = [
    "EVENT_SHAPES",
    "EVENT_TYPES",
    "MAX_COMMENTS",
    "MAX_EDIT_ATTEMPTS",
    "MAX_SNAPSHOT_BYTES",
    "MAX_SNAPSHOT_EVENTS",
    "NEEDS_REPLY",
    "NOT_FROM_THE_USER",
    "REPLY_SECONDS",
    "SNAPSHOT_FORMAT",
    "SNAPSHOT_VERSION",
    "TRANSIENT_TYPES",
    "Agent",
    "AskEvent",
    "BlockingSayError",
    "Conversation",
    "ConversationBusyError",
    "DeclareEvent",
    "DelegateEvent",
    "Delegation",
    "Domain",
    "Human",
    "InformEvent",
    "NoReplyEvent",
    "OutcomeEvent",
    "PendingAsk",
    "PhaticEvent",
    "PolicyHuman",
    "ProgressEvent",
    "ReplyEvent",
    "RunningEvent",
    "SayResult",
    "ScriptedHuman",
    "SentEvent",
    "SnapshotError",
    "StepError",
    "Suggestion",
    "SuggestionEvent",
    "TurnLimitEvent",
    "UndoFailedEvent",
    "http_executor",
    "load_snapshot",
    "policy_human",
    "python_executor",
    "read_comment",
    "read_session_file",
    "read_snapshot",
    "save_snapshot",
    "scripted_human",
    "session_file_data",
    "shell_executor",
    "time_left",
]
