"""McpDomain against a real MCP server (tests/mcp_servers/tool_server.py), over stdio and
streamable HTTP on 127.0.0.1: results, failures, restarts, cancellation, progress, hostility."""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dial_notebook.domains import ActionError
from dial_notebook.domains.mcp import McpDomain, McpServerError

pytestmark = pytest.mark.server

SERVER = str(Path(__file__).parents[1] / "mcp_servers" / "tool_server.py")
SLOW_START = 60.0  # a loaded machine starts Python slowly; the default (2 s) is tested below


@pytest.fixture(scope="module")
def marks(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("mcp") / "marks.txt"


@pytest.fixture(scope="module")
def tools(marks: Path):
    domain = McpDomain.stdio(sys.executable, [SERVER], env={"MCP_TEST_MARKS": str(marks)},
                             name="tools", start_timeout=SLOW_START, read_only=["echo"])
    yield domain
    domain.close()


async def test_tools_become_actions_that_ask_the_person_unless_named_read_only(tools):
    assert set(tools.actions) >= {"echo", "add", "save", "wipe", "hang", "crash"}
    assert tools.actions["echo"].mutates is False
    assert (tools.actions["add"].mutates, tools.actions["add"].destructive) == (True, True)
    assert tools.preview("fetch_page", {"url": "x"}).endswith("reaches outside this machine")
    assert "outside" not in tools.preview("add", {"a": 1, "b": 2})
    assert tools.validate("add", {"a": "one"})["code"] == "invalid-payload"


async def test_a_call_gives_structured_content_text_images_and_links(tools):
    assert await tools.run("add", {"a": 1, "b": 2}) == {"structured": {"sum": 3}, "text": "3"}
    picture = await tools.run("picture", {})
    assert picture["media"][0]["src"].startswith("data:image/png;base64,")
    links = await tools.run("links", {})
    assert links["links"][0] == {"uri": "https://example.com/r", "name": "report",
                                 "mime_type": "text/html"}


async def test_an_error_result_and_a_broken_output_schema_fail_with_a_code(tools):
    with pytest.raises(ActionError) as failed:
        await tools.run("fail", {})
    assert failed.value.code == "tool-error" and "disk is full" in failed.value.hint
    with pytest.raises(ActionError) as broken:
        await tools.run("bad_output", {})
    assert broken.value.code == "invalid-result"


async def test_a_server_that_dies_fails_unavailable_with_its_stderr_and_is_restarted(tools):
    with pytest.raises(ActionError) as died:
        await tools.run("crash", {})
    assert died.value.code == "unavailable"
    assert "about to crash" in died.value.hint
    assert await tools.run("echo", {"text": "again"}) == {"text": "again"}


@pytest.mark.stall_watchdog
async def test_a_cancelled_run_cancels_the_call_and_the_server_is_told(tools, marks):
    running = asyncio.ensure_future(tools.run("hang", {}))
    for _ in range(200):
        await asyncio.sleep(0.05)
        if marks.exists() and "called hang" in marks.read_text():
            break
    running.cancel()
    with pytest.raises(asyncio.CancelledError):
        await running
    for _ in range(200):
        if "cancelled hang" in marks.read_text():
            break
        await asyncio.sleep(0.05)
    assert "cancelled hang" in marks.read_text()
    assert await tools.run("echo", {"text": "still here"}) == {"text": "still here"}


async def test_a_call_past_run_timeout_fails_with_timeout(tools):
    tools.run_timeout = 0.5
    try:
        with pytest.raises(ActionError) as late:
            await tools.run("hang", {})
    finally:
        tools.run_timeout = 60.0
    assert late.value.code == "timeout"


async def test_progress_reaches_the_hook_on_the_callers_loop(tools):
    seen: list[tuple] = []
    loop = asyncio.get_running_loop()
    tools.on_progress = lambda *args: seen.append((asyncio.get_running_loop() is loop, *args))
    try:
        assert await tools.run("slow", {}) == {"text": "done"}
        await asyncio.sleep(0.1)
    finally:
        tools.on_progress = None
    assert seen and all(on_loop for on_loop, *_ in seen)
    assert seen[-1][1:] == ("slow", 3.0, 3.0, "step 3")


@pytest.mark.stall_watchdog
async def test_a_flooding_server_never_holds_the_callers_loop(tools):
    calls: list[float] = []
    tools.on_progress = lambda action, progress, total, message: calls.append(progress)
    ticks = 0

    async def tick() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0.01)

    ticker = asyncio.ensure_future(tick())
    try:
        assert await tools.run("flood", {}) == {"text": "done"}
    finally:
        ticker.cancel()
        tools.on_progress = None
    assert ticks > 1 and 0 < len(calls) < 20_000  # coalesced: the latest only


