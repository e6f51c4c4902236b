"""ChatWidget's half of rules and feedback, without a kernel: a rule made on a card is checked
and previewed by the kernel, saved, and accepts that card; the rules trait and the session file
follow every change; the person's comments and reasons travel with their click."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from dial_notebook import NotesDomain, Rules
from dial_notebook.runtime import SnapshotError, load_snapshot
from dial_notebook.widget import ChatWidget, _session
from dial_notebook.widget._rules import NOTEBOOK_RULES

from .runtime_doubles import click, dial, inform, suggest, until

TEXT = {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"],
        "additionalProperties": False}


class Agent:
    def __init__(self, replies: list[str]) -> None:
        self.replies = list(replies)
        self.received: list[str] = []

    def send(self, message: str) -> str:
        self.received.append(message)
        return self.replies.pop(0) if self.replies else dial(inform("ok"))


def widget(replies: list[str], **options: Any) -> tuple[ChatWidget, list[dict[str, Any]]]:
    notes = NotesDomain()
    options.setdefault("rules", Rules(domain=notes))
    chat = ChatWidget(agent=Agent(replies), domain=notes, **options)
    sent: list[dict[str, Any]] = []
    chat.send = sent.append  # type: ignore[method-assign]
    return chat, sent


def answers(sent: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [m for m in sent if m.get("type") == kind]


async def card(chat: ChatWidget) -> str:
    await until(lambda: chat.pending.get("kind") == "decide")
    return str(chat.pending["token"])


@pytest.fixture(autouse=True)
def _no_notebook_rules_left():
    yield
    for rule in list(NOTEBOOK_RULES):
        NOTEBOOK_RULES.remove(rule.id)


async def test_a_rule_draft_says_what_it_would_have_accepted_for_that_schema_only():
    chat, sent = widget([dial(suggest("add-note", {"text": "milk"}, id="a")), dial(inform("ok")),
                         dial(suggest("add-note", {"text": "tea"}, id="b"))])
    chat.say("one")
    click(chat, type="decide", token=await card(chat), decision="accept")
    await until(lambda: not chat.running)
    chat.say("two")
    token = await card(chat)
    click(chat, type="rule-draft", token=token, schema=TEXT)
    click(chat, type="rule-draft", token=token, schema={"type": "strin"})
    click(chat, type="rule-draft", token="stale", schema=TEXT)
    assert answers(sent, "rule-draft") == [
        {"type": "rule-draft", "token": token, "schema": TEXT, "error": None,
         "matches": [{"id": "a", "preview": "Add the note 'milk'", "status": "done"}],
         "total": 1, "card": True},
        {"type": "rule-draft", "token": token, "schema": {"type": "strin"},
         "error": "invalid schema at type: 'strin' is not valid under any of the given schemas",
         "matches": [], "total": 0, "card": False}]
    click(chat, type="decide", token=token, decision="dismiss")
    await until(lambda: not chat.running)


async def test_allow_from_a_card_saves_the_rule_accepts_the_card_and_the_next_one_too():
    chat, sent = widget([dial(suggest("add-note", {"text": "milk"}, id="a")), dial(inform("ok")),
                         dial(suggest("add-note", {"text": "tea"}, id="b"))])
    chat.say("one")
    token = await card(chat)
    click(chat, type="allow", token=token, schema=TEXT, scope="conversation")
    await until(lambda: not chat.running)
    assert answers(sent, "allow") == [{"type": "allow", "token": token, "rule": "r1",
                                       "error": None, "card": True}]
    chat.say("two")  # no card this time: the rule accepts it
    await until(lambda: not chat.running and chat.domain.notes[-1]["text"] == "tea")
    outcomes = [e for e in chat.transcript if e["type"] == "outcome"]
    assert [(o["id"], o["status"], o.get("rule")) for o in outcomes] == [
        ("a", "done", "r1"), ("b", "done", "r1")]
    assert chat.get_state("rules")["rules"][0]["fired"] == 2
    assert [r.id for r in chat.rules] == ["r1"]


async def test_a_rule_that_does_not_accept_its_own_card_is_saved_and_the_card_still_waits():
    chat, _sent = widget([dial(suggest("add-note", {"text": "milk"}))])
    chat.say("one")
    token = await card(chat)
    click(chat, type="allow", token=token, schema={"properties": {"text": {"const": "tea"}}})
    await asyncio.sleep(0.05)
    assert chat.pending.get("token") == token and len(chat.rules) == 1
    click(chat, type="decide", token=token, decision="dismiss")
    await until(lambda: not chat.running)


@pytest.mark.parametrize("schema, message", [({"type": "strin"}, "invalid schema"),
                                             ("anything", "not text")])
async def test_a_rule_that_cannot_be_is_said_on_the_card_and_nothing_is_decided(schema,
                                                                                message):
    chat, sent = widget([dial(suggest("add-note", {"text": "milk"}))])
    chat.say("one")
    token = await card(chat)
    click(chat, type="allow", token=token, schema=schema, scope="notebook")
    [answer] = answers(sent, "allow")
    assert answer["rule"] is None and message in answer["error"]
    assert chat.pending.get("token") == token and len(chat.rules) == 0
    click(chat, type="decide", token=token, decision="dismiss")
    await until(lambda: not chat.running)


async def test_a_destructive_card_has_no_rule_even_when_the_front_end_asks_for_one():
    chat, sent = widget([dial(suggest("remove-note", {"id": 1}))])
    chat.domain.notes.append({"id": 1, "text": "x"})
    chat.say("remove")
    token = await card(chat)
    assert "allowable" not in next(e for e in chat.transcript if e["type"] == "suggestion")
    click(chat, type="allow", token=token, schema=True)
    click(chat, type="rule-draft", token=token, schema=True)
    assert "destructive" in answers(sent, "allow")[0]["error"]
    assert "destructive" in answers(sent, "rule-draft")[0]["error"]
    assert len(chat.rules) == 0 and chat.pending.get("token") == token
    click(chat, type="decide", token=token, decision="dismiss")
    await until(lambda: not chat.running)


async def test_revoke_from_the_panel_and_from_python():
    chat, _ = widget([])
    first = chat.allow("add-note", TEXT)
    second = chat.allow("add-note", True, scope="notebook")
    assert [r["id"] for r in chat.get_state("rules")["rules"]] == [first.id, second.id]
    click(chat, type="revoke", id=first.id)
    click(chat, type="revoke", id="r99")  # stale: nothing happens
    assert [r.id for r in chat.rules] == [second.id]
    chat.revoke(second.id)
    assert len(chat.rules) == 0 and len(NOTEBOOK_RULES) == 0
    with pytest.raises(ValueError, match="read-only"):
        chat.allow("list-notes", True)


async def test_notebook_rules_reach_every_chat_in_the_kernel():
    one, _ = widget([], rules=None)
    two, _ = widget([dial(suggest("add-note", {"text": "tea"}))], rules=None)
    rule = one.allow("add-note", TEXT, scope="notebook")
    assert rule.id in two.rules and two.get_state("rules")["rules"][0]["id"] == rule.id
    two.say("tea")
    await until(lambda: not two.running and two.domain.notes)
    assert [e.get("rule") for e in two.transcript if e["type"] == "outcome"] == [rule.id]


async def test_a_dismissal_reason_and_comments_from_the_card_reach_the_agent():
    chat, _ = widget([dial(suggest("add-note", {"text": "milk"}, id="a"))])
    agent = chat.agent
    chat.say("one")
    token = await card(chat)
    click(chat, type="decide", token=token, decision="dismiss", reason="We have milk.",
          comments=[{"field": "/text", "text": "Oat, please."}, {"field": "nope", "text": "x"},
                    "junk", {"field": "", "text": "  "}])
    await until(lambda: not chat.running)
    chat.say("next")
    await until(lambda: len(agent.received) == 2 and not chat.running)
    assert ('{"action":"add-note","status":"dismissed","reason":"We have milk.",'
            '"comments":[{"field":"/text","text":"Oat, please."}]}') in agent.received[1]


async def test_rules_are_kept_in_the_session_file_and_come_back_in_a_new_kernel(tmp_path,
                                                                               monkeypatch):
    monkeypatch.chdir(tmp_path)
    chat, _ = widget([], session="eda", rules=None)
    kept = chat.allow("add-note", TEXT)
    shared = chat.allow("add-note", {"required": ["text"]}, scope="notebook")
    chat.save()
    saved = load_snapshot(tmp_path / ".dial" / "eda.json")
    assert [r["id"] for r in saved["surface"]["rules"]] == [kept.id, shared.id]
    chat.close()
    monkeypatch.setattr(_session, "_LIVE", {})  # a new kernel: no widget, no rule in memory
    for rule in list(NOTEBOOK_RULES):
        NOTEBOOK_RULES.remove(rule.id)
    again, _ = widget([], session="eda", rules=None)
    assert [(r.id, r.scope) for r in again.rules] == [(kept.id, "conversation"),
                                                      (shared.id, "notebook")]
    assert shared.id in NOTEBOOK_RULES
    again.close()


async def test_a_session_file_with_a_broken_rule_is_refused_and_left_as_it_is(tmp_path,
                                                                              monkeypatch):
    monkeypatch.chdir(tmp_path)
    chat, _ = widget([], session="eda", rules=None)
    chat.allow("add-note", TEXT)
    chat.save()
    chat.close()
    monkeypatch.setattr(_session, "_LIVE", {})  # a new kernel
    path = tmp_path / ".dial" / "eda.json"
    data = load_snapshot(path)
    data["surface"]["rules"][0]["schema"] = {"type": 7}
    path.write_text(json.dumps(data))  # as one JSON object (the form saved before issue 29)
    before = path.read_text()
    with pytest.raises(SnapshotError, match=r"surface.rules: rule r\d+: invalid schema"):
        widget([], session="eda", rules=None)
    assert path.read_text() == before


def test_a_rule_drafts_matches_say_which_the_person_edited_before_they_ran():
    from dial_notebook.widget._rules import draft_answer

    transcript = [
        {"type": "suggestion", "id": "a", "action": "add-note", "payload": {"text": "x"}},
        {"type": "outcome", "id": "a", "action": "add-note", "status": "done", "edited": True},
        {"type": "suggestion", "id": "b", "action": "add-note", "payload": {"text": "y"}},
        {"type": "outcome", "id": "b", "action": "add-note", "status": "done"}]
    answer = draft_answer({"type": "object"}, "add-note", "c", {"text": "z"}, transcript,
                          check_action=lambda action: None)
    assert [(m["id"], m["status"], m.get("edited")) for m in answer["matches"]] == [
        ("a", "done", True), ("b", "done", None)]
