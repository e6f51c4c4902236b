"""Clocks for tests of time budgets, so that a busy machine cannot change their verdict.

A budget test asks one of two questions, and neither is "how fast is this machine right now":

- *does the budget cut hostile work?* — run it under a ``VirtualClock`` that the hostile part
  advances (a slow validation says "that took 0.5 s"), so what is cut is decided by the test;
- *does ordinary work fit / grow linearly?* — run it under a clock that stands still (the budget
  never runs out) and count the work: ``cpu_seconds`` (the thread's CPU time, which other
  processes do not inflate) at two sizes, compared as a ratio.

The ``budget_clock`` fixture (tests/conftest.py) installs a ``VirtualClock`` for every budget of
the kernel's time (``dial_notebook.runtime._budget.using_clock``).
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


class VirtualClock:
    """A clock that moves only when told to: ``advance``, or ``tick`` seconds each time it is
    read (a machine as slow as the test likes, the same on every run).

    >>> clock = VirtualClock()
    >>> start = clock()
    >>> clock.advance(0.5)
    >>> clock() - start
    0.5
    """

    def __init__(self, start: float = 1000.0, *, tick: float = 0.0) -> None:
        self.now = start
        self.tick = tick
        #: how many times the clock was read
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        self.now += self.tick
        return self.now

    def advance(self, seconds: float) -> None:
        """Let ``seconds`` pass."""
        self.now += seconds


def cpu_seconds(work: Callable[[], T]) -> tuple[T, float]:
    """``work()``'s result and the CPU seconds this thread spent on it (load does not inflate it).

    The garbage collector is paused meanwhile: its pauses grow with everything the process
    holds, not with the work measured, and would blur a ratio between two sizes.

    >>> result, seconds = cpu_seconds(lambda: sum(range(1000)))
    >>> result, seconds < 1
    (499500, True)
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        started = time.thread_time()
        result = work()
        return result, time.thread_time() - started
    finally:
        if was_enabled:
            gc.enable()


def least_cpu_seconds(work: Callable[[], object], times: int = 3) -> float:
    """The least CPU time of ``times`` runs of ``work`` (the first run may warm caches)."""
    return min(cpu_seconds(work)[1] for _ in range(times))
