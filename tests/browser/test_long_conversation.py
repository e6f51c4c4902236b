"""The shape of a long conversation in JupyterLab (issue 29), without asserting any time: a
generated analysis session of 2,000 events (tests/long_conversation.py) shown by a ChatWidget

- draws one node per item in its log (the items ``widget._items`` describes, the kinds the
  widget draws), however it draws them (all at once, or lazily as they come into view);
- keeps every item's text in the DOM, so find-in-page finds any of them;
- saved with its widget state, holds each chart image once in the notebook file (at one pixel
  per CSS pixel; the sharp image the live widget shows, never).

The figures (times, memory, sizes) are the benchmark's: tests/bench/bench_long_conversation.py.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ..long_conversation import (
    chart_sources,
    copy_sources,
    item_needles,
    long_transcript,
    widget_cells,
)
from ._harness import NotebookPage, open_notebook, save_with_widget_state, write_notebook

pytestmark = pytest.mark.browser

EVENTS = 2000

LOG = "() => document.querySelector('[data-dial-root] .dial-log')"
ENTRIES = f"() => [...({LOG})().querySelectorAll(':scope > .dial-log-block > *')]"


@pytest.fixture(scope="module")
def transcript() -> list[dict]:
    return long_transcript(EVENTS)


@pytest.fixture(scope="module")
def long_lab(jupyter, browser_context, transcript) -> Iterator[NotebookPage]:
    """The 2,000-event conversation open in JupyterLab, its last item drawn."""
    name = write_notebook(jupyter["root"], "long-conversation.ipynb", *widget_cells(EVENTS))
    lab = open_notebook(browser_context, jupyter["base"], name)
    last = [n for n in item_needles(transcript) if n][-1]
    lab.page.wait_for_function(
        f"(needle) => {{ const log = ({LOG})(); const last = log && log.querySelector("
        "':scope > :last-child > :last-child'); return last && last.textContent.includes(needle);"
        " }", arg=last, timeout=120000)
    lab.name = name  # type: ignore[attr-defined]
    yield lab
    lab.page.close()


def test_the_log_has_one_node_per_item(long_lab, transcript):
    items = len(item_needles(transcript))
    count = long_lab.page.evaluate(f"() => ({ENTRIES})().length")
    assert items > EVENTS // 3  # the conversation is long: cards, prose, tables, charts
    assert count == items


def test_the_log_holds_its_entries_in_blocks_of_fifty(long_lab):
    """What a frame costs stays flat: the log's children are blocks (a browser skips a block
    off screen whole), each of 50 entries but the last."""
    sizes = long_lab.page.evaluate(
        f"() => [...({LOG})().children].map((b) => [b.className, b.children.length])")
    assert len(sizes) > 10
    assert {name for name, _ in sizes} == {"dial-log-block"}
    assert [n for _, n in sizes[:-1]] == [50] * (len(sizes) - 1)
    assert 1 <= sizes[-1][1] <= 50


def test_every_item_can_be_found_in_the_page(long_lab, transcript):
    needles = [n for n in item_needles(transcript) if n]
    missing = long_lab.page.evaluate(
        f"(needles) => {{ const text = ({LOG})().textContent;"
        " return needles.filter((n) => !text.includes(n)); }", needles)
    assert len(needles) > EVENTS // 3
    assert missing == []


def test_a_notebook_saved_with_widget_state_holds_each_chart_image_once(long_lab, jupyter,
                                                                         transcript):
    save_with_widget_state(long_lab.page)
    saved = (jupyter["root"] / long_lab.name).read_text(encoding="utf-8")
    sharp, copies = chart_sources(transcript), copy_sources(transcript)
    assert len(sharp) == len(copies) == 20

    def counts(sources: list[str]) -> list[int]:
        return [saved.count(src[len(src) // 2:len(src) // 2 + 120]) for src in sources]

    # each chart once, at one pixel per CSS pixel (the static copy's); the sharp image, which
    # the live widget shows, never (the widget state holds none of the conversation)
    assert counts(copies) == [1] * 20 and counts(sharp) == [0] * 20
