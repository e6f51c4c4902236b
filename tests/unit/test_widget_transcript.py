"""ChatWidget's transcript at scale, without a kernel (a fake comm records what would be sent):
adding an event costs the same however long the conversation is (nothing copies or validates the
whole list per event; the events of one reply travel together), a streamed reply's progress
traffic stays linear in the reply whatever its pieces, and a conversation run with no front end
(a headless notebook) leaves its whole transcript in the static copy and none of it in the widget
state (the conversation stored once)."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest

from dial_notebook.domains.notes import NotesDomain
from dial_notebook.runtime import _streaming
from dial_notebook.widget import ChatWidget
from dial_notebook.widget._static_output import StaticOutput

from .runtime_doubles import click
from .test_widget_live import StreamingAgent, Wire


class ManyInforms:
    """Replies to the first message with one envelope of ``count`` informs; then plainly."""

    def __init__(self, count: int) -> None:
        self.replies = ['<dial version="0.1" actor="agent">' + "".join(
            f"<dial-inform>note {i}</dial-inform>" for i in range(count)) + "</dial>"]

    async def send(self, message: str) -> str:
        return self.replies.pop() if self.replies else "Done."


def wired(agent: Any, **options: Any) -> tuple[ChatWidget, Wire]:
    chat = ChatWidget(agent=agent, domain=NotesDomain([]), timeout=5, **options)
    wire = Wire()
    chat.comm = wire
    return chat, wire


def rebuilt(wire: Wire) -> list[dict[str, Any]]:
    """The transcript a front end holds after every append message (in order, none missed)."""
    events: list[dict[str, Any]] = []
    for message in wire.custom("append"):
        assert message["start"] <= len(events)
        events = events[:message["start"]] + message["events"]
    return events


# ---- 4a: an event costs O(1), whatever came before ---------------------------------------------

def _count_validated(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Elements the transcript trait validates (every assignment validates the whole list)."""
    seen: list[int] = []
    trait = ChatWidget.class_traits()["transcript"]
    validate = trait.validate

    def counting(obj: Any, value: Any) -> Any:
        seen.append(len(value) if isinstance(value, list) else 0)
        return validate(obj, value)

    monkeypatch.setattr(trait, "validate", counting)
    return seen


async def test_adding_an_event_neither_copies_nor_validates_the_whole_transcript(monkeypatch):
    chat, wire = wired(ManyInforms(900))
    validated = _count_validated(monkeypatch)
    await chat.say("go")
    events = len(chat.transcript)
    assert events > 900
    assert sum(validated) <= 2 * events  # the old widget: ~events²/2 (405,000 here)
    assert rebuilt(wire) == chat.transcript  # every event reached the front end, once


async def test_the_events_of_one_reply_travel_in_a_handful_of_messages_not_one_each():
    chat, wire = wired(ManyInforms(900))
    await chat.say("go")
    appends = wire.custom("append")
    assert sum(len(m["events"]) for m in appends) == len(chat.transcript)
    assert len(appends) <= 10  # the old widget: one per event (906)


def _cpu_seconds_to_add(events: int, *, after: int) -> float:
    """The process's CPU time to add ``events`` informs to a transcript of ``after`` events
    (the best of three)."""
    times = []
    for _ in range(3):
        chat = ChatWidget(agent=StreamingAgent(), domain=NotesDomain([]))
        chat.comm = Wire()
        chat.transcript.extend([{"type": "inform", "act": "inform", "text": "before"}] * after)
        added = [{"type": "inform", "act": "inform", "text": f"note {i}"} for i in range(events)]
        start = time.process_time()
        for event in added:
            chat._on_event(event)
        times.append(time.process_time() - start)
    return min(times)


def test_an_event_costs_the_same_after_200000_events_as_after_none():
    """A ratio of the process's CPU time (not a limit on time): ~1 when adding is O(1); the
    old widget copied and validated the whole list per event (~20 here)."""
    _cpu_seconds_to_add(200, after=0)  # warm
    empty = _cpu_seconds_to_add(1000, after=0)
    long = _cpu_seconds_to_add(1000, after=200_000)
    assert long / max(empty, 1e-6) < 4


async def test_code_that_watches_the_transcript_still_hears_each_change():
    chat, _wire = wired(StreamingAgent(reply="Hello."))
    heard: list[int] = []
    chat.observe(lambda change: heard.append(len(change["new"])), names="transcript")
    await chat.say("hi")
    assert heard and heard[-1] == len(chat.transcript)


async def test_a_list_given_as_the_transcript_is_not_changed_by_later_events():
    chat, _wire = wired(StreamingAgent(reply="Hello."))
    given = [{"type": "person", "text": "restored"}]
    chat.transcript = given
    await chat.say("hi")
    assert given == [{"type": "person", "text": "restored"}]
    assert len(chat.transcript) > 1


# ---- 4e: progress traffic is linear in the reply, whatever the pieces ---------------------------

@pytest.fixture
def every_piece(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_streaming, "PROGRESS_SECONDS", 0.0)


def _progress_bytes(wire: Wire) -> int:
    return sum(len(json.dumps(m)) for m in wire.custom("progress"))


def _progress_text(wire: Wire) -> int:
    """The characters of prose the progress messages carried (their text or whole prose)."""
    return sum(len(m.get("text", "")) + len(m.get("prose", "")) for m in wire.custom("progress"))


#: A progress message without its prose: type, turn, writing, at (the runtime paces them: at
#: most 20 a second; here every piece makes one).
OVERHEAD = 100


