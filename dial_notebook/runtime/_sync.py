"""``say_sync``: a conversation run to its end from code that cannot ``await``.

    no loop running in this thread (a script) ─▶ the conversation's own loop runs here
    a loop running in this thread (a notebook cell, a callback) ─▶ the conversation's own loop
        runs on a worker thread while this thread waits; an interrupt here cancels the say there

Each conversation keeps one private event loop for all its ``say_sync`` calls, so an async
client that an agent opened on the first call still works on the next. It is closed when the
conversation is garbage-collected.

Why a worker thread and not nest_asyncio: re-entering the notebook's own loop was seen
deadlocking or raising on current ipykernel (../shared/notes/bridge.md), and patching the
kernel's loop changes it for everything else in the notebook. A worker thread needs nothing from
the kernel. The price: while it runs, this thread (the kernel's) is blocked, so nothing can
answer through the notebook's loop — which is why ``say_sync`` refuses a human that needs it
(``needs_event_loop = True``, as the notebook widget sets). Async ports that bound themselves
to the notebook's loop before the call cannot be used from the private loop either.
"""

from __future__ import annotations

import asyncio
import threading
import weakref
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")

#: How often the waiting thread wakes to let an interrupt through.
_POLL_SECONDS = 0.05
#: Seconds an interrupted say_sync waits for a worker that was just starting.
_START_GRACE = 1.0
#: Seconds closing the private loop may take (its clients closing their connections).
_CLOSE_SECONDS = 5.0


class BlockingSayError(RuntimeError):
    """``say_sync`` was asked to wait for a person who can only answer through the event loop."""


def _loop_running_here() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def _close(runner: asyncio.Runner) -> None:
    """Close the private loop (at garbage collection, or at exit), shutting its async
    generators and their clients down (an agent's HTTP client registers itself with the loop
    that way). Runner.close runs the loop, which cannot happen in a thread already running
    another: there it runs on a short-lived thread of its own."""
    if not _loop_running_here():
        runner.close()
        return
    if runner.get_loop().is_running():
        return  # a say_sync still runs on it (its worker closes nothing): left to the loop
    closer = threading.Thread(target=runner.close, name="dial-say-sync-close", daemon=True)
    closer.start()
    closer.join(_CLOSE_SECONDS)


class SyncRunner:
    """The private event loop of one owner (a conversation), run from sync code."""

    def __init__(self, owner: object) -> None:
        # a loop factory: the Runner then leaves the thread's current event loop alone
        self._runner = asyncio.Runner(loop_factory=asyncio.new_event_loop)
        self._runner.get_loop()  # made now, so that closing it never has to make one
        self._lock = threading.Lock()
        weakref.finalize(owner, _close, self._runner)

    def run(self, make: Callable[[], Coroutine[Any, Any, T]]) -> T:
        """Run the coroutine ``make()`` returns to its end and give back its result."""
        if not self._lock.acquire(blocking=False):
            raise RuntimeError(
                "say_sync() is already running for this conversation (in another thread?)"
            )
        try:
            if _loop_running_here():
                return self._run_on_worker(make)
            return self._runner.run(make())
        finally:
            self._lock.release()

    def _run_on_worker(self, make: Callable[[], Coroutine[Any, Any, T]]) -> T:
        box: dict[str, Any] = {}
        started = threading.Event()
        finished = threading.Event()

        async def main() -> T:
            box["task"] = asyncio.current_task()
            started.set()
            return await make()

        def work() -> None:
            try:
                box["result"] = self._runner.run(main())
            except BaseException as exc:  # re-raised in the waiting thread
                box["error"] = exc
            finally:
                started.set()
                finished.set()

        worker = threading.Thread(target=work, name="dial-say-sync", daemon=True)
        # Short waits on an Event: an interrupt (SIGINT) is raised between them, and an Event,
        # unlike Thread.join on Python 3.11, is still right after being interrupted. The
        # worker starts inside the try, so an interrupt that lands just after it started still
        # cancels its say (else the next say_sync would find the conversation busy).
        try:
            worker.start()
            while not finished.wait(_POLL_SECONDS):
                pass
        except BaseException:  # an interrupt while waiting: cancel the say, let it settle
            if not started.wait(_START_GRACE):  # the worker never began: nothing to cancel
                raise
            task = box.get("task")
            if task is not None and not task.done():
                self._runner.get_loop().call_soon_threadsafe(task.cancel)
            finished.wait()
            raise
        if "error" in box:
            raise box["error"]
        return box["result"]
