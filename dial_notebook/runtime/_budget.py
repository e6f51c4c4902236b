"""The kernel's time one agent reply may spend in the domain: one budget for the whole reply.

An agent's reply can ask the domain for unbounded work — twenty suggestions whose payloads each
keep a schema's pattern busy for a second, a payload whose every key wants a "did you mean"
hint. The turn loop runs on the kernel's thread, so that time is taken from the notebook. One
budget per reply bounds it:

    a reply ─▶ Budget(REPLY_SECONDS), for everything the agent's text makes the domain do:
                 validate, preview (and what a domain itself bounds: it reads time_left())
                 each call timed and charged to the budget
               a proposal met once it is spent ─▶ invalid, code 'time-budget': the domain is
                 not called, and the agent is told to propose less at once
    an edit by the person ─▶ a budget of its own (EDIT_SECONDS): the person's time, not the
                 agent's to spend

A domain that works in steps reads ``time_left()`` and stops in time (``SchemaDomain`` gives a
validation no more than that). A call that ignores it is still charged when it returns, so a
reply cannot run over its budget by more than one call.

    >>> with spending(Budget(2.0)) as budget:
    ...     budget.charge(0.5)
    ...     round(time_left(), 1)
    1.5
    >>> time_left() is None   # outside a reply nothing is budgeted
    True
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

#: Seconds of domain work one agent reply may cause (validation, hints, previews): with
#: parsing the reply, about two seconds of the kernel in all.
REPLY_SECONDS = 1.5
#: Seconds of domain work the check of one edit by the person may take.
EDIT_SECONDS = 2.0


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
    started = time.perf_counter()
    try:
        yield
    finally:
        budget = _current.get()
        if budget is not None:
            budget.charge(time.perf_counter() - started)
