"""Vega-Lite charts, drawn in the kernel as PNG images: the agent's spec never runs in the
browser, and nothing it names is fetched or read.

    chart inform (render="chart", a Vega-Lite payload)  ─┐
    an action's result {"vega_lite": spec, …}           ─┴▶ with_chart(event): the widget's copy
        refusal(spec): a url or file anywhere, an image mark, a link, a loader, more than
            MAX_ROWS rows, a spec over MAX_SPEC_CHARS / MAX_DEPTH ─▶ {"error": "The chart was
            not drawn: it names data.url 'http://…'; only inline values are drawn."}
        vl-convert-python missing ─▶ {"error": "… pip install dial-notebook[charts] …"}
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
The worker is started with the first chart (about 0.5 s: Python, V8, the fonts) and kept;
charts share DRAWING_SECONDS of the kernel's time, refilled at half a second per second, so
a reply full of slow charts cannot hold the kernel for long. vl-convert is also told to load
no URL at all (``allowed_base_urls=[]``); the refusals come first and say why.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Mapping
from typing import Any

__all__ = ["INSTALL", "VEGA_LITE_TYPE", "draw", "is_vega_lite", "refusal", "with_chart"]

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
#: What a new worker may take to start (Python, V8, the fonts), beyond RENDER_SECONDS.
START_SECONDS = 10.0
DRAWING_SECONDS = 2.0
REFILL = 0.5
#: Caps of settings that make work out of nothing (ticks, bins, density steps).
_COUNTS = {"tickCount": 1_000, "maxbins": 1_000, "steps": MAX_ROWS, "minsteps": MAX_ROWS,
           "maxsteps": MAX_ROWS}
_NOT_DRAWN = "The chart was not drawn: "


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


def draw(spec: Any, *, alt: str = "", timeout: float = RENDER_SECONDS) -> dict[str, Any]:
    """The chart of ``spec``: ``{"src": "data:image/png;base64,…", "width", "height", "alt"}``
    (width and height in CSS pixels), or ``{"error": "…"}`` saying why it was not drawn.

        >>> draw({"mark": "point", "data": {"url": "/etc/passwd"}})
        {'error': "The chart was not drawn: it names data.url '/etc/passwd'; only inline values are drawn."}
    """
    refused = refusal(spec)
    if refused:
        return {"error": refused}
    if not installed():
        return {"error": _NOT_DRAWN + f"vl-convert-python is not installed ({INSTALL})."}
    seconds = _clock.take(timeout)
    if seconds is None:
        return {"error": _NOT_DRAWN + "charts have had the kernel's drawing time for now "
                f"({DRAWING_SECONDS:g} s); it comes back within seconds."}
    started = time.monotonic()
    try:
        answer = _worker.draw(spec, seconds)
    except Exception as error:  # no worker could start (no interpreter, no memory): one note
        answer = {"error": f"The chart could not be drawn: {type(error).__name__}: {error}"}
    finally:
        _clock.spend(time.monotonic() - started)
    if "error" in answer:
        return {"error": str(answer["error"])}
    return {"src": f"data:image/png;base64,{answer['png']}", "width": int(answer["width"]),
            "height": int(answer["height"]), "alt": alt or _title(spec) or "A Vega-Lite chart"}


def with_chart(event: dict[str, Any]) -> dict[str, Any]:
    """The widget's copy of ``event`` with its chart drawn (``event`` itself when it has none):
    an inform with ``render="chart"`` and a Vega-Lite payload gets ``chart``; an outcome whose
    result holds ``vega_lite`` gets ``result.chart``.

        >>> with_chart({"type": "inform", "text": "hi"})
        {'type': 'inform', 'text': 'hi'}
        >>> with_chart({"type": "inform", "text": "", "render": "chart",
        ...             "payload": {"mark": "bar", "data": {"url": "x.csv"}}})["chart"]
        {'error': "The chart was not drawn: it names data.url 'x.csv'; only inline values are drawn."}
    """
    if not isinstance(event, Mapping):
        return event
    kind = event.get("type")
    if kind == "inform" and event.get("render") == "chart" and is_vega_lite(event.get("payload")):
        text = event.get("text")
        return {**event, "chart": draw(event["payload"], alt=_clip(text) if isinstance(
            text, str) else "")}
    result = event.get("result") if kind == "outcome" else None
    if isinstance(result, Mapping) and is_vega_lite(result.get("vega_lite")):
        alt = result.get("alt")
        return {**event, "result": {**result, "chart": draw(
            result["vega_lite"], alt=_clip(alt) if isinstance(alt, str) else "")}}
    return event


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


# The worker: one line of JSON in (the spec and the limits), one line out (the PNG or an error).
_WORKER = r"""
import base64, json, re, sys
import vl_convert as vlc
SIZE = re.compile(r'<svg\b[^>]*?\swidth="([0-9.]+)"[^>]*?\sheight="([0-9.]+)"')
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
    """The process that draws (started on first use, killed when a chart takes too long)."""

    def __init__(self) -> None:
        self._process: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()
        self._folder: str | None = None

    def draw(self, spec: Any, seconds: float) -> dict[str, Any]:
        deadline = time.monotonic() + seconds
        if not self._lock.acquire(timeout=seconds):
            return {"error": _NOT_DRAWN + "another chart is still being drawn."}
        try:
            line = json.dumps({"spec": spec, "width": MAX_WIDTH, "height": MAX_HEIGHT,
                               "bytes": MAX_PNG_BYTES}).encode() + b"\n"
            return self._exchange(line, max(0.05, deadline - time.monotonic()), seconds)
        finally:
            self._lock.release()

    def _exchange(self, line: bytes, seconds: float, allowed: float) -> dict[str, Any]:
        cold = self._process is None or self._process.poll() is not None
        process = self._running()
        if cold:  # starting Python and V8 is not drawing: a loaded machine may take seconds
            seconds += START_SECONDS
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
            self.stop()
            talker.join(1.0)
            return {"error": _NOT_DRAWN + f"drawing it took longer than {allowed:.1f} s."}
        if not reply or not reply[0]:
            code = process.poll()
            self.stop()
            return {"error": "The chart could not be drawn: the renderer stopped"
                    + (f" (exit {code}; out of memory?)." if code else ".")}
        try:
            answer = json.loads(reply[0])
        except ValueError:
            self.stop()
            return {"error": "The chart could not be drawn: the renderer's answer was garbled."}
        if "error" in answer:
            return {"error": f"The chart could not be drawn: {answer['error']}"}
        return answer

    def _running(self) -> subprocess.Popen[bytes]:
        if self._process is not None and self._process.poll() is None:
            return self._process
        if self._folder is None:
            self._folder = tempfile.mkdtemp(prefix="dial-charts-")  # an empty working folder
        found = importlib.util.find_spec("vl_convert")
        origin = found.submodule_search_locations if found is not None else None
        paths = [os.path.dirname(next(iter(origin)))] if origin else []
        env = {**os.environ, "PYTHONSAFEPATH": "1",
               "PYTHONPATH": os.pathsep.join([*paths, os.environ.get("PYTHONPATH", "")])}
        self._process = subprocess.Popen(
            [sys.executable, "-c", _WORKER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, cwd=self._folder, env=env)
        return self._process

    def stop(self) -> None:
        """End the worker (the next chart starts another)."""
        process, self._process = self._process, None
        if process is None:
            return
        process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(5)
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()


_clock = _Clock()
_worker = _Worker()
atexit.register(_worker.stop)
