"""What the two SDK agents share: history, streaming, one client, bounded retries, usage.

    stream_reply(message) ─▶ messages = system prompt + completed turns + message
        ─▶ a streamed request (the subclass: OpenAI chat completions / Anthropic messages)
             ├─ each piece of text: to on_chunk(text), then yielded, in order
             └─ a failure ─▶ tried again after a wait (429 / 5xx before the first piece, at
                    most max_retries times, _retries.py), else AgentError with a sentence
                    for the person (_explain.py)
        ─▶ the stream ends: the turn and its token usage are kept
    send(message) ─▶ stream=True: the pieces of stream_reply, joined
                  └ stream=False: one request, with the same retries ─▶ the turn is kept

``streams`` (``stream``, True by default) tells the runtime to read ``stream_reply``; with
``stream=False`` it calls ``send``. A consumer that stops reading a stream (the runtime's task
cancelled: a Stop, an interrupt, its timeout) closes the HTTP stream at once and leaves the
history as it was; only the CancelledError / GeneratorExit in flight is raised.

In a ``Conversation`` the conversation's own ``timeout`` decides when to stop waiting: it
cancels the send, the runtime reports ``no-reply`` and the history is left unchanged. The
agent's ``timeout`` (default 120 s, longer than the runtime's 90 s) only bounds a request made
outside a conversation.

One SDK client, and its pool of connections, serves every request made from one event loop
(``_clients.py``: one per loop, as an async client is bound to its loop; closed when that loop
shuts down). ``close()``, ``await aclose()`` or ``async with agent:`` closes them sooner.

``snapshot()`` saves the conversation so far (the completed turns and their usage) as plain
JSON, ``restore(data)`` takes a new agent back to it (``_saved.py`` checks it). A turn is kept
only once its reply arrived, together with its usage and under a lock, so a snapshot taken in
the middle of a send (from the runtime's event callback, or another thread) is the history as
it was before that send: never a user message without its reply.

The API key is held in a ``Secret`` (its ``repr`` is ``Secret('***')``, _sdk.py), handed only
to the SDK client, and redacted from every message built from what a server said; errors are
raised ``from None`` so the SDK's own exception (which quotes the server) is not chained.
"""

from __future__ import annotations

import asyncio
import inspect
import os
import threading
from collections.abc import AsyncIterator, Callable
from types import TracebackType
from typing import Any, ClassVar, Self, TypedDict, Unpack

from .._options import keyword_signature
from . import _saved
from ._clients import LoopClients
from ._errors import AgentError
from ._history import History
from ._prompt import system_prompt
from ._retries import Attempts, retry_after
from ._sdk import Secret, import_sdk, keepalive_client
from ._usage import TurnUsage, Usage, unknown

# ``retry_after`` is read from here too (the tests')
__all__ = ["LLM_DEFAULTS", "LLMAgent", "LLMOptions", "OnChunk", "retry_after"]

OnChunk = Callable[[str], object]


class LLMOptions(TypedDict, total=False):
    """The options both SDK agents take (see ``OpenAIAgent``), written once."""

    base_url: str | None
    api_key: str | None
    system: str | None
    domain: Any
    stream: bool
    on_chunk: OnChunk | None
    timeout: float
    max_retries: int
    max_retry_wait: float


#: Each option's default.
LLM_DEFAULTS: dict[str, Any] = {"base_url": None, "api_key": None, "system": None,
                                "domain": None, "stream": True, "on_chunk": None,
                                "timeout": 120.0, "max_retries": 2, "max_retry_wait": 60.0}


class _Closing:
    """``async with``: closes an async generator on the way out; when something is already
    in flight (a failure, a cancellation, a GeneratorExit) a failure to close does not
    replace it."""

    def __init__(self, stream: AsyncIterator[str]) -> None:
        self.stream = stream

    async def __aenter__(self) -> AsyncIterator[str]:
        return self.stream

    async def __aexit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        try:
            await self.stream.aclose()  # type: ignore[attr-defined]
        except Exception:
            if kind is None:
                raise


