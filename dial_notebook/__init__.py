"""dial-notebook: a conversation with an agent that speaks DIAL, inside a Jupyter notebook.

The agent proposes; the person sees readable, editable cards and decides; the domain runs what
was accepted; the agent is told what became of every proposal.

    >>> from dial_notebook import parse
    >>> parse('<dial version="0.1" actor="agent"><dial-inform>hi</dial-inform></dial>').actor
    'agent'
"""

import importlib as _importlib
from typing import Any as _Any

from . import _surface
from ._progress import report_progress
from ._version import __version__
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

#: Loaded when first used: the runtime, the widget (anywidget, ipywidgets), the agents, the
#: domains (jsonschema) and the ask-the-person seam, so that ``import dial_notebook.dial`` —
#: parsing and lint — needs none of them.
_LAZY = {
    **dict.fromkeys(("BlockingSayError", "Conversation", "ConversationBusyError", "Delegation",
                     "SayResult", "SnapshotError", "StepError", "Suggestion", "http_executor",
                     "policy_human", "python_executor", "scripted_human", "shell_executor"),
                    ".runtime"),
    **dict.fromkeys(("ChatWidget", "Playground", "Replay", "UntrustedSessionError"), ".widget"),
    **dict.fromkeys(("AgentError", "AnthropicAgent", "DemoAgent", "OpenAIAgent",
                     "SchemaDemoAgent", "ScriptedAgent", "system_prompt"), ".agents"),
    **dict.fromkeys(("ActionError", "DataFramesDomain", "McpDomain", "NotesDomain", "Rule",
                     "Rules", "SchemaDomain", "TablesDomain", "load_sales"), ".domains"),
    **dict.fromkeys(("Comparison", "Report", "Scenario", "compare", "evaluate",
                     "evaluate_sync", "load_scenarios", "recorded_human", "replay_decisions",
                     "scenarios_from_sessions"), ".evaluation"),
    **dict.fromkeys(("Answer", "ConsoleProvider", "Question", "ScriptedProvider",
                     "UserInteractionError", "ask_user", "use_provider"), ".interaction"),
}

# The evaluation draws its reports with the widget's drawings without importing the widget
# (layers point down): the widget provides them when imported, and this loads it when needed.
_surface.load_with(lambda: _importlib.import_module(".widget", __name__))


def __getattr__(name: str) -> _Any:
    if name == "__test__":  # for doctest: public classes are shown as dial_notebook.X, so
        # their examples — and their methods' — are found here (the lazy layers loaded only
        # when doctest asks); doctest does not look into a class from another module
        return _examples()
    layer = _LAZY.get(name)
    if layer is None:
        raise AttributeError(f"module 'dial_notebook' has no attribute {name!r}")
    value = getattr(_importlib.import_module(layer, __name__), name)
    globals()[name] = value  # the next access is a plain lookup
    return value


def _examples() -> dict[str, _Any]:
    """Each public class, and each of its own methods whose docstring holds an example."""
    found: dict[str, _Any] = {}
    for name in __all__:
        value = globals().get(name) or __getattr__(name)
        if not isinstance(value, type):
            continue
        found[name] = value
        for attribute, member in vars(value).items():
            function = getattr(member, "__func__", None) or getattr(member, "fget", None) or member
            if callable(function) and ">>>" in (getattr(function, "__doc__", None) or ""):
                found[f"{name}.{attribute}"] = function
    return found


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


__all__ = [
    "Acknowledge",
    "ActionError",
    "AgentError",
    "Answer",
    "AnthropicAgent",
    "Ask",
    "BlockingSayError",
    "ChatWidget",
    "Comparison",
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
    "McpDomain",
    "NotesDomain",
    "OpenAIAgent",
    "Option",
    "Payload",
    "Phatic",
    "Playground",
    "Question",
    "Repair",
    "Replay",
    "Report",
    "Rule",
    "Rules",
    "SayResult",
    "Scenario",
    "SchemaDemoAgent",
    "SchemaDomain",
    "ScriptedAgent",
    "ScriptedProvider",
    "SnapshotError",
    "Step",
    "StepError",
    "Suggest",
    "Suggestion",
    "TablesDomain",
    "UntrustedSessionError",
    "UserInteractionError",
    "__version__",
    "ask_user",
    "compare",
    "evaluate",
    "evaluate_sync",
    "extract_prose",
    "http_executor",
    "lint",
    "load_sales",
    "load_scenarios",
    "outcome_reply",
    "parse",
    "parse_all",
    "policy_human",
    "python_executor",
    "recorded_human",
    "replay_decisions",
    "report_progress",
    "scenarios_from_sessions",
    "scripted_human",
    "shell_executor",
    "system_prompt",
    "to_xml",
    "use_provider",
]
