"""ChatWidget as the provider of ``ask_user`` without a kernel: the widget is built directly and
the panel's messages are delivered with ``_handle_custom_msg``, as ipywidgets does when a comm
message arrives. Displaying is ``_repr_mimebundle_``, what IPython calls to show the widget.
The panel's pure logic (answer rules, markdown-lite) runs under node from
js/test/questions.test.mjs.
"""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest

from dial_notebook.interaction import (
    Answer,
    AnswerItem,
    ScriptedProvider,
    UserInteractionError,
    active_provider,
    ask_user,
    register_provider,
)
from dial_notebook.widget import ChatWidget

from .test_widget_chat import ScriptedConversation

JS_TESTS = Path(__file__).resolve().parents[2] / "js" / "test" / "questions.test.mjs"

LANG = {"id": "lang", "header": "Language", "question": "Which language?",
        "detail": "The report is **shared**.", "options": [
            {"label": "Python", "description": "Most of the team knows it"}, "R"]}
FORMATS = {"id": "fmt", "question": "Which formats?", "options": ["HTML", "PDF", "Markdown"],
           "multiSelect": True}
WHO = {"id": "who", "question": "Who receives it?"}
PLAN = {"id": "plan", "question": "Go ahead?", "detail": "1. Clean\n2. Save",
        "options": ["Approve", "Revise"], "intent": {"kind": "plan-review", "approve": "Approve"}}


@pytest.fixture(autouse=True)
def no_provider_left_behind():
    assert active_provider() is None
    yield
    assert active_provider() is None, "a test left a provider registered"


@pytest.fixture
def chats():
    made: list[ChatWidget] = []

    def make(display: bool = True) -> ChatWidget:
        chat = ChatWidget(agent=[], domain=None, conversation_factory=ScriptedConversation)
        made.append(chat)
        if display:
            chat._repr_mimebundle_()
        return chat

    yield make
    for chat in made:
        chat.close()


def reply(chat: ChatWidget, token: str | None = None, **content: Any) -> None:
    token = chat.questions.get("token") if token is None else token
    chat._handle_custom_msg({"type": "questions", "token": token, **content}, [])


async def shown(chat: ChatWidget) -> dict[str, Any]:
    for _ in range(50):
        if chat.questions:
            return chat.questions
        await asyncio.sleep(0)
    raise AssertionError("the questions were never shown")


async def test_a_displayed_chat_is_the_provider_until_it_is_closed(chats):
    chat = chats(display=False)
    assert active_provider() is None and not chat.is_provider
    chat._repr_mimebundle_()
    assert active_provider() is chat and chat.is_provider and chat.provider_note == ""
    chat.close()
    assert active_provider() is None
    assert chat.provide() is False  # a closed chat never takes questions again
    assert active_provider() is None


async def test_all_questions_of_a_request_show_in_one_synced_panel(chats):
    chat = chats()
    task = asyncio.ensure_future(ask_user([LANG, FORMATS, WHO]))
    panel = await shown(chat)
    assert panel["token"].startswith("q")
    assert [q["id"] for q in panel["questions"]] == ["lang", "fmt", "who"]
    first = panel["questions"][0]
    assert first["header"] == "Language" and first["detail"] == "The report is **shared**."
    assert first["options"] == [{"label": "Python", "description": "Most of the team knows it"},
                                {"label": "R", "description": None}]
    assert panel["questions"][1]["multi_select"] is True
    assert "questions" in chat.keys  # synced: a re-rendered or reloaded view shows it
    reply(chat, answers=[])
    await task


async def test_the_panels_message_is_the_exact_answer_the_caller_gets(chats):
    chat = chats()
    task = asyncio.ensure_future(ask_user([LANG, FORMATS, WHO]))
    await shown(chat)
    reply(chat, answers=[{"id": "lang", "selected": [], "custom": "Rust"},
                         {"id": "fmt", "selected": ["HTML", "PDF"]},
                         {"id": "who", "selected": []}])
    answer = await task
    assert answer == Answer((AnswerItem("lang", (), "Rust"), AnswerItem("fmt", ("HTML", "PDF")),
                             AnswerItem("who")))
    assert answer["who"].skipped
    assert chat.questions == {}
    assert chat.transcript[-1]["type"] == "person"
    assert chat.transcript[-1]["text"] == ("Which language? Rust\nWhich formats? HTML, PDF\n"
                                           "Who receives it? (skipped)")


async def test_a_plan_review_is_answered_with_the_approve_label(chats):
    chat = chats()
    task = asyncio.ensure_future(ask_user([PLAN]))
    panel = await shown(chat)
    assert panel["questions"][0]["intent"] == {"kind": "plan-review", "approve": "Approve"}
    reply(chat, answers=[{"id": "plan", "selected": ["Approve"]}])
    assert await task == Answer((AnswerItem("plan", ("Approve",)),))


