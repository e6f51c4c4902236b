"""ChatWidget(session=…): saved after every event, resumed by a new widget (a new kernel running
the same cell) with its card back and said so; accepting the resumed card runs it once and the
agent hears it once; a tampered or unwritable file is a clear error that loses nothing."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from dial_notebook.domains.notes import NotesDomain
from dial_notebook.runtime import SnapshotError, load_snapshot
from dial_notebook.widget import ChatWidget
from dial_notebook.widget._session import session_path, widget_transcript

from .runtime_doubles import click, until

REPLY = ('<dial version="0.1" actor="agent"><dial-inform>One note coming up.</dial-inform>'
         '<dial-suggest id="add" action="add-note">Add it?'
         '<dial-payload>{"text": "buy milk"}</dial-payload></dial-suggest></dial>')
THANKS = '<dial version="0.1" actor="agent"><dial-acknowledge>Added.</dial-acknowledge></dial>'


class Agent:
    """The note proposal, then thanks; records what it was sent."""

    def __init__(self) -> None:
        self.messages: list[str] = []

    def send(self, message: str) -> str:
        self.messages.append(message)
        return THANKS if "outcome:" in message else REPLY


class Counting(NotesDomain):
    def __init__(self) -> None:
        super().__init__([])
        self.runs = 0

    def run(self, action: str, payload: Any) -> Any:
        self.runs += 1
        return super().run(action, payload)


async def test_a_pending_card_is_saved_and_a_new_widget_carries_on_with_it(tmp_path):
    path = tmp_path / "eda.json"
    first = ChatWidget(agent=Agent(), domain=Counting(), session=path)
    task = first.say("add milk")
    await until(lambda: first.pending.get("kind") == "decide")
    await asyncio.sleep(0.01)  # the card waiting is saved once the step is done
    saved = load_snapshot(path)
    assert saved["pending"]["value"]["id"] == "add"
    assert saved["surface"]["entries"] == [[0, {"type": "person", "text": "add milk"}]]
    assert widget_transcript(saved) == first.transcript  # no event is written twice
    task.cancel()  # the kernel dies (its file stays as it was last saved)

    agent, domain = Agent(), Counting()
    second = ChatWidget(agent=agent, domain=domain, session=path)
    resumed = second.transcript[-1]
    assert resumed["type"] == "resumed" and resumed["waiting"] is True
    assert resumed["session"] == str(path) and resumed["saved_at"]
    assert [e["type"] for e in second.transcript].count("suggestion") == 1
    await until(lambda: second.pending.get("kind") == "decide")
    assert second.pending["id"] == "add"
    assert "add-note" in second.schemas  # the edit form is back too
    click(second, type="decide", token=second.pending["token"], decision="accept")
    await until(lambda: not second.running)
    assert domain.runs == 1 and [n["text"] for n in domain.notes] == ["buy milk"]
    assert len(agent.messages) == 1 and agent.messages[0].count("outcome:add") == 1
    assert [e["type"] for e in second.transcript].count("suggestion") == 1  # not shown twice
    await asyncio.sleep(0.01)  # the last save runs once the say's step is done
    assert load_snapshot(path)["say"] is None  # saved as over


async def test_an_idle_session_resumes_without_a_say_and_explicit_save_and_restore(tmp_path):
    chat = ChatWidget(agent=Agent(), domain=NotesDomain([]))
    task = chat.say("add milk")
    await until(lambda: chat.pending.get("kind") == "decide")
    click(chat, type="decide", token=chat.pending["token"], decision="dismiss")
    await task
    path = chat.save(tmp_path / "later.json")
    again = ChatWidget.restore(path, agent=Agent(), domain=NotesDomain([]))
    assert again.transcript[:-1] == chat.transcript
    assert again.transcript[-1]["waiting"] is False
    assert not again.running
    with pytest.raises(ValueError, match="no session= file"):
        chat.save()


async def test_a_tampered_session_file_is_a_clear_error_and_is_left_as_it_is(tmp_path):
    path = tmp_path / "eda.json"
    path.write_text(json.dumps({"format": "dial-notebook/conversation", "version": 1,
                                "transcript": [{"type": "outcome", "id": "x"}]}))
    before = path.read_bytes()
    with pytest.raises(SnapshotError, match=r"eda\.json: transcript\[0\] is not an event.*"
                                            r"move it away"):
        ChatWidget(agent=Agent(), domain=NotesDomain([]), session=path)
    assert path.read_bytes() == before


async def test_a_session_that_cannot_be_written_is_said_once_and_the_chat_goes_on(tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    chat = ChatWidget(agent=Agent(), domain=NotesDomain([]), session=blocked / "s.json")
    task = chat.say("add milk")
    await until(lambda: chat.pending.get("kind") == "decide")
    click(chat, type="decide", token=chat.pending["token"], decision="dismiss")
    await task
    errors = [e for e in chat.transcript if e["type"] == "error"]
    assert len(errors) == 1 and "could not be saved" in errors[0]["error"]


def test_a_session_name_is_a_file_in_the_dial_folder_and_anything_else_a_path():
    assert session_path("eda") == Path(".dial/eda.json")
    assert session_path("my-run_2") == Path(".dial/my-run_2.json")
    assert session_path("../elsewhere/x.json") == Path("../elsewhere/x.json")
    assert session_path(Path("a/b.json")) == Path("a/b.json")
    with pytest.raises(ValueError, match="session must be a name"):
        session_path("  ")


async def test_the_same_cell_run_again_in_the_same_kernel_closes_the_old_widget(tmp_path):
    path = tmp_path / "again.json"
    domain = Counting()
    first = ChatWidget(agent=Agent(), domain=domain, session=path)
    first.say("add milk")
    await until(lambda: first.pending.get("kind") == "decide")
    old_token = first.pending["token"]
    await asyncio.sleep(0.01)
    second = ChatWidget(agent=Agent(), domain=domain, session=path)
    await until(lambda: second.pending.get("kind") == "decide")
    click(first, type="decide", token=old_token, decision="accept")  # the old card: gone
    await asyncio.sleep(0.05)
    assert domain.runs == 0
    click(second, type="decide", token=second.pending["token"], decision="accept")
    await until(lambda: not second.running)
    assert domain.runs == 1
    await asyncio.sleep(0.01)  # the last save runs once the say's step is done
    assert widget_transcript(load_snapshot(path)) == second.transcript


@pytest.mark.parametrize(("entries", "message"), [
    ({"x": 1}, "must be a list"),
    ([[0, {"type": "suggestion"}]], "not one of the widget's own entries"),
    ([[5, {"type": "person", "text": "x"}]], "past the end"),
    ([[1, {"type": "person", "text": "a"}], [0, {"type": "person", "text": "b"}]],
     "out of order"),
    ([["0", {"type": "person"}]], r"must be \[place, entry\]"),
])
def test_tampered_widget_entries_are_a_clear_error(entries, message):
    saved = {"transcript": [{"type": "sent", "turn": 1, "message": "hi"}],
             "surface": {"entries": entries}}
    with pytest.raises(SnapshotError, match=message):
        widget_transcript(saved)
