"""A drawn chart carries a copy at one pixel per CSS pixel (``copy``) for the notebook's static
copy, beside its sharp image (twice the CSS pixels) that the widget and an export show; the
front end never receives the copy: not in an append message, not in the transcript sent whole
('sync'), not when a chart drawn late is put in place. The kernel's transcript keeps it."""

from __future__ import annotations

import asyncio
import base64
import json
import struct
import time
from typing import Any

import pytest
import vl_convert  # noqa: F401  (the test extra: the tests fail, never skip, without it)

from dial_notebook.agents import ScriptedAgent
from dial_notebook.domains.notes import NotesDomain
from dial_notebook.widget import ChatWidget, _vegalite, _vegalite_worker
from dial_notebook.widget._replay_source import _field_error
from dial_notebook.widget._vegalite import (
    DRAWING,
    START_SECONDS,
    VEGA_LITE_TYPE,
    draw,
    for_front_end,
)

from .runtime_doubles import Wire, click

BARS = {"data": {"values": [{"fruit": "apple", "n": 3}, {"fruit": "pear", "n": 5}]},
        "mark": "bar", "encoding": {"x": {"field": "fruit", "type": "nominal"},
                                    "y": {"field": "n", "type": "quantitative"}}}
REPLY = ('<dial version="0.1" actor="agent"><dial-inform render="chart">Fruit sold'
         f'<dial-payload type="{VEGA_LITE_TYPE}">{json.dumps(BARS)}</dial-payload>'
         "</dial-inform></dial>")


@pytest.fixture(autouse=True)
def ready_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    """The renderer up and free, and the kernel's whole drawing time for this test."""
    monkeypatch.setattr(_vegalite, "_clock", _vegalite._Clock())
    assert _vegalite._worker.wait_ready(START_SECONDS + 5)
    for _ in range(int(START_SECONDS * 100)):
        if not _vegalite._later.pending:
            break
        time.sleep(0.01)


def pixels(png: bytes) -> tuple[int, int]:
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    return struct.unpack(">II", png[16:24])


def data_png(src: str) -> bytes:
    head, data = src.split(",", 1)
    assert head == "data:image/png;base64"
    return base64.b64decode(data)


# ---- the worker and draw ------------------------------------------------------------------------

def test_the_worker_answers_a_copy_at_half_the_pixels_of_the_sharp_png():
    answer = _vegalite._worker.draw(BARS, 10.0, blocking=True)
    width, height = answer["width"], answer["height"]
    assert pixels(base64.b64decode(answer["png"])) == (2 * width, 2 * height)
    assert pixels(base64.b64decode(answer["copy"])) == (width, height)
    chart = draw(BARS, alt="Fruit")
    assert set(chart) == {"src", "copy", "width", "height", "alt"}
    sharp, flat = pixels(data_png(chart["src"])), pixels(data_png(chart["copy"]))
    assert sharp == (2 * flat[0], 2 * flat[1]) == (2 * chart["width"], 2 * chart["height"])


def test_a_chart_too_large_at_twice_its_pixels_is_drawn_once_and_has_no_copy(monkeypatch):
    both = _vegalite._worker.draw(BARS, 10.0, blocking=True)
    sharp = len(base64.b64decode(both["png"]))
    monkeypatch.setattr(_vegalite_worker, "MAX_PNG_BYTES", sharp - 1)
    answer = _vegalite._worker.draw(BARS, 10.0, blocking=True)
    assert "copy" not in answer
    assert pixels(base64.b64decode(answer["png"])) == (answer["width"], answer["height"])
    assert "copy" not in draw(BARS)


# ---- what the front end gets --------------------------------------------------------------------

CHART = {"src": "data:image/png;base64,AAAA", "copy": "data:image/png;base64,BB",
         "width": 10, "height": 5, "alt": "Bars"}


