"""The background event loop one ``McpDomain`` talks to its server on: a daemon thread of its own.

The SDK's client is async and must live on one event loop for its whole life (its task
groups are bound to the task that entered them). A notebook's kernel already runs a loop, so
the client gets its own, on a thread started on first use and stopped by ``close`` (or at
interpreter exit, through ``atexit``):

    kernel thread                           the domain's thread (its own loop)
    ─────────────                           ──────────────────────────────────
    await loop.call(coro)  ── submit ──▶    coro runs as a task
        cancelled (Stop, run_timeout) ───▶  the task is cancelled (the SDK tells the server)
    loop.wait(coro, seconds) (blocking,     bounded: TimeoutError past ``seconds``, the
        for construction only)              task cancelled
    close() ──────────────────────────────▶ loop stopped, thread left to end (daemon)

    >>> import asyncio
    >>> loop = BackgroundLoop("doc")
    >>> async def answer():
    ...     return 42
    >>> loop.wait(answer(), 2.0)
    42
    >>> loop.close()
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import contextlib
import threading
import weakref
from collections.abc import Coroutine
from typing import Any

#: Seconds ``close`` waits for the loop's clean-up (closing the server) before leaving it.
CLOSE_GRACE = 6.0

_OPEN: weakref.WeakSet[BackgroundLoop] = weakref.WeakSet()


class BackgroundLoop:
    """An event loop on a daemon thread, started on first use.

    Args:
        name: for the thread's name.
    """

    def __init__(self, name: str) -> None:
        self._name = name
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        _OPEN.add(self)

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        """The running loop (started now if it was not)."""
        with self._lock:
            if self._loop is None or self._loop.is_closed():
                ready = threading.Event()
                loop = asyncio.new_event_loop()

                def run() -> None:
                    asyncio.set_event_loop(loop)
                    loop.call_soon(ready.set)
                    try:
                        loop.run_forever()
                    finally:  # stopped by close(): what is left is cancelled, then closed
                        for task in asyncio.all_tasks(loop):
                            task.cancel()
                        with contextlib.suppress(BaseException):
                            loop.run_until_complete(asyncio.sleep(0))
                            loop.run_until_complete(loop.shutdown_asyncgens())
                        loop.close()

                thread = threading.Thread(target=run, name=f"mcp-{self._name}", daemon=True)
                thread.start()
                ready.wait(5.0)
                self._loop, self._thread = loop, thread
            return self._loop

    def submit(self, coro: Coroutine[Any, Any, Any]) -> concurrent.futures.Future[Any]:
        """``coro`` started on this loop; its concurrent future (cancelling it cancels it)."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop)

    async def call(self, coro: Coroutine[Any, Any, Any]) -> Any:
        """Await ``coro`` run on this loop, from another loop; cancelling this cancels it."""
        return await asyncio.wrap_future(self.submit(coro))

    def wait(self, coro: Coroutine[Any, Any, Any], seconds: float) -> Any:
        """Block this thread until ``coro`` (run on this loop) ends, at most ``seconds``:
        ``TimeoutError`` then, the coroutine cancelled."""
        future = self.submit(coro)
        try:
            return future.result(timeout=seconds)
        except concurrent.futures.TimeoutError:
            future.cancel()
            raise TimeoutError(f"no answer within {seconds:g} s") from None

    def close(self, cleanup: Coroutine[Any, Any, Any] | None = None) -> None:
        """Run ``cleanup`` (bounded by ``CLOSE_GRACE``), then stop the loop. Idempotent."""
        with self._lock:
            loop, self._loop = self._loop, None
        if loop is None or loop.is_closed():
            if cleanup is not None:
                cleanup.close()
            return
        if cleanup is not None and loop.is_running():
            future = asyncio.run_coroutine_threadsafe(cleanup, loop)
            try:
                future.result(timeout=CLOSE_GRACE)
            except BaseException:  # a server that will not close is left to the process's end
                future.cancel()
        loop.call_soon_threadsafe(loop.stop)
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(CLOSE_GRACE)


def _close_all() -> None:
    for background in list(_OPEN):
        closer = getattr(background, "at_exit", None)
        if callable(closer):
            closer()
        else:
            background.close()


atexit.register(_close_all)
