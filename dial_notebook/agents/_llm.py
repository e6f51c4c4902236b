"""What the two SDK agents share: history, streaming, one client, bounded retries, usage.

    stream_reply(message) ─▶ messages = system prompt + completed turns + message
        ─▶ a streamed request (the subclass: OpenAI chat completions / Anthropic messages)
             ├─ each piece of text: to on_chunk(text), then yielded, in order
             ├─ 429 / 5xx before the first piece ─▶ wait what the server asks (retry-after-ms,
             │       retry-after), else 1 s, 2 s …; at most max_retries times, never longer
             │       than max_retry_wait ─▶ then AgentError('rate-limit' | 'server')
             ├─ the connection breaks after the first piece ─▶ AgentError('connection')
             └─ any other failure ─▶ AgentError with a sentence for the person (_errors.py)
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

The API key is held in a ``Secret`` (its ``repr`` is ``Secret('***')``), handed only to the SDK
client, and redacted from every message built from what a server said; errors are raised
``from None`` so the SDK's own exception (which quotes the server) is not chained.
"""

from __future__ import annotations

import asyncio
import email.utils
import importlib
import inspect
import os
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from types import ModuleType, TracebackType
from typing import Any, ClassVar, Self, TypedDict, Unpack

from .._options import keyword_signature
from . import _saved
from ._clients import LoopClients
from ._errors import AgentError, MissingSDKError, redact
from ._history import History
from ._prompt import system_prompt
from ._tls import shared_context
from ._usage import TurnUsage, Usage, unknown

OnChunk = Callable[[str], object]

#: Statuses worth trying again after a wait.
RETRYABLE = (408, 409, 429, 500, 502, 503, 504, 529)
#: Longest error text quoted from a server.
MAX_QUOTE = 300
#: Seconds an idle connection is kept for the next request (the SDKs' default is 5 s, less
#: than a person takes to click; a connection the server closed meanwhile is not reused).
KEEPALIVE_SECONDS = 60.0


