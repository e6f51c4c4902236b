"""The python executor in a real kernel: an approved step changes the user's own DataFrame.

The conversation runs in the kernel with the default executors, so python steps run in
IPython's ``user_ns`` — the notebook's namespace — exactly where the user's ``df`` lives.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager

pytestmark = pytest.mark.kernel

SETUP = '''
import json
import pandas as pd
from dial_notebook.runtime import Conversation, policy_human

df = pd.DataFrame({"price": [10.0, 20.0, 30.0]})

STEPS = """<dial><dial-execute id="eda" yield="eda:done">
  <step env="python" id="add-vat" label="Add a VAT column" yield="vat:added">
    df["vat"] = df["price"] * 0.2
  </step>
  <step env="python" id="describe" observe="vat:added">
    print("rows:", len(df))
    df.describe()
  </step>
</dial-execute></dial>"""

class Domain:
    actions = {}
    def run(self, action, payload):
        raise AssertionError("no domain action is proposed")

replies = iter([STEPS, "<dial><dial-inform>Added.</dial-inform></dial>"])
conversation = Conversation(agent=lambda message: next(replies), domain=Domain(),
                            human=policy_human("accept"), full_dial=True)
'''


class Kernel:
    def __init__(self, client: Any) -> None:
        self.client = client

    def run(self, code: str) -> str:
        """Execute ``code``; its stdout (an error fails the test)."""
        out: list[str] = []

        def hook(msg: dict) -> None:
            if msg["msg_type"] == "stream":
                out.append(msg["content"]["text"])
            elif msg["msg_type"] == "error":
                raise AssertionError("\n".join(msg["content"]["traceback"]))

        self.client.execute_interactive(code, timeout=60, output_hook=hook)
        return "".join(out)


@pytest.fixture(scope="module")
def kernel(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Kernel]:
    specs = tmp_path_factory.mktemp("kernels")
    (specs / "dial").mkdir()
    (specs / "dial" / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "dial", "language": "python"}))
    manager = KernelManager(kernel_name="dial",
                            kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(specs)]))
    manager.start_kernel()
    client = manager.client()
    client.start_channels()
    try:
        client.wait_for_ready(timeout=60)
        yield Kernel(client)
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def test_an_approved_python_step_changes_the_data_frame_in_the_kernel_namespace(kernel):
    kernel.run(SETUP)
    kernel.run("result = await conversation.say('add VAT and describe the prices')")
    state = json.loads(kernel.run(
        "print(json.dumps({'columns': list(df.columns), 'vat': df['vat'].tolist(),"
        " 'same': conversation.namespace is get_ipython().user_ns,"
        " 'outcomes': result.outcomes}))"))
    assert state["columns"] == ["price", "vat"]
    assert state["vat"] == [2.0, 4.0, 6.0]
    assert state["same"] is True
    added, described = state["outcomes"]
    assert (added["id"], added["status"], added["preview"]) == (
        "add-vat", "done", "Add a VAT column")
    assert described["status"] == "done"
    assert described["result"]["stdout"] == "rows: 3\n"
    assert "vat" in described["result"]["value"] and "mean" in described["result"]["value"]
