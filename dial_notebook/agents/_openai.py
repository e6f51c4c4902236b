"""OpenAIAgent: a model behind the chat-completions API (OpenAI, Ollama, vLLM, llama.cpp …).

Uses the official ``openai`` SDK's async client (``pip install dial-notebook[openai]``). The
request is ``[system prompt, …completed turns, the message]``; with ``stream=True`` the text
arrives as server-sent events and each piece goes to ``on_chunk``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from ._errors import AgentError
from ._llm import LLMAgent


class OpenAIAgent(LLMAgent):
    """An agent behind an OpenAI-compatible chat-completions API.

    Args:
        model: the model's name (``"gpt-4o-mini"``, ``"llama3.2"`` …).
        base_url: the API's root, e.g. ``"http://localhost:11434/v1"`` for Ollama; default
            ``OPENAI_BASE_URL`` or OpenAI's own.
        api_key: default ``OPENAI_API_KEY``; a local server (``base_url`` given) needs none.
        system: the system prompt; default ``system_prompt(domain)``.
        domain: the domain whose actions the system prompt lists.
        stream: receive the reply as it is written; each piece goes to ``on_chunk``.
        on_chunk: ``on_chunk(text)`` for each piece of a streamed reply (sync or async).
        timeout: seconds to wait for the server outside a conversation (default 120).
        max_retries: tries again after 429 / 5xx, waiting what the server asks.
        max_retry_wait: longest wait (seconds) a retry may ask for before giving up.
        **request: passed to ``chat.completions.create`` (``temperature``, ``max_tokens`` …).

        agent = OpenAIAgent(model="llama3.2", base_url="http://localhost:11434/v1",
                            domain=notes)
        reply = await agent.send("add a note: buy milk")
    """

    sdk = "openai"
    extra = "openai"
    key_variable = "OPENAI_API_KEY"
    url_variable = "OPENAI_BASE_URL"
    default_url = "https://api.openai.com/v1"

    def _make_client(self, api_key: str) -> Any:
        return self._sdk.AsyncOpenAI(
            api_key=api_key, base_url=self.url, timeout=self.timeout, max_retries=0,
        )

    async def _request(self, client: Any, message: str) -> str:
        response = await client.chat.completions.create(
            model=self.model, messages=self.history.openai_messages(message), **self.options,
        )
        if not response.choices:
            raise AgentError(f"The server at {self.url} answered with no reply (no choices).",
                             kind="server")
        return response.choices[0].message.content or ""

    async def _request_stream(self, client: Any, message: str) -> AsyncIterator[str]:
        stream = await client.chat.completions.create(
            model=self.model, messages=self.history.openai_messages(message), stream=True,
            **self.options,
        )
        async with stream:
            async for chunk in stream:
                if chunk.choices and chunk.choices[0].delta.content:
                    yield chunk.choices[0].delta.content
