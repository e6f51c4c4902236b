"""Session files are data: signed with the person's own Jupyter secret when saved, read-only
when they are not theirs (unsigned, changed, signed by someone else) until trusted; a restored
reply's proposals always come back as cards; notebook rules read from one chat's file apply to
another chat only once confirmed there; every enumerated field of a file is checked, and a file
nested too deep is one clear error."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from dial_notebook.domains import Rules
from dial_notebook.domains.notes import NotesDomain
from dial_notebook.runtime import SnapshotError, load_snapshot, read_snapshot, save_snapshot
from dial_notebook.runtime._snapshot import MAX_DEPTH, read_session_file
from dial_notebook.widget import ChatWidget
from dial_notebook.widget._rules import NOTEBOOK_RULES
from dial_notebook.widget._session import UntrustedSessionError

from .runtime_doubles import click, until

ADD = ('<dial-suggest id="{id}" action="add-note">Add it?'
       '<dial-payload>{{"text": "{text}"}}</dial-payload></dial-suggest>')
REPLY = ('<dial version="0.1" actor="agent"><dial-inform>Notes coming up.</dial-inform>'
         + ADD.format(id="add", text="buy milk") + '</dial>')
TWO = ('<dial version="0.1" actor="agent"><dial-inform>Notes coming up.</dial-inform>'
       + ADD.format(id="add", text="buy milk") + ADD.format(id="add2", text="rm -rf") + '</dial>')
THANKS = '<dial version="0.1" actor="agent"><dial-acknowledge>Added.</dial-acknowledge></dial>'
R7 = {"id": "r7", "action": "add-note", "schema": True, "scope": "notebook",
      "created": "2026-12-01T10:00:00Z", "fired": 0}


class Agent:
    """The note proposal, then thanks (``again``: a new proposal for the first two messages)."""

    def __init__(self, *, again: bool = False) -> None:
        self.messages: list[str] = []
        self.again = again

    def send(self, message: str) -> str:
        self.messages.append(message)
        if self.again and len(self.messages) <= 2:
            return REPLY.replace('id="add"', f'id="add{len(self.messages)}"')
        return THANKS if "outcome:" in message else REPLY


class Counting(NotesDomain):
    def __init__(self) -> None:
        super().__init__([])
        self.runs = 0

    def run(self, action: str, payload: Any) -> Any:
        self.runs += 1
        return super().run(action, payload)


@pytest.fixture(autouse=True)
def _no_notebook_rules():
    """The kernel's shared notebook rules start and end empty around each test."""
    for rule in list(NOTEBOOK_RULES):
        NOTEBOOK_RULES.remove(rule.id)
    yield
    for rule in list(NOTEBOOK_RULES):
        NOTEBOOK_RULES.remove(rule.id)


async def saved_with_a_card(path: Path) -> None:
    """A session saved by this user with the add-note card waiting (the kernel then dies)."""
    first = ChatWidget(agent=Agent(), domain=Counting(), session=path)
    task = first.say("add milk")
    await until(lambda: first.pending.get("kind") == "decide")
    await asyncio.sleep(0.01)
    task.cancel()
    first._saver = None  # the kernel is gone: it saves nothing more
    first.close()


def hostile(path: Path) -> None:
    """The finding: rule r7 (notebook scope, accepts anything) added to the file and the saved
    reply made to propose two add-notes."""
    data = load_snapshot(path)  # written back as one JSON object, unsigned
    data["surface"]["rules"] = [R7]
    data["say"]["reply"]["text"] = TWO
    path.write_text(json.dumps(data))


# ---- signing ---------------------------------------------------------------------------------

def test_a_saved_file_is_signed_by_this_user_and_read_back_trusted(tmp_path):
    path = save_snapshot({"format": "dial-notebook/conversation", "version": 1,
                          "transcript": []}, tmp_path / "s.json")
    text = path.read_text()
    assert text.startswith('{"format":"dial-notebook/session-lines","version":1}\n')
    assert text.endswith('"}\n') and '\n{"signature":"sha256:' in text
    snapshot, trusted = read_session_file(path)
    assert trusted and "signature" not in snapshot
    assert load_snapshot(path) == snapshot


