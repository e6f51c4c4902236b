"""OpenAIAgent: a model behind the chat-completions API (OpenAI, Ollama, vLLM, llama.cpp …).

Uses the official ``openai`` SDK's async client (``pip install "dial-notebook[openai]"``). The
request is ``[system prompt, …completed turns, the message]``. Streamed (the default), the text
arrives as server-sent events, each piece yielded by ``stream_reply`` and given to
``on_chunk``, and the request asks for the usage in its last chunk
(``stream_options={"include_usage": True}``); unstreamed, the usage is the response's.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from ._errors import AgentError
from ._llm import LLMAgent
from ._usage import TurnUsage, count


class OpenAIAgent(LLMAgent):
    """An agent behind an OpenAI-compatible chat-completions API.

    Args:
        model: the model's name (``"gpt-4o-mini"``, ``"llama3.2"`` …).
        base_url: the API's root, e.g. ``"http://localhost:11434/v1"`` for Ollama; default
            ``OPENAI_BASE_URL`` or OpenAI's own.
        api_key: default ``OPENAI_API_KEY``; a local server (``base_url`` given) needs none.
        system: the system prompt; default ``system_prompt(domain)``.
        domain: the domain whose actions the system prompt lists.
        stream: read the reply as it is written (default True): the runtime reads
            ``stream_reply``; False: one whole reply per request (``send``).
        on_chunk: ``on_chunk(text)`` for each piece of a streamed reply (sync or async).
        timeout: seconds to wait for the server outside a conversation (default 120).
        max_retries: tries again after 429 / 5xx, waiting what the server asks.
        max_retry_wait: longest wait (seconds) a retry may ask for before giving up.
        **request: passed to ``chat.completions.create`` (``temperature``, ``max_tokens`` …;
            ``stream_options=None`` for a server that refuses the usage option).

    One client (and its connections) per event loop serves every request; ``close()``,
    ``await aclose()`` or ``async with`` closes them. ``usage`` holds the tokens of each turn.

        agent = OpenAIAgent(model="llama3.2", base_url="http://localhost:11434/v1",
                            domain=notes)
        reply = await agent.send("add a note: buy milk")
        async for piece in agent.stream_reply("and another: call mum"):
            print(piece, end="")
        agent.usage["total"]   # tokens of both turns, as the server reported them
    """

    sdk = "openai"
    kind = "openai"
    extra = "openai"
    key_variable = "OPENAI_API_KEY"
    url_variable = "OPENAI_BASE_URL"
    default_url = "https://api.openai.com/v1"

    def _make_client(self, api_key: str) -> Any:
        return self._sdk.AsyncOpenAI(api_key=api_key, base_url=self.url, timeout=self.timeout,
                                     max_retries=0, http_client=self._http_client())

    def _arguments(self, message: str, *, stream: bool) -> dict[str, Any]:
        options = dict(self.options)
        if stream:  # the last chunk carries the usage (stream_options=None: not asked for)
            options.setdefault("stream_options", {"include_usage": True})
            if options["stream_options"] is None:
                del options["stream_options"]
        else:
            options.pop("stream_options", None)  # refused without stream
        return {"model": self.model, "messages": self.history.openai_messages(message),
                "timeout": self.timeout, **options}

    async def _request(self, client: Any, message: str) -> tuple[str, TurnUsage]:
        response = await client.chat.completions.create(**self._arguments(message, stream=False))
        if not response.choices:
            raise AgentError(f"The server at {self.url} answered with no reply (no choices).",
                             kind="server")
        return response.choices[0].message.content or "", _usage(response.usage)

    async def _request_stream(self, client: Any, message: str,
                              usage: TurnUsage) -> AsyncIterator[str]:
        stream = await client.chat.completions.create(**self._arguments(message, stream=True),
                                                      stream=True)
        async with stream:
            async for chunk in stream:
                if getattr(chunk, "usage", None) is not None:
                    usage.update(_usage(chunk.usage))
                if chunk.choices and chunk.choices[0].delta.content:
                    yield chunk.choices[0].delta.content


def _usage(reported: Any) -> TurnUsage:
    """A chat completion's ``usage`` (None when the server sent none)."""
    return TurnUsage(input=count(getattr(reported, "prompt_tokens", None)),
                     output=count(getattr(reported, "completion_tokens", None)),
                     total=count(getattr(reported, "total_tokens", None)))
