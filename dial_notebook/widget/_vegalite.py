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
        draw(spec) in a worker process: SVG ─▶ sized to fit MAX_WIDTH × MAX_HEIGHT ─▶ PNG
            ─▶ {"src": "data:image/png;base64,…", "width", "height", "alt"} (CSS pixels; the
               PNG has twice as many, for sharp screens)
            past RENDER_SECONDS ─▶ the worker is killed ─▶ {"error": "…took longer than 2 s"}
            vl-convert's own error ─▶ {"error": "The chart could not be drawn: …"}

The runtime's event stays as it is; the front end (js/src/inform.js) and the static copy
(_static.py) draw ``chart``: the image, or the note with the spec collapsed under it.

Why a process, not a thread: vl-convert holds the GIL while it converts (measured: a 2.5 s
render froze every other thread throughout, so a thread's timeout never fires), and a spec
that makes its V8 run out of memory aborts the process it runs in (measured: a 3,000,000-row
``sequence``). A worker can be killed, and its end is one chart's error, not the kernel's.
The worker is started in the background (``warm``; its start — Python, V8, the fonts, a first
empty chart — takes 0.5 to 3 s, and more on a loaded machine) and kept; the kernel's loop never
waits for a start. A worker killed for a slow chart (or dead) is started again at once, in the
background, so the charts after it do not pay for a cold start on the loop. Charts drawn on the
loop share DRAWING_SECONDS of the kernel's time, refilled at half a second per second; what
does not fit is drawn later, off the loop, one chart at a time. A saved session's charts are
all drawn off the loop (``now=False``), never on it. vl-convert is also told to load
no URL at all (``allowed_base_urls=[]``); the refusals come first and say why.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import importlib.util
import json
import os
import queue
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["DRAWING", "INSTALL", "STARTING", "VEGA_LITE_TYPE", "draw", "drawing_later",
           "is_vega_lite", "refusal", "warm", "with_chart"]

VEGA_LITE_TYPE = "application/vnd.vegalite+json"
INSTALL = "pip install dial-notebook[charts] to draw Vega-Lite charts"
#: Rows of inline values (all datasets together) and generated rows (a sequence) drawn.
MAX_ROWS = 5_000
#: Characters of a spec as JSON, nesting depth, and objects and lists walked (values aside).
MAX_SPEC_CHARS = 1_000_000
MAX_DEPTH = 64
MAX_NODES = 100_000
#: Largest width or height a spec may ask for, and the largest a chart is shown (CSS px).
MAX_ASKED = 2_000
MAX_WIDTH = 1_200
MAX_HEIGHT = 1_200
#: Largest PNG kept (bytes): past it the chart is drawn at one pixel per CSS pixel.
MAX_PNG_BYTES = 1_000_000
#: Longest one chart is drawn; the kernel's drawing time in one go, refilled at REFILL / s.
RENDER_SECONDS = 2.0
#: What a new worker may take to start (Python, V8, the fonts): waited for off the loop only.
START_SECONDS = 10.0
DRAWING_SECONDS = 2.0
REFILL = 0.5
#: Caps of settings that make work out of nothing (ticks, bins, density steps).
_COUNTS = {"tickCount": 1_000, "maxbins": 1_000, "steps": MAX_ROWS, "minsteps": MAX_ROWS,
           "maxsteps": MAX_ROWS}
_NOT_DRAWN = "The chart was not drawn: "
#: A chart's note while it is drawn off the loop (``with_chart(..., later=…)``).
DRAWING = "Drawing the chart…"
#: A chart's note when the renderer is starting and nothing will draw it later.
STARTING = (_NOT_DRAWN + "the chart renderer is starting (once per kernel, a few seconds); "
            "the next chart is drawn.")


class _Refused(Exception):
    pass


# ---- what is a Vega-Lite spec, and what is refused -------------------------------------------

def is_vega_lite(value: Any) -> bool:
    """Whether ``value`` reads as a Vega-Lite spec: its ``$schema`` names Vega-Lite, or it
    has a ``mark`` (or layers, concatenations, a facet or a repeat of a spec) and no
    ``$schema`` naming something else.

        >>> is_vega_lite({"mark": "bar", "encoding": {}})
        True
        >>> is_vega_lite({"$schema": "https://vega.github.io/schema/vega/v5.json", "marks": []})
        False
        >>> is_vega_lite([1, 2])
        False
    """
    if not isinstance(value, Mapping):
        return False
    schema = value.get("$schema")
    if isinstance(schema, str) and schema:
        return "/schema/vega-lite/" in schema
    return any(key in value for key in ("mark", "layer", "concat", "hconcat", "vconcat")) or (
        "spec" in value and ("facet" in value or "repeat" in value))


def refusal(spec: Any) -> str | None:
    """Why ``spec`` is not drawn (a sentence for the person), or None when it may be.

    Only inline ``values`` are drawn: a ``url`` anywhere (data, a lookup's data, a dataset, an
    image's ``url`` channel), an ``image`` mark, an ``href`` (a link), a ``loader``; more than
    MAX_ROWS rows; a spec over MAX_SPEC_CHARS characters or MAX_DEPTH levels; a width or
    height over MAX_ASKED px; ticks, bins or steps by the million are all refused.

        >>> refusal({"mark": "bar", "data": {"values": [{"a": 1}]}}) is None
        True
        >>> refusal({"mark": "bar", "data": {"url": "http://example.com/x.csv"}})
        "The chart was not drawn: it names data.url 'http://example.com/x.csv'; only inline values are drawn."
        >>> refusal({"layer": [{"mark": "image"}]})
        'The chart was not drawn: it has an image mark (at layer[0].mark); a chart loads no images.'
    """
    try:
        _check(spec)
        size = len(json.dumps(spec))
    except _Refused as why:
        return _NOT_DRAWN + f"{why}."
    except (TypeError, ValueError, RecursionError) as error:
        return _NOT_DRAWN + f"it is not plain JSON ({type(error).__name__})."
    if size > MAX_SPEC_CHARS:
        return (_NOT_DRAWN + f"the spec is {size:,} characters long; at most "
                f"{MAX_SPEC_CHARS:,} are drawn.")
    return None


def _check(spec: Any) -> None:
    if not isinstance(spec, Mapping):
        raise _Refused("a Vega-Lite spec is a JSON object")
    rows = 0
    nodes = 0
    stack: list[tuple[Any, str, int]] = [(spec, "", 0)]
    while stack:
        value, where, depth = stack.pop()
        nodes += 1
        if nodes > MAX_NODES:
            raise _Refused(f"it has more than {MAX_NODES:,} objects and lists")
        if depth > MAX_DEPTH:
            raise _Refused(f"it nests deeper than {MAX_DEPTH} levels")
        if isinstance(value, list):
            stack.extend((item, f"{where}[{n}]", depth + 1) for n, item in enumerate(value))
            continue
        if not isinstance(value, Mapping):
            continue
        for key, item in value.items():
            path = f"{where}.{key}" if where else str(key)
            _check_key(str(key), item, path)
            if key == "values" and isinstance(item, list):
                rows += len(item)  # data rows: field names, not spec (nothing in them loads)
            elif key == "datasets" and isinstance(item, Mapping):
                for name, dataset in item.items():
                    if isinstance(dataset, list):
                        rows += len(dataset)
                    else:
                        stack.append((dataset, f"{path}.{name}", depth + 2))
            elif key in ("sequence", "keyvals") and isinstance(item, Mapping):
                rows += _sequence_rows(item, path)
            elif isinstance(item, Mapping | list):
                stack.append((item, path, depth + 1))
            if rows > MAX_ROWS:
                raise _Refused(f"it has more than {MAX_ROWS:,} rows of data (at {path}); at "
                               f"most {MAX_ROWS:,} are drawn")


def _check_key(key: str, item: Any, path: str) -> None:
    if key == "url":
        shown = _short(item)
        if path.endswith("data.url") and path.count(".") == 1:
            raise _Refused(f"it names data.url {shown}; only inline values are drawn")
        if path.endswith("data.url"):
            raise _Refused(f"it names data.url {shown} (at {path}); only inline values are "
                           "drawn")
        raise _Refused(f"it names a url {shown} (at {path}); a chart loads nothing")
    if key == "href":
        raise _Refused(f"it has a link (href at {path}); links are not drawn")
    if key == "loader":
        raise _Refused(f"it sets a loader (at {path}); a chart loads nothing")
    if key == "mark" and (item == "image" or (isinstance(item, Mapping)
                                              and item.get("type") == "image")):
        raise _Refused(f"it has an image mark (at {path}); a chart loads no images")
    if key in ("width", "height") and _number(item) and item > MAX_ASKED:
        raise _Refused(f"it asks for {key} {item:,} px (at {path}); at most {MAX_ASKED:,} px "
                       "are drawn")
    if key in _COUNTS and _number(item) and item > _COUNTS[key]:
        raise _Refused(f"{key} is {item:,} (at {path}); at most {_COUNTS[key]:,}")


def _sequence_rows(sequence: Mapping[str, Any], path: str) -> int:
    start, stop, step = sequence.get("start", 0), sequence.get("stop"), sequence.get("step", 1)
    if not (_number(start) and _number(stop) and _number(step)) or step == 0:
        return 0  # not a sequence vl-convert can make: its own error says so
    count = (stop - start) / step
    return max(0, int(count) + 1) if count < 10 * MAX_ROWS else 10 * MAX_ROWS


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _short(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, default=str)
    return repr(text if len(text) <= 80 else text[:79] + "…")


# ---- drawing -------------------------------------------------------------------------------------

def installed() -> bool:
    """Whether vl-convert-python is there to draw with (found, not imported)."""
    try:
        return importlib.util.find_spec("vl_convert") is not None
    except (ImportError, ValueError):  # a module entry that is None, or a broken one
        return False


def draw(spec: Any, *, alt: str = "", timeout: float = RENDER_SECONDS,
         wait: float = 0.0) -> dict[str, Any]:
    """The chart of ``spec``: ``{"src": "data:image/png;base64,…", "width", "height", "alt"}``
    (width and height in CSS pixels), or ``{"error": "…"}`` saying why it was not drawn.

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
        return {"error": _NOT_DRAWN + f"vl-convert-python is not installed ({INSTALL})."}, False
    on_loop = wait <= 0
    if on_loop and not _worker.ready:
        failed = _worker.failed
        _worker.warm()  # in the background: the loop never waits for Python, V8 and the fonts
        return {"error": failed or STARTING}, failed is None
    if not on_loop and not _worker.wait_ready(wait):
        return {"error": _worker.failed or _NOT_DRAWN + "the chart renderer did not start."}, False
    seconds = _clock.take(timeout) if on_loop else timeout
    if seconds is None:
        return {"error": _NOT_DRAWN + "charts have had the kernel's drawing time for now "
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
        return {"error": _NOT_DRAWN + "another chart is still being drawn."}, True
    if "error" in answer:
        return {"error": str(answer["error"])}, False
    return {"src": f"data:image/png;base64,{answer['png']}", "width": int(answer["width"]),
            "height": int(answer["height"]),
            "alt": alt or _title(spec) or "A Vega-Lite chart"}, False


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
               now: bool = True, wait: float = 0.0) -> dict[str, Any]:
    """The widget's copy of ``event`` with its chart drawn (``event`` itself when it has none):
    an inform with ``render="chart"`` and a Vega-Lite payload gets ``chart``; an outcome whose
    result holds ``vega_lite`` gets ``result.chart``.

    With ``later``, a chart that cannot be drawn at once (the renderer is starting or busy, or
    the kernel's drawing time is used up) says ``DRAWING`` and is drawn off the kernel's loop;
    ``later`` then gets the copy with the chart (on the loop that asked, when there is one).
    ``now=False`` draws nothing on this call: with ``later`` it is all drawn off the loop,
    without it the copy has no chart (the spec is shown). ``wait``: see ``draw``.

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
    if not retry:
        return put(chart)
    if later is None:
        return put(chart) if now else event
    _later.add(spec, alt, lambda chart: later(put(chart)))
    return put({"error": DRAWING})


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


class _Clock:
    """The kernel's drawing time: DRAWING_SECONDS at most in one go, refilled at REFILL a
    second; a chart may take what is left (at most its own timeout)."""

    def __init__(self) -> None:
        self._left = DRAWING_SECONDS
        self._at = time.monotonic()
        self._lock = threading.Lock()

    def take(self, timeout: float) -> float | None:
        with self._lock:
            now = time.monotonic()
            self._left = min(DRAWING_SECONDS, self._left + (now - self._at) * REFILL)
            self._at = now
            return min(timeout, self._left) if self._left >= 0.25 else None

    def spend(self, seconds: float) -> None:
        with self._lock:
            self._left -= seconds


# The worker: "ready" once vl-convert has drawn a first (empty) chart (V8 and the fonts are up);
# then one line of JSON in (the spec and the limits), one line out (the PNG or an error).
_WORKER = r"""
import base64, json, re, sys
import vl_convert as vlc
SIZE = re.compile(r'<svg\b[^>]*?\swidth="([0-9.]+)"[^>]*?\sheight="([0-9.]+)"')
try:
    vlc.vegalite_to_svg({"mark": "point", "data": {"values": []}}, allowed_base_urls=[])
except Exception:
    pass
sys.stdout.write("ready\n")
sys.stdout.flush()
for line in sys.stdin.buffer:
    try:
        ask = json.loads(line)
        svg = vlc.vegalite_to_svg(ask["spec"], allowed_base_urls=[])
        size = SIZE.search(svg[:4000])
        if size is None:
            raise ValueError("the drawing has no size")
        width, height = float(size[1]), float(size[2])
        fit = min(1.0, ask["width"] / max(width, 1.0), ask["height"] / max(height, 1.0))
        for density in (2.0, 1.0):
            png = vlc.svg_to_png(svg, scale=fit * density)
            if len(png) <= ask["bytes"]:
                break
        else:
            raise ValueError(f"the image is too large ({len(png) / 1e6:.1f} MB)")
        answer = {"png": base64.b64encode(png).decode("ascii"),
                  "width": round(width * fit), "height": round(height * fit)}
    except Exception as error:
        lines = [part.strip() for part in str(error).splitlines()
                 if part.strip() and not part.strip().startswith("at ")]
        answer = {"error": " ".join(lines)[:600] or type(error).__name__}
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()
"""


class _Worker:
    """The process that draws. Started in the background (``warm``), never waited for on the
    kernel's loop; killed when a chart takes too long or it dies, and started again at once,
    in the background, so the next chart does not pay for a start.

        warm() ─▶ a thread starts the process ─▶ "ready" (within START_SECONDS) ─▶ ready
        draw(spec) while ready ─▶ the PNG | past its time: killed ─▶ warm()
    """

    def __init__(self) -> None:
        self._process: subprocess.Popen[bytes] | None = None  # the worker, once ready
        self._starting: subprocess.Popen[bytes] | None = None  # one being started
        self._lock = threading.Lock()  # one chart at a time
        self._start_lock = threading.Lock()  # one start at a time
        self._start: threading.Thread | None = None
        self._folder: str | None = None
        #: Why the last start failed (the next chart's note), or None.
        self.failed: str | None = None
        #: Workers started so far (a test or a benchmark counts cold starts).
        self.starts = 0

    @property
    def ready(self) -> bool:
        """Whether a started worker is there to draw (it may be busy)."""
        process = self._process
        return process is not None and process.poll() is None

    def warm(self) -> None:
        """Start a worker in a background thread, unless one is ready or starting."""
        with self._start_lock:
            if self.ready or (self._start is not None and self._start.is_alive()):
                return
            self._start = threading.Thread(target=self._started, name="dial-chart-start",
                                           daemon=True)
            self._start.start()

    def wait_ready(self, seconds: float) -> bool:
        """Start a worker if need be and wait up to ``seconds`` for it (off the loop only)."""
        self.warm()
        start = self._start
        if not self.ready and start is not None:
            start.join(seconds)
        return self.ready

    def _started(self) -> None:
        try:
            process = self._spawn()
        except Exception as error:  # no interpreter, no memory: the next chart's note
            self.failed = f"The chart could not be drawn: {type(error).__name__}: {error}"
            return
        self._starting = process
        self.starts += 1
        timer = threading.Timer(START_SECONDS, process.kill)  # a start that hangs ends
        timer.start()
        try:
            assert process.stdout is not None
            line = process.stdout.readline()
        except (OSError, ValueError):
            line = b""
        finally:
            timer.cancel()
            self._starting = None
        if line.strip() != b"ready":
            _end(process)
            self.failed = ("The chart could not be drawn: the chart renderer did not start "
                           f"(within {START_SECONDS:g} s).")
            return
        self.failed = None
        self._process = process

    def _spawn(self) -> subprocess.Popen[bytes]:
        if self._folder is None:
            self._folder = tempfile.mkdtemp(prefix="dial-charts-")  # an empty working folder
        found = importlib.util.find_spec("vl_convert")
        origin = found.submodule_search_locations if found is not None else None
        paths = [os.path.dirname(next(iter(origin)))] if origin else []
        env = {**os.environ, "PYTHONSAFEPATH": "1",
               "PYTHONPATH": os.pathsep.join([*paths, os.environ.get("PYTHONPATH", "")])}
        return subprocess.Popen(
            [sys.executable, "-c", _WORKER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, cwd=self._folder, env=env)

    def draw(self, spec: Any, seconds: float, *, blocking: bool = False) -> dict[str, Any]:
        """The worker's answer for ``spec`` within ``seconds``; ``{"busy": True}`` when no
        worker is ready, or (not ``blocking``) another chart is being drawn."""
        deadline = time.monotonic() + seconds
        got = self._lock.acquire(timeout=seconds) if blocking else self._lock.acquire(False)
        if not got:
            return {"busy": True}
        try:
            process = self._process
            if process is None or process.poll() is not None:
                self.warm()
                return {"busy": True}
            line = json.dumps({"spec": spec, "width": MAX_WIDTH, "height": MAX_HEIGHT,
                               "bytes": MAX_PNG_BYTES}).encode() + b"\n"
            return self._exchange(process, line, max(0.05, deadline - time.monotonic()),
                                  seconds)
        finally:
            self._lock.release()

    def _exchange(self, process: subprocess.Popen[bytes], line: bytes, seconds: float,
                  allowed: float) -> dict[str, Any]:
        reply: list[bytes] = []

        def talk() -> None:
            try:
                assert process.stdin is not None and process.stdout is not None
                process.stdin.write(line)
                process.stdin.flush()
                reply.append(process.stdout.readline())
            except (OSError, ValueError):
                reply.append(b"")

        talker = threading.Thread(target=talk, name="dial-chart", daemon=True)
        talker.start()
        talker.join(seconds)
        if talker.is_alive():
            self.restart()
            talker.join(1.0)
            return {"error": _NOT_DRAWN + f"drawing it took longer than {allowed:.1f} s."}
        if not reply or not reply[0]:
            code = process.poll()
            self.restart()
            return {"error": "The chart could not be drawn: the renderer stopped"
                    + (f" (exit {code}; out of memory?)." if code else ".")}
        try:
            answer = json.loads(reply[0])
        except ValueError:
            self.restart()
            return {"error": "The chart could not be drawn: the renderer's answer was garbled."}
        if "error" in answer:
            return {"error": f"The chart could not be drawn: {answer['error']}"}
        return answer

    def restart(self) -> None:
        """End this worker and start the next one at once, in the background."""
        self.stop()
        self.warm()

    def stop(self) -> None:
        """End the worker (and one being started); the next chart starts another."""
        process, self._process = self._process, None
        starting = self._starting
        for one in (process, starting):
            if one is not None:
                _end(one)


def _end(process: subprocess.Popen[bytes]) -> None:
    process.kill()
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(5)
    for stream in (process.stdin, process.stdout):
        if stream is not None:
            with contextlib.suppress(OSError):
                stream.close()


class _Later:
    """Charts drawn off the kernel's loop, one at a time, in order, by one background thread
    (ended when idle); each handed back on the loop that asked for it."""

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[tuple[Any, str, Callable[[dict[str, Any]], None],
                                            asyncio.AbstractEventLoop | None]] = \
            queue.SimpleQueue()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        #: Charts asked for and not yet handed back (a test waits for none).
        self.pending = 0

    def add(self, spec: Any, alt: str, done: Callable[[dict[str, Any]], None]) -> None:
        try:
            loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        with self._lock:
            self.pending += 1
        self._jobs.put((spec, alt, done, loop))
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="dial-chart-later",
                                                daemon=True)
                self._thread.start()

    def _run(self) -> None:
        while True:
            try:
                spec, alt, done, loop = self._jobs.get(timeout=1.0)
            except queue.Empty:
                with self._lock:
                    if self._jobs.empty():
                        self._thread = None
                        return
                continue
            try:
                chart = draw(spec, alt=alt, wait=START_SECONDS)
                if loop is None:
                    done(chart)
                    continue
                with contextlib.suppress(RuntimeError):  # the loop has closed: nobody to tell
                    loop.call_soon_threadsafe(done, chart)
            finally:
                with self._lock:
                    self.pending -= 1


_clock = _Clock()
_worker = _Worker()
_later = _Later()
atexit.register(_worker.stop)
