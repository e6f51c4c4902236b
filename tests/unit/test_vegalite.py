"""Vega-Lite charts are drawn in the kernel, and nothing a spec names is fetched or read: a good
spec becomes a PNG; every way to name a URL or a file is refused with a note saying what it
named, and a real listener on 127.0.0.1 sees no request; a huge spec, a slow one and a broken
one are bounded and say why; without vl-convert-python the note says how to install it; the
widget's copy of the event carries the chart, and the runtime's stays as it was."""

from __future__ import annotations

import asyncio
import base64
import json
import socket
import struct
import threading
import time
import urllib.request
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
import vl_convert  # noqa: F401  (the test extra: the tests fail, never skip, without it)

from dial_notebook.agents import ScriptedAgent
from dial_notebook.domains._charts import MAX_SPEC_ROWS, vegalite_spec
from dial_notebook.domains.notes import NotesDomain
from dial_notebook.widget import ChatWidget, _vegalite
from dial_notebook.widget._session import widget_transcript
from dial_notebook.widget._static import conversation_html
from dial_notebook.widget._vegalite import (
    DRAWING,
    MAX_ROWS,
    START_SECONDS,
    STARTING,
    VEGA_LITE_TYPE,
    draw,
    is_vega_lite,
    refusal,
    with_chart,
)
from tests.stall_watchdog import held_seconds

BARS = {"$schema": "https://vega.github.io/schema/vega-lite/v5.json",
        "data": {"values": [{"fruit": "apple", "n": 3}, {"fruit": "pear", "n": 5}]},
        "mark": "bar", "encoding": {"x": {"field": "fruit", "type": "nominal"},
                                    "y": {"field": "n", "type": "quantitative"}}}
#: A regular expression that backtracks for ever: the render never ends by itself.
SLOW = {"data": {"values": [{"s": "a" * 40 + "!"}]},
        "transform": [{"calculate": "test(/(a+)+$/, datum.s)", "as": "t"}],
        "mark": "point", "encoding": {"x": {"field": "t", "type": "nominal"}}}


@pytest.fixture(autouse=True)
def fresh_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test has the kernel's whole drawing time (a slow test does not spend another's)."""
    monkeypatch.setattr(_vegalite, "_clock", _vegalite._Clock())


@pytest.fixture(autouse=True)
def ready_worker() -> None:
    """Each test starts with the renderer up (its start is tested on a worker of its own) and
    free: no chart of an earlier test still being drawn off the loop."""
    assert _vegalite._worker.wait_ready(START_SECONDS + 5)
    for _ in range(int(START_SECONDS * 100)):
        if not _vegalite._later.pending:
            break
        time.sleep(0.01)


@pytest.fixture
def listener() -> Iterator[SimpleNamespace]:
    """A real HTTP listener on 127.0.0.1 that counts the connections made to it."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    server.settimeout(0.1)
    hits: list[bytes] = []
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                connection, _ = server.accept()
            except OSError:
                continue
            with connection:
                connection.settimeout(1)
                try:
                    hits.append(connection.recv(4096))
                except OSError:
                    hits.append(b"")
                connection.sendall(b"HTTP/1.0 200 OK\r\nContent-Type: text/csv\r\n"
                                   b"Content-Length: 8\r\n\r\na,b\n1,2\n")

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{server.getsockname()[1]}"
    try:
        yield SimpleNamespace(url=url, hits=hits)
    finally:
        stop.set()
        thread.join(2)
        server.close()


def png_size(src: str) -> tuple[int, int]:
    head, data = src.split(",", 1)
    assert head == "data:image/png;base64"
    png = base64.b64decode(data)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    return struct.unpack(">II", png[16:24])


# ---- a good spec is drawn --------------------------------------------------------------------

def test_a_good_spec_becomes_a_png_data_url_at_twice_its_css_size():
    chart = draw(BARS, alt="Fruit")
    assert set(chart) == {"src", "copy", "width", "height", "alt"}, chart.get("error")
    assert chart["alt"] == "Fruit"
    assert png_size(chart["src"]) == (2 * chart["width"], 2 * chart["height"])
    assert 50 < chart["width"] < 400 and 50 < chart["height"] < 400


def test_a_spec_is_recognised_by_its_schema_or_its_marks():
    assert is_vega_lite(BARS) and is_vega_lite({"layer": []})
    assert is_vega_lite({"facet": {"field": "a"}, "spec": {"mark": "bar"}})
    assert not is_vega_lite({"$schema": "https://vega.github.io/schema/vega/v5.json",
                             "mark": "x"})
    assert not is_vega_lite({"png": "iVBOR"}) and not is_vega_lite("mark")