@pytest.mark.parametrize("change", [
    lambda text: text.replace('"events":0', '"events":0 '),
    lambda text: text.replace('conversation","version":1',
                              'conversation","version":1,"context":{"x":1}'),
    lambda text: text[:text.index('{"signature"')],  # the signature taken off
    lambda text: text.replace('"signature":"sha256:', '"signature":"md5:'),
])
def test_a_file_changed_in_any_way_is_not_trusted(tmp_path, change):
    path = save_snapshot({"format": "dial-notebook/conversation", "version": 1,
                          "transcript": []}, tmp_path / "s.json")
    path.write_text(change(path.read_text()))
    snapshot, trusted = read_session_file(path)
    assert snapshot["format"] == "dial-notebook/conversation" and not trusted


def test_a_file_signed_with_someone_elses_secret_is_not_trusted(tmp_path, monkeypatch):
    monkeypatch.setenv("JUPYTER_DATA_DIR", str(tmp_path / "someone-else"))
    path = save_snapshot({"format": "dial-notebook/conversation", "version": 1,
                          "transcript": []}, tmp_path / "s.json")
    assert (tmp_path / "someone-else" / "notebook_secret").exists()  # theirs, not ours
    assert read_session_file(path)[1]
    monkeypatch.setenv("JUPYTER_DATA_DIR", str(tmp_path / "me"))
    assert not read_session_file(path)[1]


# ---- a file this user did not make opens read-only ----------------------------------------------

async def test_an_edited_file_opens_read_only_and_nothing_in_it_fires(tmp_path):
    path = tmp_path / "eda.json"
    await saved_with_a_card(path)
    hostile(path)
    before = path.read_bytes()
    agent, domain = Agent(), Counting()
    chat = ChatWidget(agent=agent, domain=domain, session=path)
    other = ChatWidget(agent=Agent(), domain=domain)  # an unrelated chat in the same kernel
    await asyncio.sleep(0.05)
    assert chat.untrusted == {"file": str(path), "rules": [R7]}
    assert chat.transcript[-1]["read_only"] is True
    assert f"Opened read-only from {path}" in chat._static_html()  # the static copy too
    assert [e["type"] for e in chat.transcript].count("suggestion") == 1  # shown, as it was
    assert chat.pending == {} and not chat.running  # no card to decide, no say taken up
    assert domain.runs == 0 and agent.messages == []
    assert list(chat.rules) == [] and list(NOTEBOOK_RULES) == [] and list(other.rules) == []
    with pytest.raises(UntrustedSessionError, match="a file you did not make"):
        chat.say("go on")
    with pytest.raises(UntrustedSessionError):
        chat.save(tmp_path / "laundered.json")  # a save would sign it
    click(chat, type="say", text="go on")
    click(chat, type="allow", token="d1", schema=True)
    assert agent.messages == [] and chat.transcript[-1]["type"] == "error"
    await asyncio.sleep(0.7)  # past the saver's settle time
    assert path.read_bytes() == before and not (tmp_path / "laundered.json").exists()


async def test_trust_this_file_signs_it_and_carries_on_with_cards_never_rules(tmp_path):
    path = tmp_path / "eda.json"
    await saved_with_a_card(path)
    hostile(path)
    agent, domain = Agent(), Counting()
    chat = ChatWidget(agent=agent, domain=domain, session=path)
    click(chat, type="trust")
    assert chat.untrusted == {} and read_session_file(path)[1]  # signed by this user now
    assert [rule.id for rule in chat.rules] == ["r7"]  # its rules active from now on
    await until(lambda: chat.pending.get("id") == "add")
    assert domain.runs == 0  # r7 accepts anything, but a recalled proposal is a card
    click(chat, type="decide", token=chat.pending["token"], decision="dismiss")
    await until(lambda: chat.pending.get("id") == "add2")
    assert domain.runs == 0
    click(chat, type="decide", token=chat.pending["token"], decision="dismiss")
    await until(lambda: not chat.running)
    assert domain.runs == 0 and agent.messages == []  # dismissals go with the next message


