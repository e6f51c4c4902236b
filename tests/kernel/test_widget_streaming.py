"""A streamed reply in a real kernel reaches the front end as it is written: OpenAIAgent in the
kernel reads from the fake OpenAI-compatible server (tests/unit/fake_llm_server.py, in this
process, on 127.0.0.1), which sends the reply's first chunk and then holds the rest until the
test lets it go. The first chunk's words are on iopub, in a comm message of the widget, while
the server still holds the reply; the reply's events follow, each once, after the gate opens.

Runs on ipykernel 7.x and 6.x as the other kernel tests do (see test_widget_comm.py)."""

from __future__ import annotations

import json
import queue
import time
from collections.abc import Iterator
from typing import Any

import pytest

from dial_notebook.runtime._streaming import PROGRESS_SECONDS

from ..unit.fake_llm_server import FakeLLMServer, reply
from ._kernels import KERNELS, Kernel, started_kernel

pytestmark = pytest.mark.kernel

FIRST = "Reading your notes now, "
REPLY = (FIRST + "one moment."
         '<dial version="0.1" actor="agent"><dial-inform>You have two notes.</dial-inform></dial>')


@pytest.fixture(scope="module")
def server() -> Iterator[FakeLLMServer]:
    with FakeLLMServer() as fake:
        yield fake


@pytest.fixture(scope="module", params=sorted(KERNELS))
def kernel(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory,
           server: FakeLLMServer) -> Iterator[Kernel]:
    with started_kernel(request.param, tmp_path_factory.mktemp("kernels")) as client:
        k = Kernel(client)
        k.run("import json\nfrom dial_notebook.agents import OpenAIAgent\n"
              "from dial_notebook.domains.notes import NotesDomain\n"
              "from dial_notebook.widget import ChatWidget\n"
              "domain = NotesDomain(['buy milk', 'call Sam'])\n"
              f"agent = OpenAIAgent(model='m', base_url={server.url + '/v1'!r}, "
              "api_key='sk-test', domain=domain)\n"
              "chat = ChatWidget(agent=agent, domain=domain)\nchat")
        yield k


def widget_messages(kernel: Kernel, comm_id: str, until: Any, seconds: float) -> list[Any]:
    """The custom messages of the widget on iopub, with the time each arrived, until
    ``until(messages)`` holds."""
    seen: list[tuple[float, dict[str, Any]]] = []
    deadline = time.monotonic() + seconds
    while not until(seen):
        left = deadline - time.monotonic()
        assert left > 0, f"timed out; saw {json.dumps([m for _, m in seen])[:2000]}"
        try:
            msg = kernel.client.get_iopub_msg(timeout=left)
        except queue.Empty:
            continue
        content = msg["content"]
        if msg["msg_type"] == "comm_msg" and content.get("comm_id") == comm_id:
            data = content["data"]
            if data.get("method") == "custom":
                seen.append((time.monotonic(), data["content"]))
    return seen


def has_reply(seen: list[tuple[float, dict[str, Any]]]) -> bool:
    return any(m.get("type") == "append" and any(e["type"] == "reply" for e in m["events"])
               for _, m in seen)


def test_the_first_words_reach_the_front_end_while_the_reply_is_still_held(kernel, server):
    comm_id = kernel.run("print(chat.comm.comm_id)").strip()
    server.gate.clear()
    # pieces further apart than the runtime's pace (PROGRESS_SECONDS): each one is shown as
    # it comes, the last included (a progress still due when the reply completes is dropped)
    server.plan(reply(REPLY, chunks=6, gate=True, delay=2 * PROGRESS_SECONDS))
    kernel.send({"type": "say", "text": "what are my notes?"})

    def first_words(seen: list[tuple[float, dict[str, Any]]]) -> bool:
        return any(m.get("type") == "progress" and "Reading" in (m.get("text") or "")
                   for _, m in seen)

    before = widget_messages(kernel, comm_id, first_words, 20)
    assert not has_reply(before)  # the server holds the rest of the reply: it is not complete
    first_at = next(t for t, m in before if m.get("type") == "progress")
    time.sleep(0.5)  # the reply stays incomplete for as long as the server holds it
    server.gate.set()
    after = widget_messages(kernel, comm_id, lambda seen: has_reply(seen) and any(
        m.get("type") == "append" and any(e.get("text") == "You have two notes."
                                          for e in m["events"])
        for _, m in seen), 20)
    reply_at = next(t for t, m in after if m.get("type") == "append"
                    and any(e["type"] == "reply" for e in m["events"]))
    assert reply_at - first_at > 0.5
    assert not server.gate_timed_out
    # the progress never carried markup, and the prose grew to the reply's readable text
    progress = [m for _, m in before + after if m.get("type") == "progress"]
    assert all("<" not in json.dumps(m) for m in progress)
    prose = ""
    for message in progress:
        prose = message["prose"] if "prose" in message else prose + message["text"]
    assert prose == FIRST + "one moment.\n\nYou have two notes."
    # each event travelled once: the appends rebuild the kernel's transcript exactly
    state = json.loads(kernel.run("print(json.dumps(chat.transcript))"))
    appended = [e for _, m in before + after if m.get("type") == "append" for e in m["events"]]
    assert appended == state[-len(appended):]
    assert [e["type"] for e in state][-4:] == ["sent", "reply", "inform", "inform"]