def test_for_front_end_drops_the_copy_of_an_informs_chart_and_of_a_results_chart():
    inform = {"type": "inform", "text": "Bars", "render": "chart", "payload": BARS,
              "chart": CHART}
    outcome = {"type": "outcome", "id": "p", "status": "done",
               "result": {"vega_lite": BARS, "chart": CHART, "alt": "Bars"}}
    sharp = {k: v for k, v in CHART.items() if k != "copy"}
    assert for_front_end(inform) == {**inform, "chart": sharp}
    assert for_front_end(outcome) == {**outcome, "result": {**outcome["result"], "chart": sharp}}
    assert inform["chart"] is CHART and outcome["result"]["chart"] is CHART  # not mutated
    assert "copy" in CHART


def test_for_front_end_gives_every_other_event_back_as_it_is():
    others = [{"type": "inform", "text": "hi"},
              {"type": "inform", "text": "Bars", "render": "chart", "chart": sharp_chart()},
              {"type": "inform", "text": "Bars", "render": "chart", "chart": {"error": "no"}},
              {"type": "outcome", "id": "p", "status": "done", "result": {"rows": 3}},
              {"type": "outcome", "id": "p", "status": "done", "result": [1, 2]},
              {"type": "outcome", "id": "p", "status": "done",
               "result": {"chart": sharp_chart()}},
              {"type": "person", "text": "hello"}]
    for event in others:
        assert for_front_end(event) is event


def sharp_chart() -> dict[str, Any]:
    return {k: v for k, v in CHART.items() if k != "copy"}


def test_the_kernels_chart_with_its_copy_fits_the_contract():
    inform = {"type": "inform", "text": "Bars", "render": "chart", "payload": BARS,
              "chart": draw(BARS, alt="Bars")}
    assert "copy" in inform["chart"] and _field_error(inform, "event 1") is None


# ---- the widget's traffic -----------------------------------------------------------------------

def wired() -> tuple[ChatWidget, Wire]:
    chat = ChatWidget(agent=ScriptedAgent([REPLY]), domain=NotesDomain(), timeout=5)
    wire = Wire()
    chat.comm = wire
    return chat, wire


def charts(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e["chart"] for e in events if e.get("type") == "inform" and "chart" in e]


async def test_the_front_end_gets_the_chart_without_its_copy_and_the_kernel_keeps_it():
    chat, wire = wired()
    await chat.say("chart please")
    (kept,) = charts(chat.transcript)
    assert "src" in kept and kept["copy"].startswith("data:image/png;base64,")
    appended = [e for m in wire.custom("append") for e in m["events"]]
    assert charts(appended) == [{k: v for k, v in kept.items() if k != "copy"}]
    click(chat, type="sync", length=0)  # a view loaded late: the whole trait
    (whole,) = wire.updates("transcript")
    assert charts(whole) == charts(appended)
    assert "copy" in charts(chat.transcript)[0]  # still the kernel's
    chat.close()


async def test_a_chart_drawn_late_reaches_the_front_end_without_its_copy():
    chat, wire = wired()
    click(chat, type="sync", length=0)  # a view is there: a chart drawn late goes by the trait
    _vegalite._clock.spend(_vegalite.DRAWING_SECONDS)  # the kernel's drawing time used up
    await chat.say("chart please")
    assert charts(chat.transcript) == [{"error": DRAWING}]
    for _ in range(1200):
        if "src" in charts(chat.transcript)[0]:
            break
        await asyncio.sleep(0.05)
    assert "copy" in charts(chat.transcript)[0]
    sent = [chart for whole in wire.updates("transcript") for chart in charts(whole)]
    assert sent and "src" in sent[-1] and all("copy" not in chart for chart in sent)
    chat.close()


async def test_a_replay_of_a_chat_sends_its_charts_without_their_copies():
    from dial_notebook.widget import Replay

    chat, _wire = wired()
    await chat.say("chart please")
    assert "copy" in charts(chat.transcript)[0]
    replay = Replay(chat)
    (shown,) = charts(replay.transcript)
    assert "src" in shown and "copy" not in shown
    chat.close()
    replay.close()
