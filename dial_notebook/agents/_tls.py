# One TLS context for the HTTP clients of every agent in the process.
"""``shared_context()``: the SSL context httpx would build for a client by default (certifi's
certificates, or ``SSL_CERT_FILE`` / ``SSL_CERT_DIR`` when set), built once and reused.

Building one loads and parses a bundle of certificates: about 30 ms of CPU, on the event loop,
for every agent. ``evaluate`` makes an agent for each scenario, so that cost alone capped how
many conversations a loop could keep going. An ``ssl.SSLContext`` may serve many connections
at once; a context is kept per value of the two variables, so changing them takes effect.

    >>> shared_context() is shared_context()
    True
"""

from __future__ import annotations

import os
import ssl
import threading

_contexts: dict[tuple[str | None, str | None], ssl.SSLContext] = {}
_lock = threading.Lock()


def shared_context() -> ssl.SSLContext | None:
    """The process's default client SSL context (None when httpx cannot build one: then each
    client builds its own, as it would without this)."""
    try:
        import httpx

        create = httpx.create_ssl_context
    except (ImportError, AttributeError):
        return None
    key = (os.environ.get("SSL_CERT_FILE"), os.environ.get("SSL_CERT_DIR"))
    with _lock:
        context = _contexts.get(key)
        if context is None:
            context = _contexts[key] = create()
        return context
