"""Vega-Lite charts, drawn in the kernel as PNG images: the agent's spec never runs in the
browser, and nothing it names is fetched or read.

    chart inform (render="chart", a Vega-Lite payload)  ─┐
    an action's result {"vega_lite": spec, …}           ─┴▶ with_chart(event): the widget's copy
        refusal(spec): a url or file anywhere, an image mark, a link, a loader, more than
            MAX_ROWS rows, a spec over MAX_SPEC_CHARS / MAX_DEPTH ─▶ {"error": "The chart was
            not drawn: it names data.url 'http://…'; only inline values are drawn."}
        vl-convert-python missing ─▶ {"error": "… pip install dial-notebook[charts] …"}
        the worker not started yet, or busy, or the kernel's drawing time used up ─▶ with
            ``later`` (the widget): {"error": "Drawing the chart…"} now, and the chart drawn
            off the loop and handed back (the widget puts it in place); without: a note
        draw(spec) in a worker process: SVG ─▶ sized to fit MAX_WIDTH × MAX_HEIGHT ─▶ PNGs
            ─▶ {"src": "data:image/png;base64,…", "copy": "data:image/png;base64,…", "width",
               "height", "alt"} (CSS pixels; ``src`` has twice as many, for sharp screens;
               ``copy``, one per CSS pixel, is what the notebook's static copy shows; no
               ``copy`` when ``src`` itself is one per CSS pixel, the sharp one too large)
            past RENDER_SECONDS ─▶ the worker is killed ─▶ {"error": "…took longer than 2 s"}
            vl-convert's own error ─▶ {"error": "The chart could not be drawn: …"}

The runtime's event stays as it is; the front end (js/src/inform.js) and the static copy
(_static.py) draw ``chart``: the image, or the note with the spec collapsed under it. The
front end never gets ``copy`` (``for_front_end``: the widget's append messages and its trait
drop it); the kernel's transcript keeps it for the static copy. An outcome's chart that ends
undrawn (at once or late) is handed to ``not_drawn``: the widget tells the conversation, and
the agent gets one line with the next message the person sends (runtime/_told_later.py), so it
is never left believing a chart was drawn.

Where each part lives: ``_vegalite_refusal.py`` says what is a Vega-Lite spec and which are
refused (nothing a spec names is loaded); ``_vegalite_worker.py`` is the process that draws
(why a process, not a thread; started in the background and kept; killed past a chart's time);
``_vegalite_later.py`` shares the kernel's drawing time (DRAWING_SECONDS, refilled at half a
second per second) and draws what does not fit later, off the loop, one chart at a time. A
saved session's charts are all drawn off the loop (``now=False``), never on it. This module
decides, per chart, which applies, and is the face the widget, the session and tests use.
"""

from __future__ import annotations

import atexit
import importlib.util
import time
from collections.abc import Callable, Mapping
from typing import Any

from ._vegalite_later import DRAWING_SECONDS, Clock, Later
from ._vegalite_refusal import MAX_ROWS as MAX_ROWS  # the limits of a spec, read by tests
from ._vegalite_refusal import NOT_DRAWN, is_vega_lite, refusal
from ._vegalite_worker import SCRIPT, START_SECONDS, Worker

__all__ = ["DRAWING", "INSTALL", "STARTING", "VEGA_LITE_TYPE", "draw", "drawing_later",
           "for_front_end", "is_vega_lite", "refusal", "warm", "with_chart"]

VEGA_LITE_TYPE = "application/vnd.vegalite+json"
INSTALL = "pip install dial-notebook[charts] to draw Vega-Lite charts"
#: Longest one chart is drawn (seconds).
RENDER_SECONDS = 2.0
#: A chart's note while it is drawn off the loop (``with_chart(..., later=…)``).
DRAWING = "Drawing the chart…"
#: A chart's note when the renderer is starting and nothing will draw it later.
STARTING = (NOT_DRAWN + "the chart renderer is starting (once per kernel, a few seconds); "
            "the next chart is drawn.")


# ---- drawing -------------------------------------------------------------------------------------

def installed() -> bool:
    """Whether vl-convert-python is there to draw with (found, not imported)."""
    try:
        return importlib.util.find_spec("vl_convert") is not None
    except (ImportError, ValueError):  # a module entry that is None, or a broken one
        return False


