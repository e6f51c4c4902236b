"""What a person reads when a request to a model fails: the SDK's exception as an AgentError.

    explain(exc) ─▶ (AgentError, worth trying again after a wait?)
        the agent's own timeout ───────▶ 'timeout': raise timeout=… to wait longer
        no connection ─────────────────▶ 'connection': refused (is the server running?), or
                                          why, with the URL to check
        401 / 403 ─────────────────────▶ 'auth': which setting to give or check (never the key)
        404 ───────────────────────────▶ 'model-not-found': the model name, the base URL
        429 ───────────────────────────▶ 'rate-limit' (retryable)
        400 / 413 / 422 ───────────────▶ 'bad-request', with the server's reason
        any other status ──────────────▶ 'server' (retryable when in ``RETRYABLE``)

What the server said is quoted, redacted (``redact``, _errors.py: the key and the masked forms
servers echo) and cut at ``MAX_QUOTE`` characters. The kinds are listed in _errors.py.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, Protocol

from ._errors import AgentError, redact

#: Statuses worth trying again after a wait.
RETRYABLE = (408, 409, 429, 500, 502, 503, 504, 529)
#: Longest error text quoted from a server.
MAX_QUOTE = 300


class Requester(Protocol):
    """What is read of the agent whose request failed (an ``LLMAgent``)."""

    model: str
    timeout: float
    max_retries: int
    max_retry_wait: float

    @property
    def url(self) -> str: ...

    @property
    def key_variable(self) -> str: ...


def explain(agent: Requester, exc: Any, *, sdk: ModuleType,
            secret: str | None) -> tuple[AgentError, bool]:
    """The error to show for the SDK's exception ``exc``, and whether trying again after a
    wait may help. ``secret``: the agent's API key (None when it has none)."""
    url, name = agent.url, type(agent).__name__
    if isinstance(exc, sdk.APITimeoutError):
        return AgentError(
            f"No answer from {url} within {agent.timeout:g}s (the model may be slow or "
            f"overloaded; raise {name}(timeout=…) to wait longer).", kind="timeout",
        ), False
    if isinstance(exc, sdk.APIConnectionError):
        cause = redact(str(exc.__cause__ or exc), secret)
        if refused(exc):
            reason = "the connection was refused: is the server running, on that port?"
        else:
            reason = f"{cause}. Check the URL and that the server is running."
        return AgentError(f"Could not connect to {url}: {reason}", kind="connection"), False
    status = getattr(exc, "status_code", None)
    said = quote(exc, secret)
    quoted = f" The server said: {said}" if said else ""
    if status in (401, 403):
        if secret is None:
            text = (f"The server at {url} needs an API key ({status}): pass api_key=… "
                    f"or set {agent.key_variable}.")
        else:
            text = (f"The server at {url} refused the API key ({status}): check the key "
                    f"given to {name}(api_key=…) or in {agent.key_variable}.")
        return AgentError(text, kind="auth", status=status), False
    if status == 404:
        return AgentError(
            f"Model {agent.model!r} was not found at {url} (404). Check the model name "
            f"(for Ollama: `ollama list`) and that the base URL is the API's root "
            f"(often ending in /v1).{quoted}", kind="model-not-found", status=404,
        ), False
    if status == 429:
        return AgentError(
            f"Rate limited by {url} (429), still after {agent.max_retries} retries: "
            f"wait a moment and send again.{quoted}", kind="rate-limit", status=429,
        ), True
    if status in (400, 413, 422):
        return AgentError(
            f"The server at {url} refused the request ({status}).{quoted}",
            kind="bad-request", status=status,
        ), False
    retry = status in RETRYABLE
    return AgentError(
        f"The server at {url} failed ({status}), still after {agent.max_retries} retries: "
        f"try again later.{quoted}" if retry else
        f"The server at {url} answered {status}.{quoted}",
        kind="server", status=status,
    ), retry


def quote(exc: Any, secret: str | None) -> str:
    """What the server said, redacted and shortened.

        >>> class Refused:
        ...     body = {"error": {"message": "Incorrect API key provided: sk-secret"}}
        >>> quote(Refused(), "sk-secret")
        'Incorrect API key provided: [redacted]'
    """
    body = getattr(exc, "body", None)
    said = None
    if isinstance(body, dict):
        inner = body.get("error", body)
        said = inner.get("message") if isinstance(inner, dict) else inner
    said = str(said or getattr(exc, "message", "") or "").strip()
    said = redact(said, secret)
    return said[:MAX_QUOTE] + ("…" if len(said) > MAX_QUOTE else "")


def refused(exc: BaseException) -> bool:
    """True when the connection was refused: a ``ConnectionRefusedError`` among the
    exception's causes, or a cause that says so.

        >>> refused(OSError("[Errno 111] Connection refused"))
        True
    """
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        if isinstance(current, ConnectionRefusedError):
            return True
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    said = str(exc.__cause__ or exc).lower()
    return "refused" in said or "all connection attempts" in said
