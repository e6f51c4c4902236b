"""A small OpenAI- and Anthropic-compatible HTTP server on 127.0.0.1, for the agents' tests.

It answers ``POST …/chat/completions`` (OpenAI) and ``POST …/messages`` (Anthropic) in each
API's real wire format — JSON, or server-sent events when the request asks to stream — from a
queue of planned answers, and records every request (path, headers, JSON body):

    with FakeLLMServer() as server:
        server.plan(reply("<dial>…</dial>"), status(429, retry_after="0"), hang())
        agent = OpenAIAgent(model="m", base_url=server.url + "/v1", api_key="sk-test")

When the queue is empty every request gets ``default`` (a plain inform). ``hang`` holds the
request until the server stops; ``gate`` (streaming) sends the first chunk, then waits until the
test opens ``server.gate`` (proving the client saw text before the reply was complete).
"""

from __future__ import annotations

import json
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


def reply(text: str, *, chunks: int = 4, gate: bool = False) -> Answer:
    """Answer with ``text`` (streamed in ``chunks`` pieces when asked to stream)."""
    return Answer(text=text, chunks=chunks, gate=gate)


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


@dataclass
class Request:
    """What the server received."""

    path: str
    headers: dict[str, str]
    body: dict[str, Any]


class FakeLLMServer:
    """The server; a context manager that starts it on a free port of 127.0.0.1."""

    def __init__(self) -> None:
        self.requests: list[Request] = []
        self.answers: list[Answer] = []
        self.default = Answer()
        #: Opened by a test to let a gated stream go on.
        self.gate = threading.Event()
        #: True when a gated stream gave up waiting (the client never saw the first chunk).
        self.gate_timed_out = False
        self._stopping = threading.Event()
        self._lock = threading.Lock()
        self._http = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._http.daemon_threads = True
        self._thread = threading.Thread(target=self._http.serve_forever, args=(0.05,), daemon=True)

    @property
    def url(self) -> str:
        host, port = self._http.server_address[:2]
        return f"http://{host}:{port}"

    def plan(self, *answers: Answer) -> None:
        """Queue answers for the next requests, in order."""
        with self._lock:
            self.answers.extend(answers)

    def next_answer(self) -> Answer:
        with self._lock:
            return self.answers.pop(0) if self.answers else self.default

    def __enter__(self) -> FakeLLMServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stopping.set()
        self.gate.set()
        self._http.shutdown()
        self._http.server_close()


def _handler(server: FakeLLMServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: Any) -> None:  # keep test output quiet
            pass

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
            if answer.status != 200:
                self._error(answer, anthropic)
            elif body.get("stream"):
                self._stream(answer, body, anthropic)
            else:
                self._json(200, _anthropic_message(answer.text, body) if anthropic
                           else _openai_completion(answer.text, body))

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
            self.send_header("connection", "close")
            self.end_headers()
            self.close_connection = True
            pieces = _split(answer.text, answer.chunks)
            events = (_anthropic_events(pieces, body) if anthropic
                      else _openai_events(pieces, body))
            first_text = True
            if answer.cut:
                events = events[:len(events) // 2]
            for event, is_text in events:
                data = event.encode()
                self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
                self.wfile.flush()
                if is_text and first_text:
                    first_text = False
                    if answer.gate and not server.gate.wait(5):
                        server.gate_timed_out = True
                elif is_text:
                    time.sleep(0.01)
            if not answer.cut:  # a cut stream ends without the last chunk: a broken reply
                self.wfile.write(b"0\r\n\r\n")
                self.wfile.flush()

    return Handler


def _split(text: str, chunks: int) -> list[str]:
    size = max(1, -(-len(text) // max(chunks, 1)))
    return [text[i:i + size] for i in range(0, len(text), size)] or [""]


def _openai_completion(text: str, body: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": "chatcmpl-test", "object": "chat.completion", "created": 1700000000,
        "model": body.get("model", ""),
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                     "finish_reason": "stop", "logprobs": None}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20},
    }


def _openai_events(pieces: list[str], body: dict[str, Any]) -> list[tuple[str, bool]]:
    def chunk(delta: dict[str, Any], finish: str | None = None) -> str:
        return "data: " + json.dumps({
            "id": "chatcmpl-test", "object": "chat.completion.chunk", "created": 1700000000,
            "model": body.get("model", ""),
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish,
                         "logprobs": None}],
        }) + "\n\n"

    events = [(chunk({"role": "assistant", "content": ""}), False)]
    events += [(chunk({"content": piece}), True) for piece in pieces]
    events += [(chunk({}, "stop"), False), ("data: [DONE]\n\n", False)]
    return events


def _anthropic_message(text: str, body: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": "msg_test", "type": "message", "role": "assistant", "model": body.get("model", ""),
        "content": [{"type": "text", "text": text}], "stop_reason": "end_turn",
        "stop_sequence": None, "usage": {"input_tokens": 10, "output_tokens": 10},
    }


def _anthropic_events(pieces: list[str], body: dict[str, Any]) -> list[tuple[str, bool]]:
    def event(name: str, data: dict[str, Any]) -> str:
        return f"event: {name}\ndata: {json.dumps(data)}\n\n"

    start = {**_anthropic_message("", body), "content": [], "stop_reason": None,
             "usage": {"input_tokens": 10, "output_tokens": 1}}
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
        (event("message_delta", {"type": "message_delta",
                                 "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                                 "usage": {"output_tokens": 10}}), False),
        (event("message_stop", {"type": "message_stop"}), False),
    ]
    return events
