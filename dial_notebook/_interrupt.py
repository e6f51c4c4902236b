"""A kernel's interrupt (the notebook's stop button) cancelling the cell that awaits.

ipykernel (6 and 7) means SIGINT to cancel a cell's top-level ``await``, but its handler sets a
future from outside the running loop without waking it, so the cell goes on until something
else wakes the loop: an ``await`` on a slow agent is not stopped for as long as the agent
takes (ipython/ipykernel#881). ``interrupt_cancels_task()`` puts a handler of its own in place
while a long await runs in a kernel's main thread: SIGINT cancels the awaiting task, waking
the loop, so every conversation under it is cancelled and cleaned up at once. Anywhere else
(a script, another thread, no kernel) it does nothing: ``asyncio.run`` already cancels on ^C.

    >>> import asyncio
    >>> async def main():
    ...     with interrupt_cancels_task():
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


def in_kernel() -> bool:
    """Whether this runs in a Jupyter kernel (an IPython shell with a kernel)."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    return getattr(shell, "kernel", None) is not None


@contextlib.contextmanager
def interrupt_cancels_task() -> Iterator[None]:
    """While the block runs, in a kernel's main thread, SIGINT cancels the running task."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        loop = None
    task = asyncio.current_task() if loop is not None else None
    if task is None or threading.current_thread() is not threading.main_thread() \
            or not in_kernel():
        yield
        return

    def on_interrupt(signum: int, frame: object) -> None:
        loop.call_soon_threadsafe(task.cancel)

    previous = signal.signal(signal.SIGINT, on_interrupt)
    try:
        yield
    finally:
        if signal.getsignal(signal.SIGINT) is on_interrupt:
            signal.signal(signal.SIGINT, previous)
