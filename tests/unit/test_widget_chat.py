"""ChatWidget without a kernel: the widget is built directly (as anywidget's own tests do) and
the front end's messages are delivered with ``_handle_custom_msg``, exactly as ipywidgets does
when a comm message arrives. The conversation is a small scripted double defined here."""

from __future__ import annotations

import asyncio
import re
import threading
from typing import Any

import pytest

from dial_notebook.widget import ChatWidget

from .runtime_doubles import click


class ScriptedConversation:
    """Each say() plays the next scripted turn: events are emitted, suggestions and asks are put
    to the human, and an outcome follows each decision (an edit is checked by ``check``)."""

    def __init__(self, *, agent: Any, domain: Any, human: Any, on_event: Any,
                 timeout: float, max_turns: int) -> None:
        self.turns = list(agent)
        self.domain = domain
        self.human = human
        self.emit = on_event
        self.said: list[str] = []
        self.answers: list[Any] = []
        self.decisions: list[dict[str, Any]] = []

    async def say(self, text: str) -> dict[str, Any]:
        self.said.append(text)
        self.emit({"type": "sent", "turn": len(self.said), "message": text})
        await asyncio.sleep(0)
        self.emit({"type": "reply", "turn": len(self.said), "text": "<dial/>"})
        for step in self.turns.pop(0) if self.turns else []:
            if step["type"] == "ask":
                self.emit(step)
                self.answers.append(await self.human.answer(step))
            elif step["type"] == "suggestion":
                self.emit(step)
                await self._decide(dict(step))
            else:
                self.emit(step)
        return {"status": "idle"}

    async def _decide(self, suggestion: dict[str, Any]) -> None:
        while True:
            decision = await self.human.decide(suggestion)
            self.decisions.append(decision)
            status = {"accept": "done", "dismiss": "dismissed", "say": "superseded"}
            if "edit" in decision:
                refusal = self.domain(decision["edit"])
                if refusal:
                    suggestion = {**suggestion, "payload": decision["edit"], "issue": refusal}
                    continue
                kind = "done"
            else:
                kind = status[next(iter(decision))]
            self.emit({"type": "outcome", "id": suggestion["id"], "action": suggestion["action"],
                       "status": kind, "preview": suggestion["preview"]})
            return


def no_empty_text(payload: Any) -> dict[str, Any] | None:
    if payload.get("text"):
        return None
    return {"ok": False, "code": "invalid-payload", "field": "text", "hint": "text is empty",
            "errors": [{"field": "text", "message": "text must not be empty"}]}


NOTE = {"type": "suggestion", "id": "sg-1", "action": "add-note", "text": "Shall I add it?",
        "payload": {"text": "buy milk"}, "preview": "Add the note 'buy milk'",
        "destructive": False, "mutates": True}
ASK = {"type": "ask", "text": "Which list?", "response_type": "choice",
       "options": [{"value": "home", "label": "Home", "default": True},
                   {"value": "work", "label": "Work", "disabled": True}]}


def make_chat(*turns: list[dict[str, Any]], domain: Any = no_empty_text) -> ChatWidget:
    return ChatWidget(agent=list(turns), domain=domain, conversation_factory=ScriptedConversation)


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_say_shows_the_words_then_the_agents_inform():
    chat = make_chat([{"type": "inform", "text": "Hello!", "act": "inform"}])
    result = await chat.say("hi")
    assert result == {"status": "idle"}
    kinds = [event["type"] for event in chat.transcript]
    assert kinds == ["person", "sent", "reply", "inform"]
    assert chat.transcript[0]["text"] == "hi"
    assert chat.thinking is False and chat.running is False


async def test_thinking_is_on_between_sent_and_reply():
    chat = make_chat([])
    seen: list[bool] = []
    chat.observe(lambda change: seen.append(change["new"]), names="thinking")
    await chat.say("hi")
    assert seen == [True, False]


async def test_a_suggestion_waits_as_pending_until_the_accept_click():
    chat = make_chat([NOTE])
    task = chat.say("add a note")
    await settle()
    assert chat.pending["kind"] == "decide" and chat.pending["id"] == "sg-1"
    click(chat, type="decide", token=chat.pending["token"], decision="accept")
    await task
    assert chat.transcript[-1]["status"] == "done"
    assert chat.pending == {}
    assert chat._conversation.decisions == [{"accept": True}]


