"""The http executor: one request per ``<step env="http">``, as the person approved it.

Off unless a conversation is given one (``executors={'http': http_executor(...)}``). A step's
command is a JSON request ``{"method", "url", "headers", "body"}`` or the line ``METHOD URL``
(then an optional body); http(s) only. The request is made exactly as the card showed it:

    the request ─ host not in allow_hosts (when given) ──────────▶ failed 'host-not-allowed'
        │ sent; the whole exchange within ``timeout`` seconds (connect, headers, body: a
        │ server that drips one byte a second is cut off at the deadline) ─▶ failed 'timeout'
        ├─ a redirect to the same scheme, host and port ─▶ followed (at most ``max_redirects``)
        ├─ a redirect anywhere else ───────────────────────────────▶ failed 'redirect': not
        │                                                             followed, the target named
        ├─ status ≥ 400 ───────────────────────────────────────────▶ failed 'http-status'
        └─ done: {'status', 'body'} (the body cut at MAX_OUTPUT characters, saying so)

It is a blocking executor (``in_thread = True``): the runtime runs it on a worker thread, so
the kernel stays free during the request, and a request that ends after its say was
interrupted is still reported with the response it got. Proxies from the environment are not
used: the request goes where the card says.

    >>> http_request("GET https://example.org/a").full_url
    'https://example.org/a'
"""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
import ssl
import threading
import time
import urllib.request
from collections.abc import Iterable
from typing import Any
from urllib.parse import urljoin, urlsplit

from ..dial import Step
from ._executors import MAX_OUTPUT, StepError, cut

_REDIRECTS = frozenset({301, 302, 303, 307, 308})


def http_request(command: str) -> urllib.request.Request:
    """The request an http step describes (JSON ``{method, url, headers, body}``, or
    ``METHOD URL`` then an optional body); raises ``StepError`` when it describes none."""
    text = command.strip()
    headers: dict[str, str] = {}
    body: bytes | None = None
    if text.startswith("{"):
        try:
            spec = json.loads(text)
        except ValueError as exc:
            raise StepError(f"The http step is not valid JSON: {exc}", code="http-spec") from None
        if not isinstance(spec, dict):
            raise StepError("The http step must be a JSON object", code="http-spec")
        method = str(spec.get("method") or "GET").upper()
        url = str(spec.get("url") or "")
        headers = {str(k): str(v) for k, v in dict(spec.get("headers") or {}).items()}
        raw = spec.get("body")
        if raw is not None:
            body = (raw if isinstance(raw, str) else json.dumps(raw)).encode()
            if not isinstance(raw, str):
                headers.setdefault("Content-Type", "application/json")
    else:
        first, _, rest = text.partition("\n")
        parts = first.split()
        if len(parts) == 1:
            method, url = "GET", parts[0]
        elif len(parts) == 2:
            method, url = parts[0].upper(), parts[1]
        else:
            raise StepError("An http step is 'METHOD URL' (then an optional body) or a JSON "
                            "request", code="http-spec")
        if rest.strip():
            body = rest.strip().encode()
    if not url.lower().startswith(("http://", "https://")):
        raise StepError(f"Only http and https URLs can be requested, not {url[:200]!r}",
                        code="http-spec")
    return urllib.request.Request(url, data=body, headers=headers, method=method)


def _origin(url: str) -> tuple[str, str, int | None]:
    parts = urlsplit(url)
    return parts.scheme.lower(), (parts.hostname or "").lower(), parts.port


class _Watchdog:
    """Shuts the request's socket at the deadline, waking a thread blocked reading from it.

    The socket is held here, not read from the connection: http.client hands it to the
    response (``connection.sock`` becomes None) while the body is still being read."""

    def __init__(self, seconds: float) -> None:
        self.sock: socket.socket | None = None
        self._timer = threading.Timer(seconds, self._shut)
        self._timer.daemon = True
        self._timer.start()

    def _shut(self) -> None:
        if self.sock is not None:
            with contextlib.suppress(OSError):
                self.sock.shutdown(socket.SHUT_RDWR)

    def cancel(self) -> None:
        self._timer.cancel()


