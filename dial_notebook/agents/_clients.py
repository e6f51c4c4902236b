"""One SDK client per running event loop, kept for the agent's lifetime.

An SDK's async client, and the connection pool inside it, is bound to the event loop it first
ran on; the same agent is used from a notebook's loop and from ``say_sync``'s private loop.
So an agent keeps one client for each loop that used it, and each loop reuses its connection:

    await clients.get(make, url) ─▶ this loop's client (made on first use; remade when it was
                                   closed, or when the agent's URL changed)
    the loop ends (asyncio.run, asyncio.Runner.close) ─▶ its client is closed there: a small
        async generator started on that loop closes it in the loop's shutdown_asyncgens()
    a loop closed without that ─▶ its client is dropped at the next get() or close()
    close() / aclose() ─▶ every client: awaited on this loop, scheduled on a loop that runs
        (a notebook's, or one on another thread), closed at once on an idle loop (run here,
        or on a short-lived helper thread when this thread runs another); a later get()
        makes a new one

No ``atexit``, no lasting thread: an interpreter that exits with a client open does not wait
for it. A loop closed without shutting down (``loop.close()`` alone) leaves its client's
sockets to be closed when they are garbage-collected: nothing can run on that loop any more.

    >>> clients = LoopClients()
    >>> clients.close()  # nothing open: nothing to do
    >>> len(clients)
    0
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Callable
from typing import Any

#: Longest wait (seconds) for closing a client on an idle loop run on a helper thread.
CLOSE_SECONDS = 5.0


async def _close_client(client: Any) -> None:
    if not client.is_closed():
        await client.close()


async def _keep(client: Any) -> AsyncIterator[None]:
    """Suspended for the client's life on its loop; closing it (by the loop's
    ``shutdown_asyncgens``, or ``aclose``) closes the client."""
    try:
        yield
    finally:
        await _close_client(client)


class _Entry:
    """One loop's client, and the generator that closes it when that loop shuts down."""

    __slots__ = ("client", "keeper", "loop", "url")

    def __init__(self, loop: asyncio.AbstractEventLoop, client: Any, url: str) -> None:
        self.loop = loop
        self.client = client
        self.url = url
        # left to the loop once the entry is dropped: its finally finds the client closed
        self.keeper = _keep(client)


def _close_soon(client: Any, tasks: set[asyncio.Task[None]]) -> None:
    """Run on the client's own loop: close it there, as a task."""
    task = asyncio.get_running_loop().create_task(_close_client(client))
    tasks.add(task)
    task.add_done_callback(tasks.discard)


def _close_on_idle_loop(loop: asyncio.AbstractEventLoop, client: Any,
                        tasks: set[asyncio.Task[None]]) -> None:
    """Run ``loop``, which runs nowhere, until ``client`` is closed."""
    closing = _close_client(client)
    try:
        loop.run_until_complete(closing)
    except RuntimeError:  # it began running on another thread meanwhile, or was closed
        closing.close()
        if not loop.is_closed():
            loop.call_soon_threadsafe(_close_soon, client, tasks)
    except Exception:  # closing what can be closed: a socket already gone is fine
        pass


class LoopClients:
    """The SDK clients of one agent, one per event loop (see the module's docstring)."""

    def __init__(self) -> None:
        self._entries: dict[asyncio.AbstractEventLoop, _Entry] = {}
        self._lock = threading.Lock()  # the agent may be used from a loop on another thread
        self._closing: set[asyncio.Task[None]] = set()  # closings under way

    def __len__(self) -> int:
        """How many loops have a client open."""
        with self._lock:
            return sum(not loop.is_closed() for loop in self._entries)

    async def get(self, make: Callable[[], Any], url: str) -> Any:
        """The running loop's client; ``make()`` makes one when it has none (or a stale one)."""
        loop = asyncio.get_running_loop()
        stale: _Entry | None = None
        fresh = False
        with self._lock:
            self._drop_closed_loops()
            entry = self._entries.get(loop)
            if entry is not None and (entry.client.is_closed() or entry.url != url):
                stale, entry = self._entries.pop(loop), None
            if entry is None:
                entry = _Entry(loop, make(), url)
                self._entries[loop] = entry
                fresh = True
        if stale is not None:
            await _close_client(stale.client)
        if fresh:
            # its first step registers it with this loop, which closes it when shutting down
            await anext(entry.keeper)
        return entry.client

    async def aclose(self) -> None:
        """Close the running loop's client (awaited), and every other one as ``close`` does."""
        with self._lock:
            entry = self._entries.pop(asyncio.get_running_loop(), None)
        if entry is not None:
            await _close_client(entry.client)
        self.close()

    def close(self) -> None:
        """Close every client as far as can be done from here, without waiting for a loop
        that runs: one that runs (here, or on another thread) closes it as soon as it can."""
        with self._lock:
            entries = list(self._entries.values())
            self._entries.clear()
        try:
            here: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            here = None
        for entry in entries:
            loop, client = entry.loop, entry.client
            if loop.is_closed():
                continue  # nothing can run there any more: dropped
            if loop is here or loop.is_running():
                # a notebook cell, or a loop on another thread: closed when that loop runs
                loop.call_soon_threadsafe(_close_soon, client, self._closing)
            elif here is None:
                _close_on_idle_loop(loop, client, self._closing)
            else:  # an idle loop, and this thread runs another: run the idle one elsewhere
                helper = threading.Thread(target=_close_on_idle_loop, name="dial-agent-close",
                                          args=(loop, client, self._closing), daemon=True)
                helper.start()
                helper.join(CLOSE_SECONDS)

    def _drop_closed_loops(self) -> None:
        for loop in [loop for loop in self._entries if loop.is_closed()]:
            del self._entries[loop]