async def test_chat_trust_in_python_does_the_same(tmp_path):
    path = tmp_path / "eda.json"
    await saved_with_a_card(path)
    path.write_text(path.read_text().replace('"signature"', '"signature" '))  # unsigned now
    chat = ChatWidget.restore(path, agent=Agent(), domain=Counting())
    assert chat.untrusted["file"] == str(path)
    chat.trust()
    assert chat.untrusted == {} and read_session_file(path)[1]
    await until(lambda: chat.pending.get("id") == "add")


async def test_a_trusted_file_still_offers_its_recalled_proposals_as_cards(tmp_path):
    path = tmp_path / "eda.json"
    await saved_with_a_card(path)
    hostile(path)
    save_snapshot(load_snapshot(path), path)  # as if this user had saved it so
    domain = Counting()
    chat = ChatWidget(agent=Agent(), domain=domain, session=path)
    assert chat.untrusted == {} and [rule.id for rule in chat.rules] == ["r7"]
    await until(lambda: chat.pending.get("id") == "add")
    click(chat, type="decide", token=chat.pending["token"], decision="accept")
    await until(lambda: chat.pending.get("id") == "add2")  # after it too: a card
    assert domain.runs == 1
    click(chat, type="decide", token=chat.pending["token"], decision="dismiss")
    await until(lambda: not chat.running)
    assert domain.runs == 1


# ---- notebook rules from one chat's file, in another chat ---------------------------------------

async def test_notebook_rules_from_a_file_apply_elsewhere_only_once_confirmed(tmp_path):
    path = tmp_path / "eda.json"
    await saved_with_a_card(path)
    data = load_snapshot(path)
    data["surface"]["rules"] = [R7]
    save_snapshot(data, path)  # this user's own file, with a notebook rule
    mine = ChatWidget(agent=Agent(), domain=Counting(), session=path)
    assert mine.rules.match("add-note", {"text": "x"}) is not None
    domain = Counting()
    other = ChatWidget(agent=Agent(again=True), domain=domain)
    assert other.rules.match("add-note", {"text": "x"}) is None
    synced = ChatWidget.rules.metadata["to_json"](other.rules, other)
    assert synced == [{**R7, "state": "unconfirmed"}]
    task = other.say("add milk")
    await until(lambda: other.pending.get("id") == "add1")  # a card, not r7
    click(other, type="decide", token=other.pending["token"], decision="dismiss")
    await task
    assert domain.runs == 0
    click(other, type="confirm-rule", id="r7")
    assert ChatWidget.rules.metadata["to_json"](other.rules, other) == [R7]
    await other.say("add milk")
    assert domain.runs == 1
    assert [e.get("rule") for e in other.transcript if e["type"] == "outcome"][-1] == "r7"


def test_a_rule_confirmed_in_one_store_view_is_not_confirmed_in_another():
    shared = Rules()
    a, b, c = Rules(shared=shared), Rules(shared=shared), Rules(shared=shared)
    a.load([R7], origin="a.json")
    b.confirm("r7")
    assert [r.id for r in a.active()] == ["r7"] and [r.id for r in b.active()] == ["r7"]
    assert c.active() == [] and [r.id for r in c.unconfirmed()] == ["r7"]
    assert c.to_list() == [] and not c.accepts("r7", "add-note", {})
    made = a.add("add-note", True, scope="notebook")  # made in this kernel: everywhere
    assert [r.id for r in c.active()] == [made.id]


# ---- every field checked; nesting bounded ------------------------------------------------------

def snapshot_with(event: dict[str, Any]) -> dict[str, Any]:
    return {"format": "dial-notebook/conversation", "version": 1, "transcript": [event]}


