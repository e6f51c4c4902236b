"""A small OpenAI- and Anthropic-compatible HTTP server on 127.0.0.1, for the agents' tests.

It answers ``POST …/chat/completions`` (OpenAI) and ``POST …/messages`` (Anthropic) in each
API's real wire format — JSON, or server-sent events when the request asks to stream — from a
queue of planned answers, and records every request (path, headers, JSON body):

    with FakeLLMServer() as server:
        server.plan(reply("<dial>…</dial>"), status(429, retry_after="0"), hang())
        agent = OpenAIAgent(model="m", base_url=server.url + "/v1", api_key="sk-test")

When the queue is empty every request gets ``default`` (a plain inform). ``hang`` holds the
request until the server stops; ``drop`` closes the connection without an answer; ``gate``
(streaming) sends the first chunk, then waits until the test opens ``server.gate`` (proving the
client saw text before the reply was complete).

A streamed answer comes in ``chunks`` pieces with ``delay`` seconds between them. Token usage
is reported as each API does (``usage=(input, output)``, or None for none): OpenAI in the
response, and in a last chunk when the request asks ``stream_options.include_usage``;
Anthropic in the message, or in ``message_start`` and ``message_delta``.

It speaks HTTP/1.1 with keep-alive (Content-Length, or chunked for a stream), so a client can
reuse its connection, and counts them: ``connections`` accepted, ``closed`` ended,
``streams_cut_by_client`` streams the client closed before their end (``wait_for`` waits for
one of them to reach a number). ``FakeLLMServer(tls=context)`` serves HTTPS instead (a
server-side ``ssl.SSLContext``; tests/data/tls has a certificate for 127.0.0.1).
"""

from __future__ import annotations

import json
import select
import socket
import ssl
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

DEFAULT = '<dial version="0.1" actor="agent"><dial-inform>Hello.</dial-inform></dial>'


@dataclass
class Answer:
    """One planned answer: a reply text, an HTTP error, or a hang."""

    text: str = DEFAULT
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    body: Any = None
    hang: bool = False
    gate: bool = False
    chunks: int = 4
    cut: bool = False
    delay: float = 0.01
    usage: tuple[int, int] | None = (10, 10)
    drop: bool = False


def reply(text: str, *, chunks: int = 4, gate: bool = False, delay: float = 0.01,
          usage: tuple[int, int] | None = (10, 10)) -> Answer:
    """Answer with ``text`` (streamed in ``chunks`` pieces, ``delay`` seconds apart, when
    asked to stream), reporting ``usage`` = (input tokens, output tokens), or none."""
    return Answer(text=text, chunks=chunks, gate=gate, delay=delay, usage=usage)


def status(code: int, message: str = "", *, retry_after: str | None = None,
           retry_after_ms: str | None = None) -> Answer:
    """Answer with an HTTP error in the API's own error format."""
    headers = {}
    if retry_after is not None:
        headers["retry-after"] = retry_after
    if retry_after_ms is not None:
        headers["retry-after-ms"] = retry_after_ms
    return Answer(status=code, headers=headers, body=message or f"error {code}")


def cut(text: str) -> Answer:
    """Start streaming ``text``, then drop the connection half-way through."""
    return Answer(text=text, cut=True)


def hang() -> Answer:
    """Never answer (until the server stops)."""
    return Answer(hang=True)


def drop() -> Answer:
    """Close the connection without answering (as a server closing a kept connection)."""
    return Answer(drop=True)


@dataclass
class Request:
    """What the server received."""

    path: str
    headers: dict[str, str]
    body: dict[str, Any]