class HttpExecutor:
    """Runs http steps: one request per step, http(s) only, bounded in time, redirects kept
    to the origin the card showed, and optionally only to ``allow_hosts``."""

    #: The runtime runs it on a worker thread (see _execute.py).
    in_thread = True

    def __init__(self, timeout: float = 10.0, *, allow_hosts: Iterable[str] | None = None,
                 max_redirects: int = 5) -> None:
        if isinstance(timeout, bool) or not isinstance(timeout, int | float) or timeout <= 0:
            raise ValueError(f"http_executor: timeout must be a positive number of seconds, "
                             f"not {timeout!r}")
        if isinstance(allow_hosts, str):
            raise TypeError("http_executor: allow_hosts is a list of host names, not one string")
        self.timeout = float(timeout)
        self.allow_hosts = None if allow_hosts is None else [h.lower() for h in allow_hosts]
        self.max_redirects = max_redirects
        self._tls: ssl.SSLContext | None = None

    def allowed(self, host: str) -> bool:
        """Whether requests may go to ``host`` (``*.example.org`` allows its subdomains)."""
        if self.allow_hosts is None:
            return True
        host = host.lower()
        return any(host == allowed or (allowed.startswith("*.") and host.endswith(allowed[1:]))
                   for allowed in self.allow_hosts)

    def __call__(self, step: Step) -> dict[str, Any]:
        request = http_request(step.command)
        deadline = time.monotonic() + self.timeout
        url, method, body = request.full_url, request.get_method(), request.data
        headers = dict(request.header_items())
        for _ in range(self.max_redirects + 1):
            status, location, text = self._exchange(method, url, headers, body, deadline)
            if status not in _REDIRECTS or not location:
                return self._result(status, text)
            target = urljoin(url, location)
            if _origin(target) != _origin(url):
                raise StepError(
                    f"The server redirected to {target[:300]}, which was not followed: it is "
                    "not where the approved request went", code="redirect",
                    hint="Propose a step for that address if it should be requested.")
            if status == 303 or (status in (301, 302) and method == "POST"):
                method, body = "GET", None
            url = target
        raise StepError(f"More than {self.max_redirects} redirects", code="redirect")

    def _result(self, status: int, text: str) -> dict[str, Any]:
        if status >= 400:
            raise StepError(f"HTTP {status} {http.client.responses.get(status, '')}".strip(),
                            code="http-status", hint=text[:2000] or None)
        return {"status": status, "body": cut(text)}

    def _exchange(self, method: str, url: str, headers: dict[str, str], body: bytes | None,
                  deadline: float) -> tuple[int, str | None, str]:
        """(status, Location, body text) of one request, all of it before ``deadline``."""
        scheme, host, port = _origin(url)
        if not self.allowed(host):
            raise StepError(f"Requests to {host} are not allowed here", code="host-not-allowed",
                            hint="Allowed hosts: " + ", ".join(self.allow_hosts or []))
        left = deadline - time.monotonic()
        if left <= 0:
            raise self._timed_out()
        parts = urlsplit(url)
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        if scheme == "https":
            if self._tls is None:
                self._tls = ssl.create_default_context()
            connection: http.client.HTTPConnection = http.client.HTTPSConnection(
                host, port, timeout=left, context=self._tls)
        else:
            connection = http.client.HTTPConnection(host, port, timeout=left)
        watchdog = _Watchdog(left)
        try:
            connection.connect()
            watchdog.sock = connection.sock
            if time.monotonic() >= deadline:  # the watchdog fired before it had the socket
                raise self._timed_out()
            connection.request(method, target, body=body, headers=headers)
            response = connection.getresponse()
            data = response.read(MAX_OUTPUT + 1)
            if time.monotonic() >= deadline:
                raise self._timed_out()
            return response.status, response.getheader("Location"), data.decode("utf-8",
                                                                                 "replace")
        except (OSError, http.client.HTTPException) as exc:
            if time.monotonic() >= deadline - 0.01:
                raise self._timed_out() from None
            reason = getattr(exc, "reason", None) or exc
            raise StepError(f"The request failed: {reason}", code="http-error") from None
        finally:
            watchdog.cancel()
            connection.close()

    def _timed_out(self) -> StepError:
        return StepError(f"Timed out after {self.timeout:g}s", code="timeout",
                         hint="The whole request must finish within the time limit; a longer "
                              "one is set with http_executor(timeout=…).")

    def __repr__(self) -> str:
        hosts = "" if self.allow_hosts is None else f", allow_hosts={self.allow_hosts!r}"
        return f"http_executor(timeout={self.timeout:g}{hosts})"


def http_executor(*, timeout: float = 10.0, allow_hosts: Iterable[str] | None = None,
                  max_redirects: int = 5) -> HttpExecutor:
    """The http executor (off unless given): one request per step, the whole of it within
    ``timeout`` seconds; only to ``allow_hosts`` when given (``"*.example.org"`` allows its
    subdomains); redirects followed only within the same scheme, host and port.

        conversation = Conversation(..., executors={"http": http_executor(
            timeout=10, allow_hosts=["api.example.org"])})
    """
    return HttpExecutor(timeout, allow_hosts=allow_hosts, max_redirects=max_redirects)
