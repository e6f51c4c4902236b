"""What the notebook's static copy holds, so that a saved notebook stays near the size of its
session file (issue 29): each chart once, at one pixel per CSS pixel (the chart's ``copy``, as
matplotlib's inline images are), and what the agent received and replied for the latest
``NOTEBOOK_WIRE_TURNS`` turns only. ``chat.export_html()`` keeps the sharp chart and every
turn's wire; drawn as it grows (``LiveCopy``), the copy is the one drawn whole."""

from __future__ import annotations

import base64
import random
import re

import lxml.html

from dial_notebook.widget._static import conversation_html, export_document
from dial_notebook.widget._static_live import LiveCopy
from dial_notebook.widget._static_text import NOTEBOOK_WIRE_TURNS
from tests.long_conversation import png


def _src(width: int, height: int, seed: int) -> str:
    return "data:image/png;base64," + base64.b64encode(
        png(width, height, random.Random(seed))).decode()


SHARP, FLAT = _src(640, 400, 1), _src(320, 200, 2)
CHART = {"src": SHARP, "copy": FLAT, "width": 320, "height": 200, "alt": "Units by region"}
SPEC = {"mark": "bar", "data": {"values": [{"a": 1}]}}


def _chart_events() -> list[dict]:
    return [{"type": "inform", "text": "Units", "render": "chart", "payload": SPEC,
             "chart": CHART},
            {"type": "suggestion", "id": "p", "action": "plot", "text": "", "payload": {},
             "preview": "Plot", "destructive": False, "mutates": False},
            {"type": "outcome", "id": "p", "status": "done",
             "result": {"vega_lite": SPEC, "chart": CHART}}]


def _images(html: str) -> list[tuple[str, str | None, str | None]]:
    tree = lxml.html.fromstring(html)
    return [(img.get("src"), img.get("width"), img.get("height")) for img in tree.iter("img")]


def test_the_notebook_copy_shows_each_chart_at_one_pixel_per_css_pixel():
    shown = _images(conversation_html(_chart_events()))
    assert shown == [(FLAT, "320", "200")] * 2  # an inform's chart and a result's, at its size
    assert SHARP not in conversation_html(_chart_events())


def test_an_export_shows_the_sharp_chart():
    assert _images(export_document(_chart_events())) == [(SHARP, "320", "200")] * 2


def test_a_chart_without_a_copy_or_with_a_broken_one_is_shown_by_its_image_or_refused():
    alone = {k: v for k, v in CHART.items() if k != "copy"}
    events = [{**_chart_events()[0], "chart": alone}]
    assert _images(conversation_html(events)) == [(SHARP, "320", "200")]
    hostile = {**CHART, "copy": "data:text/html;base64,PHNjcmlwdD4="}
    html = conversation_html([{**_chart_events()[0], "chart": hostile}])
    assert _images(html) == [] and "<script" not in html
    assert "not an inline PNG, JPEG, GIF or WebP image" in html


def test_the_live_copy_shows_the_same_chart_copy():
    events = _chart_events()
    assert LiveCopy().html(events) == conversation_html(events)


def _turns(count: int) -> list[dict]:
    events: list[dict] = []
    for turn in range(1, count + 1):
        events += [{"type": "person", "text": f"request {turn}"},
                   {"type": "sent", "turn": turn, "message": f"<dial>request {turn}</dial>"},
                   {"type": "reply", "turn": turn, "text": f"<dial>reply {turn}</dial>"},
                   {"type": "inform", "text": f"answer {turn}", "render": "prose"}]
    return events


def _wire_turns(html: str) -> list[int]:
    return [int(n) for n in re.findall(r"<summary>Turn (\d+): what the agent received", html)]


def test_the_notebook_copy_shows_the_wire_of_the_latest_turns_and_says_where_the_rest_is():
    turns = NOTEBOOK_WIRE_TURNS + 15
    html = conversation_html(_turns(turns))
    assert _wire_turns(html) == list(range(16, turns + 1))
    assert html.count("dial-wire-left-out") == 1
    note = lxml.html.fromstring(html).find_class("dial-wire-left-out")[0].text_content()
    assert "15 earlier turns" in note and "chat.export_html()" in note
    assert "request 1" in html and "answer 1" in html  # the conversation itself is all there


def test_a_short_conversation_shows_every_turns_wire_and_no_note():
    html = conversation_html(_turns(NOTEBOOK_WIRE_TURNS))
    assert _wire_turns(html) == list(range(1, NOTEBOOK_WIRE_TURNS + 1))
    assert "dial-wire-left-out" not in html


def test_an_export_shows_every_turns_wire():
    html = export_document(_turns(NOTEBOOK_WIRE_TURNS + 15))
    assert _wire_turns(html) == list(range(1, NOTEBOOK_WIRE_TURNS + 16))
    assert "dial-wire-left-out" not in html


def test_drawn_as_it_grows_past_the_bound_the_copy_is_the_copy_drawn_whole():
    events = _turns(NOTEBOOK_WIRE_TURNS + 6)
    copy = LiveCopy()
    for end in range(1, len(events) + 1):
        assert copy.html(events[:end]) == conversation_html(events[:end]), end
    read_again = LiveCopy()
    assert read_again.html(events[:9]) == conversation_html(events[:9])
    assert read_again.html(events[:5]) == conversation_html(events[:5])  # shorter: from scratch
