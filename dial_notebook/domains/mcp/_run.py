"""What one run of an MCP tool carries between the caller's loop and the domain's: its clock
(``run_timeout`` paused while the person answers a question of the server's) and its progress
(delivered on the caller's loop, the latest only).

    >>> import asyncio
    >>> async def paused():
    ...     clock = Clock(0.05)
    ...     async with asyncio.timeout(0.05) as bound:
    ...         clock.start(bound)
    ...         clock.pause()
    ...         await asyncio.sleep(0.1)  # past the bound, but paused: no TimeoutError
    ...         clock.resume()
    ...     return "in time"
    >>> asyncio.run(paused())
    'in time'
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
from collections.abc import Callable
from typing import Any

from ._tools import clean_text

ProgressHook = Callable[[str, float, "float | None", "str | None"], Any]


class Clock:
    """One call's ``run_timeout`` as an ``asyncio.Timeout`` that can be paused (while the
    person answers a question) and resumed with the time that was left; pauses nest."""

    def __init__(self, seconds: float) -> None:
        self._bound: asyncio.Timeout | None = None
        self._left = seconds
        self._paused = 0

    def start(self, bound: asyncio.Timeout) -> None:
        """Hold ``bound`` (entered, on this loop): the call's time limit."""
        self._bound = bound

    def pause(self) -> None:
        """Stop the clock (a question waits for the person), keeping the time left."""
        self._paused += 1
        bound = self._bound
        if self._paused == 1 and bound is not None and bound.when() is not None:
            self._left = max(0.0, bound.when() - asyncio.get_running_loop().time())
            with contextlib.suppress(RuntimeError):  # already expired or left
                bound.reschedule(None)

    def resume(self) -> None:
        """Run the clock again, with the time that was left, once no pause holds it."""
        self._paused = max(0, self._paused - 1)
        if self._paused == 0 and self._bound is not None:
            with contextlib.suppress(RuntimeError):
                self._bound.reschedule(asyncio.get_running_loop().time() + self._left)


class Progress:
    """Progress from the domain's loop delivered on the caller's: the latest only, so a
    flooding server cannot queue more than one call on the caller's loop."""

    def __init__(self, hook: ProgressHook | None, action: str,
                 loop: asyncio.AbstractEventLoop, context: contextvars.Context) -> None:
        self._hook, self._action, self._loop, self._context = hook, action, loop, context
        self._latest: tuple[float, float | None, str | None] | None = None

    def __call__(self, progress: float, total: float | None, message: str | None) -> None:
        if self._hook is None:
            return
        pending = self._latest is not None
        self._latest = (progress, total, clean_text(message, 200) if message else None)
        if not pending:
            try:
                self._loop.call_soon_threadsafe(self._deliver, context=self._context)
            except RuntimeError:  # the caller's loop closed
                self._latest = None

    def _deliver(self) -> None:
        latest, self._latest = self._latest, None
        if latest is None or self._hook is None:
            return
        with contextlib.suppress(Exception):  # a display hook must never fail the run
            self._hook(self._action, *latest)
