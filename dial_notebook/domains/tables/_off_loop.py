"""A tables run off the kernel's event loop, and cancellable: ``TablesDomain.run_async``.

A run (describe, a group-by, a COUNT of a filter on 100 million rows) is a few queries on the
engine, each bounded by ``_bounded.run_bounded``. ``run_off_loop`` runs the whole run in a
worker thread (``dial_notebook._work.in_thread``: the loop only awaits it) inside a cancel
scope, so that a cancelled await stops the engine's work too:

    await run_off_loop(domain.run, action, payload)     (on the loop: never held)
      ├─ worker thread: domain.run(…) ─▶ each run_bounded query joins the scope (``watch``)
      ├─ it ends ─▶ its result, or its error raised
      └─ the awaiting task is cancelled (the runtime's ``run_timeout``, a Stop) ─▶
           scope.cancel(): the query running now is abandoned (DuckDB's ``interrupt()``,
           Spark's job tags: ``_bounded``), and a query the run would start next is refused,
           so the run fails in its thread; a change not yet made is never made (``commit``);
           CancelledError raised at once

The scope travels to the worker thread in a ``contextvars`` context: ``run_bounded`` finds it
with ``current_scope()``; a call outside any run finds None and is bounded as before.

    >>> import asyncio
    >>> asyncio.run(run_off_loop(lambda a, b: a + b, 2, 40))
    42
"""

from __future__ import annotations

import asyncio
import contextvars
import threading
from collections.abc import Callable
from typing import Any, Protocol

from ..._work import in_thread
from .._errors import ActionError

__all__ = ["Scope", "commit", "current_scope", "run_off_loop"]


class _Abandonable(Protocol):
    def abandon(self) -> bool: ...


_CURRENT: contextvars.ContextVar[Scope | None] = contextvars.ContextVar(
    "dial_notebook_tables_scope", default=None)


class Scope:
    """The queries of one run, cancelled together: ``watch`` each as it starts; ``cancel``
    abandons the one running and makes every later ``watch`` abandon its query at once.

        >>> class Query:
        ...     abandoned = False
        ...     def abandon(self):
        ...         self.abandoned = True
        ...         return True
        >>> scope, first, second = Scope(), Query(), Query()
        >>> scope.watch(first); scope.cancel(); scope.watch(second)
        True
        False
        >>> first.abandoned, second.abandoned
        (True, True)
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running: list[_Abandonable] = []
        self.cancelled = False

    def watch(self, query: _Abandonable) -> bool:
        """Follow ``query`` (True); when the scope is already cancelled, abandon it (False)."""
        with self._lock:
            if not self.cancelled:
                self._running = [query]  # one query of a run at a time: the latest
                return True
        query.abandon()
        return False

    def commit(self, change: Callable[[], Any]) -> Any:
        """``change()`` unless the scope is cancelled (then ``ActionError`` 'cancelled'): a
        cancel waits for a change under way, so a change is made whole or not at all."""
        with self._lock:
            if self.cancelled:
                raise ActionError("the run was cancelled before its change was made",
                                  code="cancelled", hint="nothing changed")
            return change()

    def cancel(self) -> None:
        """Abandon the query running now, and every one started after this."""
        with self._lock:
            self.cancelled = True
            running, self._running = self._running, []
        for query in running:
            query.abandon()


def commit(change: Callable[[], Any]) -> Any:
    """``change()`` as the current scope's ``commit`` (called as it is outside any run)."""
    scope = _CURRENT.get()
    return change() if scope is None else scope.commit(change)


def current_scope() -> Scope | None:
    """The cancel scope of the run this thread works for (None outside ``run_off_loop``)."""
    return _CURRENT.get()


async def run_off_loop(fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)`` in a worker thread inside a new cancel scope; cancelling the await
    cancels the scope (see the header). An awaitable result is awaited on the loop."""
    scope = Scope()
    context = contextvars.copy_context()
    context.run(_CURRENT.set, scope)
    running = in_thread(context.run, fn, *args)
    try:
        result = await running
        if asyncio.iscoroutine(result) or isinstance(result, asyncio.Future):
            result = await result
        return result
    except asyncio.CancelledError:
        scope.cancel()
        raise