# ---- nothing a spec names is fetched or read ----------------------------------------------------

def url_specs(url: str) -> dict[str, tuple[dict[str, Any], str]]:
    """Every way a spec can name something to load, and what the note must say."""
    values = {"values": [{"a": 1, "u": f"{url}/i.png"}]}
    point = {"mark": "point", "encoding": {"x": {"field": "a", "type": "quantitative"}}}
    return {
        "data.url": ({**point, "data": {"url": f"{url}/data.csv"}},
                     f"it names data.url '{url}/data.csv'; only inline values are drawn."),
        "file": ({**point, "data": {"url": "file:///etc/passwd", "format": {"type": "csv"}}},
                 "data.url 'file:///etc/passwd'"),
        "relative file": ({**point, "data": {"url": "secrets.csv"}}, "data.url 'secrets.csv'"),
        "a layer": ({"layer": [{**point, "data": values}, {**point, "data": {"url": url}}]},
                    "(at layer[1].data.url)"),
        "hconcat": ({"hconcat": [{**point, "data": {"url": url}}]}, "hconcat[0].data.url"),
        "vconcat": ({"vconcat": [{**point, "data": {"url": url}}]}, "vconcat[0].data.url"),
        "concat": ({"concat": [{**point, "data": {"url": url}}]}, "concat[0].data.url"),
        "facet": ({"data": {"url": url}, "facet": {"row": {"field": "a"}}, "spec": point},
                  "data.url"),
        "repeat": ({"repeat": ["a"], "spec": {**point, "data": {"url": url}}},
                   "spec.data.url"),
        "lookup": ({**point, "data": values, "transform": [
            {"lookup": "a", "from": {"data": {"url": f"{url}/more.csv"}, "key": "a",
                                     "fields": ["b"]}}]},
                   "(at transform[0].from.data.url)"),
        "topojson": ({"mark": "geoshape", "data": {"url": f"{url}/world.json",
                                                   "format": {"type": "topojson"}}},
                     "data.url"),
        "datasets": ({**point, "data": {"name": "d"}, "datasets": {"d": {"url": url}}},
                     "(at datasets.d.url)"),
        "image mark": ({"mark": "image", "data": values,
                        "encoding": {"url": {"field": "u", "type": "nominal"}}},
                       "an image mark"),
        "image mark object": ({"mark": {"type": "image", "width": 20}, "data": values},
                              "an image mark (at mark)"),
        "url channel": ({**point, "data": values,
                         "encoding": {"url": {"value": f"{url}/i.png"}}},
                        "a url"),
        "href channel": ({**point, "data": values,
                          "encoding": {"href": {"field": "u", "type": "nominal"}}},
                         "a link (href at encoding.href)"),
        "href in mark": ({**point, "mark": {"type": "point", "href": url}, "data": values},
                         "a link (href at mark.href)"),
        "href in config": ({**point, "data": values, "config": {"mark": {"href": url}}},
                           "href at config.mark.href"),
        "loader": ({**point, "data": values, "usermeta": {"loader": {"baseURL": url}}},
                   "a loader (at usermeta.loader)"),
    }


@pytest.mark.parametrize("case", list(url_specs("http://127.0.0.1:1")))
def test_every_way_to_name_a_url_or_file_is_refused_and_nothing_is_requested(case, listener):
    spec, said = url_specs(listener.url)[case]
    chart = draw(spec)
    assert set(chart) == {"error"}
    assert chart["error"].startswith("The chart was not drawn: ")
    assert said in chart["error"]
    time.sleep(0.05)
    assert listener.hits == []


def test_the_listener_does_count_a_request(listener):
    with urllib.request.urlopen(f"{listener.url}/x.csv", timeout=5) as response:
        assert response.read() == b"a,b\n1,2\n"
    assert len(listener.hits) == 1


def test_even_a_url_let_through_is_not_loaded_by_vl_convert(listener):
    """The refusals come first; under them vl-convert itself is told to load no URL."""
    spec = {"mark": "point", "data": {"url": f"{listener.url}/data.csv"},
            "encoding": {"x": {"field": "a", "type": "quantitative"}}}
    answer = _vegalite._worker.draw(spec, 5.0)  # past refusal(), straight to the renderer
    assert "error" in answer and "not allowed" in answer["error"]
    time.sleep(0.05)
    assert listener.hits == []


