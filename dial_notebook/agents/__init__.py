"""Agents: what ``agent.send(message)`` talks to, and the DIAL system prompt.

    OpenAIAgent     any chat-completions server (OpenAI, Ollama, vLLM, llama.cpp, LM Studio)
    AnthropicAgent  Anthropic's Messages API
    DemoAgent       offline, no key: speaks DIAL for the notes and dataframes domains
    SchemaDemoAgent offline, no key: proposes payloads made from any SchemaDomain's schemas
                    (valid ones, and broken ones on request), to click through a new domain
    ScriptedAgent   replays replies, for tests, teaching and demos (streamed with ``pieces=``)
    system_prompt   teaches a model DIAL v0.1 and a domain's actions

An agent may also stream: ``async def stream_reply(message)`` yields the reply's text in
pieces, in order, and the runtime reads it when ``getattr(agent, "streams", True)``. The two
SDK agents stream by default (``stream=False``: one whole reply per ``send``), keep one SDK
client per event loop (``close()``, ``await aclose()``, ``async with agent:``) and record the
tokens of each turn in ``usage``.

The agents that keep state between turns save it: ``agent.snapshot()`` is plain JSON (never a
key) and ``agent.restore(data)`` takes a new agent back to it, checking it strictly
(``_saved.py``); ``Conversation.snapshot()`` / ``restore`` use them to survive a restart.

The SDKs are optional extras (``pip install "dial-notebook[openai]"`` / ``[anthropic]``):
importing this package needs neither; creating an agent without its SDK says what to install.

    >>> from dial_notebook.agents import ScriptedAgent
    >>> ScriptedAgent(["<dial><dial-inform>hi</dial-inform></dial>"]).send("hello")
    '<dial><dial-inform>hi</dial-inform></dial>'
"""

from .. import _public
from ._anthropic import AnthropicAgent
from ._demo import DemoAgent, SchemaDemoAgent
from ._errors import AgentError, MissingSDKError
from ._openai import OpenAIAgent
from ._prompt import system_prompt
from ._scripted import ScriptedAgent, ScriptExhaustedError

# exported at the package's top too: shown there as dial_notebook.X
_public.shown_as_top_level(AgentError, AnthropicAgent, DemoAgent, OpenAIAgent, SchemaDemoAgent, ScriptedAgent)

__all__ = [
    "AgentError",
    "AnthropicAgent",
    "DemoAgent",
    "MissingSDKError",
    "OpenAIAgent",
    "SchemaDemoAgent",
    "ScriptExhaustedError",
    "ScriptedAgent",
    "system_prompt",
]
