"""Agent errors: what went wrong talking to a model, said so a person can fix it.

Every error a transport raises is an ``AgentError`` whose ``kind`` is stable and whose message
is a sentence or two for the person reading the conversation:

    kind             when
    missing-sdk      the agent's SDK is not installed (says which extra to install)
    auth             the API key is missing, or the server refused it (401 / 403)
    model-not-found  the server has no such model (404)
    rate-limit       429, still refused after the bounded retries
    server           the server failed (5xx) or answered something unusable
    connection       nothing answered at the URL (the local server is not running?)
    timeout          no answer within the agent's own ``timeout``
    bad-request      the server refused the request (400 / 422), with its reason

The API key never appears in a message: ``redact`` removes it (and the masked forms servers
echo, such as ``sk-...abcd``) from anything a server said.

    >>> str(AgentError("No API key.", kind="auth"))
    'No API key.'
    >>> redact("Incorrect API key provided: sk-te**********7890.", "sk-test-1234567890")
    'Incorrect API key provided: [redacted].'
"""

from __future__ import annotations

import re

KINDS = (
    "missing-sdk", "auth", "model-not-found", "rate-limit", "server", "connection", "timeout",
    "bad-request",
)

_WORD = re.compile(r"[^\s'\"`,;:()\[\]{}<>]+")


class AgentError(Exception):
    """Talking to the model failed; ``kind`` says how (see the module's table).

    Args:
        message: what happened and what to do, for a person.
        kind: one of ``KINDS``.
        status: the HTTP status the server answered, when there was one.

        >>> AgentError("Rate limited.", kind="rate-limit", status=429).status
        429
    """

    def __init__(self, message: str, *, kind: str, status: int | None = None) -> None:
        if kind not in KINDS:
            raise ValueError(f"AgentError kind {kind!r} is not one of {', '.join(KINDS)}")
        super().__init__(message)
        self.kind = kind
        self.status = status


class MissingSDKError(AgentError, ImportError):
    """The agent's SDK is not installed; the message names the extra to install."""

    def __init__(self, message: str) -> None:
        super().__init__(message, kind="missing-sdk")


def redact(text: str, secret: str | None) -> str:
    """``text`` without ``secret``, nor any word that shows its start or its end.

    Servers echo keys masked (``sk-proj-****abcd``); a word holding the key's first six or
    last four characters, or a run of ``*``, is replaced by ``[redacted]``.
    """
    if not secret:
        return text
    text = text.replace(secret, "[redacted]")
    head = secret[:6] if len(secret) >= 12 else None
    tail = secret[-4:] if len(secret) >= 12 else None

    def scrub(match: re.Match[str]) -> str:
        word = match.group(0)
        if word.startswith("[redacted]"):
            return word
        shows = (head and head in word) or (tail and tail in word and len(word) >= 8)
        return "[redacted]" + _trailing_dot(word) if shows or "***" in word else word

    return _WORD.sub(scrub, text)


def _trailing_dot(word: str) -> str:
    return "." if word.endswith(".") else ""
