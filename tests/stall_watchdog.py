"""A stall watchdog for tests: fails when anything holds the event loop longer than a limit.

Promise 3 ("no single reply, file or click holds the kernel for more than about 2 s") is about the
event loop, so the tests measure the loop itself, not the wall time of a call:

    heartbeat task (on the loop)      sleeps ``interval``, notes how late it woke up
                                      (the lateness is a block: the loop could not run it)
    sampler thread (off the loop)     sees the heartbeat stop beating; once a block passes
                                      ``limit`` it captures the loop thread's stack, so the
                                      failure names the function that held the loop

A block is *held* time: its wall time less the time the loop thread waited for a CPU while it
could have run (Linux's per-thread schedstat). A sleep, a lock or a slow read counts in full; the
load of a busy machine does not, so the verdict is the code's, not the machine's.

``watch_loop`` is an async context manager; tests/conftest.py wraps every async test of a hostile
module in one (also the ``stall_watchdog`` fixture and marker). ``watch_call`` is its twin for
synchronous code (the whole block is one hold), and ``held_seconds`` measures one call that way.

Off Linux (no schedstat) the wait for a CPU reads as 0: the watchdog judges wall time there.
"""

from __future__ import annotations

import asyncio
import sys
import threading
import time
import traceback
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")

DEFAULT_LIMIT = 2.0


def runqueue_wait(thread: int | None = None) -> float:
    """Seconds the thread (a native id; None: this one) has spent runnable but waiting for a CPU,
    since it started (Linux ``/proc/.../schedstat``); 0.0 where the system does not say.

    >>> runqueue_wait() >= 0.0
    True
    """
    path = "/proc/thread-self/schedstat" if thread is None else f"/proc/self/task/{thread}/schedstat"
    try:
        with open(path, "rb") as stat:
            return int(stat.read().split()[1]) / 1e9
    except (OSError, ValueError, IndexError):
        return 0.0


def held_seconds(work: Callable[[], T], *,
                 clock: Callable[[], float] = time.perf_counter) -> tuple[T, float]:
    """``work()``'s result and how long it held this thread, less the machine's load.

    >>> result, seconds = held_seconds(lambda: sum(range(1000)))
    >>> result, seconds < 1
    (499500, True)
    """
    started, waited = clock(), runqueue_wait()
    result = work()
    return result, max(0.0, clock() - started - (runqueue_wait() - waited))


@dataclass
class LoopWatch:
    """What the watchdog saw: the longest block, and the loop thread's stack during the first
    block that passed the limit (``''`` when none did)."""

    limit: float
    #: the longest held block (wall time less the wait for a CPU), seconds
    worst: float = 0.0
    #: the wall time of that block, and how much of it the thread spent on the CPU
    worst_wall: float = 0.0
    worst_cpu: float = 0.0
    beats: int = 0
    #: how many blocks passed the limit
    blocks_over: int = 0
    stack: str = ""
    holder: str = ""

    def verdict(self) -> str | None:
        """The failure message when a block passed the limit, else None.

        >>> LoopWatch(limit=2.0, worst=0.5).verdict() is None
        True
        >>> watch = LoopWatch(limit=2.0, worst=2.5, worst_wall=2.6, holder="slow_parse")
        >>> print(watch.verdict().splitlines()[0])
        the event loop was held 2.50 s (limit 2.00 s) by slow_parse [wall 2.60 s, CPU 0.00 s]
        """
        if self.worst <= self.limit:
            return None
        head = (f"the event loop was held {self.worst:.2f} s (limit {self.limit:.2f} s) by "
                f"{self.holder or 'code that returned before the sampler saw it'}")
        detail = f" [wall {self.worst_wall:.2f} s, CPU {self.worst_cpu:.2f} s]"
        stack = f"\nstack of the loop thread while it was held:\n{self.stack}" if self.stack else ""
        return head + detail + stack


def _holder(frames: list[traceback.FrameSummary]) -> str:
    """The innermost frame that is project or test code (not the stdlib or site-packages)."""
    interesting = [f for f in frames
                   if ("dial_notebook" in f.filename or "/tests/" in f.filename)
                   and not f.filename.endswith("stall_watchdog.py")]
    chosen = interesting[-1] if interesting else (frames[-1] if frames else None)
    if chosen is None:
        return ""
    return f"{chosen.name} ({chosen.filename.rsplit('/', 1)[-1]}:{chosen.lineno})"


