"""When a failed request to a model is tried again, and how long to wait first.

    a failed attempt ─▶ Attempts.failure(exc, started=text had arrived)
        ├─ the connection broke after the first piece ─▶ AgentError('connection'): send again
        ├─ neither the SDK's nor the transport's ──────▶ None: the caller raises it as it is
        ├─ a kept connection the server had just closed (nothing arrived, not refused)
        │                                    ─▶ once more, at once (one reconnection a request)
        ├─ 429 / 5xx before the first piece ─▶ wait what the server asks (retry-after-ms,
        │       retry-after), else 1 s, 2 s …; at most max_retries times, never longer than
        │       max_retry_wait ─▶ then the AgentError ('rate-limit' | 'server')
        └─ anything else ─▶ the AgentError a person reads (_explain.py)

``Attempts.run`` is the loop for one whole reply; ``LLMAgent.stream_reply`` runs the same
attempts around a stream (a piece already yielded cannot be taken back: no retry after it).
"""

from __future__ import annotations

import asyncio
import email.utils
import time
from collections.abc import Awaitable, Callable
from types import ModuleType
from typing import Any, TypeVar

from ._errors import AgentError, redact
from ._explain import Requester, explain, refused

T = TypeVar("T")

#: Packages whose exceptions mean the HTTP transport failed (the SDKs leave some unwrapped).
_TRANSPORTS = {"httpx", "httpx2", "httpcore", "httpcore2", "h11", "h2", "anyio", "ssl"}


class Attempts:
    """The attempts of one request of ``agent`` (through the SDK module ``sdk``; ``secret``
    is its API key): the retries after a wait so far, and the one reconnection.

        reply, usage = await Attempts(agent, sdk, secret).run(lambda: request(client, message))
    """

    def __init__(self, agent: Requester, sdk: ModuleType, secret: str | None) -> None:
        self.agent = agent
        self.sdk = sdk
        self.secret = secret
        self.retries = 0
        self.reconnected = False

    async def run(self, request: Callable[[], Awaitable[T]]) -> T:
        """``request()``'s result, tried again after each failure worth a wait."""
        while True:
            try:
                return await request()
            except AgentError:
                raise
            except Exception as exc:
                wait = self.failure(exc, started=False)
                if wait is None:
                    raise
            await asyncio.sleep(wait)

    def failure(self, exc: Exception, *, started: bool) -> float | None:
        """What a failed attempt means: the seconds to wait before trying again (counted);
        or None, when ``exc`` is none of the SDK's nor the transport's (the caller raises it
        as it is); else it raises the ``AgentError`` to show. ``started``: text had arrived."""
        sdk, agent = self.sdk, self.agent
        broken = isinstance(exc, sdk.APIConnectionError) and started and not \
            isinstance(exc, sdk.APITimeoutError)
        if broken or (not isinstance(exc, sdk.APIError) and _transport_failure(exc)):
            # the connection dropped mid-stream (some SDKs leave that unwrapped)
            raise AgentError(
                f"The connection to {agent.url} broke while the reply was arriving: "
                f"{redact(str(exc.__cause__ or exc), self.secret)}. Send again.",
                kind="connection",
            ) from None
        if not isinstance(exc, sdk.APIError):
            return None
        if not self.reconnected and not started and type(exc) is sdk.APIConnectionError \
                and not refused(exc):
            self.reconnected = True
            return 0.0  # a kept connection the server had just closed: once more, at once
        error, retryable = explain(agent, exc, sdk=sdk, secret=self.secret)
        if not retryable or started or self.retries >= agent.max_retries:
            raise error from None
        wait = _wait(exc, self.retries)
        if wait > agent.max_retry_wait:
            raise AgentError(
                f"{error} The server asks to wait {wait:g}s before trying again, "
                f"longer than max_retry_wait={agent.max_retry_wait:g}s.",
                kind=error.kind, status=error.status,
            ) from None
        self.retries += 1
        return wait


def _wait(exc: Any, attempt: int) -> float:
    """Seconds the server asks to wait (retry-after-ms, retry-after), else 1 s, 2 s, 4 s …"""
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None) or {}
    wait = retry_after(headers)
    return wait if wait is not None else float(2**attempt)


def _transport_failure(exc: BaseException) -> bool:
    return isinstance(exc, OSError) or type(exc).__module__.partition(".")[0] in _TRANSPORTS


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
