"""A streamed reply: the runtime reads it piece by piece, tells the surface what a person can
read so far (never markup, never kept in the transcript), and then handles the whole reply
exactly as if it had come at once. A stop in the middle closes the stream and keeps every
promise of the runtime."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from dial_notebook.runtime import Conversation, _streaming, policy_human, scripted_human

from .runtime_doubles import NotesDomain, ScriptedAgent, dial, inform, suggest, until

REPLIES = [
    "Let me see." + dial(inform("Adding &amp; checking."), suggest("add-note", {"text": "milk"},
                                                                   via="payload"),
                         suggest("list-notes", {}, via="payload")),
    dial(inform("Done, two things.")),
]


class Streaming:
    """Replies in pieces of ``size`` characters, a pause between them; records the messages
    and whether a stream was closed before its end."""

    streams = True

    def __init__(self, replies: list[str], size: int = 7, pause: float = 0.0) -> None:
        self.replies = list(replies)
        self.received: list[str] = []
        self.size, self.pause = size, pause
        self.closed_early = 0
        self.started = asyncio.Event()

    def send(self, message: str) -> str:  # what a non-streaming surface would call
        raise AssertionError("a streaming agent is read through stream_reply")

    async def stream_reply(self, message: str) -> AsyncIterator[str]:
        self.received.append(message)
        reply = self.replies.pop(0)
        sent = 0
        try:
            for start in range(0, len(reply), self.size):
                if self.pause:
                    await asyncio.sleep(self.pause)
                self.started.set()
                yield reply[start:start + self.size]
                sent = start + self.size
        finally:
            if sent < len(reply):
                self.closed_early += 1


def play(agent, human=None):
    events: list[dict] = []
    conversation = Conversation(agent=agent, domain=NotesDomain(context=False),
                                human=human or policy_human("accept"), on_event=events.append)
    return conversation, events


async def test_a_streamed_reply_gives_the_same_transcript_and_wire_text_as_one_at_once():
    streamed, seen = play(Streaming(REPLIES))
    whole, _ = play(ScriptedAgent(list(REPLIES)))
    first = await streamed.say("add milk")
    second = await whole.say("add milk")
    assert first == second
    assert streamed.transcript == whole.transcript
    assert streamed._agent._agent.received == whole._agent._agent.received  # the wire text
    assert [e for e in seen if e["type"] == "progress"]  # and the surface saw it coming


@pytest.fixture
def every_piece(monkeypatch: pytest.MonkeyPatch) -> None:
    """Progress for every piece that changes what can be read (no pacing)."""
    monkeypatch.setattr(_streaming, "PROGRESS_SECONDS", 0.0)


async def test_progress_is_readable_and_kept_out_of_the_transcript(every_piece):
    conversation, events = play(Streaming(REPLIES, size=3))
    await conversation.say("add milk")
    progress = [e for e in events if e["type"] == "progress"]
    assert progress and all(e["type"] != "progress" for e in conversation.transcript)
    for event in progress:
        assert "<" not in event["prose"] and "&amp;" not in event["prose"]
        assert set(event) == {"type", "turn", "prose", "writing"}
    assert progress[-1]["prose"].startswith("Let me see.") or progress[-1]["turn"] == 2
    writing = [e["writing"] for e in progress if e["writing"]]
    assert writing[:1] == ["proposing: add-note"] and "proposing: list-notes" in writing
    first_turn = [e for e in progress if e["turn"] == 1]
    assert first_turn[-1]["prose"] == "Let me see.\n\nAdding & checking."


async def test_a_stop_mid_stream_closes_it_and_the_outcomes_reached_go_with_the_next_say():
    agent = Streaming([REPLIES[0], dial('<dial-suggest action="list-notes"><dial-payload>{}'
                                         "</dial-payload></dial-suggest>"
                                         + "<dial-inform>" + "words " * 300 + "</dial-inform>"),
                       dial(inform("ok"))], size=5, pause=0.01)
    conversation, _ = play(agent)
    task = asyncio.ensure_future(conversation.say("add milk"))
    await until(lambda: len(agent.received) == 2)  # turn 1 handled, turn 2 streaming
    await asyncio.sleep(0.05)
    task.cancel()  # the person pressed Stop
    with pytest.raises(asyncio.CancelledError):
        await task
    assert agent.closed_early == 1
    owed = [(o["action"], o["status"]) for o in conversation.owed_outcomes]
    assert owed == [("add-note", "done"), ("list-notes", "done")]  # told with turn 2's message
    assert "outcome:" in agent.received[1]
    # turn 2's message never got its reply: what it carried is owed again, and told once
    result = await conversation.say("go on")
    assert result.status == "idle" and conversation.owed_outcomes == []
    assert agent.received[2].count('context-key="outcome:') == 2


async def test_a_stop_while_the_person_decides_keeps_the_runtimes_rules():
    agent = Streaming([REPLIES[0], dial(inform("ok"))])
    conversation, _ = play(agent, scripted_human([]))  # would raise if asked: it is not

    class Waiting:
        needs_event_loop = True

        def __init__(self):
            self.asked = asyncio.Event()

        async def decide(self, suggestion):
            self.asked.set()
            await asyncio.Event().wait()

    human = Waiting()
    conversation, _ = play(agent, human)
    task = asyncio.ensure_future(conversation.say("add milk"))
    await asyncio.wait_for(human.asked.wait(), 5)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert [o["status"] for o in conversation.owed_outcomes] == ["superseded", "superseded"]
    assert (await conversation.say("never mind")).status == "idle"


async def test_an_agent_that_says_it_does_not_stream_is_sent_to_as_before():
    class Quiet(Streaming):
        streams = False

        def send(self, message: str) -> str:
            self.received.append(message)
            return self.replies.pop(0)

    agent = Quiet(REPLIES)
    conversation, events = play(agent)
    await conversation.say("add milk")
    assert [e for e in events if e["type"] == "progress"] == []
    assert len(agent.received) == 2


async def test_a_stream_that_yields_something_other_than_text_is_an_error():
    class Bad(Streaming):
        async def stream_reply(self, message):
            yield 42

    conversation, _ = play(Bad([]))
    with pytest.raises(TypeError, match="must yield text"):
        await conversation.say("x")


@pytest.mark.stall_watchdog  # hostile: nothing may hold the loop (tests/conftest.py)
async def test_progress_is_paced_however_small_the_pieces():
    """A reply in a thousand one-character pieces costs a handful of events, not a thousand;
    the first piece is shown at once, and the last change of a burst follows the interval."""
    text = "word " * 200
    burst = Streaming([text], size=1)
    conversation, events = play(burst)
    await conversation.say("talk")
    assert len([e for e in events if e["type"] == "progress"]) == 1  # all in one instant

    class Paused(Streaming):
        async def stream_reply(self, message):
            async for piece in super().stream_reply(message):
                yield piece
            await asyncio.sleep(_streaming.PROGRESS_SECONDS * 3)  # the model pauses at the end

    slow = Paused(["Hello there, " * 20], size=2, pause=0.002)
    conversation, events = play(slow)
    started = asyncio.get_running_loop().time()
    await conversation.say("hi")
    seconds = asyncio.get_running_loop().time() - started
    progress = [e for e in events if e["type"] == "progress"]
    assert 2 <= len(progress) <= seconds / _streaming.PROGRESS_SECONDS + 2
    assert progress[0]["prose"] == "He"  # the first piece at once
    assert progress[-1]["prose"] == ("Hello there, " * 20).strip()  # the burst's last change


@pytest.mark.stall_watchdog  # hostile: nothing may hold the loop (tests/conftest.py)
async def test_a_streamed_reply_over_the_limit_is_counted_not_kept_and_not_read():
    """A hostile stream: past the parser's limit nothing more is kept or shown; the reply is
    said unread with its real length, and the conversation goes on."""
    from dial_notebook.dial import MAX_REPLY_CHARS

    chunk = "x" * 100_000
    pieces = MAX_REPLY_CHARS // len(chunk) + 5

    class Flood(Streaming):
        async def stream_reply(self, message):
            self.received.append(message)
            if len(self.received) > 1:
                yield dial(inform("ok"))
                return
            for _ in range(pieces):
                yield chunk

    fed: list[int] = []
    conversation, _ = play(Flood([]))
    original = conversation._agent._streamed

    async def counting(message, on_piece):
        def feed(piece):
            fed.append(len(piece))
            on_piece(piece)
        return await original(message, feed)

    conversation._agent._streamed = counting
    await conversation.say("flood")
    assert sum(fed) <= MAX_REPLY_CHARS + len(chunk)  # fed, and kept, only up to the limit
    reply = next(e for e in conversation.transcript if e["type"] == "reply")
    assert reply["truncated"] and reply["chars"] == pieces * len(chunk)
    unread = next(e for e in conversation.transcript if e.get("act") == "unread")
    assert f"{pieces * len(chunk):,} characters long" in unread["text"]
    assert (await conversation.say("short")).status == "idle"


async def test_what_is_being_written_names_a_long_action_briefly(every_piece):
    conversation, events = play(Streaming([dial(suggest("a" * 1000, {}, via="payload")),
                                           dial(inform("ok"))], size=50))
    await conversation.say("x")
    writing = {e["writing"] for e in events if e["type"] == "progress" and e["writing"]}
    assert writing and all(len(w) <= 80 for w in writing)
