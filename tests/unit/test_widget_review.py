"""ChatWidget's half of review and undo, without a kernel: an edit on the pending card asks for
its dry run and gets it back for that card only; Undo from the front end takes a done change
back and the traits say what can still be undone; a stale Undo click does nothing."""

from __future__ import annotations

import asyncio
from typing import Any

from dial_notebook.widget import ChatWidget

from .runtime_doubles import click, dial, inform, suggest, until
from .test_runtime_review import Reviewed


class Agent:
    def __init__(self, replies: list[str]) -> None:
        self.replies = list(replies)

    def send(self, message: str) -> str:
        return self.replies.pop(0) if self.replies else dial(inform("ok"))


def widget(domain: Any, replies: list[str]) -> tuple[ChatWidget, list[dict[str, Any]]]:
    chat = ChatWidget(agent=Agent(replies), domain=domain)
    sent: list[dict[str, Any]] = []
    chat.send = sent.append  # type: ignore[method-assign]
    return chat, sent


async def test_an_edit_gets_its_dry_run_for_the_card_it_was_asked_for():
    chat, sent = widget(Reviewed(), [dial(suggest("add-note", {"text": "milk"}))])
    chat.say("add milk")
    await until(lambda: chat.pending.get("kind") == "decide")
    card = next(e for e in chat.transcript if e["type"] == "suggestion")
    assert card["dry_run"]["code"] == "notes.append('milk')"
    token = chat.pending["token"]
    click(chat, type="dry-run", token=token, payload={"text": "oat milk"})
    click(chat, type="dry-run", token="stale", payload={"text": "x"})
    await until(lambda: any(m.get("type") == "dry-run" for m in sent))
    answers = [m for m in sent if m.get("type") == "dry-run"]
    assert answers == [{"type": "dry-run", "token": token, "payload": {"text": "oat milk"},
                        "result": {"ok": True, "summary": "0 → 1 notes",
                                   "effect": {"rows": [0, 1]},
                                   "code": "notes.append('oat milk')"}}]
    click(chat, type="decide", token=token, decision="dismiss")
    await until(lambda: not chat.running)


async def test_undo_from_the_card_takes_the_change_back_and_the_traits_follow():
    domain = Reviewed()
    chat, _ = widget(domain, [dial(suggest("add-note", {"text": "milk"})), dial(inform("ok"))])
    chat.say("add milk")
    await until(lambda: chat.pending.get("kind") == "decide")
    click(chat, type="decide", token=chat.pending["token"], decision="accept")
    await until(lambda: not chat.running)
    assert chat.undoable == {"sg-1": True}
    click(chat, type="undo", id="sg-1")
    await until(lambda: chat.transcript[-1].get("status") == "undone")
    assert domain.notes == [] and chat.undoable == {}
    click(chat, type="undo", id="sg-1")  # a second click: nothing more happens
    await asyncio.sleep(0.05)
    assert [e.get("status") for e in chat.transcript if e["type"] == "outcome"] == [
        "done", "undone"]


async def test_an_undo_no_longer_exact_is_said_on_the_card_and_changes_nothing():
    domain = Reviewed()
    chat, _ = widget(domain, [dial(suggest("add-note", {"text": "milk"})), dial(inform("ok"))])
    chat.say("add milk")
    await until(lambda: chat.pending.get("kind") == "decide")
    click(chat, type="decide", token=chat.pending["token"], decision="accept")
    await until(lambda: not chat.running)
    domain.exact = False
    chat._refresh_review()
    assert chat.undoable == {"sg-1": "a later note depends on it"}
    await chat.undo("sg-1")
    assert chat.transcript[-1] == {"type": "undo-failed", "id": "sg-1",
                                   "error": "a later note depends on it"}
    assert domain.notes == ["milk"]