def test_a_url_inside_inline_values_is_data_and_is_drawn():
    spec = {**BARS, "data": {"values": [{"fruit": "http://127.0.0.1:1/x", "n": 1}]}}
    assert refusal(spec) is None
    assert "src" in draw(spec)


# ---- bounded: size, rows, work, time ------------------------------------------------------------

@pytest.mark.parametrize(("spec", "said"), [
    ({**BARS, "data": {"values": [{"n": i} for i in range(MAX_ROWS + 1)]}},
     "more than 5,000 rows of data (at data.values)"),
    ({**BARS, "datasets": {"a": [{"n": 1}] * 3000, "b": [{"n": 2}] * 3000}},
     "more than 5,000 rows"),
    ({**BARS, "data": {"sequence": {"start": 0, "stop": 10_000_000, "as": "n"}}},
     "rows of data (at data.sequence)"),
    ({**BARS, "transform": [{"impute": "n", "key": "fruit",
                             "keyvals": {"start": 0, "stop": 1e9}}]},
     "(at transform[0].keyvals)"),
    ({**BARS, "data": {"values": "x" * 1_100_000}}, "characters long; at most 1,000,000"),
    ({**BARS, "usermeta": json.loads("[" * 80 + "]" * 80)}, "nests deeper than 64 levels"),
    ({**BARS, "width": 100_000}, "width 100,000 px"),
    ({**BARS, "encoding": {**BARS["encoding"], "y": {"field": "n", "type": "quantitative",
                                                     "axis": {"tickCount": 1e9}}}},
     "tickCount is 1,000,000,000"),
    ({**BARS, "transform": [{"density": "n", "steps": 10**8}]}, "steps is 100,000,000"),
    ("a spec", "a Vega-Lite spec is a JSON object"),
])
def test_a_huge_spec_is_refused_at_once_saying_what_is_too_big(spec, said, monkeypatch):
    drawn: list[Any] = []
    monkeypatch.setattr(_vegalite._worker, "draw", lambda *args: drawn.append(args) or {})
    chart, seconds = held_seconds(lambda: draw(spec))
    assert drawn == [] and seconds < 2  # refused before anything is drawn (a busy machine's
    # wait for a CPU is not counted: tests/stall_watchdog.py)
    assert chart["error"].startswith("The chart was not drawn: ") and said in chart["error"]


def test_a_slow_spec_is_stopped_at_its_time_and_the_kernel_is_free_meanwhile(monkeypatch):
    ticks: list[float] = []
    done = threading.Event()

    def tick() -> None:  # another thread of the kernel keeps running while the chart is drawn
        while not done.is_set():
            ticks.append(time.monotonic())
            time.sleep(0.05)

    ticker = threading.Thread(target=tick, daemon=True)
    draw(BARS)  # the worker is up
    monkeypatch.setattr(_vegalite, "_clock", _vegalite._Clock())  # its start spent none of it
    ticker.start()
    started = time.monotonic()
    try:
        chart = draw(SLOW, timeout=1.0)
    finally:
        done.set()
        ticker.join()
    took = time.monotonic() - started
    assert chart == {"error": "The chart was not drawn: drawing it took longer than 1.0 s."}
    assert took > 0.9  # SLOW never ends by itself: the error says it was stopped at its time
    assert len(ticks) >= 5  # vl-convert holds the GIL: in a thread this would be ~0
    assert "src" in draw(BARS, wait=START_SECONDS)  # a new worker draws the next chart


def test_charts_share_the_kernels_drawing_time(monkeypatch):
    clock = _vegalite._Clock()
    monkeypatch.setattr(_vegalite, "_clock", clock)
    clock.spend(_vegalite.DRAWING_SECONDS)
    refused = draw(BARS)
    assert "drawing time" in refused["error"]
    clock._at -= 2.0  # two seconds later: one second back
    assert "src" in draw(BARS)


def test_a_broken_spec_shows_its_error_and_its_json_collapsed():
    broken = {"mark": "no-such-mark", "data": {"values": [{"a": 1}]}}
    chart = draw(broken)
    assert chart["error"].startswith("The chart could not be drawn: ")
    assert "conversion failed" in chart["error"] and "\n" not in chart["error"]
    event = {"type": "inform", "text": "Oops", "render": "chart", "payload": broken}
    page = conversation_html([with_chart(event)])
    assert "The chart could not be drawn" in page
    assert '<details class="dial-chart-spec"><summary>Vega-Lite specification</summary>' in page
    assert "no-such-mark" in page