def _shown(wire: Wire) -> str:
    """The prose a front end shows after every progress message (live.js's ``streamed``)."""
    prose = ""
    for message in wire.custom("progress"):
        if "prose" in message:
            prose = message["prose"]
        elif "at" in message and message["at"] <= len(prose):
            prose = prose[:message["at"]] + message["text"]
    return prose


async def test_an_entity_cut_in_every_piece_does_not_resend_the_prose_each_time(every_piece):
    # '&#97' reads as 'a', '&#970;' as 'ϊ': every other piece changes the prose's last
    # character, so the new prose is never the old one continued
    pieces = ['Sure.<dial version="0.1" actor="agent"><dial-inform>']
    pieces += ["&#97", "0;"] * 400
    pieces += ["</dial-inform></dial>"]
    reply = "".join(pieces)

    class Hostile:
        async def stream_reply(self, message: str) -> Any:
            if message.lstrip().startswith("<dial>"):
                yield "Done."
                return
            for piece in pieces:
                await asyncio.sleep(0)
                yield piece

        def send(self, message: str) -> str:
            raise AssertionError("streamed")

    chat, wire = wired(Hostile())
    await chat.say("go")
    assert any(e["type"] == "reply" for e in chat.transcript)
    messages = len(wire.custom("progress"))
    assert 400 < messages <= len(pieces)
    assert _progress_text(wire) < 4 * len(reply)  # the old widget: ~100 times the reply
    assert _progress_bytes(wire) < 4 * len(reply) + OVERHEAD * messages
    assert _shown(wire) == "Sure.\n\n" + "ϊ" * 400


def test_prose_whose_end_keeps_changing_costs_its_length_and_is_shown_right():
    """What the runtime makes of the pieces above, 20,000 times over, straight to the widget."""
    chat, wire = wired(StreamingAgent())
    for k in range(20_000):
        prose = "Sure.\n\n" + "ϊ" * (k // 2) + ("a" if k % 2 == 0 else "")
        chat._on_event({"type": "progress", "turn": 1, "prose": prose, "writing": None})
    assert _shown(wire) == prose
    assert _progress_text(wire) < 4 * len(prose)  # the old widget: ~20,000 times it
    assert _progress_bytes(wire) < 4 * len(prose) + OVERHEAD * 20_000


def test_prose_that_changes_at_its_start_every_time_costs_a_bounded_resend():
    chat, wire = wired(StreamingAgent())
    longest = 0
    for k in range(4001):
        prose = ("a" if k % 2 else "b") + "x" * k
        longest = max(longest, len(prose))
        chat._on_event({"type": "progress", "turn": 1, "prose": prose,
                        "writing": "proposing: add-note" if k % 3 else None})
    messages = len(wire.custom("progress"))
    assert _progress_text(wire) < 4 * longest + 20_000  # the old widget: ~2,000 times it
    assert _progress_bytes(wire) < 4 * longest + 20_000 + OVERHEAD * messages
    # what the agent is writing still arrives when it changes (k = 4000: proposing)
    assert wire.custom("progress")[-1]["writing"] == "proposing: add-note"
    assert messages > 2000


def test_a_reply_that_only_grows_arrives_whole_as_deltas():
    chat, wire = wired(StreamingAgent())
    prose = ""
    for k in range(300):
        prose += f"word{k} "
        chat._on_event({"type": "progress", "turn": 1, "prose": prose.strip(), "writing": None})
    assert _shown(wire) == prose.strip()
    assert all("prose" not in m for m in wire.custom("progress"))


# ---- 7: a conversation run with no front end keeps all of it, once -----------------------------

async def test_with_no_front_end_the_widget_state_holds_none_of_the_transcript():
    """The static copy holds the conversation (a headless run's notebook keeps it there); the
    widget state, which nbclient saves from what the kernel sends, holds none of it."""
    chat, wire = wired(StreamingAgent(reply="Hello there."))
    await chat.say("hi")
    await chat.say("again")
    assert len(chat.transcript) > 4
    assert wire.updates("transcript") == []
    assert "transcript" not in chat.get_state()  # the comm's opening, a page's request
    assert chat.get_state("transcript")["transcript"] == chat.transcript  # asked for: sent


async def test_a_view_that_asks_gets_the_whole_transcript_then_only_appends():
    chat, wire = wired(StreamingAgent(reply="Hello there."))
    await chat.say("hi")
    click(chat, type="sync", length=0)  # a view loaded late (live.js's initialize)
    assert wire.updates("transcript") == [chat.transcript]
    await chat.say("again")
    assert len(wire.updates("transcript")) == 1
    whole = wire.updates("transcript")[0]
    assert whole + rebuilt(wire)[len(whole):] == chat.transcript


async def test_with_a_front_end_the_trait_is_not_resent_when_a_say_ends():
    chat, wire = wired(StreamingAgent(reply="Hello there."))
    click(chat, type="sync", length=0)  # a view loaded (live.js's initialize)
    assert len(wire.updates("transcript")) <= 1
    sent = len(wire.updates("transcript"))
    for i in range(3):
        await chat.say(f"hi {i}")
    assert len(wire.updates("transcript")) == sent  # appends only: flat traffic
    assert rebuilt(wire) == chat.transcript


async def test_the_static_copy_shows_the_whole_conversation_as_soon_as_a_say_ends():
    chat, _wire = wired(StreamingAgent(reply="The last words of the reply."))
    published: list[str] = []

    def publish(bundle: dict[str, str], **_options: Any) -> None:
        published.append(bundle["text/html"])

    chat._static = StaticOutput(chat._static_html, interval=3600.0, display=publish,
                                update_display=publish)
    chat._static.show()
    await chat.say("hi")
    assert "The last words of the reply." in published[-1]  # not an hour later
