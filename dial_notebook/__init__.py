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
    SchemaDemoAgent,
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
from .interaction import (
    Answer,
    ConsoleProvider,
    Question,
    ScriptedProvider,
    UserInteractionError,
    ask_user,
    use_provider,
)
from .runtime import (
    BlockingSayError,
    Conversation,
    ConversationBusyError,
    Delegation,
    SayResult,
    StepError,
    Suggestion,
    http_executor,
    policy_human,
    python_executor,
    scripted_human,
    shell_executor,
)
from .widget import ChatWidget, Playground

__version__ = "0.1.0"

__all__ = [
    "Acknowledge",
    "ActionError",
    "AgentError",
    "Answer",
    "AnthropicAgent",
    "Ask",
    "BlockingSayError",
    "ChatWidget",
    "ConsoleProvider",
    "Conversation",
    "ConversationBusyError",
    "DataFramesDomain",
    "Declare",
    "Delegate",
    "Delegation",
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
    "Playground",
    "Question",
    "Repair",
    "SayResult",
    "SchemaDemoAgent",
    "SchemaDomain",
    "ScriptedAgent",
    "ScriptedProvider",
    "Step",
    "StepError",
    "Suggest",
    "Suggestion",
    "UserInteractionError",
    "__version__",
    "ask_user",
    "extract_prose",
    "http_executor",
    "lint",
    "load_sales",
    "outcome_reply",
    "parse",
    "parse_all",
    "policy_human",
    "python_executor",
    "scripted_human",
    "shell_executor",
    "system_prompt",
    "to_xml",
    "use_provider",
]