def test_without_vl_convert_the_note_says_how_to_install_it(monkeypatch):
    monkeypatch.setattr(_vegalite, "installed", lambda: False)
    chart = draw(BARS)
    assert chart == {"error": "The chart was not drawn: vl-convert-python is not installed "
                              "(pip install dial-notebook[charts] to draw Vega-Lite charts)."}
    page = conversation_html([{"type": "inform", "text": "", "render": "chart",
                               "payload": BARS, "chart": chart}])
    assert "pip install dial-notebook[charts]" in page and "&quot;fruit&quot;" in page


# ---- where the chart goes ----------------------------------------------------------------------

def test_the_widgets_copy_gets_the_chart_and_the_runtimes_event_stays():
    event = {"type": "inform", "text": "Fruit", "act": "inform", "render": "chart",
             "payload": BARS}
    copy = with_chart(event)
    assert "chart" not in event and copy["chart"]["alt"] == "Fruit"
    assert with_chart({**event, "render": "prose"}) == {**event, "render": "prose"}
    outcome = {"type": "outcome", "id": "p", "action": "plot", "status": "done",
               "preview": "Plot", "result": {"vega_lite": BARS}}
    drawn = with_chart(outcome)
    assert "chart" not in outcome["result"] and png_size(drawn["result"]["chart"]["src"])
    card = {"type": "suggestion", "id": "p", "action": "plot", "text": "", "payload": {},
            "preview": "Plot", "destructive": False, "mutates": False}
    page = conversation_html([card, drawn])
    assert '<figure class="dial-figure dial-chart"><img src="data:image/png;base64,' in page


async def test_a_chat_widget_shows_a_chart_inform_drawn_and_its_runtime_keeps_the_spec():
    reply = ('<dial version="0.1" actor="agent"><dial-inform render="chart">Fruit sold'
             f'<dial-payload type="{VEGA_LITE_TYPE}">{json.dumps(BARS)}</dial-payload>'
             "</dial-inform></dial>")
    chat = ChatWidget(agent=ScriptedAgent([reply]), domain=NotesDomain())
    await chat.say("chart please")
    inform = next(e for e in chat.transcript if e["type"] == "inform")
    assert inform["payload"] == BARS and inform["chart"]["alt"] == "Fruit sold"
    assert png_size(inform["chart"]["src"])
    runtime = next(e for e in chat._conversation.transcript if e["type"] == "inform")
    assert "chart" not in runtime
    # a saved session read back off the loop (the command line's export) draws it again
    again = widget_transcript({"transcript": [runtime]}, draw_charts=True)
    assert again[0]["chart"]["width"] == inform["chart"]["width"]


# ---- the data-frames domain's spec --------------------------------------------------------------

def test_a_frames_spec_has_its_values_inline_sampled_and_is_drawn():
    import pandas as pd
    frame = pd.DataFrame({"a.b": range(12_000), "price [€]": [i % 7 for i in range(12_000)]})
    spec = vegalite_spec(frame, "a.b", "price [€]", "scatter")
    assert len(spec["data"]["values"]) == MAX_SPEC_ROWS == MAX_ROWS
    assert spec["data"]["values"][0].keys() == {"x", "y"}  # a dot in a name is not a path
    assert spec["encoding"]["x"]["title"] == "a.b"
    assert spec["title"]["subtitle"] == "a sample of 5,000 of 12,000 rows"
    # drawable (its speed on a loaded machine is the benchmark's): off the loop, time to spare
    assert refusal(spec) is None and "src" in draw(spec, timeout=10.0, wait=START_SECONDS)
    hist = vegalite_spec(frame, "price [€]", kind="hist", bins=7)
    assert sum(row["count"] for row in hist["data"]["values"]) == 12_000  # every row counted
    assert "subtitle" not in hist["title"] and "src" in draw(hist, timeout=10.0,
                                                              wait=START_SECONDS)
    dates = pd.DataFrame({"day": pd.date_range("2026-01-01", periods=3), "n": [1, None, 3]})
    line = vegalite_spec(dates, "day", "n", "line")
    assert line["encoding"]["x"]["type"] == "temporal"
    assert line["data"]["values"][1] == {"x": "2026-01-02T00:00:00.000", "y": None}


