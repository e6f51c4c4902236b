"""How the tables domain asks its engine: every query through ``_bounded.run_bounded`` (one at
a time per backend, so that a cancel only reaches the query it is meant for), and the row
counts known so far, so that none is asked for twice.

    known(expr)              the rows of an expression when known: a frame's length, Parquet
                             footers, a count made earlier, or a change that keeps the rows
                             (forgotten for the expressions reading files rewritten since)
    count(expr)              a COUNT within ``count_seconds`` (None when not done in time)
    read(function, *args)    a read-only action's queries within ``query_seconds``
                             (``ActionError`` when the engine fails or takes longer)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .._errors import ActionError


class Engine:
    """The domain's way to its backend's queries, and the row counts it knows."""

    def __init__(self, backend: Any, *, count_seconds: float, query_seconds: float) -> None:
        self.backend = backend
        self.count_seconds = count_seconds
        self.query_seconds = query_seconds
        self._counted: dict[int, tuple[Any, int]] = {}  # id(expr) → (expr, rows)

    def known(self, expr: Any) -> int | None:
        """The rows of ``expr`` when known without a query, else None."""
        found = self._counted.get(id(expr))
        return found[1] if found is not None and found[0] is expr else None

    def remember(self, expr: Any, rows: int) -> None:
        self._counted[id(expr)] = (expr, int(rows))

    def forget_reading(self, view: str) -> None:
        """Forget the rows of every expression reading the engine's view ``view`` (its
        files changed on disk)."""
        from ._versions import views_read

        for key, (expr, _rows) in list(self._counted.items()):
            if view in views_read(expr):
                del self._counted[key]

    def count(self, expr: Any) -> int | None:
        """The rows of ``expr``: known, or counted within ``count_seconds`` (else None)."""
        known = self.known(expr)
        if known is not None:
            return known
        from ._bounded import run_bounded
        from ._engine import scalar

        counted = run_bounded(lambda: int(scalar(expr.count(), self.backend)),
                              seconds=self.count_seconds, backend=self.backend)
        if counted.status == "failed":
            raise ActionError(f"the engine could not run it: {counted.why}",
                              code="engine-error", hint=str(counted.why)[:300])
        if counted.status != "done":
            return None
        self.remember(expr, counted.value)
        return int(counted.value)

    def read(self, function: Callable[..., Any], *args: Any,
             seconds: float | None = None) -> Any:
        """``function(*args)`` (queries on the engine) within ``seconds`` (by default
        ``query_seconds``)."""
        from ._bounded import run_bounded

        def attempt() -> tuple[bool, Any]:
            try:
                return True, function(*args)
            except ActionError as refused:  # ours, with its code and field: raised here
                return False, refused

        bound = self.query_seconds if seconds is None else seconds
        done = run_bounded(attempt, seconds=bound, backend=self.backend)
        if done.status == "done":
            ok, value = done.value
            if not ok:
                raise value
            return value
        code = "engine-error" if done.status == "failed" else "timeout"
        raise ActionError(f"the engine could not answer: {done.why}", code=code,
                          hint=done.why[:300])
