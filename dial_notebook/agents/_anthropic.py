"""AnthropicAgent: a Claude model behind the Messages API.

Uses the official ``anthropic`` SDK's async client (``pip install "dial-notebook[anthropic]"``).
The system prompt goes in the request's ``system`` field, the completed turns and the message
in ``messages``. Streamed (the default), each ``text_delta`` is yielded by ``stream_reply`` and
given to ``on_chunk``, and the usage comes from ``message_start`` and ``message_delta``;
unstreamed, from the message's ``usage``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any, Unpack

from .._options import keyword_signature
from ._llm import LLM_DEFAULTS, LLMAgent, LLMOptions
from ._usage import TurnUsage, count, unknown


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

        async with AnthropicAgent(model="claude-sonnet-4-5", domain=notes) as agent:
            async for piece in agent.stream_reply("add a note: buy milk"):
                print(piece, end="")
            agent.usage["turns"][-1]   # {'input': …, 'output': …, 'total': …}
    """

    sdk = "anthropic"
    kind = "anthropic"
    extra = "anthropic"
    key_variable = "ANTHROPIC_API_KEY"
    url_variable = "ANTHROPIC_BASE_URL"
    default_url = "https://api.anthropic.com"

    def __init__(self, model: str, **options: Unpack[AnthropicOptions]) -> None:
        max_tokens = options.pop("max_tokens", 4096)
        super().__init__(model, **options, max_tokens=max_tokens)  # type: ignore[call-arg]

    def _make_client(self, api_key: str) -> Any:
        return self._sdk.AsyncAnthropic(api_key=api_key, base_url=self.url,
                                        timeout=self.timeout, max_retries=0,
                                        http_client=self._http_client())

    def _arguments(self, message: str) -> dict[str, Any]:
        arguments: dict[str, Any] = {
            "model": self.model, "messages": self.history.anthropic_messages(message),
            "timeout": self.timeout, **self.options,
        }
        if self.history.system:
            arguments["system"] = self.history.system
        return arguments

    async def _request(self, client: Any, message: str) -> tuple[str, TurnUsage]:
        response = await client.messages.create(**self._arguments(message))
        text = "".join(block.text for block in response.content if block.type == "text")
        usage = unknown()
        _add_usage(usage, getattr(response, "usage", None))
        return text, usage

    async def _request_stream(self, client: Any, message: str,
                              usage: TurnUsage) -> AsyncIterator[str]:
        stream = await client.messages.create(**self._arguments(message), stream=True)
        async with stream:
            async for event in stream:
                if event.type == "content_block_delta" and event.delta.type == "text_delta":
                    yield event.delta.text
                elif event.type == "message_start":
                    _add_usage(usage, getattr(event.message, "usage", None))
                elif event.type == "message_delta":  # counts so far: the last one is the turn's
                    _add_usage(usage, getattr(event, "usage", None))


def _add_usage(usage: TurnUsage, reported: Any) -> None:
    """Take the counts ``reported`` (a message's or a stream event's usage) into ``usage``.

    Input is every token of the prompt: ``input_tokens`` and the tokens written to or read
    from the prompt cache. Output is ``output_tokens``.
    """
    if reported is None:
        return
    parts = [count(getattr(reported, name, None)) for name in
             ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")]
    if parts[0] is not None:
        usage["input"] = sum(part or 0 for part in parts)
    output = count(getattr(reported, "output_tokens", None))
    if output is not None:
        usage["output"] = output


AnthropicAgent.__init__.__signature__ = keyword_signature(  # type: ignore[attr-defined]
    AnthropicAgent.__init__, AnthropicOptions, {**LLM_DEFAULTS, "max_tokens": 4096},
    rest="request")
