"""One connection in a real kernel: five sends from one OpenAIAgent, each in a cell of its own,
reach the fake OpenAI-compatible server (tests/unit/fake_llm_server.py, in this process, on
127.0.0.1) over one TCP connection — the agent keeps its client on the kernel's event loop.
A ``say_sync`` (its own loop, on a worker thread) works from the same agent with a client of
its own, and ``close()`` from a cell closes both. A kernel asked to shut down with a client
still open exits by itself (nothing waits for the client).

Runs on ipykernel 7.x and 6.x as the other kernel tests do (see test_widget_comm.py)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager

from ..unit.fake_llm_server import FakeLLMServer, reply
from ._kernels import KERNELS, Kernel, kernel_python, started_kernel

pytestmark = pytest.mark.kernel


@pytest.fixture
def server() -> Iterator[FakeLLMServer]:
    with FakeLLMServer() as fake:
        yield fake


@pytest.fixture(params=sorted(KERNELS))
def kernel(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory,
           server: FakeLLMServer) -> Iterator[Kernel]:
    with started_kernel(request.param, tmp_path_factory.mktemp("kernels")) as client:
        k = Kernel(client)
        k.run("from dial_notebook.agents import OpenAIAgent\n"
              f"agent = OpenAIAgent(model='m', base_url={server.url + '/v1'!r}, "
              "api_key='sk-test', system='Speak DIAL.')")
        yield k


@pytest.mark.parametrize("stream", [True, False], ids=["streamed", "whole"])
def test_five_sends_from_one_agent_in_a_kernel_use_one_connection(kernel, server, stream):
    kernel.run(f"agent.stream = {stream}")
    for number in range(5):
        server.plan(reply(f"reply {number}", chunks=3))
        out = kernel.run(f"print(await agent.send('message {number}'))")  # a cell each
        assert out.strip() == f"reply {number}"
    assert len(server.requests) == 5
    assert server.connections == 1 and server.closed == 0
    assert kernel.run("print(len(agent.history), agent.usage['total'])").split() == ["10", "100"]


def test_say_sync_uses_a_client_of_its_own_and_close_closes_both(kernel, server):
    kernel.run("await agent.send('on the kernel loop')")
    kernel.run("from dial_notebook.domains.notes import NotesDomain\n"
               "from dial_notebook.runtime import Conversation, policy_human\n"
               "conversation = Conversation(agent=agent, domain=NotesDomain(), "
               "human=policy_human())\n"
               "print(conversation.say_sync('on its own loop').status)")
    kernel.run("await agent.send('on the kernel loop again')")
    assert len(server.requests) == 3 and server.connections == 2
    kernel.run("agent.close()")
    assert server.wait_for("closed", 2) == 2


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_a_kernel_with_an_open_client_shuts_down_by_itself(name, server, tmp_path):
    python = kernel_python(name)  # fails, saying how to make it, when it is missing
    (tmp_path / name).mkdir()
    (tmp_path / name / "kernel.json").write_text(json.dumps({
        "argv": [str(python), "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": name, "language": "python"}))
    manager = KernelManager(kernel_name=name,
                            kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(tmp_path)]))
    manager.start_kernel()
    process = manager.provisioner.process
    client = manager.client()
    client.start_channels()
    try:
        client.wait_for_ready(timeout=60)
        Kernel(client).run(
            "from dial_notebook.agents import OpenAIAgent\n"
            f"agent = OpenAIAgent(model='m', base_url={server.url + '/v1'!r}, "
            "api_key='sk-test')\n"
            "print(await agent.send('hi'))")
        assert server.connections == 1 and server.closed == 0  # open as the kernel is told
        manager.request_shutdown()
        assert process.wait(timeout=60) == 0  # it exited itself: not terminated, not killed
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
