"""How far a run has come, said by the run itself while it runs (``report_progress``), for
the surface to show on its running card.

    the run gate ─ reporting_to(RunProgress(emit)) around starting a run ─▶ the run's context
       (its task's, or its worker thread's: runtime/_ports.py copies it there) holds the sink
    the run, from its task or its thread ─▶ report_progress(3, 10, "copying files")
       ─▶ read: numbers finite and not negative (else the report is dropped; a total that is
          not positive is left out), the message's control and hidden characters stripped,
          at most MAX_MESSAGE characters
       ─▶ the latest kept (a newer report replaces one not yet shown)
       ─▶ at most one emission per INTERVAL seconds per run, on the run's loop (a report
          from a thread costs a lock and, at most once per emission, one callback on the
          loop: 20,000 reports never queue 20,000 callbacks)
       ─▶ emit(progress, total, message): the runtime's transient notice (never kept)
    outside a run ─▶ nothing happens
    the run ends (close) ─▶ nothing more is emitted

Defined at the package's top (a helper below every layer) because a domain's run reports
here and the runtime's run gate listens: neither imports the other.

    >>> import asyncio
    >>> async def demo():
    ...     shown = []
    ...     sink = RunProgress(lambda *seen: shown.append(seen))
    ...     with reporting_to(sink):
    ...         for n in range(1, 1001):
    ...             report_progress(n, 1000, "copying\\x07 files")
    ...     await asyncio.sleep(INTERVAL * 1.5)  # the first at once, the latest soon after
    ...     sink.close()
    ...     return shown
    >>> asyncio.run(demo())
    [(1, 1000, 'copying files'), (1000, 1000, 'copying files')]
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import math
import numbers
import re
import threading
from collections.abc import Callable, Iterator
from typing import Any

#: The shortest time between two progress notices of one run, in seconds (at most ten a second).
INTERVAL = 0.1
#: The longest message a notice carries, in characters.
MAX_MESSAGE = 200

#: emit(progress, total, message): what the run gate does with a notice.
Emit = Callable[[float, "float | None", "str | None"], None]
Reading = tuple[float, "float | None", "str | None"]

# control characters, and the invisible ones that can disguise text (bidi overrides,
# zero-width joiners, the byte-order mark)
_HIDDEN = re.compile("[\x00-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e"
                     "\u2060-\u2069\ufeff\ufff9-\ufffb]")
_SPACES = re.compile(r"\s+")


def read_progress(progress: Any, total: Any = None, message: Any = None) -> Reading | None:
    """A report as a notice carries it, or None when ``progress`` is not a finite number of
    at least 0 (the report is dropped).

        >>> read_progress(3.0, 10, "  copying\\n\\u202efiles  ")
        (3, 10, 'copying files')
        >>> read_progress(float("nan")), read_progress(True), read_progress(2, -1, 7)
        (None, None, (2, None, None))
    """
    done = _number(progress)
    if done is None:
        return None
    whole = _number(total)
    return done, whole if whole else None, _text(message)


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return None
    try:
        number = float(value)
    except (OverflowError, ValueError, TypeError):
        return None
    if not math.isfinite(number) or number < 0:
        return None
    return int(number) if number.is_integer() and abs(number) < 2**53 else number


def _text(message: Any) -> str | None:
    if not isinstance(message, str):
        return None
    cut = message[:MAX_MESSAGE * 8]  # bounded work, whatever the length reported
    text = _SPACES.sub(" ", _HIDDEN.sub(lambda m: " " if m.group() in "\t\n\r" else "", cut))
    text = text.strip()
    if len(text) > MAX_MESSAGE:
        text = text[:MAX_MESSAGE - 1].rstrip() + "…"
    return text or None


class RunProgress:
    """The progress of one run: reports from any thread, emitted on ``loop`` (the running
    one by default) at most once per ``interval`` seconds, the latest winning."""

    def __init__(self, emit: Emit, loop: asyncio.AbstractEventLoop | None = None, *,
                 interval: float = INTERVAL) -> None:
        self._emit = emit
        self._loop = loop if loop is not None else asyncio.get_running_loop()
        self._interval = interval
        self._lock = threading.Lock()
        self._latest: Reading | None = None
        self._shown: Reading | None = None
        self._armed = False  # an emission is due (scheduled on the loop)
        self._closed = False
        self._last = -math.inf  # the loop's time of the last emission
        self._timer: asyncio.TimerHandle | None = None

    def report(self, progress: Any, total: Any = None, message: Any = None) -> None:
        """Keep this report as the latest; an emission follows within ``interval``."""
        reading = read_progress(progress, total, message)
        if reading is None:
            return
        with self._lock:
            if self._closed:
                return
            self._latest = reading
            if self._armed:
                return
            self._armed = True
        if _running_loop() is self._loop:
            self._arm()
            return
        try:
            self._loop.call_soon_threadsafe(self._arm)
        except RuntimeError:  # the loop closed: nobody is shown anything any more
            self.close()

    def close(self) -> None:
        """The run ended: nothing more is emitted."""
        with self._lock:
            self._closed = True
            timer, self._timer = self._timer, None
        if timer is not None:
            timer.cancel()

    def _arm(self) -> None:
        if self._closed:
            return
        wait = self._last + self._interval - self._loop.time()
        if wait <= 0:
            self._flush()
        else:
            self._timer = self._loop.call_later(wait, self._flush)

    def _flush(self) -> None:
        with self._lock:
            self._timer = None
            self._armed = False
            reading = self._latest
            if self._closed or reading is None or reading == self._shown:
                return
            self._shown = reading
        self._last = self._loop.time()
        with contextlib.suppress(Exception):  # showing progress must never fail the run
            self._emit(*reading)


_RUN: contextvars.ContextVar[RunProgress | None] = contextvars.ContextVar(
    "dial_notebook_run_progress", default=None)


@contextlib.contextmanager
def reporting_to(sink: RunProgress) -> Iterator[RunProgress]:
    """While the block runs (and in every task or copied context started in it), reports go
    to ``sink``; the run gate starts a run inside it."""
    token = _RUN.set(sink)
    try:
        yield sink
    finally:
        _RUN.reset(token)


def report_progress(progress: float, total: float | None = None,
                    message: str | None = None) -> None:
    """Say how far the run that calls this has come: ``progress`` of ``total`` (when known),
    and what it is doing in a few words. Call it from a domain's ``run``, as often as you
    like, from its task or its thread: the running card shows "3 of 10 — copying files",
    updated at most ten times a second (the latest report wins). Outside a run it does
    nothing; a report that is not a finite number of at least 0 is dropped.

        >>> report_progress(3, 10, "copying files")  # not in a run: nothing happens
    """
    sink = _RUN.get()
    if sink is not None:
        sink.report(progress, total, message)


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None