@pytest.mark.parametrize(("event", "where"), [
    ({"type": "outcome", "id": "a", "action": "x", "status": "exploded", "preview": "p"},
     r"transcript\[0\]\.status is 'exploded'"),
    ({"type": "ask", "id": "q", "text": "?", "response_type": "telepathy", "options": []},
     r"transcript\[0\]\.response_type is 'telepathy'"),
    ({"type": "inform", "text": "hi", "act": "run-this"}, r"transcript\[0\]\.act"),
    ({"type": "suggestion", "id": "s", "action": "a", "text": "", "payload": None,
      "preview": "", "destructive": False, "mutates": True, "kind": "shell"},
     r"transcript\[0\]\.kind"),
    ({"type": "suggestion", "id": "s", "action": "a", "text": "", "payload": None,
      "preview": "", "destructive": "no", "mutates": True}, r"transcript\[0\]\.destructive"),
    ({"type": "phatic", "signal": "explode"}, r"transcript\[0\]\.signal"),
    ({"type": "sent", "turn": -1, "message": "m"}, r"transcript\[0\]\.turn"),
    ({"type": "ask", "id": "q", "text": "?", "response_type": "choice",
      "options": [{"value": "a", "label": "A", "default": "yes", "disabled": False}]},
     r"transcript\[0\]\.options\[0\]\.default"),
])
def test_every_enumerated_field_of_a_file_is_checked_and_named(tmp_path, event, where):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(snapshot_with(event)))
    with pytest.raises(SnapshotError, match=rf"bad\.json: {where}"):
        load_snapshot(path)


def test_a_saved_card_question_type_is_checked_too():
    data = snapshot_with({"type": "sent", "turn": 1, "message": "m"})
    data["say"] = {"turn": 1, "phase": "handling", "reply": {
        "serial": 1, "turn": 1, "text": "", "answers": [[{"id": "q", "text": "?",
                                                          "response_type": "mind"}, "x"]]}}
    with pytest.raises(SnapshotError, match=r"say\.reply\.answers\[0\]\[0\]\.response_type"):
        read_snapshot(data)


def test_an_invented_status_is_refused_by_export(tmp_path, capsys):
    from dial_notebook.cli import main

    path = tmp_path / "bad.json"
    path.write_text(json.dumps(snapshot_with(
        {"type": "outcome", "id": "a", "action": "x", "status": "exploded", "preview": "p"})))
    assert main(["export", str(path), "--html", str(tmp_path / "out.html")]) != 0
    err = capsys.readouterr().err
    assert "bad.json" in err and "transcript[0].status" in err and "exploded" in err
    assert not (tmp_path / "out.html").exists()


