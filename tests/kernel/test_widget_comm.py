"""ChatWidget in a real kernel (jupyter_client), driven by the same comm messages JupyterLab
sends: ``comm_msg`` on the shell channel with ``{"method": "custom", "content": …}``. The
conversation is the real Conversation with the scripted agent and notes domain of
tests/widget_scenario.py; the turn loop runs as a task while the test's clicks arrive.

Every test runs on ipykernel 7.x (this environment) and on ipykernel 6.x from the interpreter
in ``DIAL_IPYKERNEL6_PYTHON`` (default ``.venv-ipykernel6/bin/python``; made with
``python -m venv .venv-ipykernel6 && .venv-ipykernel6/bin/pip install ipykernel==6.31.0 -e ".[llm]"``).
Where that interpreter is missing the 6.x runs fail under ``CI`` and are left out elsewhere."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ._kernels import KERNELS, SCENARIO, Kernel, started_kernel

pytestmark = pytest.mark.kernel


@pytest.fixture(scope="module", params=sorted(KERNELS))
def kernel(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory,
           ) -> Iterator[Kernel]:
    with started_kernel(request.param, tmp_path_factory.mktemp("kernels")) as client:
        k = Kernel(client)
        k.run(SCENARIO.read_text())
        version = k.run("import ipykernel; print(ipykernel.__version__)").strip()
        assert version.startswith(request.param[-1]), version
        k.run("import json\nfrom dial_notebook.widget import ChatWidget\n"
              "domain = notes_domain()\n"
              "chat = ChatWidget(agent=RuleAgent(slow_seconds=3), domain=domain, "
              "timeout=1.0)\nchat")
        yield k


def last_status(state: dict, sid: str) -> str | None:
    statuses = [e["status"] for e in state["transcript"]
                if e["type"] == "outcome" and e["id"] == sid]
    return statuses[-1] if statuses else None


def test_accept_from_a_comm_message_runs_the_action(kernel):
    kernel.send({"type": "say", "text": "add milk"})
    pending = kernel.pending("decide")
    assert pending["id"] == "add-milk"
    kernel.send({"type": "decide", "token": pending["token"], "decision": "accept"})
    state = kernel.wait(lambda s: last_status(s, "add-milk") == "done")
    assert "milk" in state["notes"]


def test_a_repeated_click_is_ignored(kernel):
    kernel.send({"type": "say", "text": "add jam"})
    pending = kernel.pending("decide")
    kernel.send({"type": "decide", "token": pending["token"], "decision": "dismiss"})
    kernel.send({"type": "decide", "token": pending["token"], "decision": "accept"})
    state = kernel.wait(lambda s: last_status(s, "add-jam") is not None and not s["running"])
    assert last_status(state, "add-jam") == "dismissed"
    assert "jam" not in state["notes"]


def test_a_refused_edit_comes_back_then_a_fixed_edit_is_done(kernel):
    kernel.send({"type": "say", "text": "add eggs"})
    first = kernel.pending("decide")
    kernel.send({"type": "decide", "token": first["token"], "decision": "edit",
                 "payload": {"text": ""}})
    refused = kernel.wait(lambda s: s["pending"].get("issue") is not None)["pending"]
    assert refused["id"] == "add-eggs" and refused["errors"][0]["field"] == "text"
    kernel.send({"type": "decide", "token": refused["token"], "decision": "edit",
                 "payload": {"text": "eggs, a dozen"}})
    state = kernel.wait(lambda s: last_status(s, "add-eggs") == "done")
    assert "eggs, a dozen" in state["notes"]


def test_saying_while_a_card_waits_supersedes_it(kernel):
    kernel.send({"type": "say", "text": "add bread"})
    kernel.pending("decide")
    kernel.send({"type": "say", "text": "never mind"})
    state = kernel.wait(lambda s: last_status(s, "add-bread") == "superseded"
                        and not s["running"])
    assert state["transcript"][-1]["text"] == "You said: never mind"


def test_questions_are_answered_by_comm_messages(kernel):
    kernel.send({"type": "say", "text": "ask"})
    choice = kernel.pending("answer")
    assert [o["value"] for o in choice["options"]] == ["home", "work", "archive"]
    kernel.send({"type": "answer", "token": choice["token"], "value": "work"})
    text = kernel.wait(lambda s: s["pending"].get("token") not in (None, choice["token"]))
    kernel.send({"type": "answer", "token": text["pending"]["token"], "value": "for Sunday"})
    state = kernel.wait(lambda s: not s["running"] and s["transcript"][-1]["type"] == "inform")
    sent = [e["message"] for e in state["transcript"] if e["type"] == "sent"][-1]
    assert "> Which list should I use?\nwork" in sent
    assert "> Anything I should know?\nfor Sunday" in sent


def test_retry_after_no_reply_sends_the_words_again(kernel):
    kernel.send({"type": "say", "text": "slow"})
    kernel.wait(lambda s: s["transcript"][-1]["type"] == "no-reply" and not s["running"])
    kernel.send({"type": "retry"})
    state = kernel.wait(lambda s: s["transcript"][-1]["type"] == "inform")
    assert "here now" in state["transcript"][-1]["text"]


def test_closing_the_widget_while_a_card_waits_ends_it_superseded(kernel):
    kernel.send({"type": "say", "text": "add cake"})
    kernel.pending("decide")
    kernel.run("chat.close()")
    state = kernel.wait(lambda s: last_status(s, "add-cake") == "superseded"
                        and not s["running"])
    assert state["pending"] == {}
