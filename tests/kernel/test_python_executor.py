"""The python executor in a real kernel: an approved step changes the user's own DataFrame.

The conversation runs in the kernel with the python executor given the notebook's namespace
(IPython's ``user_ns``, as the ChatWidget gives it; the runtime itself reads no IPython state),
so python steps run exactly where the user's ``df`` lives.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from ._kernels import Kernel, started_kernel

pytestmark = pytest.mark.kernel

SETUP = '''
import json
import pandas as pd
from dial_notebook.runtime import Conversation, policy_human, python_executor

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
                            human=policy_human("accept"), full_dial=True,
                            executors={"python": python_executor(get_ipython().user_ns)})
'''


@pytest.fixture(scope="module")
def kernel(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Kernel]:
    with started_kernel("ipykernel7", tmp_path_factory.mktemp("kernels")) as client:
        yield Kernel(client)


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
