"""A run's clock: its time limit (an ``asyncio.Timeout``) that stops while the person answers
a question the run put to them, and goes on with the time that was left.

    the run's clock, held by its context
        timed_by(clock): the runs started inside see ``clock`` as theirs (a task copies the
            context when it is made, a worker thread is handed a copy, _work.py)
        until_done(running, limit, clock) ─▶ clock.start(bound): the limit ticks
    while the run goes on
        person_answering() ─▶ the clock of the context it is in paused … resumed:
            ask_user wraps its wait for the provider in it; pauses nest; no clock ─▶ nothing
        the time before the question and after it counts; the time between does not

One clock for every time limit of this kind: the runtime's ``run_timeout`` (the run gate's
runs, runtime/_suggestion.py) and McpDomain's per-call ``run_timeout`` (on its own loop).
A clock may be paused or resumed from any thread or loop: the change is made on the loop its
limit is on.

    >>> import asyncio
    >>> async def answered_slowly():
    ...     clock = Clock(0.05)
    ...     with timed_by(clock):
    ...         async with asyncio.timeout(0.05) as bound:
    ...             clock.start(bound)
    ...             with person_answering():
    ...                 await asyncio.sleep(0.1)  # past the limit, but paused
    ...     return "in time"
    >>> asyncio.run(answered_slowly())
    'in time'
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import threading
from collections.abc import Callable, Iterator

__all__ = ["Clock", "current_clock", "person_answering", "timed_by"]


class Clock:
    """A time limit as an ``asyncio.Timeout`` that can be paused (while the person answers a
    question) and resumed with the time that was left; pauses nest. ``seconds`` None: no
    limit (pausing it changes nothing).

        >>> Clock(90).paused
        False
    """

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        self._bound: asyncio.Timeout | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._left = seconds  # the time left when it was stopped
        self._paused = 0  # pauses that hold it (any thread)
        self._held = False  # the bound is rescheduled to never (its loop only)
        self._lock = threading.Lock()

    @property
    def paused(self) -> bool:
        """Whether a pause holds the clock now."""
        return self._paused > 0

    def start(self, bound: asyncio.Timeout) -> None:
        """Hold ``bound`` (entered, on the running loop): the limit. A clock paused before it
        started starts paused."""
        self._loop = asyncio.get_running_loop()
        self._bound = bound
        self._stop()

    def pause(self) -> None:
        """Stop the clock (a question waits for the person), keeping the time left."""
        with self._lock:
            self._paused += 1
            first = self._paused == 1
        if first:
            self._on_its_loop(self._stop)

    def resume(self) -> None:
        """Run the clock again, with the time that was left, once no pause holds it."""
        with self._lock:
            if self._paused == 0:
                return
            self._paused -= 1
            last = self._paused == 0
        if last:
            self._on_its_loop(self._go)

    def _on_its_loop(self, change: Callable[[], None]) -> None:
        loop = self._loop
        if loop is None:  # not started: start() finds it paused
            return
        try:
            here = asyncio.get_running_loop()
        except RuntimeError:
            here = None
        if here is loop:
            change()
            return
        with contextlib.suppress(RuntimeError):  # its loop closed: nothing left to time
            loop.call_soon_threadsafe(change)

    def _stop(self) -> None:
        bound, loop = self._bound, self._loop
        if not self._paused or self._held or bound is None or loop is None:
            return  # resumed meanwhile, stopped already, or not started
        when = bound.when()
        if when is None:  # no limit
            return
        with contextlib.suppress(RuntimeError):  # already expired or left
            bound.reschedule(None)
            self._left = max(0.0, when - loop.time())
            self._held = True

    def _go(self) -> None:
        bound, loop = self._bound, self._loop
        if self._paused or not self._held or bound is None or loop is None:
            return
        self._held = False
        with contextlib.suppress(RuntimeError):  # left meanwhile
            bound.reschedule(loop.time() + (self._left or 0.0))


#: The clock of the run whose context this is (None outside a timed run).
_CURRENT: contextvars.ContextVar[Clock | None] = contextvars.ContextVar(
    "dial_notebook_run_clock", default=None)


def current_clock() -> Clock | None:
    """The clock of the run whose context this is, or None.

        >>> current_clock() is None
        True
    """
    return _CURRENT.get()


@contextlib.contextmanager
def timed_by(clock: Clock) -> Iterator[Clock]:
    """``clock`` is the current run's inside the block: start the run here, so its task (or
    thread) carries it; the caller's context is as it was after.

        >>> with timed_by(Clock(90)) as clock:
        ...     current_clock() is clock
        True
    """
    token = _CURRENT.set(clock)
    try:
        yield clock
    finally:
        _CURRENT.reset(token)


@contextlib.contextmanager
def person_answering() -> Iterator[None]:
    """The current run's clock paused while the block runs (the person is answering); no
    clock: nothing happens. Blocks nest.

        >>> with person_answering():  # outside a run: a no-op
        ...     pass
    """
    clock = _CURRENT.get()
    if clock is None:
        yield
        return
    clock.pause()
    try:
        yield
    finally:
        clock.resume()
