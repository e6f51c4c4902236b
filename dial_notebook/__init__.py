"""dial-notebook: a conversation with an agent that speaks DIAL, inside a Jupyter notebook.

The agent proposes; the person sees readable, editable cards and decides; the domain runs what
was accepted; the agent is told what became of every proposal.

    >>> from dial_notebook import parse
    >>> parse('<dial version="0.1" actor="agent"><dial-inform>hi</dial-inform></dial>').actor
    'agent'
"""

from .agents import (
    AgentError,
    AnthropicAgent,
    DemoAgent,
    OpenAIAgent,
    ScriptedAgent,
    system_prompt,
)
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
from .domains import ActionError, DataFramesDomain, NotesDomain, SchemaDomain, load_sales
from .runtime import (
    BlockingSayError,
    Conversation,
    ConversationBusyError,
    SayResult,
    Suggestion,
    policy_human,
    scripted_human,
)
from .widget import ChatWidget

__version__ = "0.1.0"

__all__ = [
    "Acknowledge",
    "ActionError",
    "AgentError",
    "AnthropicAgent",
    "Ask",
    "BlockingSayError",
    "ChatWidget",
    "Conversation",
    "ConversationBusyError",
    "DataFramesDomain",
    "Declare",
    "Delegate",
    "DemoAgent",
    "Element",
    "Envelope",
    "Execute",
    "Finding",
    "Inform",
    "NotesDomain",
    "OpenAIAgent",
    "Option",
    "Payload",
    "Phatic",
    "Repair",
    "SayResult",
    "SchemaDomain",
    "ScriptedAgent",
    "Step",
    "Suggest",
    "Suggestion",
    "__version__",
    "extract_prose",
    "lint",
    "load_sales",
    "outcome_reply",
    "parse",
    "parse_all",
    "policy_human",
    "scripted_human",
    "system_prompt",
    "to_xml",
]