async def test_a_stale_or_repeated_click_is_ignored():
    chat = make_chat([NOTE], [NOTE])
    task = chat.say("add a note")
    await settle()
    token = chat.pending["token"]
    click(chat, type="decide", token=token, decision="dismiss")
    click(chat, type="decide", token=token, decision="accept")
    await task
    task = chat.say("again")
    await settle()
    click(chat, type="decide", token=token, decision="accept")  # the old card's token
    await settle()
    assert chat.pending["kind"] == "decide"
    click(chat, type="decide", token=chat.pending["token"], decision="dismiss")
    await task
    assert chat._conversation.decisions == [{"dismiss": True}, {"dismiss": True}]


async def test_a_refused_edit_comes_back_with_its_issue_and_field_errors():
    chat = make_chat([NOTE])
    task = chat.say("add a note")
    await settle()
    click(chat, type="decide", token=chat.pending["token"], decision="edit", payload={"text": ""})
    await settle()
    assert chat.pending["issue"]["text"] == "text is empty"
    assert chat.pending["errors"] == [{"field": "text", "message": "text must not be empty"}]
    assert chat.pending["payload"] == {"text": ""}
    click(chat, type="decide", token=chat.pending["token"], decision="edit",
          payload={"text": "oat milk"})
    await task
    assert chat._conversation.decisions[-1] == {"edit": {"text": "oat milk"}}
    assert chat.transcript[-1]["status"] == "done"


async def test_typing_while_a_suggestion_waits_is_the_say_decision():
    chat = make_chat([NOTE])
    task = chat.say("add a note")
    await settle()
    same = chat.say("actually, list my notes")
    assert same is task
    await task
    assert chat._conversation.decisions == [{"say": "actually, list my notes"}]
    assert chat.transcript[-1]["status"] == "superseded"
    assert {"type": "person", "text": "actually, list my notes"} in chat.transcript


async def test_the_message_box_says_when_nothing_waits():
    chat = make_chat([{"type": "inform", "text": "ok"}])
    click(chat, type="say", text="hello")
    await settle()
    await asyncio.gather(*chat._tasks)
    assert chat._conversation.said == ["hello"]


async def test_choosing_an_option_answers_with_its_value():
    chat = make_chat([ASK])
    task = chat.say("add a note")
    await settle()
    assert chat.pending["options"][0] == {"value": "home", "label": "Home", "default": True,
                                          "disabled": False}
    click(chat, type="answer", token=chat.pending["token"], value="home")
    await task
    assert chat._conversation.answers == ["home"]
    assert chat.transcript[-1] == {"type": "person", "text": "home", "answer_to": 3}


async def test_an_empty_answer_leaves_the_question_standing():
    chat = make_chat([ASK])
    task = chat.say("add a note")
    await settle()
    token = chat.pending["token"]
    click(chat, type="answer", token=token, value="   ")
    await settle()
    assert chat.pending["token"] == token and not task.done()
    chat.say("home, please")
    await task
    assert chat._conversation.answers == ["home, please"]


async def test_an_uploaded_file_answers_with_name_and_size_and_keeps_the_content():
    chat = make_chat([{**ASK, "response_type": "file", "options": []}])
    task = chat.say("look at my data")
    await settle()
    chat._handle_custom_msg({"type": "answer", "token": chat.pending["token"],
                             "file": {"name": "data.csv", "size": 6}}, [memoryview(b"a,b\n1,")])
    await task
    assert chat._conversation.answers == ["data.csv (6 bytes)"]
    assert chat.files == {"data.csv": b"a,b\n1,"}


async def test_a_click_from_another_thread_wakes_the_loop():
    chat = make_chat([NOTE])
    task = chat.say("add a note")
    await settle()
    token = chat.pending["token"]
    thread = threading.Thread(target=click, args=(chat,),
                              kwargs={"type": "decide", "token": token, "decision": "accept"})
    thread.start()
    thread.join()
    await asyncio.wait_for(task, 2)
    assert chat._conversation.decisions == [{"accept": True}]


async def test_closing_while_a_decision_waits_ends_it_superseded():
    chat = make_chat([NOTE])
    task = chat.say("add a note")
    await settle()
    chat.close()
    await asyncio.wait_for(task, 2)
    assert chat._conversation.decisions == [{"say": ""}]
    assert chat.transcript[-1]["status"] == "superseded"