def test_a_deeply_nested_file_is_one_clear_error(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text('{"format":"dial-notebook/conversation","version":1,"context":{"x":'
                    + "[" * 100_000 + "]" * 100_000 + "}}")
    with pytest.raises(SnapshotError, match=r"deep\.json: is nested more than"):
        load_snapshot(path)
    nested: Any = []
    for _ in range(MAX_DEPTH + 5):
        nested = [nested]
    path.write_text(json.dumps({**snapshot_with({"type": "sent", "turn": 1, "message": "m"}),
                                "context": {"x": nested}}))
    with pytest.raises(SnapshotError, match=rf"deep\.json: context is nested more than "
                                            rf"{MAX_DEPTH} levels deep"):
        load_snapshot(path)


@pytest.mark.parametrize(("entry", "message"), [
    ({"type": "resumed", "session": "s", "saved_at": "", "waiting": "yes"},
     r"surface\.entries\[0\]\.waiting must be bool"),
    ({"type": "person", "text": 3}, r"surface\.entries\[0\]\.text must be str"),
    ({"type": "error"}, r"surface\.entries\[0\] \(error\) has no error"),
    ({"type": "stopped", "run": "this"}, r"unknown keys run"),
])
def test_the_widgets_own_entries_are_checked_field_by_field(entry, message):
    from dial_notebook.widget._session import widget_transcript

    with pytest.raises(SnapshotError, match=message):
        widget_transcript({"transcript": [], "surface": {"entries": [[0, entry]]}})


async def test_a_file_that_cannot_be_signed_stays_read_only_and_says_why(tmp_path,
                                                                         monkeypatch):
    import dial_notebook.widget._chat_widget as chat_widget

    path = tmp_path / "eda.json"
    await saved_with_a_card(path)
    hostile(path)
    domain = Counting()
    chat = ChatWidget(agent=Agent(), domain=domain, session=path)

    def read_only_disk(*_args: Any) -> None:
        raise PermissionError("read-only file system")

    monkeypatch.setattr(chat_widget, "save_snapshot", read_only_disk)
    click(chat, type="trust")
    assert "could not be signed: read-only file system" in chat.untrusted["error"]
    assert list(chat.rules) == [] and chat.pending == {} and domain.runs == 0


class Remembering(Agent):
    """An agent that keeps its own state (as the SDK agents keep their history)."""

    def __init__(self) -> None:
        super().__init__()
        self.restored: list[Any] = []

    def snapshot(self) -> dict[str, Any]:
        return {"history": list(self.messages)}

    def restore(self, state: Any) -> None:
        self.restored.append(state)


async def test_the_agents_state_and_what_it_is_owed_come_back_only_once_trusted(tmp_path):
    path = tmp_path / "eda.json"
    first = ChatWidget(agent=Remembering(), domain=Counting(), session=path)
    task = first.say("add milk")
    await until(lambda: first.pending.get("kind") == "decide")
    await asyncio.sleep(0.01)
    task.cancel()
    first._saver = None
    first.close()
    hostile(path)
    agent = Remembering()
    chat = ChatWidget(agent=agent, domain=Counting(), session=path)
    assert agent.restored == []  # the file's history is not the agent's yet
    assert chat._conversation.snapshot()["transcript"] == []  # nothing of it to send
    chat.trust()
    assert agent.restored == [{"history": [first.agent.messages[0]]}]
    assert len(chat._conversation.snapshot()["transcript"]) > 0


@pytest.mark.parametrize(("surface", "where"), [
    ({"rules": [{**R7, "scope": "everywhere"}]}, r"surface\.rules\[0\]\.scope is 'everywhere'"),
    ({"rules": [{**R7, "fired": -1}]}, r"surface\.rules\[0\]\.fired"),
    ({"rules": "all"}, r"surface\.rules must be a list"),
    ({"entries": [[0, {"text": "hi"}]]}, r"surface\.entries\[0\]\[1\]\.type"),
    ({"title": 7}, r"surface\.title must be a string"),
])
def test_the_surfaces_rules_and_entries_are_checked_when_read(tmp_path, surface, where):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({**snapshot_with({"type": "sent", "turn": 1, "message": "m"}),
                                "surface": surface}))
    with pytest.raises(SnapshotError, match=rf"bad\.json: {where}"):
        load_snapshot(path)


def test_a_file_does_not_choose_the_algorithm_it_is_checked_with():
    """Signed with this user's secret, but under another HMAC than the user's own (one a
    file could pick because it is weaker): not trusted."""
    import hmac

    from dial_notebook.runtime._trust import _notary_secret, signed, verify

    secret, algorithm = _notary_secret()
    body = '{"format":"x"}'
    assert verify(signed(body))
    other = "md5" if algorithm != "md5" else "sha1"
    digest = hmac.new(secret, body.encode(), other).hexdigest()
    assert not verify(f'{body[:-1]},"signature":"{other}:{digest}"}}')


def test_the_read_only_error_is_importable_from_the_package_top():
    import dial_notebook

    assert dial_notebook.UntrustedSessionError is UntrustedSessionError
    assert "UntrustedSessionError" in dial_notebook.__all__