def import_sdk(module: str, agent: str, extra: str) -> ModuleType:
    """The SDK module, or ``MissingSDKError`` naming the extra that installs it."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingSDKError(
            f"{agent} needs the {module} package, which is not installed: "
            f"pip install dial-notebook[{extra}]"
        ) from None


class Secret:
    """An API key that does not show itself in ``repr``, ``str`` or ``vars()``."""

    __slots__ = ("value",)

    def __init__(self, value: str) -> None:
        self.value = value

    @classmethod
    def of(cls, value: str | None) -> Secret | None:
        return cls(value) if value else None

    def __repr__(self) -> str:
        return "Secret('***')"

    __str__ = __repr__


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


class _Tries:
    """The tries of one request so far: retries after a wait, and the one reconnection."""

    def __init__(self) -> None:
        self.retries = 0
        self.reconnected = False


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
        reply, usage = await self._with_retries(lambda: self._request(client, message))
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
        tries = _Tries()
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
                wait = self._failure(exc, started=bool(parts), tries=tries)
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
        """The SDK's own default HTTP client keeping idle connections longer, with the
        process's shared TLS context (None, for the SDK's default, when the SDK is too old to
        offer it)."""
        make = getattr(self._sdk, "DefaultAsyncHttpxClient", None)
        limits = getattr(self._sdk, "DEFAULT_CONNECTION_LIMITS", None)
        if make is None or limits is None:
            return None
        tls = shared_context()
        return make(limits=type(limits)(
            max_connections=limits.max_connections,
            max_keepalive_connections=limits.max_keepalive_connections,
            keepalive_expiry=KEEPALIVE_SECONDS), **({} if tls is None else {"verify": tls}))

    # -- internals ------------------------------------------------------------------------

    async def _client(self) -> Any:
        """The running event loop's SDK client (made on its first request)."""
        return await self._clients.get(self._open_client, self.url)

    def _commit(self, message: str, reply: str, usage: TurnUsage) -> None:
        with self._lock:
            self.history.commit(message, reply)
            self._usage.record(usage)

    async def _with_retries(self, request: Callable[[], Awaitable[tuple[str, TurnUsage]]]
                            ) -> tuple[str, TurnUsage]:
        tries = _Tries()
        while True:
            try:
                return await request()
            except AgentError:
                raise
            except Exception as exc:
                wait = self._failure(exc, started=False, tries=tries)
                if wait is None:
                    raise
            await asyncio.sleep(wait)

    def _failure(self, exc: Exception, *, started: bool, tries: _Tries) -> float | None:
        """What a failed attempt means: the seconds to wait before trying again (counted in
        ``tries``); or None, when ``exc`` is none of the SDK's nor the transport's (the caller
        raises it as it is); else it raises the ``AgentError`` to show. ``started``: text had
        arrived."""
        sdk = self._sdk
        broken = isinstance(exc, sdk.APIConnectionError) and started and not \
            isinstance(exc, sdk.APITimeoutError)
        if broken or (not isinstance(exc, sdk.APIError) and _transport_failure(exc)):
            # the connection dropped mid-stream (some SDKs leave that unwrapped)
            raise AgentError(
                f"The connection to {self.url} broke while the reply was arriving: "
                f"{redact(str(exc.__cause__ or exc), self._secret)}. Send again.",
                kind="connection",
            ) from None
        if not isinstance(exc, sdk.APIError):
            return None
        if not tries.reconnected and not started and type(exc) is sdk.APIConnectionError \
                and not _refused(exc):
            tries.reconnected = True
            return 0.0  # a kept connection the server had just closed: once more, at once
        error, retryable = self._explain(exc)
        if not retryable or started or tries.retries >= self.max_retries:
            raise error from None
        wait = self._wait(exc, tries.retries)
        if wait > self.max_retry_wait:
            raise AgentError(
                f"{error} The server asks to wait {wait:g}s before trying again, "
                f"longer than max_retry_wait={self.max_retry_wait:g}s.",
                kind=error.kind, status=error.status,
            ) from None
        tries.retries += 1
        return wait

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

    def _quote(self, exc: Any) -> str:
        """What the server said, redacted and shortened."""
        body = getattr(exc, "body", None)
        said = None
        if isinstance(body, dict):
            inner = body.get("error", body)
            said = inner.get("message") if isinstance(inner, dict) else inner
        said = str(said or getattr(exc, "message", "") or "").strip()
        said = redact(said, self._secret)
        return said[:MAX_QUOTE] + ("…" if len(said) > MAX_QUOTE else "")

    def _explain(self, exc: Any) -> tuple[AgentError, bool]:
        """The error to show, and whether trying again after a wait may help."""
        sdk, url, name = self._sdk, self.url, type(self).__name__
        if isinstance(exc, sdk.APITimeoutError):
            return AgentError(
                f"No answer from {url} within {self.timeout:g}s (the model may be slow or "
                f"overloaded; raise {name}(timeout=…) to wait longer).", kind="timeout",
            ), False
        if isinstance(exc, sdk.APIConnectionError):
            cause = redact(str(exc.__cause__ or exc), self._secret)
            if _refused(exc):
                reason = "the connection was refused: is the server running, on that port?"
            else:
                reason = f"{cause}. Check the URL and that the server is running."
            return AgentError(f"Could not connect to {url}: {reason}", kind="connection"), False
        status = getattr(exc, "status_code", None)
        said = self._quote(exc)
        quoted = f" The server said: {said}" if said else ""
        if status in (401, 403):
            if self._key is None:
                text = (f"The server at {url} needs an API key ({status}): pass api_key=… "
                        f"or set {self.key_variable}.")
            else:
                text = (f"The server at {url} refused the API key ({status}): check the key "
                        f"given to {name}(api_key=…) or in {self.key_variable}.")
            return AgentError(text, kind="auth", status=status), False
        if status == 404:
            return AgentError(
                f"Model {self.model!r} was not found at {url} (404). Check the model name "
                f"(for Ollama: `ollama list`) and that the base URL is the API's root "
                f"(often ending in /v1).{quoted}", kind="model-not-found", status=404,
            ), False
        if status == 429:
            return AgentError(
                f"Rate limited by {url} (429), still after {self.max_retries} retries: "
                f"wait a moment and send again.{quoted}", kind="rate-limit", status=429,
            ), True
        if status in (400, 413, 422):
            return AgentError(
                f"The server at {url} refused the request ({status}).{quoted}",
                kind="bad-request", status=status,
            ), False
        retry = status in RETRYABLE
        return AgentError(
            f"The server at {url} failed ({status}), still after {self.max_retries} retries: "
            f"try again later.{quoted}" if retry else
            f"The server at {url} answered {status}.{quoted}",
            kind="server", status=status,
        ), retry

    def _wait(self, exc: Any, attempt: int) -> float:
        """Seconds the server asks to wait (retry-after-ms, retry-after), else 1 s, 2 s, 4 s …"""
        response = getattr(exc, "response", None)
        headers = getattr(response, "headers", None) or {}
        wait = retry_after(headers)
        return wait if wait is not None else float(2**attempt)


#: Packages whose exceptions mean the HTTP transport failed (the SDKs leave some unwrapped).
_TRANSPORTS = {"httpx", "httpx2", "httpcore", "httpcore2", "h11", "h2", "anyio", "ssl"}


def _transport_failure(exc: BaseException) -> bool:
    return isinstance(exc, OSError) or type(exc).__module__.partition(".")[0] in _TRANSPORTS


def _refused(exc: BaseException) -> bool:
    """True when the connection was refused: a ``ConnectionRefusedError`` among the
    exception's causes, or a cause that says so."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        if isinstance(current, ConnectionRefusedError):
            return True
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    said = str(exc.__cause__ or exc).lower()
    return "refused" in said or "all connection attempts" in said


def retry_after(headers: Any) -> float | None:
    """The wait a response asks for, in seconds: ``retry-after-ms``, or ``retry-after`` as
    seconds or an HTTP date; None when it asks for none.

        >>> retry_after({"retry-after": "2"}), retry_after({"retry-after-ms": "50"})
        (2.0, 0.05)
    """
    ms = headers.get("retry-after-ms")
    if ms is not None:
        try:
            return max(0.0, float(ms) / 1000)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


# help() and editors show every option as a real parameter (the TypedDict is the one list);
# any other keyword goes to the SDK's request
LLMAgent.__init__.__signature__ = keyword_signature(  # type: ignore[attr-defined]
    LLMAgent.__init__, LLMOptions, LLM_DEFAULTS, rest="request")