async def test_a_failing_conversation_shows_the_error_and_the_task_raises():
    class Broken(ScriptedConversation):
        async def say(self, text: str) -> dict[str, Any]:
            raise ConnectionError("agent unreachable")

    chat = ChatWidget(agent=[], domain=None, conversation_factory=Broken)
    with pytest.raises(ConnectionError):
        await chat.say("hi")
    assert chat.transcript[-1] == {"type": "error",
                                   "error": "ConnectionError: agent unreachable"}
    assert chat.running is False


async def test_events_in_traits_are_json_safe():
    chat = make_chat([{"type": "inform", "text": "stats", "render": "table",
                       "payload": [{"mean": float("nan"), "max": float("inf")}]}])
    await chat.say("stats")
    assert chat.transcript[-1]["payload"] == [{"mean": None, "max": None}]


async def test_the_actions_schema_is_synced_for_the_edit_form():
    class Domain:
        def __call__(self, payload: Any) -> None:
            return None

        def schema(self, action: str) -> dict[str, Any]:
            return {"type": "object", "properties": {"text": {"type": "string"}}}

    chat = make_chat([NOTE], domain=Domain())
    task = chat.say("add")
    await settle()
    assert chat.schemas == {"add-note": {"type": "object",
                                         "properties": {"text": {"type": "string"}}}}
    click(chat, type="decide", token=chat.pending["token"], decision="accept")
    await task


def test_say_outside_an_event_loop_says_what_is_needed():
    chat = make_chat([])
    with pytest.raises(RuntimeError, match="running event loop"):
        chat.say("hi")


def test_the_front_end_module_and_styles_are_loaded():
    chat = make_chat([])
    # the bundle's default export, as esbuild writes it: `export { widget_default as default };`
    assert re.search(r"\bexport\s*\{[^}]*\bas default\b", str(chat._esm))
    assert ".dial-chat" in str(chat._css)


async def test_words_written_while_the_agent_answers_wait_and_follow_its_reply():
    """The conversation reads in the order things happened: the reply to the first message,
    then what the person wrote while it was coming."""
    release = asyncio.Event()

    class Slow(ScriptedConversation):
        async def say(self, text):
            self.emit({"type": "sent", "turn": 1, "message": text})
            if text == "first":
                await release.wait()
            self.emit({"type": "inform", "text": f"reply to {text}", "act": "inform"})
            return {"status": "idle"}

    chat = ChatWidget(agent=[], domain=no_empty_text, conversation_factory=Slow)
    first = chat.say("first")
    await settle()
    second = chat.say("second")
    await settle()
    assert chat.queued == ["second"]
    assert [e.get("text") for e in chat.transcript if e["type"] == "person"] == ["first"]
    release.set()
    await first
    await second
    assert chat.queued == []
    shown = [(e["type"], e.get("text")) for e in chat.transcript if e["type"] != "sent"]
    assert shown == [("person", "first"), ("inform", "reply to first"),
                     ("person", "second"), ("inform", "reply to second")]


async def test_a_ping_from_the_front_end_is_answered_with_its_id():
    chat = make_chat()
    sent: list[dict[str, Any]] = []
    chat.send = sent.append  # type: ignore[method-assign]
    click(chat, type="ping", id="dial-ping-1")
    assert sent == [{"type": "pong", "id": "dial-ping-1"}]


async def test_after_a_refused_edit_the_card_knows_how_many_tries_are_left():
    chat = make_chat([NOTE])
    task = chat.say("add")
    await settle()
    click(chat, type="decide", token=chat.pending["token"], decision="edit", payload={"text": ""})
    await settle()
    assert chat.pending["issue"]["text"] == "text is empty"
    assert "edits_left" in chat.pending  # None from this double; the runtime gives a number
    click(chat, type="decide", token=chat.pending["token"], decision="accept")
    await task


async def test_a_confirm_is_put_as_yes_or_no_and_only_yes_or_no_answers_it():
    confirm = {"type": "ask", "text": "Clear it?", "response_type": "confirm",
               "options": [{"value": "1", "label": "No, leave everything as is"}]}
    chat = make_chat([confirm])
    task = chat.say("clear")
    await settle()
    assert chat.pending["options"] == []  # the agent's labels are never drawn
    click(chat, type="answer", token=chat.pending["token"], value="1")
    await settle()
    assert chat.pending.get("kind") == "answer"  # a value the buttons never send: ignored
    click(chat, type="answer", token=chat.pending["token"], value="no")
    await task
    assert chat._conversation.answers == ["no"]
