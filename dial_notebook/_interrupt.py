"""A kernel's interrupt (the notebook's stop button) stopping a cell that awaits, at once.

ipykernel (6 and 7) turns SIGINT into cancelling the cell's top-level ``await``: its handler
schedules the cancel with tornado's ``add_callback``, which, called on the loop's own thread
(a signal handler runs there), does not wake the loop. So the cell goes on until something
else wakes it: an ``await`` on a slow agent runs on for as long as the agent takes
(ipython/ipykernel#881). ``interrupt_wakes_loop()`` puts a handler in place while a long await
runs in a kernel's main thread that calls the one before it, then wakes the loop: the cancel
ipykernel scheduled runs at once, on the task ipykernel chose (the cell's). Nothing else about
the interrupt changes. Anywhere else (a script, another thread, no kernel) it does nothing.

    >>> import asyncio
    >>> async def main():
    ...     with interrupt_wakes_loop():
    ...         await asyncio.sleep(0)
    ...     return "done"
    >>> asyncio.run(main())
    'done'
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
import threading
from collections.abc import Iterator
from typing import Any


def in_kernel() -> bool:
    """Whether this runs in a Jupyter kernel (an IPython shell with a kernel)."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    return getattr(shell, "kernel", None) is not None


def _nothing() -> None:
    """Scheduled only to wake the loop."""


@contextlib.contextmanager
def interrupt_wakes_loop() -> Iterator[None]:
    """While the block runs, in a kernel's main thread, SIGINT runs the handler it ran before
    and then wakes the running loop."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        loop = None
    if loop is None or threading.current_thread() is not threading.main_thread() \
            or not in_kernel():
        yield
        return
    previous: Any = signal.getsignal(signal.SIGINT)

    def on_interrupt(signum: int, frame: Any) -> None:
        try:
            if callable(previous):
                previous(signum, frame)
        finally:
            if not loop.is_closed():
                loop.call_soon_threadsafe(_nothing)

    signal.signal(signal.SIGINT, on_interrupt)
    try:
        yield
    finally:
        if signal.getsignal(signal.SIGINT) is on_interrupt:
            signal.signal(signal.SIGINT, previous)
