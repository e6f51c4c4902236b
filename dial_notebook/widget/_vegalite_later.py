"""When charts are drawn: the kernel's drawing time, and the charts drawn later, off its loop.

Charts drawn on the kernel's loop share DRAWING_SECONDS of its time, refilled at REFILL seconds
a second (``Clock``); what does not fit (and a chart whose renderer is starting or busy, and
every chart of a saved session) is drawn later by one background thread, one chart at a time,
in order, and handed back on the loop that asked for it (``Later``).

    Clock.take(timeout) ─▶ the seconds this chart may take now, or None (used up: later)
    Later.add(spec, alt, done) ─▶ drawn off the loop ─▶ loop.call_soon_threadsafe(done, chart)

``_vegalite.py`` holds one of each and decides, per chart, which applies.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
import time
from collections.abc import Callable
from typing import Any

__all__ = ["DRAWING_SECONDS", "REFILL", "Clock", "Later"]

#: The kernel's drawing time in one go (seconds), refilled at REFILL seconds a second.
DRAWING_SECONDS = 2.0
REFILL = 0.5


class Clock:
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


class Later:
    """Charts drawn off the kernel's loop, one at a time, in order, by one background thread
    (ended when idle); each handed back on the loop that asked for it. ``draw(spec, alt)``
    draws one chart (it may wait for the renderer to start: it runs off the loop)."""

    def __init__(self, draw: Callable[[Any, str], dict[str, Any]]) -> None:
        self._draw = draw
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
                chart = self._draw(spec, alt)
                if loop is None:
                    done(chart)
                    continue
                with contextlib.suppress(RuntimeError):  # the loop has closed: nobody to tell
                    loop.call_soon_threadsafe(done, chart)
            finally:
                with self._lock:
                    self.pending -= 1