def draw(spec: Any, *, alt: str = "", timeout: float = RENDER_SECONDS,
         wait: float = 0.0) -> dict[str, Any]:
    """The chart of ``spec``: ``{"src": "data:image/png;base64,…", "copy": …, "width",
    "height", "alt"}`` (width and height in CSS pixels; ``src`` has twice as many pixels,
    ``copy`` — the notebook's static copy shows it — one per CSS pixel, and is left out when
    ``src`` is itself one per CSS pixel), or ``{"error": "…"}`` saying why it was not drawn.

    It never waits for the renderer to start unless ``wait`` says how long it may (off the
    kernel's loop: the command line, a background thread): a renderer not yet running is
    started in the background and the note says so (``with_chart`` can draw it later).

        >>> draw({"mark": "point", "data": {"url": "/etc/passwd"}})
        {'error': "The chart was not drawn: it names data.url '/etc/passwd'; only inline values are drawn."}
    """
    chart, _ = _attempt(spec, alt, timeout, wait)
    return chart


def _attempt(spec: Any, alt: str, timeout: float, wait: float, *,
             now: bool = True) -> tuple[dict[str, Any], bool]:
    """(the chart or why not, whether it can be drawn later: the renderer is starting or busy,
    or the kernel's drawing time is used up, or not ``now``). ``wait`` 0: on the kernel's
    loop, never waits for a start, never queues behind another chart, spends the kernel's
    drawing time. Not ``now`` (a saved session's charts, thousands maybe): not even the spec
    is checked here, the drawer does it."""
    if not now:
        return {"error": DRAWING}, True
    refused = refusal(spec)
    if refused:
        return {"error": refused}, False
    if not installed():
        return {"error": NOT_DRAWN + f"vl-convert-python is not installed ({INSTALL})."}, False
    on_loop = wait <= 0
    if on_loop and not _worker.ready:
        failed = _worker.failed
        _worker.warm()  # in the background: the loop never waits for Python, V8 and the fonts
        return {"error": failed or STARTING}, failed is None
    if not on_loop and not _worker.wait_ready(wait):
        return {"error": _worker.failed or NOT_DRAWN + "the chart renderer did not start."}, False
    seconds = _clock.take(timeout) if on_loop else timeout
    if seconds is None:
        return {"error": NOT_DRAWN + "charts have had the kernel's drawing time for now "
                f"({DRAWING_SECONDS:g} s); it comes back within seconds."}, True
    started = time.monotonic()
    try:
        answer = _worker.draw(spec, seconds, blocking=not on_loop)
    except Exception as error:  # no worker could start (no interpreter, no memory): one note
        answer = {"error": f"The chart could not be drawn: {type(error).__name__}: {error}"}
    finally:
        if on_loop:
            _clock.spend(time.monotonic() - started)
    if answer.get("busy"):
        return {"error": NOT_DRAWN + "another chart is still being drawn."}, True
    if "error" in answer:
        return {"error": str(answer["error"])}, False
    chart = {"src": f"data:image/png;base64,{answer['png']}", "width": int(answer["width"]),
             "height": int(answer["height"]), "alt": alt or _title(spec) or "A Vega-Lite chart"}
    if isinstance(answer.get("copy"), str):  # one pixel per CSS pixel: the static copy's
        chart["copy"] = f"data:image/png;base64,{answer['copy']}"
    return chart, False


def warm() -> None:
    """Start the chart renderer in the background, if vl-convert-python is installed (returns
    at once; the first chart is then drawn without a wait): e.g. ``warm()`` in a notebook's
    first cell, when its conversation will chart."""
    if installed():
        _worker.warm()


def drawing_later() -> int:
    """How many charts are being drawn off the loop (asked for, not yet handed back)."""
    return _later.pending