class FakeLLMServer:
    """The server; a context manager that starts it on a free port of 127.0.0.1."""

    def __init__(self, tls: ssl.SSLContext | None = None) -> None:
        self.requests: list[Request] = []
        self.answers: list[Answer] = []
        self.default = Answer()
        #: Opened by a test to let a gated stream go on.
        self.gate = threading.Event()
        #: True when a gated stream gave up waiting (the client never saw the first chunk).
        self.gate_timed_out = False
        #: TCP connections accepted, and ended (by either side), so far.
        self.connections = 0
        self.closed = 0
        #: Streamed answers the client closed its connection on before their end.
        self.streams_cut_by_client = 0
        #: When (``time.time()``) each stream's first piece of text was written.
        self.first_chunk_at: list[float] = []
        self._stopping = threading.Event()
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._http = _Server(self)
        self.tls = tls
        if tls is not None:  # HTTPS: the handshake happens in the connection's own thread
            self._http.socket = tls.wrap_socket(self._http.socket, server_side=True,
                                                do_handshake_on_connect=False)
        self._thread = threading.Thread(target=self._http.serve_forever, args=(0.05,), daemon=True)

    @property
    def url(self) -> str:
        host, port = self._http.server_address[:2]
        return f"{'https' if self.tls else 'http'}://{host}:{port}"

    def plan(self, *answers: Answer) -> None:
        """Queue answers for the next requests, in order."""
        with self._lock:
            self.answers.extend(answers)

    def next_answer(self) -> Answer:
        with self._lock:
            return self.answers.pop(0) if self.answers else self.default

    def count(self, name: str) -> None:
        """Add one to the counter ``name`` (``connections``, ``closed`` …)."""
        with self._changed:
            setattr(self, name, getattr(self, name) + 1)
            self._changed.notify_all()

    def wait_for(self, name: str, at_least: int, timeout: float = 10.0) -> int:
        """Wait until the counter ``name`` reaches ``at_least`` (at most ``timeout`` seconds);
        its value."""
        with self._changed:
            self._changed.wait_for(lambda: getattr(self, name) >= at_least, timeout)
            return getattr(self, name)

    def __enter__(self) -> FakeLLMServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stopping.set()
        self.gate.set()
        with self._changed:
            self._changed.notify_all()
        self._http.shutdown()
        self._http.server_close()


class _Server(ThreadingHTTPServer):
    """Counts the connections it accepts; one daemon thread serves each."""

    daemon_threads = True

    def __init__(self, owner: FakeLLMServer) -> None:
        self.owner = owner
        super().__init__(("127.0.0.1", 0), _handler(owner))

    def process_request(self, request: Any, client_address: Any) -> None:
        self.owner.count("connections")
        super().process_request(request, client_address)


class _ClientGone(Exception):
    """The client closed the connection while a stream was being written."""


def _handler(server: FakeLLMServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive: every answer has a length or is chunked

        def log_message(self, *args: Any) -> None:  # keep test output quiet
            pass

        def finish(self) -> None:
            try:
                super().finish()
            except OSError:
                pass
            finally:
                server.count("closed")

        def _pause(self, seconds: float) -> None:
            """Wait ``seconds``; raise ``_ClientGone`` as soon as the client closes."""
            ready, _, _ = select.select([self.connection], [], [], seconds)
            if ready:
                try:
                    gone = not self.connection.recv(1, socket.MSG_PEEK)
                except OSError:
                    gone = True
                if gone:
                    raise _ClientGone

        def _send_chunk(self, data: bytes) -> None:
            try:
                self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
                self.wfile.flush()
            except OSError:
                raise _ClientGone from None

        def do_POST(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            raw = self.rfile.read(length) if length else b"{}"
            body = json.loads(raw or b"{}")
            server.requests.append(Request(self.path, {k.lower(): v for k, v in
                                                        self.headers.items()}, body))
            anthropic = self.path.rstrip("/").endswith("/messages")
            answer = server.next_answer()
            if answer.hang:
                server._stopping.wait(30)
                self.close_connection = True
                return
            if answer.drop:
                self.close_connection = True
                return
            if answer.status != 200:
                self._error(answer, anthropic)
            elif body.get("stream"):
                try:
                    self._stream(answer, body, anthropic)
                except _ClientGone:
                    self.close_connection = True
                    server.count("streams_cut_by_client")
            else:
                self._json(200, _anthropic_message(answer.text, body, answer.usage) if anthropic
                           else _openai_completion(answer.text, body, answer.usage))

        def _json(self, code: int, payload: Any, headers: dict[str, str] | None = None) -> None:
            data = json.dumps(payload).encode()
            self.send_response(code)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)

        def _error(self, answer: Answer, anthropic: bool) -> None:
            kinds = {400: "invalid_request_error", 401: "authentication_error",
                     404: "not_found_error", 429: "rate_limit_error", 500: "api_error"}
            kind = kinds.get(answer.status, "api_error")
            payload = ({"type": "error", "error": {"type": kind, "message": answer.body}}
                       if anthropic else
                       {"error": {"message": answer.body, "type": kind, "code": None}})
            self._json(answer.status, payload, answer.headers)

        def _stream(self, answer: Answer, body: dict[str, Any], anthropic: bool) -> None:
            self.send_response(200)
            self.send_header("content-type", "text/event-stream")
            self.send_header("cache-control", "no-cache")
            self.send_header("transfer-encoding", "chunked")
            if answer.cut:
                self.send_header("connection", "close")
                self.close_connection = True
            self.end_headers()
            pieces = _split(answer.text, answer.chunks)
            events = (_anthropic_events(pieces, body, answer.usage) if anthropic
                      else _openai_events(pieces, body, answer.usage))
            first_text = True
            if answer.cut:
                events = events[:len(events) // 2]
            for event, is_text in events:
                self._send_chunk(event.encode())
                if is_text and first_text:
                    first_text = False
                    server.first_chunk_at.append(time.time())
                    if answer.gate and not server.gate.wait(5):
                        server.gate_timed_out = True
                elif is_text:
                    self._pause(answer.delay)
            if not answer.cut:  # a cut stream ends without the last chunk: a broken reply
                self._send_chunk(b"")

    return Handler


def _split(text: str, chunks: int) -> list[str]:
    size = max(1, -(-len(text) // max(chunks, 1)))
    return [text[i:i + size] for i in range(0, len(text), size)] or [""]


def _openai_usage(usage: tuple[int, int]) -> dict[str, int]:
    return {"prompt_tokens": usage[0], "completion_tokens": usage[1],
            "total_tokens": usage[0] + usage[1]}


def _openai_completion(text: str, body: dict[str, Any],
                       usage: tuple[int, int] | None = (10, 10)) -> dict[str, Any]:
    completion: dict[str, Any] = {
        "id": "chatcmpl-test", "object": "chat.completion", "created": 1700000000,
        "model": body.get("model", ""),
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                     "finish_reason": "stop", "logprobs": None}],
    }
    if usage is not None:
        completion["usage"] = _openai_usage(usage)
    return completion


def _openai_events(pieces: list[str], body: dict[str, Any],
                   usage: tuple[int, int] | None = (10, 10)) -> list[tuple[str, bool]]:
    # as OpenAI does: asked for usage, every chunk has "usage": null and one more chunk,
    # with no choices, carries it
    asked = bool((body.get("stream_options") or {}).get("include_usage"))

    def chunk(delta: dict[str, Any], finish: str | None = None) -> str:
        data: dict[str, Any] = {
            "id": "chatcmpl-test", "object": "chat.completion.chunk", "created": 1700000000,
            "model": body.get("model", ""),
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish,
                         "logprobs": None}],
        }
        if asked:
            data["usage"] = None
        return "data: " + json.dumps(data) + "\n\n"

    events = [(chunk({"role": "assistant", "content": ""}), False)]
    events += [(chunk({"content": piece}), True) for piece in pieces]
    events += [(chunk({}, "stop"), False)]
    if asked:
        last = {"id": "chatcmpl-test", "object": "chat.completion.chunk",
                "created": 1700000000, "model": body.get("model", ""), "choices": [],
                "usage": _openai_usage(usage) if usage is not None else None}
        events += [("data: " + json.dumps(last) + "\n\n", False)]
    events += [("data: [DONE]\n\n", False)]
    return events


