"""The turn's wire in the notebook's static copy: what the agent received and replied, each
clipped to ``NOTEBOOK_WIRE_CHARS`` (the notebook copy is for reading; the long declares of
outcomes, charts' data included, made it twice the session file), whole up to ``JSON_CHARS`` in
an export; escaped with as few entities as HTML needs, and never a way in for markup."""

from __future__ import annotations

import lxml.html

from dial_notebook.widget._static import conversation_html, export_document
from dial_notebook.widget._static_live import LiveCopy
from dial_notebook.widget._static_text import JSON_CHARS, NOTEBOOK_WIRE_CHARS


def _turn(message: str, reply: str) -> list[dict]:
    return [{"type": "person", "text": "go"},
            {"type": "sent", "turn": 1, "message": message},
            {"type": "reply", "turn": 1, "text": reply}]


def _wire_texts(html: str) -> list[str]:
    tree = lxml.html.fromstring(html)
    return [node.text_content() for node in tree.find_class("dial-wire-text")]


def test_the_notebook_copy_clips_each_wire_text_and_says_where_the_whole_one_is():
    message, reply = "m" * 50_000, "<dial>" + "r" * 30_000 + "</dial>"
    html = conversation_html(_turn(message, reply))
    sent, replied = _wire_texts(html)
    assert sent.startswith("m" * NOTEBOOK_WIRE_CHARS) and "m" * (NOTEBOOK_WIRE_CHARS + 1) not in sent
    assert f"{50_000 - NOTEBOOK_WIRE_CHARS:,} more characters" in sent
    assert "export_html" in sent and "session" in sent
    assert replied.startswith("<dial>") and f"{len(reply) - NOTEBOOK_WIRE_CHARS:,} more" in replied


def test_the_live_copy_clips_the_wire_as_the_copy_drawn_whole_does():
    entries = _turn("m" * 9_000, "r" * 9_000)
    assert LiveCopy().html(entries) == conversation_html(entries)


def test_an_export_keeps_each_wire_text_whole_up_to_its_own_bound():
    message = "m" * 50_000
    sent, _ = _wire_texts(export_document(_turn(message, "<dial/>")))
    assert sent.startswith("m" * JSON_CHARS) and f"{50_000 - JSON_CHARS:,} more" in sent


def test_a_short_wire_text_is_whole_and_exact_quotes_included():
    message = '<dial><dial-declare context-key="k">{"a": "b"}</dial-declare></dial>'
    html = conversation_html(_turn(message, "<dial/>"))
    assert _wire_texts(html)[0] == message
    assert "&quot;" not in html.split('class="dial-wire"', 1)[1]  # a quote in text is a quote


def test_markup_in_a_wire_text_stays_text():
    hostile = '</pre></details><script>alert(1)</script><img src=x onerror="alert(2)">'
    html = conversation_html(_turn(hostile, hostile))
    tree = lxml.html.fromstring(html)
    assert not tree.xpath("//script") and not tree.xpath("//img")
    assert _wire_texts(html) == [hostile, hostile]