class _Watcher:
    """The watchdog's state for one thread: the time of its last beat, the holds it noted, and
    a sampler thread that takes the thread's stack once a hold passes the limit."""

    def __init__(self, watch: LoopWatch, interval: float, clock: Callable[[], float],
                 waited: Callable[[int], float]) -> None:
        self.watch, self.interval, self.clock, self.waited = watch, interval, clock, waited
        self.thread, self.native = threading.get_ident(), threading.get_native_id()
        self.captured = threading.Event()  # the stack of the hold in progress is taken
        self.stop = threading.Event()
        self.beat()
        self.sampler = threading.Thread(target=self.sample, name="stall-watchdog", daemon=True)

    def beat(self) -> None:
        """The watched thread is free again: a new hold starts from here."""
        self.last = (self.clock(), time.thread_time(), self.waited(self.native))
        self.captured.clear()

    def since_last_beat(self) -> tuple[float, float, float]:
        """Wall, CPU-wait and CPU seconds since the last beat (CPU: on the watched thread)."""
        beat, cpu, wait = self.last
        wall = self.clock() - beat - self.interval
        on_thread = threading.get_ident() == self.thread
        return (wall, self.waited(self.native) - wait,
                time.thread_time() - cpu if on_thread else 0.0)

    def note(self, wall: float, wait: float, cpu: float) -> None:
        held, watch = max(0.0, wall - wait), self.watch
        if held > watch.worst:
            watch.worst, watch.worst_wall, watch.worst_cpu = held, wall, cpu
        if held > watch.limit:
            watch.blocks_over += 1

    def sample(self) -> None:
        watch = self.watch  # watch.limit: a test may change it through the fixture once running
        while not self.stop.wait(min(0.05, max(watch.limit / 4, 0.005))):
            if self.captured.is_set():
                continue
            wall, wait, _ = self.since_last_beat()
            if wall - wait <= watch.limit:
                continue
            frame = sys._current_frames().get(self.thread)
            if frame is None:
                continue
            frames = traceback.extract_stack(frame)
            self.captured.set()
            if not watch.stack:  # keep the first hold past the limit: it is the one to fix
                watch.stack = "".join(traceback.format_list(frames[-12:]))
                watch.holder = _holder(frames)

    def __enter__(self) -> _Watcher:
        self.sampler.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.note(*self.since_last_beat())  # the hold in progress: no beat has seen it yet
        self.stop.set()
        self.sampler.join()


@asynccontextmanager
async def watch_loop(limit: float = DEFAULT_LIMIT, *, interval: float = 0.01,
                     clock: Callable[[], float] = time.perf_counter,
                     waited: Callable[[int], float] = runqueue_wait,
                     watch: LoopWatch | None = None) -> AsyncIterator[LoopWatch]:
    """Fail (AssertionError) at exit if the running loop was held longer than ``limit`` seconds.

    The failure names the function that held the loop and shows the loop thread's stack then.
    ``waited(native_thread_id)`` says how long a thread has waited for a CPU (``runqueue_wait``);
    ``watch`` (optional) is the record to fill in; its ``limit`` is replaced by ``limit``.

    >>> async def fine():
    ...     async with watch_loop(limit=1.0) as watch:
    ...         await asyncio.sleep(0.05)
    ...     return watch.worst < 1.0
    >>> asyncio.run(fine())
    True
    """
    if watch is None:
        watch = LoopWatch(limit=limit)
    watch.limit = limit

    async def heartbeat(watcher: _Watcher) -> None:
        while True:
            await asyncio.sleep(interval)
            watcher.note(*watcher.since_last_beat())
            watch.beats += 1
            watcher.beat()

    with _Watcher(watch, interval, clock, waited) as watcher:
        beating = asyncio.create_task(heartbeat(watcher), name="stall-watchdog-heartbeat")
        try:
            yield watch
        finally:
            beating.cancel()
            try:
                await beating
            except asyncio.CancelledError:
                if (task := asyncio.current_task()) is not None and task.cancelling():
                    raise
    message = watch.verdict()
    if message is not None:
        raise AssertionError(message)


@contextmanager
def watch_call(limit: float = DEFAULT_LIMIT, *, clock: Callable[[], float] = time.perf_counter,
               waited: Callable[[int], float] = runqueue_wait,
               watch: LoopWatch | None = None) -> Iterator[LoopWatch]:
    """``watch_loop`` for synchronous code (a parser, a file reader: what a cell or a handler
    calls on the kernel's thread): the whole block is one hold of the thread; AssertionError at
    exit when it passed ``limit``, naming what was running then.

    >>> with watch_call(limit=1.0) as watch:
    ...     _ = sum(range(1000))
    >>> watch.worst < 1.0
    True
    """
    if watch is None:
        watch = LoopWatch(limit=limit)
    watch.limit = limit
    with _Watcher(watch, 0.0, clock, waited):
        yield watch
    message = watch.verdict()
    if message is not None:
        raise AssertionError(message)