def _anthropic_message(text: str, body: dict[str, Any],
                       usage: tuple[int, int] | None = (10, 10)) -> dict[str, Any]:
    message: dict[str, Any] = {
        "id": "msg_test", "type": "message", "role": "assistant", "model": body.get("model", ""),
        "content": [{"type": "text", "text": text}], "stop_reason": "end_turn",
        "stop_sequence": None,
    }
    if usage is not None:
        message["usage"] = {"input_tokens": usage[0], "output_tokens": usage[1]}
    return message


def _anthropic_events(pieces: list[str], body: dict[str, Any],
                      usage: tuple[int, int] | None = (10, 10)) -> list[tuple[str, bool]]:
    def event(name: str, data: dict[str, Any]) -> str:
        return f"event: {name}\ndata: {json.dumps(data)}\n\n"

    # as Anthropic does: the input (and a first output count) in message_start, the final
    # output count in message_delta
    start = {**_anthropic_message("", body, None), "content": [], "stop_reason": None}
    delta: dict[str, Any] = {"type": "message_delta",
                             "delta": {"stop_reason": "end_turn", "stop_sequence": None}}
    if usage is not None:
        start["usage"] = {"input_tokens": usage[0], "output_tokens": 1}
        delta["usage"] = {"output_tokens": usage[1]}
    events = [
        (event("message_start", {"type": "message_start", "message": start}), False),
        (event("content_block_start", {"type": "content_block_start", "index": 0,
                                       "content_block": {"type": "text", "text": ""}}), False),
        (event("ping", {"type": "ping"}), False),
    ]
    events += [(event("content_block_delta", {
        "type": "content_block_delta", "index": 0,
        "delta": {"type": "text_delta", "text": piece}}), True) for piece in pieces]
    events += [
        (event("content_block_stop", {"type": "content_block_stop", "index": 0}), False),
        (event("message_delta", delta), False),
        (event("message_stop", {"type": "message_stop"}), False),
    ]
    return events
