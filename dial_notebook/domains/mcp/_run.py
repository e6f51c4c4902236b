"""What one run of an MCP tool carries between the caller's loop and the domain's: its clock
(``run_timeout`` paused while the person answers a question of the server's: the package's one
``Clock``, dial_notebook/_clock.py, re-exported here) and its progress (delivered on the
caller's loop, the latest only).

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

from ..._clock import Clock
from ._tools import clean_text

__all__ = ["Clock", "Progress", "ProgressHook"]

ProgressHook = Callable[[str, float, "float | None", "str | None"], Any]


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