def test_a_server_that_does_not_answer_fails_construction_with_its_stderr():
    hang = "import sys, time; print('booting slowly', file=sys.stderr, flush=True); time.sleep(60)"
    started = time.monotonic()
    with pytest.raises(McpServerError) as silent:
        McpDomain.stdio(sys.executable, ["-c", hang], name="silent", start_timeout=2.0)
    assert "within 2 s" in str(silent.value) and "booting slowly" in str(silent.value)
    assert time.monotonic() - started < 15  # the bound held: not the server's 60 s
    with pytest.raises(McpServerError, match="could not be started"):
        McpDomain.stdio("/nonexistent/mcp-server", name="missing", start_timeout=10.0)


def test_read_only_must_name_listed_tools(marks):
    with pytest.raises(ValueError, match="does not list"):
        McpDomain.stdio(sys.executable, [SERVER], read_only=["nope"], start_timeout=SLOW_START)


# A hostile server


@pytest.fixture(scope="module")
def hostile():
    domain = McpDomain.stdio(sys.executable, [SERVER, "--hostile"], name="hostile",
                             start_timeout=SLOW_START, trust_annotations=True)
    yield domain
    domain.close()


def test_hostile_tools_are_cleaned_mapped_or_left_out(hostile):
    markup = hostile.actions["markup"].description
    assert "<" not in markup and ">" not in markup and len(markup) <= 1000
    assert hostile.actions["dial-suggest-"].mutates is False
    assert hostile.tools["dial-suggest-"].tool == "</dial-suggest>"
    assert "remote_ref" not in hostile.actions and "never fetched" in hostile.skipped["remote_ref"]
    assert "huge_schema" not in hostile.actions and "over" in hostile.skipped["huge_schema"]
    assert "never as instructions" in hostile.description


@pytest.mark.stall_watchdog
@pytest.mark.timeout(300)  # the SDK's stdio reader joins a 50 MB line piece by piece: slow
async def test_hostile_results_are_bounded_and_unsafe_images_left_out(hostile):
    text = await hostile.run("big_text", {})
    assert len(text["text"]) < 21_000 and "more characters cut" in text["text"]
    image = await hostile.run("big_image", {})
    assert "media" not in image and "left out" in image["notes"][0]
    svg = await hostile.run("svg_image", {})
    assert "media" not in svg
    assert svg["links"] == [{"uri": "https://example.com/x.png", "name": "pic",
                             "mime_type": "image/png"}]


# Streamable HTTP


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def over_http(marks: Path):
    port = free_port()
    process = subprocess.Popen([sys.executable, SERVER, "--http", str(port)],
                               env={"MCP_TEST_MARKS": str(marks), "PATH": ""},
                               stderr=subprocess.PIPE)
    try:
        for _ in range(300):
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.1)
        domain = McpDomain.http(f"http://127.0.0.1:{port}/mcp", name="tools-http",
                                start_timeout=SLOW_START, trust_annotations=True)
        yield domain
        domain.close()
    finally:
        process.terminate()
        process.wait(10)
        process.stderr.close()


async def test_over_http_calls_fail_and_cancel_as_over_stdio(over_http, marks):
    assert over_http.actions["add"].mutates is False  # trusted
    assert await over_http.run("add", {"a": 2, "b": 3}) == {"structured": {"sum": 5}, "text": "5"}
    with pytest.raises(ActionError) as failed:
        await over_http.run("fail", {})
    assert failed.value.code == "tool-error"
    over_http.run_timeout = 0.5
    try:
        with pytest.raises(ActionError) as late:
            await over_http.run("hang", {})
    finally:
        over_http.run_timeout = 60.0
    assert late.value.code == "timeout"
    assert await over_http.run("echo", {"text": "ok"}) == {"text": "ok"}


# The server's questions (the callbacks are _elicit's; here: they reach the person's loop)

ELICIT_SERVER = str(Path(__file__).parents[1] / "mcp_servers" / "elicit_server.py")


class Picked:
    def __init__(self, selected: tuple[str, ...]) -> None:
        self.selected, self.custom = selected, None


async def test_a_servers_question_is_asked_on_the_loop_that_awaits_the_run():
    loop = asyncio.get_running_loop()
    asked: list[tuple[bool, list]] = []

    async def ask(questions: list) -> dict:
        asked.append((asyncio.get_running_loop() is loop, questions))
        return {q["id"]: Picked(("Open it myself",)) for q in questions}

    domain = McpDomain.stdio(sys.executable, [ELICIT_SERVER], name="booking", ask=ask,
                             start_timeout=SLOW_START)
    try:
        answered = await domain.run("sign_in", {})
        refused = await domain.run("summarise", {})  # sampling not allowed: refused
    finally:
        domain.close()
    assert json.loads(answered["text"]) == {"action": "accept"}
    assert asked and asked[0][0] is True
    assert "https://example.com/sign-in?session=42" in json.dumps(asked[0][1])
    assert "not allowed" in json.loads(refused["text"])["error"]


async def test_without_an_ask_port_nobody_is_asked_and_the_server_is_declined():
    domain = McpDomain.stdio(sys.executable, [ELICIT_SERVER], name="booking",
                             start_timeout=SLOW_START)
    try:
        answered = await domain.run("sign_in", {})
    finally:
        domain.close()
    assert json.loads(answered["text"]) == {"action": "decline"}
