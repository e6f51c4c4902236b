"""Interrupting a cell that awaits in a real kernel (JupyterLab's stop button: the kernel gets
SIGINT) stops it at once, though ipykernel alone would let it run on until its agent answered
(ipython/ipykernel#881; dial_notebook/_interrupt.py):

- ``await evaluate(...)``: every running agent's send is cancelled, no scenario's task is left
  on the kernel's loop, the cell ends with an error saying so, its bar says "cancelled after 0
  of 6", and the next evaluation runs;
- ``await conversation.say(...)`` and ``await chat.say(...)`` on a slow agent: the send is
  cancelled, the chat shows "stopped", and the next say works.

Runs on ipykernel 7.x and 6.x as the other kernel tests do (see test_widget_comm.py)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ._kernels import KERNELS, Kernel, started_kernel

pytestmark = pytest.mark.kernel

SETUP = """
import asyncio, json
from pathlib import Path
from dial_notebook import evaluate
from dial_notebook.domains import SchemaDomain

started, cancelled = Path({started!r}), []
DONE = '<dial version="0.1" actor="agent"><dial-inform>Done.</dial-inform></dial>'

class Slow:
    async def send(self, message):
        with started.open("a") as out:
            out.write(message + "\\n")
        try:
            await asyncio.sleep(60)
        except asyncio.CancelledError:
            cancelled.append(message)
            raise
        return DONE

class Quick:
    async def send(self, message):
        return DONE

class SlowOnce(Quick):
    # slow to its first message, quick after
    def __init__(self):
        self.heard = 0

    async def send(self, message):
        self.heard += 1
        return await (Slow().send(message) if self.heard == 1 else super().send(message))

scenarios = [{{"name": f"s{{i}}", "say": [f"m{{i}}"]}} for i in range(6)]
"""


@pytest.fixture(params=sorted(KERNELS))
def kernel(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
           ) -> Iterator[tuple[Kernel, Path]]:
    started = tmp_path_factory.mktemp("evaluation") / "started.txt"
    with started_kernel(request.param, tmp_path_factory.mktemp("kernels")) as client:
        k = Kernel(client)
        k.run(SETUP.format(started=str(started)))
        yield k, started


def interrupt_when_started(k: Kernel, started: Path, code: str, sends: int
                           ) -> tuple[dict[str, Any], list[str], float]:
    """Run ``code`` in a cell; once ``sends`` sends have started, interrupt the kernel. The
    cell's error, the widget states it sent, and the seconds from the interrupt to its end."""
    client = k.client
    msg_id = client.execute(code)
    deadline = time.monotonic() + 30
    while not started.exists() or len(started.read_text().split()) < sends:
        assert time.monotonic() < deadline, "the sends never started"
        time.sleep(0.05)
    client.kernel_manager.interrupt_kernel()
    stopped = time.monotonic()
    texts: list[str] = []
    error: dict[str, Any] | None = None
    while True:
        msg = client.get_iopub_msg(timeout=30)
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        kind, content = msg["msg_type"], msg["content"]
        if kind == "error":
            error = content
        elif kind == "comm_msg":
            texts.append(json.dumps(content["data"].get("state", {})))
        elif kind == "status" and content["execution_state"] == "idle":
            break
    assert error is not None, "the interrupted cell ended without an error"
    assert error["ename"] in ("KeyboardInterrupt", "CancelledError"), error["ename"]
    return error, texts, time.monotonic() - stopped


def test_interrupting_the_cell_cancels_every_conversation_and_the_kernel_goes_on(kernel):
    k, started = kernel
    _, texts, seconds = interrupt_when_started(
        k, started, "report = await evaluate(agent=Slow, domain=SchemaDomain('d'), "
        "scenarios=scenarios, concurrency=3)", sends=3)
    assert seconds < 20  # not the agents' 60 s
    assert any("cancelled after 0 of 6 scenarios" in text for text in texts), texts
    assert any('"bar_style": "danger"' in text for text in texts), texts

    out = json.loads(k.run(
        "await asyncio.sleep(0.1)\n"
        "print(json.dumps({'cancelled': sorted(cancelled), "
        "'left': [t.get_coro().__qualname__ for t in asyncio.all_tasks() "
        "if 'evaluate' in t.get_coro().__qualname__], 'report': 'report' in globals()}))"))
    assert out == {"cancelled": ["m0", "m1", "m2"], "left": [], "report": False}
    assert started.read_text().split() == ["m0", "m1", "m2"]  # none started after the stop
    assert k.run("again = await evaluate(agent=Quick, domain=SchemaDomain('d'), "
                 "scenarios=scenarios, progress=False)\n"
                 "print(again.passed)").strip() == "6"


def test_interrupting_a_cell_that_awaits_a_say_stops_it_and_the_next_say_works(kernel):
    k, started = kernel
    k.run("from dial_notebook.domains.notes import NotesDomain\n"
          "from dial_notebook.runtime import Conversation, policy_human\n"
          "conversation = Conversation(agent=SlowOnce(), domain=NotesDomain(), "
          "human=policy_human())")
    _, _, seconds = interrupt_when_started(k, started, "await conversation.say('slow')", 1)
    assert seconds < 20
    assert k.run("print([c.split()[-1] for c in cancelled], "
                 "(await conversation.say('again')).status)").strip() == "['slow'] idle"


def test_interrupting_a_cell_that_awaits_a_chat_say_shows_stopped(kernel):
    k, started = kernel
    k.run("from dial_notebook import ChatWidget\n"
          "from dial_notebook.domains.notes import NotesDomain\n"
          "chat = ChatWidget(agent=SlowOnce(), domain=NotesDomain())\n"
          "display(chat)")
    _, _, seconds = interrupt_when_started(k, started, "await chat.say('slow')", 1)
    assert seconds < 20
    out = k.run("result = await chat.say('again')\n"
                "print([c.split()[-1] for c in cancelled], [e['type'] for e in chat.transcript], "
                "chat.running)")
    assert out.startswith("['slow'] ") and "'stopped'" in out and out.strip().endswith("False")
