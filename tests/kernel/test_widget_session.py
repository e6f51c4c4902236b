"""A conversation survives its kernel being killed: kernel A shows a pending card of a
ChatWidget with ``session=``, and is killed (SIGKILL, no clean shutdown); kernel B runs the same
cell and the card is back; accepting it runs the action once, and the agent's next message
carries the outcome once. On ipykernel 7.x and 6.x (see test_widget_comm.py)."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

import pytest

from dial_notebook.runtime import SnapshotError, load_snapshot

from ._kernels import KERNELS, Kernel, started_kernel

pytestmark = pytest.mark.kernel

CELL = '''
import json
from dial_notebook.agents import ScriptedAgent
from dial_notebook.domains import NotesDomain
from dial_notebook.widget import ChatWidget

REPLY = ('<dial version="0.1" actor="agent"><dial-inform>One note coming up.</dial-inform>'
         '<dial-suggest id="add" action="add-note">Add it?'
         '<dial-payload>{{"text": "buy milk"}}</dial-payload></dial-suggest></dial>')
THANKS = ('<dial version="0.1" actor="agent"><dial-acknowledge>Added.</dial-acknowledge>'
          '</dial>')
agent = ScriptedAgent([REPLY, THANKS])
domain = NotesDomain([])
chat = ChatWidget(agent=agent, domain=domain, session={path!r})
chat
'''


def saved(path: Path) -> dict:
    """The session file's snapshot as last saved (read as the package reads it: JSON Lines,
    an unfinished save at its end not read), or {} while there is none."""
    try:
        return load_snapshot(path)
    except SnapshotError:
        return {}


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_a_killed_kernels_pending_card_is_back_in_the_next_and_runs_once(name, tmp_path):
    path = tmp_path / ".dial" / "notes.json"
    cell = CELL.format(path=str(path))
    for specs in ("a", "b"):
        (tmp_path / specs).mkdir()
    with started_kernel(name, tmp_path / "a") as client:
        kernel = Kernel(client)
        kernel.run(cell)
        kernel.send({"type": "say", "text": "add milk"})
        assert kernel.pending("decide")["id"] == "add"
        deadline = time.monotonic() + 10
        while (saved(path).get("pending") or {}).get("value", {}).get("id") != "add":
            assert time.monotonic() < deadline, "the pending card was never saved"
            time.sleep(0.05)
        os.kill(client.kernel_manager.provisioner.process.pid, signal.SIGKILL)
        client.kernel_manager.provisioner.process.wait(10)

    with started_kernel(name, tmp_path / "b") as client:
        kernel = Kernel(client)
        kernel.run(cell)
        pending = kernel.pending("decide")
        assert pending["id"] == "add"
        state = kernel.state()
        kinds = [e["type"] for e in state["transcript"]]
        assert kinds.count("suggestion") == 1 and kinds[-1] == "resumed"
        assert state["transcript"][-1]["waiting"] is True
        kernel.send({"type": "decide", "token": pending["token"], "decision": "accept"})
        state = kernel.wait(lambda s: not s["running"] and any(
            e["type"] == "outcome" and e["status"] == "done" for e in s["transcript"]))
        assert state["notes"] == ["buy milk"]
        told = json.loads(kernel.run("print(json.dumps(agent.received))"))
        assert len(told) == 1 and told[0].count('context-key="outcome:add"') == 1
        assert saved(path)["say"] is None


RULES_CELL = '''
import json
from dial_notebook.agents import ScriptedAgent
from dial_notebook.domains import NotesDomain
from dial_notebook.widget import ChatWidget

def card(text):
    return ('<dial version="0.1" actor="agent"><dial-suggest action="add-note">Add it?'
            '<dial-payload>{{"text": "' + text + '"}}</dial-payload></dial-suggest></dial>')

THANKS = ('<dial version="0.1" actor="agent"><dial-acknowledge>Added.</dial-acknowledge>'
          '</dial>')
agent = ScriptedAgent([card("buy milk"), THANKS, card("buy tea"), THANKS])
domain = NotesDomain([])
chat = ChatWidget(agent=agent, domain=domain, session={path!r})
chat
'''
ANY_TEXT = {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"],
            "additionalProperties": False}


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_a_rule_made_on_a_card_is_kept_with_the_session_and_applies_in_the_next_kernel(
        name, tmp_path):
    path = tmp_path / ".dial" / "notes.json"
    cell = RULES_CELL.format(path=str(path))
    for specs in ("a", "b"):
        (tmp_path / specs).mkdir()
    with started_kernel(name, tmp_path / "a") as client:
        kernel = Kernel(client)
        kernel.run(cell)
        kernel.send({"type": "say", "text": "add milk"})
        pending = kernel.pending("decide")
        kernel.send({"type": "allow", "token": pending["token"], "schema": ANY_TEXT,
                     "scope": "notebook"})
        kernel.wait(lambda s: not s["running"] and any(
            e["type"] == "outcome" and e.get("rule") for e in s["transcript"]))
        deadline = time.monotonic() + 10
        while not saved(path).get("surface", {}).get("rules") or saved(path).get("say"):
            assert time.monotonic() < deadline, "the rule was never saved"
            time.sleep(0.05)
        os.kill(client.kernel_manager.provisioner.process.pid, signal.SIGKILL)
        client.kernel_manager.provisioner.process.wait(10)

    with started_kernel(name, tmp_path / "b") as client:
        kernel = Kernel(client)
        kernel.run(cell)
        rules = json.loads(kernel.run("print(json.dumps(chat.rules.to_list()))"))
        assert [(r["action"], r["scope"], r["fired"], r["schema"]) for r in rules] == [
            ("add-note", "notebook", 1, ANY_TEXT)]
        kernel.send({"type": "say", "text": "add tea"})
        # (the domain is the cell's, made again: only the conversation and its rules are kept)
        state = kernel.wait(lambda s: not s["running"] and s["notes"] == ["buy tea"])
        outcomes = [e for e in state["transcript"] if e["type"] == "outcome"]
        assert [o.get("rule") for o in outcomes] == [rules[0]["id"]] * 2
        assert state["pending"] == {}
