"""The generated long conversation's charts carry their copy at one pixel per CSS pixel, as the
widget's do (tests/long_conversation.py): a real PNG of the chart's CSS size weighing about 0.4
of its image; its session file holds no chart image."""

from __future__ import annotations

import base64
import struct

from tests.long_conversation import (
    CHART_HEIGHT,
    CHART_WIDTH,
    chart_sources,
    copy_sources,
    long_session_file,
    long_transcript,
)


def png_of(src: str) -> bytes:
    head, data = src.split(",", 1)
    assert head == "data:image/png;base64"
    return base64.b64decode(data)


def test_each_chart_has_a_copy_at_its_css_size_about_0_4_of_its_image():
    events = long_transcript(2000)
    sharp, flat = [png_of(s) for s in chart_sources(events)], [png_of(s) for s in
                                                                copy_sources(events)]
    assert len(sharp) == len(flat) == 20
    assert {struct.unpack(">II", p[16:24]) for p in sharp} == {(2 * CHART_WIDTH,
                                                                2 * CHART_HEIGHT)}
    assert {struct.unpack(">II", p[16:24]) for p in flat} == {(CHART_WIDTH, CHART_HEIGHT)}
    ratio = sum(map(len, flat)) / sum(map(len, sharp))
    assert 0.35 < ratio < 0.45, ratio


def test_the_session_file_holds_no_chart_image(tmp_path):
    path = long_session_file(tmp_path / "long.json", 500, data_dir=tmp_path / "jupyter")
    text = path.read_text(encoding="utf-8")
    events = long_transcript(500)
    images = chart_sources(events) + copy_sources(events)
    assert len(images) == 10 and not any(src[60:200] in text for src in images)
    assert '"copy"' not in text and text.count("vega_lite") >= 5  # drawn again from the spec
