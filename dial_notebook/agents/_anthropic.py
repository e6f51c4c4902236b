"""AnthropicAgent: a Claude model behind the Messages API.

Uses the official ``anthropic`` SDK's async client (``pip install dial-notebook[anthropic]``).
The system prompt goes in the request's ``system`` field, the completed turns and the message
in ``messages``; with ``stream=True`` each ``text_delta`` goes to ``on_chunk``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any, Unpack

from .._options import keyword_signature
from ._llm import LLM_DEFAULTS, LLMAgent, LLMOptions


class AnthropicOptions(LLMOptions, total=False):
    """``LLMOptions`` and the longest reply, in tokens (the Messages API requires one)."""

    max_tokens: int


class AnthropicAgent(LLMAgent):
    """An agent behind Anthropic's Messages API.

    Args:
        model: the model's name (``"claude-sonnet-4-5"`` …).
        base_url: default ``ANTHROPIC_BASE_URL`` or Anthropic's own.
        api_key: default ``ANTHROPIC_API_KEY``.
        max_tokens: the longest reply, in tokens (the API requires one; default 4096).
        The rest as for ``OpenAIAgent``; ``**request`` goes to ``messages.create``.

        agent = AnthropicAgent(model="claude-sonnet-4-5", domain=notes, stream=True,
                               on_chunk=print)
        reply = await agent.send("add a note: buy milk")
    """

    sdk = "anthropic"
    extra = "anthropic"
    key_variable = "ANTHROPIC_API_KEY"
    url_variable = "ANTHROPIC_BASE_URL"
    default_url = "https://api.anthropic.com"

    def __init__(self, model: str, **options: Unpack[AnthropicOptions]) -> None:
        max_tokens = options.pop("max_tokens", 4096)
        super().__init__(model, **options, max_tokens=max_tokens)  # type: ignore[call-arg]

    def _make_client(self, api_key: str) -> Any:
        return self._sdk.AsyncAnthropic(
            api_key=api_key, base_url=self.url, timeout=self.timeout, max_retries=0,
        )

    def _arguments(self, message: str) -> dict[str, Any]:
        arguments: dict[str, Any] = {
            "model": self.model, "messages": self.history.anthropic_messages(message),
            **self.options,
        }
        if self.history.system:
            arguments["system"] = self.history.system
        return arguments

    async def _request(self, client: Any, message: str) -> str:
        response = await client.messages.create(**self._arguments(message))
        return "".join(block.text for block in response.content if block.type == "text")

    async def _request_stream(self, client: Any, message: str) -> AsyncIterator[str]:
        stream = await client.messages.create(**self._arguments(message), stream=True)
        async with stream:
            async for event in stream:
                if event.type == "content_block_delta" and event.delta.type == "text_delta":
                    yield event.delta.text


AnthropicAgent.__init__.__signature__ = keyword_signature(  # type: ignore[attr-defined]
    AnthropicAgent.__init__, AnthropicOptions, {**LLM_DEFAULTS, "max_tokens": 4096},
    rest="request")
