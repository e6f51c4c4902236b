"""The static copy of a live conversation is drawn as it grows (``_static_live.LiveCopy``): the
same HTML as ``conversation_html`` draws from scratch, at every step and whatever waits for the
person, while one new event draws a handful of items however long the conversation is (issue 29:
counted, not timed)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from dial_notebook.domains.notes import NotesDomain
from dial_notebook.widget import ChatWidget
from dial_notebook.widget._static import conversation_html
from dial_notebook.widget._static_live import LiveCopy
from tests.long_conversation import long_transcript

FIXTURE = Path(__file__).resolve().parents[2] / "js" / "test" / "fixtures" / "transcript.json"


def waiting_for(event: dict[str, Any], index: int) -> dict[str, Any]:
    """What ``pending`` would be right after ``event``: its card, its question, or nothing."""
    if event.get("type") == "suggestion":
        return {"kind": "decide", "token": f"d{index}", "id": event.get("id")}
    if event.get("type") == "ask":
        return {"kind": "answer", "token": f"a{index}", "index": index}
    return {}


@pytest.mark.parametrize("source", ["long", "fixture"])
def test_drawn_as_it_grows_the_copy_is_the_copy_drawn_whole(source):
    events = long_transcript(240) if source == "long" else json.loads(FIXTURE.read_text())
    copy, shown = LiveCopy(), []
    for index, event in enumerate(events):
        shown.append(event)
        pending = waiting_for(event, index)
        if index % 3 == 0 or index == len(events) - 1:
            assert copy.html(shown, title="EDA", pending=pending) == conversation_html(
                shown, title="EDA", pending=pending), (source, index, event.get("type"))


@pytest.fixture(scope="module")
def events_5100() -> list[dict[str, Any]]:
    return long_transcript(5_100)


def test_one_event_more_draws_the_same_few_items_at_5000_events_as_at_100(events_5100):
    events = events_5100

    def drawn_per_event(start: int) -> list[int]:
        copy, shown = LiveCopy(), list(events[:start])
        copy.html(shown)
        counts = []
        for index in range(start, start + 60):
            shown.append(events[index])
            before = copy.drawn
            copy.html(shown, pending=waiting_for(events[index], index))
            counts.append(copy.drawn - before)
        return counts

    early, late = drawn_per_event(100), drawn_per_event(5_000)
    assert max(late) <= 4 and max(early) <= 4  # the new item, the card it joins, the moved ones
    assert sum(late) <= sum(early) + 10  # not proportional to the conversation


def test_a_replaced_entry_or_a_new_list_is_read_again():
    events = long_transcript(120)
    copy = LiveCopy()
    copy.html(events)
    changed = [*events[:-1], {"type": "person", "text": "not the same last entry"}]
    assert copy.html(changed) == conversation_html(changed)
    shorter = events[:50]
    assert copy.html(shorter) == conversation_html(shorter)


def test_a_chat_widget_draws_its_copy_as_it_grows(events_5100):
    chat = ChatWidget(agent=lambda message: "ok", domain=NotesDomain([]))
    chat.transcript = events_5100[:5_000]
    assert chat._static_html() == conversation_html(chat.transcript)
    before = chat._copy.drawn
    chat._append({"type": "person", "text": "one more"})
    assert "one more" in chat._static_html()
    assert chat._copy.drawn - before <= 4  # the person, the turn ended before it, Retry moved


def test_a_chart_put_in_place_of_its_outcome_is_drawn_again_without_reading_again():
    events = long_transcript(400)
    at = next(n for n, e in enumerate(events) if e.get("type") == "outcome"
              and isinstance(e.get("result"), dict) and "vega_lite" in e["result"])
    drawing = {**events[at], "result": {**events[at]["result"], "chart": {"alt": "Drawing…"}}}
    first = [*events[:at], drawing, *events[at + 1:]]
    copy = LiveCopy()
    assert copy.html(first) == conversation_html(first)
    before = copy.drawn
    drawn = list(first)  # a new list, the chart drawn in its entry (_chat_events.py: put)
    drawn[at] = events[at]
    assert copy.html(drawn) == conversation_html(drawn)
    assert copy.drawn - before <= 2  # its card (and the turn's wire when it is still open)


def test_a_copy_past_its_bound_keeps_the_latest_entries_drawn_as_it_grows(monkeypatch):
    """The notebook's copy is bounded (``NOTEBOOK_LOG_CHARS``): past it, the oldest entries
    give way, so publishing the copy costs the same at 20,000 events as at 2,000; drawn as it
    grows, it is still the copy drawn whole, and one event more draws a few items only."""
    from dial_notebook.widget import _static

    monkeypatch.setattr(_static, "NOTEBOOK_LOG_CHARS", 60_000)
    events = long_transcript(600)
    copy, shown, drawn = LiveCopy(), [], []
    for index, event in enumerate(events):
        shown.append(event)
        before = copy.drawn
        fragment = copy.html(shown, title="EDA")
        drawn.append(copy.drawn - before)
        if index % 7 == 0 or index == len(events) - 1:
            assert fragment == conversation_html(shown, title="EDA"), index
    assert len(fragment) < 60_000 + 20_000  # the bound, and the fragment's style and header
    assert re.search(r"\d[\d,]* earlier entries are not shown", fragment)
    assert "chat.export_html()" in fragment  # where the whole conversation is
    assert max(drawn[300:]) <= 4  # past the bound, one event still draws a few items
    whole = conversation_html(shown, title="EDA", log_chars=_static.LOG_CHARS)
    assert "earlier entries" not in whole  # an export's bound is the whole log's


def test_the_copy_drawn_whole_draws_the_latest_first_and_stops_at_its_bound(monkeypatch):
    from dial_notebook.widget import _static, _static_log

    calls = []
    real = _static_log.draw
    monkeypatch.setattr(_static, "draw", lambda item, budget: calls.append(1) or real(item, budget))
    fragment = conversation_html([{"type": "person", "text": f"words {n} " + "x" * 1_000}
                                  for n in range(1_000)], log_chars=20_000)
    assert "words 999" in fragment and "words 900 " not in fragment
    assert len(calls) < 30  # the entries it keeps, and the one that did not fit


def test_a_card_whose_run_goes_is_running_in_the_copy_drawn_as_it_grows():
    card = {"type": "suggestion", "id": "sg-1", "action": "copy", "payload": {},
            "preview": "Copy the files", "mutates": True}
    block = {"type": "suggestion", "id": "ex-1", "kind": "execute", "action": "execute",
             "payload": {"steps": [{"id": "ex-1.1", "env": "python", "command": "1"}]}}
    done = {"type": "outcome", "id": "sg-1", "action": "copy", "status": "done"}
    copy, shown = LiveCopy(), [{"type": "person", "text": "copy"}, card, block]
    for running, events in [((), shown), (("sg-1",), shown), (("sg-1", "ex-1.1"), shown),
                            (("ex-1.1",), [*shown, done]), ((), [*shown, done])]:
        fragment = copy.html(events, running=running)
        assert fragment == conversation_html(events, running=running), running
        assert ('data-dial-status="running"' in fragment) == bool(running), running


async def test_a_chat_widgets_copy_says_running_while_a_card_runs():
    import asyncio

    from .runtime_doubles import ScriptedAgent, click, dial, inform, suggest, until

    class Slow:
        def __init__(self) -> None:
            self.actions = {"copy": {"mutates": True}}
            self.release = asyncio.Event()

        async def run(self, action: str, payload: Any) -> Any:
            await self.release.wait()
            return {"copied": 3}

    domain = Slow()
    chat = ChatWidget(agent=ScriptedAgent([dial(suggest("copy", {})), dial(inform("ok"))]),
                      domain=domain, timeout=5)
    task = chat.say("copy them")
    await until(lambda: chat.pending.get("kind") == "decide")
    click(chat, type="decide", token=chat.pending["token"], decision="accept")
    await until(lambda: chat.runs_going())
    assert 'data-dial-status="running"' in chat._static_html()
    domain.release.set()
    await asyncio.wait_for(task, 5)
    assert 'data-dial-status="running"' not in chat._static_html()


def test_a_sessions_charts_drawn_later_all_at_once_are_drawn_again_without_reading_again():
    # a saved session's charts are drawn again off the loop and put in place as they come: at
    # 20,000 events, 200 of them between two updates of the copy (spaced by its size); each is
    # drawn again in its place, never the whole conversation read and drawn anew
    chart = next(e for e in long_transcript(200) if e.get("type") == "outcome"
                 and isinstance(e.get("result"), dict) and "chart" in e["result"])
    events: list[dict[str, Any]] = []
    for n in range(70):
        events += [{"type": "person", "text": f"plot {n}"},
                   {"type": "suggestion", "id": f"c{n}", "action": "plot", "text": "Plot?",
                    "payload": {}, "preview": f"Plot {n}", "destructive": False,
                    "mutates": False},
                   {**chart, "id": f"c{n}"}]
    drawing = [{**e, "result": {**e["result"], "chart": {"error": "Drawing the chart…"}}}
               if e["type"] == "outcome" else e for e in events]
    copy = LiveCopy()
    copy.html(drawing)
    before = copy.drawn
    assert copy.html(list(events)) == conversation_html(events)
    assert copy.drawn - before <= 70 + 2  # the charts' cards (and the turn's wire), no more