def test_a_renderer_that_cannot_start_is_one_charts_note_not_an_error(monkeypatch):
    def no_worker(*_args: Any, **_kwargs: Any) -> Any:
        raise OSError("no interpreter")

    monkeypatch.setattr(_vegalite._worker, "draw", no_worker)
    assert draw(BARS) == {"error": "The chart could not be drawn: OSError: no interpreter"}


def test_a_renderer_that_dies_mid_chart_is_that_charts_note_and_the_next_is_drawn():
    """As when V8 runs out of memory and aborts: the worker's end, not the kernel's."""
    draw(BARS)
    process = _vegalite._worker._process
    assert process is not None
    threading.Timer(0.3, process.kill).start()
    chart = draw(SLOW, timeout=4.0)
    assert chart["error"].startswith("The chart could not be drawn: the renderer stopped")
    assert "src" in draw(BARS, wait=START_SECONDS)


# ---- the kernel's loop never waits for the renderer to start --------------------------------------

SLOW_START = "import time; time.sleep(1.5)\n"  # a start slower than any on this machine


@pytest.fixture
def cold(monkeypatch: pytest.MonkeyPatch) -> _vegalite._Worker:
    """A renderer of its own, not started yet, whose start takes at least 1.5 s."""
    worker = _vegalite._Worker()
    monkeypatch.setattr(_vegalite, "_WORKER", SLOW_START + _vegalite._WORKER)
    monkeypatch.setattr(_vegalite, "_worker", worker)
    yield worker
    worker.stop()


class Heartbeat:
    """Ticks on the event loop every 10 ms: a loop that is held does not tick."""

    def __init__(self) -> None:
        self.ticks = 0
        self.task = asyncio.get_running_loop().create_task(self._beat())

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(0.01)
            self.ticks += 1


def chart_inform(spec: dict[str, Any] = BARS) -> dict[str, Any]:
    return {"type": "inform", "text": "Fruit", "act": "inform", "render": "chart",
            "payload": spec}


async def later_future() -> tuple[asyncio.Future[dict[str, Any]], Any]:
    future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
    threads: list[int] = []

    def done(copy: dict[str, Any]) -> None:
        threads.append(threading.get_ident())
        future.set_result(copy)

    return future, (done, threads)


async def test_a_cold_renderer_starts_off_the_loop_and_the_chart_is_drawn_later(cold):
    beat = Heartbeat()
    future, (done, threads) = await later_future()
    copy = with_chart(chart_inform(), later=done)
    assert copy["chart"] == {"error": DRAWING}  # returned without waiting for the start
    assert not cold.ready
    drawn = await asyncio.wait_for(future, 60)
    beat.task.cancel()
    assert png_size(drawn["chart"]["src"]) and drawn["chart"]["alt"] == "Fruit"
    assert beat.ticks >= 20  # the loop went on while the renderer started (>= 1.5 s)
    assert threads == [threading.get_ident()]  # handed back on the loop's own thread
    assert cold.starts == 1


def test_without_later_a_cold_renderer_is_a_note_and_the_next_chart_is_drawn(cold):
    assert draw(BARS) == {"error": STARTING}
    assert not cold.ready and cold.starts <= 1
    assert cold.wait_ready(START_SECONDS + 5)
    assert "src" in draw(BARS) and cold.starts == 1


async def test_a_killed_renderer_is_started_again_in_the_background_not_by_the_next_chart():
    worker = _vegalite._worker
    starts = worker.starts
    assert draw(SLOW, timeout=1.0)["error"].endswith("took longer than 1.0 s.")
    assert worker.ready or worker._start.is_alive()  # a start underway, asked by no chart
    future, (done, _) = await later_future()
    copy = with_chart(chart_inform(), later=done)  # right after the kill: never waits
    if copy["chart"] == {"error": DRAWING}:
        copy = await asyncio.wait_for(future, 60)
    assert "src" in copy["chart"]
    assert "src" in with_chart(chart_inform())["chart"]  # warm: drawn at once
    assert worker.starts == starts + 1  # one start, made by the kill, not by a chart


async def test_charts_past_the_kernels_drawing_time_are_drawn_later_off_the_loop(monkeypatch):
    clock = _vegalite._Clock()
    monkeypatch.setattr(_vegalite, "_clock", clock)
    clock.spend(_vegalite.DRAWING_SECONDS)
    future, (done, _) = await later_future()
    assert with_chart(chart_inform(), later=done)["chart"] == {"error": DRAWING}
    assert "src" in (await asyncio.wait_for(future, 60))["chart"]


