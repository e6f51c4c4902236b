"""dial-notebook: a conversation with an agent that speaks DIAL, inside a Jupyter notebook.

The agent proposes; the person sees readable, editable cards and decides; the domain runs what
was accepted; the agent is told what became of every proposal.

    >>> from dial_notebook import parse
    >>> parse('<dial version="0.1" actor="agent"><dial-inform>hi</dial-inform></dial>').actor
    'agent'
"""

from .dial import (
    Acknowledge,
    Ask,
    Declare,
    Delegate,
    Element,
    Envelope,
    Execute,
    Finding,
    Inform,
    Option,
    Payload,
    Phatic,
    Repair,
    Step,
    Suggest,
    extract_prose,
    lint,
    outcome_reply,
    parse,
    parse_all,
    to_xml,
)
from .runtime import (
    BlockingSayError,
    Conversation,
    ConversationBusyError,
    SayResult,
    Suggestion,
    policy_human,
    scripted_human,
)

__version__ = "0.1.0"

__all__ = [
    "Acknowledge",
    "Ask",
    "BlockingSayError",
    "Conversation",
    "ConversationBusyError",
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
    "Repair",
    "SayResult",
    "Step",
    "Suggest",
    "Suggestion",
    "__version__",
    "extract_prose",
    "lint",
    "outcome_reply",
    "parse",
    "parse_all",
    "policy_human",
    "scripted_human",
    "to_xml",
]