def with_chart(event: dict[str, Any], *, later: Callable[[dict[str, Any]], None] | None = None,
               now: bool = True, wait: float = 0.0,
               not_drawn: Callable[[str], None] | None = None) -> dict[str, Any]:
    """The widget's copy of ``event`` with its chart drawn (``event`` itself when it has none):
    an inform with ``render="chart"`` and a Vega-Lite payload gets ``chart``; an outcome whose
    result holds ``vega_lite`` gets ``result.chart``.

    With ``later``, a chart that cannot be drawn at once (the renderer is starting or busy, or
    the kernel's drawing time is used up) says ``DRAWING`` and is drawn off the kernel's loop;
    ``later`` then gets the copy with the chart (on the loop that asked, when there is one).
    ``now=False`` draws nothing on this call: with ``later`` it is all drawn off the loop,
    without it the copy has no chart (the spec is shown). ``wait``: see ``draw``.
    ``not_drawn`` gets the note, once, when the chart ends undrawn (at once, or late): the
    widget tells the conversation, which owes the agent a line (runtime/_told_later.py).

        >>> with_chart({"type": "inform", "text": "hi"})
        {'type': 'inform', 'text': 'hi'}
        >>> with_chart({"type": "inform", "text": "", "render": "chart",
        ...             "payload": {"mark": "bar", "data": {"url": "x.csv"}}})["chart"]
        {'error': "The chart was not drawn: it names data.url 'x.csv'; only inline values are drawn."}
    """
    found = _chart_of(event)
    if found is None:
        return event
    spec, alt, put = found
    chart, retry = _attempt(spec, alt, RENDER_SECONDS, wait, now=now)
    if not retry or (later is None and now):
        _tell(chart, not_drawn)
        return put(chart)
    if later is None:
        return event

    def drawn(chart: dict[str, Any]) -> None:
        _tell(chart, not_drawn)
        later(put(chart))

    _later.add(spec, alt, drawn)
    return put({"error": DRAWING})


def for_front_end(event: Any) -> Any:
    """``event`` as the front end gets it: an inform's ``chart`` or an outcome's
    ``result.chart`` without its ``copy`` (only the notebook's static copy shows it). ``event``
    itself when there is nothing to drop; otherwise a copy of what changes (never mutated).

        >>> inform = {"type": "inform", "chart": {"src": "data:…", "copy": "data:…"}}
        >>> for_front_end(inform), inform["chart"]["copy"]
        ({'type': 'inform', 'chart': {'src': 'data:…'}}, 'data:…')
        >>> event = {"type": "person", "text": "hi"}
        >>> for_front_end(event) is event and for_front_end([1]) == [1]
        True
    """
    kind = event.get("type") if isinstance(event, Mapping) else None
    if kind == "inform":
        chart = event.get("chart")
        if isinstance(chart, Mapping) and "copy" in chart:
            return {**event, "chart": _without_copy(chart)}
    elif kind == "outcome":
        result = event.get("result")
        chart = result.get("chart") if isinstance(result, Mapping) else None
        if isinstance(chart, Mapping) and "copy" in chart:
            return {**event, "result": {**result, "chart": _without_copy(chart)}}
    return event


def _without_copy(chart: Mapping[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in chart.items() if key != "copy"}


def _tell(chart: dict[str, Any], not_drawn: Callable[[str], None] | None) -> None:
    """Hand an undrawn chart's note to ``not_drawn`` (a drawn one says nothing)."""
    if not_drawn is not None and "error" in chart:
        not_drawn(str(chart["error"]))


def _chart_of(event: Any) -> tuple[Any, str, Callable[[dict[str, Any]], dict[str, Any]]] | None:
    """(spec, alt text, the copy of ``event`` with a given chart) when ``event`` has a chart."""
    if not isinstance(event, Mapping):
        return None
    kind = event.get("type")
    if kind == "inform" and event.get("render") == "chart" and is_vega_lite(event.get("payload")):
        text = event.get("text")
        return (event["payload"], _clip(text) if isinstance(text, str) else "",
                lambda chart: {**event, "chart": chart})
    result = event.get("result") if kind == "outcome" else None
    if isinstance(result, Mapping) and is_vega_lite(result.get("vega_lite")):
        alt = result.get("alt")
        return (result["vega_lite"], _clip(alt) if isinstance(alt, str) else "",
                lambda chart: {**event, "result": {**result, "chart": chart}})
    return None


def _title(spec: Mapping[str, Any]) -> str:
    for key in ("description", "title"):
        value = spec.get(key)
        if isinstance(value, Mapping):
            value = value.get("text")
        if isinstance(value, list):
            value = " ".join(str(line) for line in value)
        if isinstance(value, str) and value.strip():
            return _clip(value)
    return ""


def _clip(text: str, limit: int = 200) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[:limit - 1] + "…"


class _Worker(Worker):
    """The renderer, running the code in this module's ``_WORKER`` (read at each start: a test
    or a benchmark puts a slow start in front of it)."""

    def _script(self) -> str:
        return _WORKER


#: The code the worker runs (``_vegalite_worker.SCRIPT``).
_WORKER = SCRIPT
_Clock = Clock
_clock = Clock()
_worker = _Worker()
_later = Later(lambda spec, alt: draw(spec, alt=alt, wait=START_SECONDS))
atexit.register(_worker.stop)
