"""A hostile server behind an approved http step: it cannot redirect the request elsewhere
unseen, keep it alive past its time limit, or take it to a host the executor does not allow."""

from __future__ import annotations

import http.server
import threading
import time

import pytest

from dial_notebook.dial import Step
from dial_notebook.runtime import StepError, http_executor


class Server:
    """A local HTTP server whose handler is given per test; records the paths it was asked."""

    def __init__(self, handle) -> None:
        self.paths: list[str] = []
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                outer.paths.append(self.path)
                handle(self)

            do_POST = do_GET

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def serve():
    servers: list[Server] = []

    def start(handle) -> Server:
        servers.append(Server(handle))
        return servers[-1]

    yield start
    for server in servers:
        server.close()


def redirect_to(location: str, status: int = 302):
    def handle(request):
        if request.path.startswith("/start"):
            request.send_response(status)
            request.send_header("Location", location)
            request.end_headers()
        else:
            request.send_response(200)
            request.end_headers()
            request.wfile.write(b"arrived")
    return handle


def step(command: str) -> Step:
    return Step(command=command, env="http", id="s")


def test_a_redirect_to_another_host_is_not_followed_and_names_the_target(serve):
    elsewhere = serve(redirect_to("/"))
    start = serve(redirect_to(f"{elsewhere.url}/exfil?secret=42"))
    with pytest.raises(StepError) as caught:
        http_executor(timeout=5)(step(f"GET {start.url}/start"))
    assert caught.value.code == "redirect"
    assert f"{elsewhere.url}/exfil?secret=42" in str(caught.value)
    assert elsewhere.paths == []


def test_a_redirect_to_another_scheme_is_not_followed(serve):
    start = serve(redirect_to("https://127.0.0.1:1/x"))
    with pytest.raises(StepError, match="was not followed"):
        http_executor(timeout=5)(step(f"GET {start.url}/start"))


def test_a_redirect_within_the_same_origin_is_followed(serve):
    server = serve(redirect_to("/next", 307))
    assert http_executor(timeout=5)(step(f"POST {server.url}/start\nbody")) == {
        "status": 200, "body": "arrived"}
    assert server.paths == ["/start", "/next"]


@pytest.mark.timeout(20)
def test_a_slow_drip_server_is_cut_off_at_the_whole_request_deadline(serve):
    dripped = threading.Event()

    def drip(request):
        request.wfile.write(b"HTTP/1.1 200 OK\r\n")
        for _ in range(40):  # one header byte every 0.25 s: each read is well within 1 s
            request.wfile.write(b"X")
            request.wfile.flush()
            time.sleep(0.25)
        dripped.set()

    server = serve(drip)
    with pytest.raises(StepError) as caught:
        http_executor(timeout=1)(step(f"GET {server.url}/"))
    assert caught.value.code == "timeout"
    assert not dripped.is_set()  # cut off while the server was still dripping (10 s in all)


@pytest.mark.timeout(20)
def test_a_slow_body_is_cut_off_at_the_deadline_too(serve):
    sent = threading.Event()

    def slow_body(request):
        request.send_response(200)
        request.send_header("Content-Length", "100")
        request.end_headers()
        for _ in range(100):
            request.wfile.write(b"x")
            request.wfile.flush()
            time.sleep(0.2)
        sent.set()

    server = serve(slow_body)
    with pytest.raises(StepError, match="Timed out after 1s"):
        http_executor(timeout=1)(step(f"GET {server.url}/"))
    assert not sent.is_set()  # cut off while the body was still coming (20 s in all)


def test_only_allowed_hosts_are_requested(serve):
    server = serve(redirect_to("/"))
    run = http_executor(timeout=5, allow_hosts=["api.example.org", "*.internal.test"])
    with pytest.raises(StepError) as caught:
        run(step(f"GET {server.url}/x"))
    assert caught.value.code == "host-not-allowed"
    assert server.paths == []
    assert run.allowed("API.example.org") and run.allowed("db.internal.test")
    assert not run.allowed("example.org") and not run.allowed("internal.test.evil")
    assert http_executor(allow_hosts=["127.0.0.1"])(step(f"GET {server.url}/x"))["status"] == 200


def test_allow_hosts_must_be_a_list():
    with pytest.raises(TypeError, match="list of host names"):
        http_executor(allow_hosts="example.org")
