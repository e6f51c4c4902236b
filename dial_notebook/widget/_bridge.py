"""Futures that carry a person's click into the running turn loop.

The turn loop awaits a future per decision or answer; the front end's message resolves it.
Widget messages can arrive on a kernel subshell thread (ipykernel 7.0–7.3), where a plain
``set_result`` never wakes the loop, so every resolution goes through
``loop.call_soon_threadsafe`` unless it already runs on the loop's thread. Each future is keyed
by an id; resolving an id that is not waiting (stale or repeated click) does nothing.

    open(key) ──▶ future awaited by the turn loop
    resolve(key, value) ──▶ set once, on the loop's thread ──▶ key forgotten
    resolve(key, value) again ──▶ ignored (returns False)

    >>> import asyncio
    >>> async def demo():
    ...     bridge = Bridge()
    ...     future = bridge.open("sg-1")
    ...     bridge.resolve("sg-1", {"accept": True})
    ...     return await future
    >>> asyncio.run(demo())
    {'accept': True}
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any


class Bridge:
    """Futures keyed by id, resolved at most once, from any thread."""

    def __init__(self) -> None:
        # key -> (loop the future belongs to, the future)
        self._waiting: dict[str, tuple[asyncio.AbstractEventLoop, asyncio.Future[Any]]] = {}
        # guards _waiting: open() runs on the loop, resolve() may run on a subshell thread
        self._lock = threading.Lock()

    def open(self, key: str) -> asyncio.Future[Any]:
        """A new future for ``key`` on the running loop (an older one for the key is dropped)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        with self._lock:
            self._waiting[key] = (loop, future)
        return future

    def waiting(self) -> list[str]:
        """The keys that are still waiting for a value."""
        with self._lock:
            return list(self._waiting)

    def resolve(self, key: str, value: Any) -> bool:
        """Give ``key``'s future its value; False when nothing waits under that key."""
        with self._lock:
            entry = self._waiting.pop(key, None)
        if entry is None:
            return False
        loop, future = entry
        if _on_loop_thread(loop):
            _set(future, value)
        else:
            loop.call_soon_threadsafe(_set, future, value)
        return True


def _on_loop_thread(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False


def _set(future: asyncio.Future[Any], value: Any) -> None:
    if not future.done():
        future.set_result(value)
