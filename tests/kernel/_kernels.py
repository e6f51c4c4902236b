"""What the kernel tests share: the interpreters to run (ipykernel 7.x here, 6.x from
``DIAL_IPYKERNEL6_PYTHON``, default ``.venv-ipykernel6/bin/python``), a kernel started from one
of them, and a client with helpers to run code and send the comm messages a browser sends."""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager

REPO = Path(__file__).resolve().parents[2]
SCENARIO = REPO / "tests" / "widget_scenario.py"
IPYKERNEL6 = Path(os.environ.get("DIAL_IPYKERNEL6_PYTHON",
                                 REPO / ".venv-ipykernel6" / "bin" / "python"))
KERNELS = {"ipykernel7": Path(sys.executable)}
if IPYKERNEL6.exists() or os.environ.get("CI"):
    KERNELS["ipykernel6"] = IPYKERNEL6


class Kernel:
    """A kernel client with helpers to run code and send widget messages."""

    def __init__(self, client: Any) -> None:
        self.client = client

    def run(self, code: str) -> str:
        """Execute ``code``; its stdout (errors fail the test)."""
        out: list[str] = []

        def hook(msg: dict) -> None:
            kind = msg["msg_type"]
            if kind == "stream":
                out.append(msg["content"]["text"])
            elif kind == "error":
                out.append("\n".join(msg["content"]["traceback"]))
                raise AssertionError("\n".join(msg["content"]["traceback"]))

        self.client.execute_interactive(code, timeout=30, output_hook=hook)
        return "".join(out)

    def state(self) -> dict:
        return json.loads(self.run(
            "print(json.dumps({'pending': chat.pending, 'transcript': chat.transcript, "
            "'running': chat.running, "
            "'notes': [note['text'] for note in domain.notes]}))"))

    def wait(self, check: Any, timeout: float = 10.0) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            state = self.state()
            if check(state):
                return state
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out; last state: {json.dumps(state)[:3000]}")
            time.sleep(0.05)

    def send(self, content: dict) -> None:
        """The custom message the front end sends (anywidget's model.send)."""
        comm_id = self.run("print(chat.comm.comm_id)").strip()
        msg = self.client.session.msg(
            "comm_msg", {"comm_id": comm_id, "data": {"method": "custom", "content": content}})
        self.client.shell_channel.send(msg)

    def pending(self, kind: str) -> dict:
        return self.wait(lambda s: s["pending"].get("kind") == kind)["pending"]


def kernel_python(name: str) -> Path:
    """The interpreter of ``KERNELS[name]``; the test fails, saying how to make it, when it is
    missing (listed under ``CI`` even then, so that CI cannot pass without it)."""
    python = KERNELS[name]
    if not python.exists():
        pytest.fail(f"{name}: no interpreter at {python}: python -m venv .venv-ipykernel6 && "
                    ".venv-ipykernel6/bin/pip install ipykernel==6.31.0 -e '.[llm]'")
    return python


@contextlib.contextmanager
def started_kernel(name: str, specs: Path) -> Iterator[Any]:
    """A running kernel of ``KERNELS[name]`` (kernelspec written in ``specs``); its client."""
    python = kernel_python(name)
    (specs / name).mkdir()
    (specs / name / "kernel.json").write_text(json.dumps({
        "argv": [str(python), "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": name, "language": "python"}))
    manager = KernelManager(kernel_name=name,
                            kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(specs)]))
    manager.start_kernel()
    client = manager.client()
    client.start_channels()
    client.wait_for_ready(timeout=60)
    client.kernel_manager = manager  # for a test that kills the kernel outright
    try:
        yield client
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
