"""Work that runs outside the turn loop's task: blocking calls on daemon threads, bounded in
time, and their real end known even when the say that started them is cancelled.

Defined once, in ``dial_notebook/_work.py`` (whose header draws the whole lifecycle), because
the evaluation judges scenarios off the loop with it too; the runtime's modules import it from
here, with the run's clock (``Clock``, ``timed_by``, ``person_answering``: _clock.py). What
the runtime adds: a run may be *stoppable* (its action's spec says so; the run gate marks it,
``stoppable``). Stopping the say then stops such a run too:

    on_end(running, report) after the say was cancelled (Stop):
        not stoppable, or on a worker thread (a thread cannot be cancelled)
            ─▶ as _work.py says: its real end, whenever that is (its time limit holds)
        stoppable, its task running ─▶ the task cancelled now
            ─▶ it ends cancelled            ─▶ report(False, Stopped())   (code 'stopped')
            ─▶ it ends anyway (it had ended, it would not be cancelled) ─▶ its real end
        stoppable, started as a blocking call that hands back an awaitable, still on its
            thread ─▶ the awaitable's task cancelled as soon as it exists

Exactly one report either way: the one ``_work.on_end`` makes.
"""

from __future__ import annotations

import asyncio
import weakref
from typing import Any

from .._clock import Clock, person_answering, timed_by
from .._work import STOP_GRACE, Report, TimedOut, in_thread, is_async, start, until_done
from .._work import on_end as _real_end

__all__ = ["STOP_GRACE", "Clock", "Report", "Stopped", "TimedOut", "in_thread", "is_async",
           "on_end", "person_answering", "start", "stoppable", "timed_by", "until_done"]

#: The runs a Stop cancels (marked by the run gate); forgotten once nobody holds them.
_STOPPABLE: weakref.WeakSet[asyncio.Future[Any]] = weakref.WeakSet()


class Stopped(Exception):
    """A stoppable run the person stopped while it was running (``code`` and ``hint`` as a
    failed outcome carries them).

        >>> error = Stopped()
        >>> error.code, str(error)
        ('stopped', 'Stopped while it was running.')
    """

    code = "stopped"
    hint = ("It was asked to stop while it was running and may have done part of its work "
            "(a server it called may even finish it): check before trying again.")

    def __init__(self) -> None:
        super().__init__("Stopped while it was running.")


def stoppable(running: asyncio.Future[Any]) -> asyncio.Future[Any]:
    """Mark ``running`` (a run the gate started) as one a Stop cancels; returns it."""
    _STOPPABLE.add(running)
    return running


def on_end(running: asyncio.Future[Any], report: Report, *, deadline: float | None = None,
           limit: float = 0.0) -> None:
    """Report how ``running`` really ends, after its say was cancelled (see the header): a
    stoppable run is cancelled now and reported ``Stopped`` when that is how it ends."""
    if running.done() or running not in _STOPPABLE:
        _real_end(running, report, deadline=deadline, limit=limit)
        return
    asked: list[bool] = []

    def ended(ok: bool, value: Any) -> None:
        # cancelled because it was asked to stop (not by its time limit: that is TimedOut)
        if asked and not ok and value is None:
            report(False, Stopped())
        else:
            report(ok, value)

    _real_end(running, ended, deadline=deadline, limit=limit)
    _cancel(running, asked)


def _cancel(running: asyncio.Future[Any], asked: list[bool]) -> None:
    if isinstance(running, asyncio.Task):
        _ask(running, asked)
        return
    task = getattr(running, "task", None)
    if isinstance(task, asyncio.Future):
        _ask(task, asked)
        return
    thread = getattr(running, "thread", None)
    if isinstance(thread, asyncio.Future) and not thread.done():
        # a blocking call that may hand back an awaitable: its task is made in the thread's
        # first done callback, so this later one finds it
        thread.add_done_callback(lambda _: _cancel_task(running, asked))


def _cancel_task(running: asyncio.Future[Any], asked: list[bool]) -> None:
    task = getattr(running, "task", None)
    if isinstance(task, asyncio.Future) and not running.done():
        _ask(task, asked)


def _ask(task: asyncio.Future[Any], asked: list[bool]) -> None:
    if task.cancel():  # False: it had ended already, and its real end is what is told
        asked.append(True)