async def test_a_stale_or_repeated_message_is_ignored(chats):
    chat = chats()
    first = asyncio.ensure_future(ask_user([WHO]))
    token = (await shown(chat))["token"]
    reply(chat, token="q999", answers=[{"id": "who", "custom": "nobody"}])
    await asyncio.sleep(0)
    assert not first.done() and chat.questions["token"] == token
    reply(chat, answers=[{"id": "who", "custom": "Sam"}])
    reply(chat, token=token, answers=[{"id": "who", "custom": "Alex"}])
    assert (await first)["who"].custom == "Sam"
    second = asyncio.ensure_future(ask_user([WHO]))
    await shown(chat)
    reply(chat, token=token, answers=[{"id": "who", "custom": "late"}])  # the old token
    await asyncio.sleep(0)
    assert not second.done()
    reply(chat, answers=[{"id": "who", "custom": "Kim"}])
    assert (await second)["who"].custom == "Kim"


async def test_answers_that_do_not_fit_the_questions_leave_the_panel_standing(chats):
    chat = chats()
    task = asyncio.ensure_future(ask_user([LANG]))
    await shown(chat)
    reply(chat, answers=[{"id": "lang", "selected": ["Cobol"]}])
    reply(chat, answers=[{"id": "nope", "selected": []}])
    reply(chat, answers="not a list")
    await asyncio.sleep(0)
    assert not task.done() and chat.questions
    reply(chat, answers=[{"id": "lang", "selected": ["R"]}])
    assert (await task)["lang"].selected == ("R",)


async def test_setting_the_signal_removes_the_panel_and_the_caller_gets_ask_aborted(chats):
    chat = chats()
    signal = asyncio.Event()
    task = asyncio.ensure_future(ask_user([LANG], signal=signal))
    token = (await shown(chat))["token"]
    signal.set()
    with pytest.raises(UserInteractionError) as info:
        await task
    assert info.value.code == "ASK_ABORTED"
    assert chat.questions == {}
    assert chat._asked.waiting() == []
    reply(chat, token=token, answers=[{"id": "lang", "selected": ["R"]}])  # too late: ignored
    assert chat.transcript == []


async def test_cancelling_the_asking_task_removes_the_panel(chats):
    chat = chats()
    task = asyncio.ensure_future(ask_user([LANG]))
    await shown(chat)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert chat.questions == {}


async def test_closing_the_chat_while_questions_wait_cancels_them(chats):
    chat = chats()
    task = asyncio.ensure_future(ask_user([LANG]))
    await shown(chat)
    chat.close()
    with pytest.raises(UserInteractionError) as info:
        await task
    assert info.value.code == "CANCELLED"
    assert active_provider() is None


async def test_a_second_request_waits_until_the_first_is_answered(chats):
    chat = chats()
    first = asyncio.ensure_future(ask_user([LANG]))
    second = asyncio.ensure_future(ask_user([WHO]))
    panel = await shown(chat)
    assert [q["id"] for q in panel["questions"]] == ["lang"]
    reply(chat, answers=[{"id": "lang", "selected": ["Python"]}])
    await first
    for _ in range(10):
        await asyncio.sleep(0)
    assert [q["id"] for q in chat.questions["questions"]] == ["who"]
    reply(chat, answers=[{"id": "who", "custom": "Sam"}])
    assert (await second)["who"].custom == "Sam"


async def test_a_message_from_another_thread_wakes_the_loop(chats):
    chat = chats()
    task = asyncio.ensure_future(ask_user([LANG]))
    await shown(chat)
    thread = threading.Thread(target=reply, args=(chat,),
                              kwargs={"answers": [{"id": "lang", "selected": ["R"]}]})
    thread.start()
    thread.join()
    answer = await asyncio.wait_for(task, timeout=5)
    assert answer["lang"].selected == ("R",)


async def test_with_another_provider_active_the_chat_says_so_and_does_not_take_over(chats):
    scripted = ScriptedProvider([{"who": {"custom": "script"}}])
    handle = register_provider(scripted)
    try:
        chat = chats()  # displayed: must not raise
        assert not chat.is_provider and active_provider() is scripted
        assert "ScriptedProvider" in chat.provider_note
        assert (await ask_user([WHO]))["who"].custom == "script"
        assert chat.questions == {}
    finally:
        handle.dispose()
    assert chat.provide() is True
    assert active_provider() is chat and chat.provider_note == ""


async def test_a_newer_chat_takes_over_and_the_older_one_says_so(chats):
    older = chats()
    waiting = asyncio.ensure_future(ask_user([WHO]))
    await shown(older)
    newer = chats()
    assert active_provider() is newer and not older.is_provider
    assert "newer chat" in older.provider_note
    reply(older, answers=[{"id": "who", "custom": "still answerable"}])
    assert (await waiting)["who"].custom == "still answerable"
    task = asyncio.ensure_future(ask_user([LANG]))
    await shown(newer)
    assert older.questions == {}
    reply(newer, answers=[{"id": "lang", "selected": ["R"]}])
    await task
