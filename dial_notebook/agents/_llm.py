"""What the two SDK agents share: history, streaming, bounded retries and readable errors.

    send(message) ─▶ messages = system prompt + completed turns + message
        ─▶ request (the subclass: OpenAI chat completions / Anthropic messages)
             ├─ stream=True: every piece of text goes to on_chunk(text) as it arrives
             ├─ 429 / 5xx ─▶ wait what the server asks (retry-after-ms, retry-after), else
             │               1 s, 2 s …; at most max_retries times, never longer than
             │               max_retry_wait ─▶ then AgentError('rate-limit' | 'server')
             └─ any other failure ─▶ AgentError with a sentence for the person (_errors.py)
        ─▶ the turn is kept in the history; the reply text is returned

In a ``Conversation`` the conversation's own ``timeout`` decides when to stop waiting: it
cancels the send, the runtime reports ``no-reply`` and the history is left unchanged. The
agent's ``timeout`` (default 120 s, longer than the runtime's 90 s) only bounds a send made
outside a conversation.

Each send opens its own SDK client and closes it before returning, so an agent works from any
event loop (a notebook's, or ``say_sync``'s private one) and leaves no connection behind.

The API key is held in a ``Secret`` (its ``repr`` is ``Secret('***')``), handed only to the SDK
client, and redacted from every message built from what a server said; errors are raised
``from None`` so the SDK's own exception (which quotes the server) is not chained.
"""

from __future__ import annotations

import asyncio
import contextlib
import email.utils
import importlib
import inspect
import os
import time
from collections.abc import AsyncIterator, Callable
from types import ModuleType
from typing import Any, ClassVar, TypedDict, Unpack

from .._options import keyword_signature
from ._errors import AgentError, MissingSDKError, redact
from ._history import History
from ._prompt import system_prompt

OnChunk = Callable[[str], object]

#: Statuses worth trying again after a wait.
RETRYABLE = (408, 409, 429, 500, 502, 503, 504, 529)
#: Longest error text quoted from a server.
MAX_QUOTE = 300


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
                                "domain": None, "stream": False, "on_chunk": None,
                                "timeout": 120.0, "max_retries": 2, "max_retry_wait": 60.0}


class LLMAgent:
    """Base of ``OpenAIAgent`` and ``AnthropicAgent`` (see their docstrings)."""

    #: Set by each subclass.
    sdk: ClassVar[str]
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
        self.stream = stream
        #: Called with each piece of reply text as it arrives (when ``stream=True``).
        self.on_chunk = on_chunk
        self.timeout = timeout
        self.max_retries = max_retries
        self.max_retry_wait = max_retry_wait
        #: Passed to the SDK's request (``temperature``, ``max_tokens`` …).
        self.options = dict(request)
        self.history = History(system if system is not None else system_prompt(domain))
        self._key = Secret.of(api_key or os.environ.get(self.key_variable))

    @property
    def url(self) -> str:
        """Where requests go."""
        return (self.base_url or self.default_url).rstrip("/")

    @property
    def system(self) -> str:
        """The system prompt sent first with every request."""
        return self.history.system

    def __repr__(self) -> str:
        return f"{type(self).__name__}(model={self.model!r}, url={self.url!r})"

    # -- sending --------------------------------------------------------------------------

    async def send(self, message: str) -> str:
        """Send ``message`` as the next user turn and return the model's reply text.

        Raises ``AgentError`` with a readable message when the model cannot be reached.
        """
        client = self._open_client()
        async with client:  # one client per send: nothing outlives the send or its event loop
            reply = await self._with_retries(client, message)
        self.history.commit(message, reply)
        return reply

    async def _with_retries(self, client: Any, message: str) -> str:
        attempt = 0
        while True:
            started = False

            def mark() -> None:
                nonlocal started
                started = True

            try:
                return await self._complete(client, message, mark)
            except AgentError:
                raise
            except Exception as exc:
                broken = isinstance(exc, self._sdk.APIConnectionError) and started and not \
                    isinstance(exc, self._sdk.APITimeoutError)
                if broken or (not isinstance(exc, self._sdk.APIError) and _transport_failure(exc)):
                    # the connection dropped mid-stream (some SDKs leave that unwrapped)
                    raise AgentError(
                        f"The connection to {self.url} broke while the reply was arriving: "
                        f"{redact(str(exc.__cause__ or exc), self._secret)}. Send again.",
                        kind="connection",
                    ) from None
                if not isinstance(exc, self._sdk.APIError):
                    raise
                error, retryable = self._explain(exc)
                if not retryable or started or attempt >= self.max_retries:
                    raise error from None
                wait = self._wait(exc, attempt)
                if wait > self.max_retry_wait:
                    raise AgentError(
                        f"{error} The server asks to wait {wait:g}s before trying again, "
                        f"longer than max_retry_wait={self.max_retry_wait:g}s.",
                        kind=error.kind, status=error.status,
                    ) from None
            attempt += 1
            await asyncio.sleep(wait)

    async def _complete(self, client: Any, message: str, mark: Callable[[], None]) -> str:
        if not self.stream:
            return await self._request(client, message)
        parts: list[str] = []
        async with contextlib.aclosing(self._request_stream(client, message)) as pieces:
            async for piece in pieces:
                if not piece:
                    continue
                mark()
                parts.append(piece)
                if self.on_chunk is not None:
                    result = self.on_chunk(piece)
                    if inspect.isawaitable(result):
                        await result
        return "".join(parts)

    def reset(self) -> None:
        """Forget the conversation (the system prompt stays)."""
        self.history.clear()

    # -- for subclasses -------------------------------------------------------------------

    def _make_client(self, api_key: str) -> Any:
        raise NotImplementedError

    async def _request(self, client: Any, message: str) -> str:
        raise NotImplementedError

    def _request_stream(self, client: Any, message: str) -> AsyncIterator[str]:
        raise NotImplementedError

    # -- internals ------------------------------------------------------------------------

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
            if _refused(exc) or "refused" in cause.lower() or "all connection attempts" in \
                    cause.lower():
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
    """True when a ``ConnectionRefusedError`` is among the exception's causes."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        if isinstance(current, ConnectionRefusedError):
            return True
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return False


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
