"""Vega-Lite charts in JupyterLab 4, in headless Chromium: a scripted agent's chart inform is
shown as the image the kernel drew (no Vega in the browser); one that names a ``data.url`` on a
real 127.0.0.1 listener shows the refusal with its spec collapsed, and neither the kernel nor
the page ever contacts that listener. Screenshots: tests/browser/output/lab-vegalite-*.png."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator

import pytest
import vl_convert  # noqa: F401  (the test extra: the tests fail, never skip, without it)
from playwright.sync_api import expect

from dial_notebook.widget._vegalite import START_SECONDS, with_chart

from ._harness import OUTPUT, NotebookPage, mount_widget, open_notebook, write_notebook

pytestmark = pytest.mark.browser

CHART_CELL = """\
import json
from dial_notebook.agents import ScriptedAgent
from dial_notebook.widget import ChatWidget

SALES = {{"$schema": "https://vega.github.io/schema/vega-lite/v5.json",
          "title": "Units by region", "width": 360, "height": 200,
          "data": {{"values": [{{"region": r, "units": u}} for r, u in
                               [("North", 120), ("South", 95), ("East", 143), ("West", 71)]]}},
          "mark": "bar",
          "encoding": {{"x": {{"field": "region", "type": "nominal"}},
                        "y": {{"field": "units", "type": "quantitative"}}}}}}
REMOTE = {{"mark": "bar", "data": {{"url": "{url}/sales.csv"}},
           "encoding": {{"x": {{"field": "a", "type": "nominal"}}}}}}

def chart(words, spec):
    return ('<dial-inform render="chart">' + words
            + '<dial-payload type="application/vnd.vegalite+json">'
            + _esc(json.dumps(spec)) + "</dial-payload></dial-inform>")

reply = _dial(chart("Units sold by region:", SALES), chart("And from the web:", REMOTE))
chat = ChatWidget(agent=ScriptedAgent([reply]), domain=notes_domain(), title="Charts")
chat"""


@pytest.fixture(scope="module")
def listener() -> Iterator[dict]:
    """A real listener on 127.0.0.1 counting every connection made to it."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    server.settimeout(0.1)
    seen = {"url": f"http://127.0.0.1:{server.getsockname()[1]}", "hits": 0}
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                connection, _ = server.accept()
            except OSError:
                continue
            seen["hits"] += 1
            connection.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield seen
    stop.set()
    thread.join(2)
    server.close()


@pytest.fixture(scope="module")
def lab(jupyter, browser_context, listener) -> Iterator[NotebookPage]:
    name = write_notebook(jupyter["root"], "chat_charts.ipynb",
                          CHART_CELL.format(url=listener["url"]))
    requests: list[str] = []
    browser_context.on("request", lambda request: requests.append(request.url))
    notebook = open_notebook(browser_context, jupyter["base"], name, app="lab")
    notebook.requests = requests  # type: ignore[attr-defined]
    yield notebook
    notebook.page.close()


def test_a_chart_inform_is_shown_as_the_image_the_kernel_drew(lab, listener):
    lab.say("chart")
    drawn = lab.root.locator("[data-dial-render=chart] [data-dial-chart=drawn] img")
    expect(drawn).to_be_visible(timeout=30000)
    assert drawn.get_attribute("src").startswith("data:image/png;base64,")
    assert drawn.get_attribute("alt") == "Units sold by region:"
    size = drawn.evaluate("img => [img.naturalWidth, img.naturalHeight, img.width, img.height]")
    assert size[0] == 2 * size[2] and size[1] == 2 * size[3]  # decoded, shown at its size
    assert 380 <= size[2] <= 480 and 200 <= size[3] <= 320
    inform = lab.root.locator("[data-dial-render=chart]").first
    expect(inform.locator(".dial-prose")).to_have_text("Units sold by region:")
    lab.shot("vegalite-chart", inform)
    # nothing of Vega ran in the page: the chart is a plain image
    assert lab.root.locator("[data-dial-render=chart] svg, [data-dial-render=chart] canvas"
                            ).count() == 0


def test_a_chart_naming_a_data_url_shows_the_refusal_and_nothing_is_fetched(lab, listener):
    refused = lab.root.locator("[data-dial-render=chart]").nth(1)
    note = refused.locator("[data-dial-chart=not-drawn]")
    expect(note).to_have_text(
        f"The chart was not drawn: it names data.url '{listener['url']}/sales.csv'; only "
        "inline values are drawn.")
    spec = refused.locator(".dial-disclosed")
    expect(spec).to_be_hidden()  # the spec is collapsed
    toggle = refused.locator("[data-dial-toggle=chart-spec]")
    expect(toggle).to_have_attribute("aria-expanded", "false")
    lab.shot("vegalite-refused", refused)
    toggle.click()
    expect(spec).to_be_visible()
    expect(spec).to_contain_text(f"{listener['url']}/sales.csv")
    lab.shot("vegalite-refused-open", refused)
    assert listener["hits"] == 0  # neither the kernel nor the page contacted it
    assert not [url for url in lab.requests if url.startswith(listener["url"])]


def test_an_actions_vega_lite_result_is_drawn_on_its_card(browser_context):
    spec = {"data": {"values": [{"k": "a", "v": 2}, {"k": "b", "v": 3}]}, "mark": "bar",
            "encoding": {"x": {"field": "k", "type": "nominal"},
                         "y": {"field": "v", "type": "quantitative"}}}
    card = {"type": "suggestion", "id": "p1", "action": "plot", "text": "A chart?",
            "payload": {"frame": "sales"}, "preview": "Plot units by region",
            "destructive": False, "mutates": False}
    done = with_chart({"type": "outcome", "id": "p1", "action": "plot", "status": "done",
                       "preview": "Plot units by region", "result": {"vega_lite": spec}},
                      wait=START_SECONDS)  # not on a kernel's loop: it may wait for a start
    refused = with_chart({**done, "id": "p2", "result": {
        "vega_lite": {**spec, "data": {"url": "https://example.com/x.csv"}}}})
    page = mount_widget(browser_context, {"transcript": [
        card, done, {**card, "id": "p2"}, refused]})
    try:
        first = page.locator('[data-dial-suggestion="p1"]')
        image = first.locator("[data-dial-chart=drawn] img")
        expect(image).to_be_visible()
        assert image.evaluate("img => img.naturalWidth") == 2 * int(image.get_attribute("width"))
        second = page.locator('[data-dial-suggestion="p2"]')
        expect(second.locator("[data-dial-chart=not-drawn]")).to_contain_text(
            "it names data.url 'https://example.com/x.csv'")
        page.locator("[data-dial-root]").first.screenshot(
            path=str(OUTPUT / "lab-vegalite-result-cards.png"))
    finally:
        page.close()
