"""The process that draws Vega-Lite charts: a worker that can be killed, started in the background.

Why a process, not a thread: vl-convert holds the GIL while it converts (measured: a 2.5 s
render froze every other thread throughout, so a thread's timeout never fires), and a spec
that makes its V8 run out of memory aborts the process it runs in (measured: a 3,000,000-row
``sequence``). A worker can be killed, and its end is one chart's error, not the kernel's.
The worker is started in the background (``warm``; its start — Python, V8, the fonts, a first
empty chart — takes 0.5 to 3 s, and more on a loaded machine) and kept; the kernel's loop never
waits for a start. A worker killed for a slow chart (or dead) is started again at once, in the
background, so the charts after it do not pay for a cold start on the loop.

    warm() ─▶ a thread starts the process ─▶ "ready" (within START_SECONDS) ─▶ ready
    draw(spec, seconds) while ready ─▶ one line of JSON in, one out:
        SVG ─▶ sized to fit MAX_WIDTH × MAX_HEIGHT ─▶ two PNGs: twice the CSS pixels (sharp
        screens) and one per CSS pixel (the notebook's static copy shows it: a saved
        notebook stays small) ─▶ {"png": the sharp one, "copy": the other, "width", "height"}
            the sharp one past MAX_PNG_BYTES ─▶ {"png": the one per CSS pixel, "width", …}
        past its time ─▶ killed ─▶ warm() ─▶ {"error": "…took longer than 2.0 s."}
        dead, or garbled ─▶ warm() ─▶ {"error": "The chart could not be drawn: …"}
    not ready, or (not blocking) busy with another chart ─▶ {"busy": True}

The worker runs in an empty temporary folder, with only vl-convert's folder on its path, and
vl-convert is told to load no URL (``allowed_base_urls=[]``). ``_vegalite.py`` decides when a
chart is drawn and says why one is not.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from typing import Any

from ._vegalite_refusal import NOT_DRAWN

__all__ = ["MAX_HEIGHT", "MAX_PNG_BYTES", "MAX_WIDTH", "SCRIPT", "START_SECONDS", "Worker"]

#: The largest a chart is shown (CSS px).
MAX_WIDTH = 1_200
MAX_HEIGHT = 1_200
#: Largest PNG kept (bytes): a sharp one past it gives way to the one at one pixel per CSS
#: pixel (then the chart has no ``copy``: its image is that one).
MAX_PNG_BYTES = 1_000_000
#: What a new worker may take to start (Python, V8, the fonts): waited for off the loop only.
START_SECONDS = 10.0

# The worker: "ready" once vl-convert has drawn a first (empty) chart (V8 and the fonts are up);
# then one line of JSON in (the spec and the limits), one line out (the PNGs or an error).
SCRIPT = r"""
import base64, json, re, struct, sys, zlib
import vl_convert as vlc
SIZE = re.compile(r'<svg\b[^>]*?\swidth="([0-9.]+)"[^>]*?\sheight="([0-9.]+)"')
def compact(png):  # vl-convert deflates for speed: the same pixels, deflated again (level 6)
    at, data, chunks = 8, [], []
    while at + 12 <= len(png):
        size, kind = struct.unpack(">I4s", png[at:at + 8])
        if kind == b"IDAT":
            if not data:
                chunks.append(None)  # where the one IDAT goes
            data.append(png[at + 8:at + 8 + size])
        else:
            chunks.append(png[at:at + 12 + size])
        at += 12 + size
    try:
        packed = zlib.compress(zlib.decompress(b"".join(data)), 6)
    except zlib.error:
        return png
    if len(packed) >= sum(map(len, data)):
        return png
    idat = (struct.pack(">I", len(packed)) + b"IDAT" + packed
            + struct.pack(">I", zlib.crc32(b"IDAT" + packed)))
    return png[:8] + b"".join(idat if c is None else c for c in chunks)
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
        sharp = compact(vlc.svg_to_png(svg, scale=fit * 2.0))  # twice the CSS pixels
        flat = compact(vlc.svg_to_png(svg, scale=fit))  # one per CSS pixel
        if len(flat) > ask["bytes"]:
            raise ValueError(f"the image is too large ({len(flat) / 1e6:.1f} MB)")
        answer = {"width": round(width * fit), "height": round(height * fit)}
        if len(sharp) <= ask["bytes"]:  # the sharp one, and the flat one as its copy
            answer.update(png=base64.b64encode(sharp).decode("ascii"),
                          copy=base64.b64encode(flat).decode("ascii"))
        else:  # too large at twice the pixels: the flat one alone
            answer["png"] = base64.b64encode(flat).decode("ascii")
    except Exception as error:
        lines = [part.strip() for part in str(error).splitlines()
                 if part.strip() and not part.strip().startswith("at ")]
        answer = {"error": " ".join(lines)[:600] or type(error).__name__}
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()
"""


class Worker:
    """The process that draws. Started in the background (``warm``), never waited for on the
    kernel's loop; killed when a chart takes too long or it dies, and started again at once,
    in the background, so the next chart does not pay for a start.

        warm() ─▶ a thread starts the process ─▶ "ready" (within START_SECONDS) ─▶ ready
        draw(spec) while ready ─▶ the PNGs | past its time: killed ─▶ warm()
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
            end(process)
            self.failed = ("The chart could not be drawn: the chart renderer did not start "
                           f"(within {START_SECONDS:g} s).")
            return
        self.failed = None
        self._process = process

    def _script(self) -> str:
        """The code the worker runs (``_vegalite._Worker`` reads its module's ``_WORKER``)."""
        return SCRIPT

    def _spawn(self) -> subprocess.Popen[bytes]:
        if self._folder is None:
            self._folder = tempfile.mkdtemp(prefix="dial-charts-")  # an empty working folder
        found = importlib.util.find_spec("vl_convert")
        origin = found.submodule_search_locations if found is not None else None
        paths = [os.path.dirname(next(iter(origin)))] if origin else []
        env = {**os.environ, "PYTHONSAFEPATH": "1",
               "PYTHONPATH": os.pathsep.join([*paths, os.environ.get("PYTHONPATH", "")])}
        return subprocess.Popen(
            [sys.executable, "-c", self._script()], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
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
            return {"error": NOT_DRAWN + f"drawing it took longer than {allowed:.1f} s."}
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
                end(one)


def end(process: subprocess.Popen[bytes]) -> None:
    """Kill ``process``, wait for it (briefly) and close its pipes."""
    process.kill()
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(5)
    for stream in (process.stdin, process.stdout):
        if stream is not None:
            with contextlib.suppress(OSError):
                stream.close()
