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

Every budget of the kernel's time (this one, a validation's deadline) reads one clock,
``budget_clock()``; ``using_clock`` swaps it, so a test decides what a second is (a virtual
clock) rather than the load of the machine it runs on. The budgets themselves are defined once,
in ``dial_notebook/_budget.py``, shared with the domains (which read ``time_left()``); this
module says how much the runtime gives, and re-exports them for the runtime's modules (their
examples are there).

    >>> REPLY_SECONDS < EDIT_SECONDS   # the person's edit may take longer than the agent's reply
    True
"""

from __future__ import annotations

from .._budget import (
    Budget,
    budget_clock,
    charged,
    current_budget,
    spending,
    time_left,
    using_clock,
)

#: Seconds of domain work one agent reply may cause (validation, hints, previews): with
#: parsing the reply, about two seconds of the kernel in all.
REPLY_SECONDS = 1.5
#: Seconds of domain work the check of one edit by the person may take.
EDIT_SECONDS = 2.0

__all__ = [
    "EDIT_SECONDS",
    "REPLY_SECONDS",
    "Budget",
    "budget_clock",
    "charged",
    "current_budget",
    "spending",
    "time_left",
    "using_clock",
]
