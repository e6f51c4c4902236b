"""Budgets of the kernel's time: one clock, a budget of seconds, the one being spent now.

The runtime gives each agent reply (and each edit by the person) one ``Budget`` and spends it
(``spending``) while the domain validates and previews; a domain that works in steps reads
``time_left()`` and stops in time; every budget and deadline reads one clock, ``budget_clock()``,
which ``using_clock`` swaps (a test decides what a second is). Shared by the runtime (which
spends budgets: runtime/_budget.py says how much) and the domains (which read them), so
neither layer imports the other for it.

    >>> with spending(Budget(2.0)) as budget:
    ...     budget.charge(0.5)
    ...     round(time_left(), 1)
    1.5
    >>> time_left() is None   # outside a reply nothing is budgeted
    True
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

#: The clock the budgets read (seconds); replaced only through ``using_clock``.
_clock: Callable[[], float] = time.perf_counter


def budget_clock() -> float:
    """The time, in seconds, as every budget of the kernel's time reads it (``time.perf_counter``).

    >>> with using_clock(lambda: 42.0):
    ...     budget_clock()
    42.0
    """
    return _clock()


@contextmanager
def using_clock(clock: Callable[[], float]) -> Iterator[None]:
    """Make every budget read ``clock`` inside the block (for tests: a virtual clock)."""
    global _clock
    previous, _clock = _clock, clock
    try:
        yield
    finally:
        _clock = previous


class Budget:
    """Seconds of domain work left to one reply (or one edit)."""

    __slots__ = ("seconds", "spent")

    def __init__(self, seconds: float) -> None:
        self.seconds = float(seconds)
        self.spent = 0.0

    @property
    def left(self) -> float:
        """Seconds still to spend (never below 0)."""
        return max(0.0, self.seconds - self.spent)

    @property
    def exhausted(self) -> bool:
        return self.spent >= self.seconds

    def charge(self, seconds: float) -> None:
        """Count ``seconds`` of work against the budget."""
        self.spent += max(0.0, seconds)

    def __repr__(self) -> str:
        return f"Budget({self.seconds:g}s, {self.left:.3f}s left)"


_current: ContextVar[Budget | None] = ContextVar("dial_notebook_reply_budget", default=None)


@contextmanager
def spending(budget: Budget) -> Iterator[Budget]:
    """Make ``budget`` the one that domain work in this block is charged to."""
    token = _current.set(budget)
    try:
        yield budget
    finally:
        _current.reset(token)


def current_budget() -> Budget | None:
    """The budget domain work is charged to now, or None outside a reply."""
    return _current.get()


def time_left() -> float | None:
    """Seconds of domain work the reply being handled may still cause; None outside a reply.

    For a domain that does work in steps (a validation, a dry run): stop when it reaches 0.
    """
    budget = _current.get()
    return None if budget is None else budget.left


@contextmanager
def charged() -> Iterator[None]:
    """Time the block and charge it to the current budget (if any)."""
    started = budget_clock()
    try:
        yield
    finally:
        budget = _current.get()
        if budget is not None:
            budget.charge(budget_clock() - started)
