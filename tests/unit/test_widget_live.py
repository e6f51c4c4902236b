"""ChatWidget's live traffic without a kernel: a fake comm records what the kernel would send.
A new event travels once (an append message; the transcript trait is not re-sent), the whole
trait still goes when a view asks for it; a streamed reply arrives as progress messages whose
prose grows by deltas and never holds markup; Stop cancels the say and says so; usage is shown
summed. The conversation is the real runtime with small agents defined here."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

from dial_notebook.domains.notes import NotesDomain
from dial_notebook.runtime import _streaming
from dial_notebook.widget import ChatWidget

from .runtime_doubles import Wire, click

REPLY = ('Sure, adding it.<dial version="0.1" actor="agent">'
         '<dial-inform>One note coming up.</dial-inform>'
         '<dial-suggest id="add" action="add-note">Add it?'
         '<dial-payload>{"text": "buy milk"}</dial-payload></dial-suggest></dial>')


class StreamingAgent:
    """Replies with ``reply`` in pieces of ``size`` characters, ``delay`` seconds apart; then
    (to the outcomes that follow) with ``then``."""

    def __init__(self, reply: str = REPLY, size: int = 7, delay: float = 0.0,
                 usage: dict[str, Any] | None = None, then: str = "Done.") -> None:
        self.reply, self.size, self.delay, self.then = reply, size, delay, then
        self.closed = 0
        if usage is not None:
            self.usage = usage

    def send(self, message: str) -> str:
        raise AssertionError("a streaming agent is streamed")

    async def stream_reply(self, message: str) -> AsyncIterator[str]:
        reply = self.then if message.lstrip().startswith("<dial>") else self.reply
        try:
            for start in range(0, len(reply), self.size):
                await asyncio.sleep(self.delay)
                yield reply[start:start + self.size]
        finally:
            self.closed += 1


def wired(agent: Any, **options: Any) -> tuple[ChatWidget, Wire]:
    chat = ChatWidget(agent=agent, domain=NotesDomain([]), timeout=5, **options)
    wire = Wire()
    chat.comm = wire
    return chat, wire


async def until(check: Any, seconds: float = 5.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while not check():
        assert loop.time() < end, "timed out"
        await asyncio.sleep(0.002)


async def test_each_new_event_travels_once_in_an_append_and_the_trait_is_not_resent():
    chat, wire = wired(StreamingAgent())
    click(chat, type="sync", length=0)  # a view is there (with none, see test_widget_transcript)
    task = chat.say("add milk")
    await until(lambda: chat.pending.get("kind") == "decide")
    click(chat, type="decide", token=chat.pending["token"], decision="accept")
    await task
    assert wire.updates("transcript") == []
    appends = wire.custom("append")
    rebuilt: list[dict[str, Any]] = []
    for message in appends:
        assert message["start"] == len(rebuilt)  # in order, nothing missing, nothing twice
        rebuilt += message["events"]
    assert rebuilt == chat.transcript
    assert [e["type"] for e in rebuilt][-3:] == ["sent", "reply", "inform"]  # "Done."
    assert any(e["type"] == "outcome" and e["status"] == "done" for e in rebuilt)


async def test_a_view_that_missed_events_gets_the_whole_trait_once_it_asks():
    chat, wire = wired(StreamingAgent(reply="Hello."))
    click(chat, type="sync", length=0)  # a view is there
    await chat.say("hi")
    click(chat, type="sync", length=len(chat.transcript))
    assert wire.updates("transcript") == []  # it holds them all: nothing to send
    click(chat, type="sync", length=1)
    assert wire.updates("transcript") == [chat.transcript]
    # a full state (a reloaded page asks for it) leaves the conversation out: the page's
    # model asks for it ('sync'), so that saved widget state never holds a copy of it
    assert "transcript" not in chat.get_state()


async def test_a_transcript_set_from_code_is_sent_whole_to_a_front_end_that_asked():
    chat, wire = wired(StreamingAgent())
    chat.transcript = [{"type": "person", "text": "before any view"}]
    assert wire.updates("transcript") == []  # no front end: it asks when it loads
    click(chat, type="sync", length=0)
    chat.transcript = [{"type": "person", "text": "restored"}]
    assert wire.updates("transcript") == [[{"type": "person", "text": "before any view"}],
                                          [{"type": "person", "text": "restored"}]]


@pytest.fixture
def every_piece(monkeypatch: pytest.MonkeyPatch) -> None:
    """Progress for every piece that changes what can be read (no pacing)."""
    monkeypatch.setattr(_streaming, "PROGRESS_SECONDS", 0.0)


async def test_a_streamed_reply_arrives_as_readable_progress_without_markup(every_piece):
    chat, wire = wired(StreamingAgent(size=5))
    task = chat.say("add milk")
    await until(lambda: chat.pending.get("kind") == "decide")
    progress = wire.custom("progress")
    assert len(progress) > 5
    prose = ""
    for message in progress:
        assert "<" not in json.dumps(message)
        if "prose" in message:
            prose = message["prose"]
        elif "at" in message:  # else only what the agent is writing changed
            assert message["at"] <= len(prose)
            prose = prose[:message["at"]] + message["text"]
    assert prose == "Sure, adding it.\n\nOne note coming up."
    assert "proposing: add-note" in {m["writing"] for m in progress}
    # the progress is not in the transcript; the reply is, whole
    assert all(e["type"] != "progress" for e in chat.transcript)
    assert [e["text"] for e in chat.transcript if e["type"] == "reply"] == [REPLY]
    click(chat, type="decide", token=chat.pending["token"], decision="dismiss")
    await task
    # the reply event comes before thinking goes off: the bubble is swapped for it at once
    kinds = [("thinking", m["state"]["thinking"]) if m.get("method") == "update"
             and "thinking" in m["state"] else m.get("content", {}).get("type")
             for m in wire.sent]
    reply_at = next(i for i, m in enumerate(wire.sent) if m.get("method") == "custom"
                    and any(e["type"] == "reply" for e in m["content"].get("events", [])))
    assert kinds.index(("thinking", False)) > reply_at


async def test_progress_sends_only_what_was_added_so_a_long_reply_costs_its_length(
        every_piece):
    long = "word " * 2000
    chat, wire = wired(StreamingAgent(reply=long, size=10))
    await chat.say("talk")
    sent = sum(len(json.dumps(m)) for m in wire.custom("progress"))
    assert sent < 20 * len(long)  # deltas: full prose each time would be ~1000x


async def test_stop_cancels_the_say_closes_the_stream_and_says_stopped():
    agent = StreamingAgent(reply="Thinking hard. " * 200, size=3, delay=0.01)
    chat, wire = wired(agent)
    task = chat.say("go on")
    await until(lambda: len(wire.custom("progress")) >= 8)  # 24 characters
    click(chat, type="stop")
    await asyncio.gather(task, return_exceptions=True)
    assert task.cancelled()
    assert agent.closed == 1
    stopped = chat.transcript[-1]
    assert stopped["type"] == "stopped"
    # what the person had read stays, readable; the agent never hears it (no reply event)
    assert stopped["partial"].startswith("Thinking hard.") and "<" not in stopped["partial"]
    assert all(e["type"] != "reply" for e in chat.transcript)
    assert chat.running is False and chat.thinking is False
    assert chat.stop() is False  # nothing runs now
    # the conversation goes on
    agent.reply, agent.delay = "Fine.", 0.0
    await chat.say("short then")
    assert chat.transcript[-1]["text"] == "Fine."


async def test_stop_while_a_card_waits_supersedes_it_and_the_agent_hears_it_next():
    chat, _wire = wired(StreamingAgent())
    task = chat.say("add milk")
    await until(lambda: chat.pending.get("kind") == "decide")
    assert chat.stop() is True
    await asyncio.gather(task, return_exceptions=True)
    assert chat.pending == {}
    outcomes = [e for e in chat.transcript if e["type"] == "outcome"]
    assert [o["status"] for o in outcomes] == ["superseded"]
    await chat.say("")
    sent = [e["message"] for e in chat.transcript if e["type"] == "sent"]
    assert "add:superseded" in sent[-1]


async def test_usage_the_agent_reports_is_summed_in_a_trait():
    usage = {"turns": [{"input": 10, "output": 5, "total": 15}], "input": 10, "output": 5,
             "total": 15}
    chat, _wire = wired(StreamingAgent(reply="Hi.", usage=usage))
    await chat.say("hi")
    assert chat.usage == {"turns": 1, "input": 10, "output": 5, "total": 15}


async def test_no_usage_reported_leaves_the_footer_empty():
    chat, _wire = wired(StreamingAgent(reply="Hi."))
    await chat.say("hi")
    assert chat.usage == {}


async def test_in_reference_mode_the_widget_still_gets_progress_through_on_signal(every_piece):
    chat, wire = wired(StreamingAgent(size=5), full_dial=False)
    task = chat.say("add milk")
    await until(lambda: chat.pending.get("kind") == "decide")
    assert len(wire.custom("progress")) > 5  # the streamed reply is shown as it comes
    assert chat._conversation.full_dial is False
    click(chat, type="decide", token=chat.pending["token"], decision="dismiss")
    await task