async def test_a_saved_sessions_charts_are_drawn_off_the_loop_and_put_in_place(
        tmp_path, monkeypatch):
    reply = ('<dial version="0.1" actor="agent"><dial-inform render="chart">Fruit sold'
             f'<dial-payload type="{VEGA_LITE_TYPE}">{json.dumps(BARS)}</dial-payload>'
             "</dial-inform></dial>")
    path = tmp_path / "charts.json"
    first = ChatWidget(agent=ScriptedAgent([reply]), domain=NotesDomain(), session=path)
    await first.say("chart please")
    first._saver.save()
    first.close()
    loop_thread = threading.get_ident()
    drawn_on: list[int] = []
    original = _vegalite._worker.draw

    def recording(*args: Any, **kwargs: Any) -> Any:
        drawn_on.append(threading.get_ident())
        return original(*args, **kwargs)

    monkeypatch.setattr(_vegalite._worker, "draw", recording)
    again = ChatWidget(agent=ScriptedAgent([reply]), domain=NotesDomain(), session=path)
    (inform,) = [e for e in again.transcript if e["type"] == "inform"]
    assert inform["chart"] == {"error": DRAWING}  # the reload drew nothing on the loop
    for _ in range(600):
        (inform,) = [e for e in again.transcript if e["type"] == "inform"]
        if "src" in inform["chart"]:
            break
        await asyncio.sleep(0.05)
    assert png_size(inform["chart"]["src"]) and inform["chart"]["alt"] == "Fruit sold"
    assert drawn_on and loop_thread not in drawn_on
    again.close()


async def test_not_now_even_the_check_of_a_spec_is_left_to_the_drawer_off_the_loop():
    refused = chart_inform({"mark": "bar", "data": {"url": "x.csv"}})
    assert with_chart(refused, later=lambda _copy: None)["chart"]["error"].startswith(
        "The chart was not drawn: it names data.url")  # now: said at once
    future, (done, _) = await later_future()
    assert with_chart(refused, later=done, now=False)["chart"] == {"error": DRAWING}
    copy = await asyncio.wait_for(future, 60)
    assert copy["chart"]["error"].startswith("The chart was not drawn: it names data.url")
    assert "chart" not in with_chart(chart_inform(), now=False)  # nothing to draw it: the spec


async def test_a_chat_widgets_first_chart_on_a_cold_renderer_is_put_in_place_once_drawn(cold):
    reply = ('<dial version="0.1" actor="agent"><dial-inform render="chart">Fruit sold'
             f'<dial-payload type="{VEGA_LITE_TYPE}">{json.dumps(BARS)}</dial-payload>'
             "</dial-inform></dial>")
    chat = ChatWidget(agent=ScriptedAgent([reply]), domain=NotesDomain())
    changes: list[Any] = []
    chat.observe(changes.append, names="transcript")
    await chat.say("chart please")
    where = next(n for n, e in enumerate(chat.transcript) if e["type"] == "inform")
    assert chat.transcript[where]["chart"] == {"error": DRAWING}  # the say did not wait
    before = len(changes)
    for _ in range(1200):
        if "src" in chat.transcript[where]["chart"]:
            break
        await asyncio.sleep(0.05)
    assert png_size(chat.transcript[where]["chart"]["src"])
    assert len(changes) == before + 1  # put in place in one change of the trait
    chat.close()


def test_a_chart_png_is_stored_compressed_and_its_pixels_are_vl_converts():
    """vl-convert's PNGs are deflated for speed (a 200-point line chart: about 640 KB); the
    drawer deflates them again, losslessly, before they travel, are kept and saved."""
    import io
    import random

    import vl_convert as vlc
    from PIL import Image

    rng = random.Random(7)
    line = {"data": {"values": [{"x": i, "y": rng.random()} for i in range(200)]},
            "mark": "line", "width": 480, "height": 300,
            "encoding": {"x": {"field": "x", "type": "quantitative"},
                         "y": {"field": "y", "type": "quantitative"}}}
    chart = draw(line, alt="Line")
    png = base64.b64decode(chart["src"].split(",", 1)[1])
    original = vlc.svg_to_png(vlc.vegalite_to_svg(line, allowed_base_urls=[]), scale=2)
    assert len(png) < len(original) / 4, (len(png), len(original))
    assert Image.open(io.BytesIO(png)).tobytes() == Image.open(io.BytesIO(original)).tobytes()