class LLMAgent:
    """Base of ``OpenAIAgent`` and ``AnthropicAgent`` (see their docstrings)."""

    #: Set by each subclass.
    sdk: ClassVar[str]
    #: What ``snapshot()["kind"]`` says (``"openai"``, ``"anthropic"``).
    kind: ClassVar[str]
    extra: ClassVar[str]
    key_variable: ClassVar[str]
    url_variable: ClassVar[str]
    default_url: ClassVar[str]

    #: What every request carries unless the caller says otherwise (a subclass adds to it).
    request_defaults: ClassVar[dict[str, Any]] = {}

    def __init__(self, model: str, **options: Unpack[LLMOptions]) -> None:
        # the options this class knows; any other keyword goes to the SDK's request as it is
        settings = {**LLM_DEFAULTS, **{k: v for k, v in options.items() if k in LLM_DEFAULTS}}
        request = {k: v for k, v in options.items() if k not in LLM_DEFAULTS}
        self._setup(model, request={**self.request_defaults, **request}, **settings)

    def _setup(self, model: str, *, base_url: str | None, api_key: str | None,
               system: str | None, domain: Any, stream: bool, on_chunk: OnChunk | None,
               timeout: float, max_retries: int, max_retry_wait: float,
               request: dict[str, Any]) -> None:
        if not isinstance(model, str) or not model:
            raise ValueError(f"{type(self).__name__}: model must be a model name, not {model!r}")
        self._sdk = import_sdk(self.sdk, type(self).__name__, self.extra)
        self.model = model
        self.base_url = base_url or os.environ.get(self.url_variable) or None
        #: Read replies as they are written (``stream_reply``); False: one whole reply per
        #: request (``send``).
        self.stream = stream
        #: Called with each piece of reply text as it arrives (when streaming).
        self.on_chunk = on_chunk
        self.timeout = timeout
        self.max_retries = max_retries
        self.max_retry_wait = max_retry_wait
        #: Passed to the SDK's request (``temperature``, ``max_tokens`` …).
        self.options = dict(request)
        self.history = History(system if system is not None else system_prompt(domain))
        self._key = Secret.of(api_key or os.environ.get(self.key_variable))
        self._clients = LoopClients()
        self._usage = Usage()
        # a turn and its usage are kept together: a snapshot sees both or neither
        self._lock = threading.Lock()

    @property
    def url(self) -> str:
        """Where requests go."""
        return (self.base_url or self.default_url).rstrip("/")

    @property
    def system(self) -> str:
        """The system prompt sent first with every request."""
        return self.history.system

    @property
    def streams(self) -> bool:
        """Whether the runtime should read replies from ``stream_reply`` (the ``stream``
        option) rather than ``send``."""
        return bool(self.stream)

    @property
    def usage(self) -> dict[str, Any]:
        """Tokens per completed turn, as the API reported them, and their sums:
        ``{"turns": [{"input": …, "output": …, "total": …}, …], "input": …, "output": …,
        "total": …}``. A turn whose server reported nothing has ``None`` counts; the sums
        add what is known."""
        return self._usage.summary()

    def __repr__(self) -> str:
        return f"{type(self).__name__}(model={self.model!r}, url={self.url!r})"

    # -- sending --------------------------------------------------------------------------

    async def send(self, message: str) -> str:
        """Send ``message`` as the next user turn and return the model's reply text.

        With ``stream=True`` the reply is read as ``stream_reply`` reads it (each piece to
        ``on_chunk``); with ``stream=False`` it is one request. Raises ``AgentError`` with a
        readable message when the model cannot be reached.
        """
        if self.stream:
            async with _Closing(self.stream_reply(message)) as pieces:
                return "".join([piece async for piece in pieces])
        client = await self._client()
        reply, usage = await self._attempts().run(lambda: self._request(client, message))
        self._commit(message, reply, usage)
        return reply

    async def stream_reply(self, message: str) -> AsyncIterator[str]:
        """Send ``message`` as the next user turn and yield the reply's text in pieces, in
        order, as they arrive (their concatenation is the reply; each also goes to
        ``on_chunk``). When the stream ends the turn is kept, as ``send`` keeps it.

        Stopping early (``aclose()``, or the reading task cancelled) closes the HTTP stream
        and keeps nothing. Always streams, whatever ``stream`` says.

            async for piece in agent.stream_reply("add a note: buy milk"):
                print(piece, end="")
        """
        client = await self._client()
        parts: list[str] = []
        usage = unknown()  # filled in by the subclass as the stream reports it
        tries = self._attempts()
        while True:
            try:
                async with _Closing(self._request_stream(client, message, usage)) as stream:
                    async for piece in stream:
                        if not piece:
                            continue
                        parts.append(piece)
                        if self.on_chunk is not None:
                            result = self.on_chunk(piece)
                            if inspect.isawaitable(result):
                                await result
                        yield piece
                break
            except AgentError:
                raise
            except Exception as exc:
                wait = tries.failure(exc, started=bool(parts))
                if wait is None:
                    raise
            usage = unknown()
            await asyncio.sleep(wait)
        self._commit(message, "".join(parts), usage)

    def reset(self) -> None:
        """Forget the conversation and its usage (the system prompt stays)."""
        with self._lock:
            self.history.clear()
            self._usage.clear()

    # -- saving ---------------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """The conversation so far, as plain JSON, for ``restore`` in a new agent (after a
        kernel restart):

            {"kind": "openai", "version": 1, "model": "gpt-4o-mini",
             "history": [{"role": "user", "content": "…"},
                         {"role": "assistant", "content": "…"}, …],
             "usage": {"turns": [{"input": 812, "output": 64, "total": 876}, …]}}

        ``history`` holds the completed turns (user, assistant, in turn), ``usage`` one entry
        per completed turn (its sums are made again). Taken while a send is in flight, it is
        the history before that send (a turn is kept only once its reply arrived). Never the
        API key, the URL, headers or the client; not the system prompt either (the agent
        builds its own from ``system=`` or the domain), nor the request options. ``model``
        records which model wrote the replies; ``restore`` keeps the agent's own.
        """
        with self._lock:
            history = [{"role": str(m["role"]), "content": str(m["content"])}
                       for m in self.history.turns]
            usage: list[dict[str, Any]] = [dict(turn) for turn in self._usage.turns]
        return {**_saved.header(self.kind), "model": self.model, "history": history,
                "usage": {"turns": usage}}

    def restore(self, data: Any) -> None:
        """Take the agent back to a ``snapshot()``: its history and usage become the saved
        ones, so the next request carries the saved turns (after this agent's own system
        prompt). ``data`` is untrusted (it comes from a file): anything wrong raises
        ``ValueError`` naming it, and leaves the agent as it was. Restore an agent that is
        not sending.

            agent = OpenAIAgent(model="gpt-4o-mini", domain=notes)
            agent.restore(json.loads(path.read_text())["agent"])
        """
        saved = _saved.Saved(data, self.kind, type(self).__name__)
        saved.fields("model", "history", "usage")
        saved.string("model", most=1000)
        turns = saved.history()
        usage = saved.usage("usage", len(turns) // 2)
        restored = [TurnUsage(input=u["input"], output=u["output"], total=u["total"])
                    for u in usage]
        with self._lock:
            self.history.turns[:] = turns
            self._usage.turns[:] = restored

    # -- connections ----------------------------------------------------------------------

    def close(self) -> None:
        """Close the agent's connections, as far as can be done without waiting for a loop
        that runs: an idle loop's at once; a running loop's (a notebook's, or one on another
        thread) as soon as that loop runs again. The agent stays usable: its next request
        opens a new connection.

            agent.close()
        """
        self._clients.close()

    async def aclose(self) -> None:
        """Close the agent's connections; this loop's before returning.

            await agent.aclose()
        """
        await self._clients.aclose()

    async def __aenter__(self) -> Self:
        """``async with OpenAIAgent(…) as agent:`` closes its connections on the way out."""
        return self

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
                        traceback: TracebackType | None) -> None:
        await self.aclose()

    # -- for subclasses -------------------------------------------------------------------

    def _make_client(self, api_key: str) -> Any:
        raise NotImplementedError

    async def _request(self, client: Any, message: str) -> tuple[str, TurnUsage]:
        """One whole reply, and its usage."""
        raise NotImplementedError

    def _request_stream(self, client: Any, message: str, usage: TurnUsage) -> AsyncIterator[str]:
        """The reply's pieces; ``usage`` is filled in as the stream reports it."""
        raise NotImplementedError

    def _http_client(self) -> Any:
        """The HTTP client handed to the SDK's client (``keepalive_client``, _sdk.py)."""
        return keepalive_client(self._sdk)

    # -- internals ------------------------------------------------------------------------

    async def _client(self) -> Any:
        """The running event loop's SDK client (made on its first request)."""
        return await self._clients.get(self._open_client, self.url)

    def _commit(self, message: str, reply: str, usage: TurnUsage) -> None:
        with self._lock:
            self.history.commit(message, reply)
            self._usage.record(usage)

    def _open_client(self) -> Any:
        """A new SDK client (an async client is bound to the event loop it first runs on)."""
        key = self._key.value if self._key is not None else None
        if key is None:
            if self.base_url is None:
                raise AgentError(
                    f"No API key for {type(self).__name__}: pass api_key=… or set the "
                    f"{self.key_variable} environment variable.", kind="auth",
                )
            key = "no-key"  # a local server usually needs none; a 401 will say if it does
        return self._make_client(key)

    @property
    def _secret(self) -> str | None:
        return self._key.value if self._key is not None else None

    def _attempts(self) -> Attempts:
        """The attempts of one request: its retries, and what each failure means."""
        return Attempts(self, self._sdk, self._secret)



# help() and editors show every option as a real parameter (the TypedDict is the one list);
# any other keyword goes to the SDK's request
LLMAgent.__init__.__signature__ = keyword_signature(  # type: ignore[attr-defined]
    LLMAgent.__init__, LLMOptions, LLM_DEFAULTS, rest="request")
