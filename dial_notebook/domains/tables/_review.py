"""Dry runs of the tables changes, computed by the engine in bounded time.

``dry_run(action, payload, table, tables, …)`` builds the change's expression (``_changes``:
no query), then asks the engine, each query bounded by what is left of one budget
(``_bounded.run_bounded``, which cancels the engine's query when its bound passes):

    1. rows after (a COUNT of the new expression; not needed when the rows stay the same)
    2. rows before (known for free when the source's size is: a frame, Parquet footers)
    3. a few rows before and after (LIMIT queries), the columns the change reads first

What did not answer in time is said, never waited for: "rows after: unavailable (the engine
did not answer within 1 s)". Columns added, removed, renamed and the new types come from the
expression's schema, without a query. The result has the dataframes domain's shape (see
``dial_notebook/domains/_dry_run.py``), with a row count None where it is unknown.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

from .. import _dry_run
from .._errors import ActionError
from ._changes import CHANGES
from ._engine import fetch, table

Payload = dict[str, Any]


#: The share of a dry run's bound its queries may use (the rest: building its answer, so that
#: the whole dry run is over within its bound and says itself what was unavailable).
QUERY_SHARE = 0.8


class Budget:
    """One time budget shared by the queries of a dry run of ``seconds``."""

    def __init__(self, seconds: float, backend: Any) -> None:
        self.seconds = seconds
        self.backend = backend
        self._ends = time.monotonic() + seconds * QUERY_SHARE
        self.missed: list[str] = []

    def ask(self, what: str, work: Callable[[], Any]) -> Any:
        """``work()`` within what is left of the budget; None (and ``what`` noted as
        unavailable) when it is not done in time; ``ActionError`` when the engine fails."""
        from ._bounded import run_bounded

        left = self._ends - time.monotonic()
        if left <= 0.02:
            self.missed.append(what)
            return None
        bounded = run_bounded(work, seconds=left, backend=self.backend)
        if bounded.status == "done":
            return bounded.value
        if bounded.status == "failed":
            raise ActionError(f"the engine could not compute it: {bounded.why}",
                              code="engine-error", hint=str(bounded.why)[:300])
        self.missed.append(what)
        return None

    def unavailable(self) -> str | None:
        if not self.missed:
            return None
        return (f"{', '.join(self.missed)}: unavailable (the engine did not answer within "
                f"{self.seconds:g} s)")


def dry_run(action: str, payload: Payload, source: Any, tables: Mapping[str, Any], *,
            backend: Any, seconds: float, known_rows: Callable[[Any], int | None]
            ) -> dict[str, Any]:
    """What ``action`` would do to ``source`` (``payload["frame"]`` among ``tables``)."""
    from ._reads import count

    made, code = CHANGES[action](source, payload)
    name, into = payload["frame"], payload.get("into", payload["frame"])
    budget = Budget(seconds, backend)
    same_rows = action in ("add-column", "rename-columns", "drop-columns", "sort")
    before = known_rows(source)
    after = before if same_rows else None
    if not same_rows:
        after = budget.ask("rows after", lambda: count(made, backend))
    if before is None:
        before = budget.ask("rows before", lambda: count(source, backend))
        after = before if same_rows else after
    reads, renamed = _reads(action, payload, source)
    first_after = [renamed.get(c, c) for c in reads]
    if action == "add-column":
        first_after = [*first_after, payload["column"]]
    only = action in ("add-column", "group-aggregate")  # the columns read, and made
    before_rows = budget.ask("the rows shown before",
                             lambda: _sample(source, reads, backend, before, only=only))
    after_rows = budget.ask("the rows shown after", lambda: _sample(
        made, first_after, backend, after, only=action == "add-column"))
    empty = table([], [], None)
    known = set(source.columns)
    dtypes = {c: str(made[c].type()) for c in made.columns
              if c not in known or (action == "add-column" and c == payload["column"])}
    removed = [] if into != name or renamed else [c for c in source.columns
                                                  if c not in made.columns]
    effect = {
        "frame": name, "into": into, "rows": [before, after],
        "columns": [len(source.columns), len(made.columns)],
        "added": [] if renamed else [c for c in made.columns if c not in known],
        "removed": removed, "renamed": renamed, "dtypes": dtypes,
        "sample": {"before": before_rows or empty, "after": after_rows or empty},
        "sampled": None,
    }
    dry = {"summary": _summary(action, payload, effect, budget), "effect": effect, "code": code}
    notes = [note for note in (budget.unavailable(),) if note]
    if into != name and into in tables:
        notes.append(f"{into} already holds a table: it will be replaced")
    if action == "add-column" and payload["column"] in known:
        old = str(source[payload["column"]].type())
        notes.append(f"replaces the column {payload['column']} ({old} → "
                     f"{dtypes[payload['column']]})")
    if notes:
        dry["note"] = "; ".join(notes)
    return dry


def _reads(action: str, payload: Payload, source: Any) -> tuple[list[str], dict[str, str]]:
    """The columns the change reads (shown first), and the renames it makes."""
    if action == "filter-rows":
        return list(dict.fromkeys(c["column"] for c in payload["where"])), {}
    if action == "add-column":
        from .._frames_changes import reads

        return [c for c in reads(source, payload["expression"]) if c != payload["column"]], {}
    if action == "rename-columns":
        return list(payload["columns"]), dict(payload["columns"])
    if action == "drop-columns":
        return list(payload["columns"]), {}
    if action == "sort":
        return list(payload["by"]), {}
    return [*payload["by"], *dict.fromkeys(a["column"] for a in payload["aggregations"])], {}


def _sample(expr: Any, first: list[str], backend: Any, total: int | None, *,
            only: bool = False) -> dict[str, Any]:
    """A few rows of ``expr``: the columns ``first`` first, then (unless ``only``) others
    up to a few."""
    shown = [c for c in dict.fromkeys(first) if c in expr.columns]
    if not only or not shown:
        room = max(_dry_run.SHOWN_COLUMNS - len(shown), 0)
        shown += [c for c in expr.columns if c not in shown][:room]
    rows = fetch(expr.select(*shown), backend, limit=_dry_run.SHOWN_ROWS)
    return table(shown, rows, total)


def _rows(before: int | None, after: int | None, budget: Budget) -> str:
    seconds = f"the engine did not answer within {budget.seconds:g} s"
    if before is not None and after is not None:
        return _dry_run.change(before, after, "row") if before != after else \
            _dry_run.count(after, "row")
    shown = "rows unknown" if before is None else _dry_run.count(before, "row")
    if after is None and "rows after" in budget.missed:
        return f"{shown} → rows after: unavailable ({seconds})"
    return shown


def _summary(action: str, payload: Payload, effect: dict[str, Any], budget: Budget) -> str:
    name, into = effect["frame"], effect["into"]
    target = name if into == name else f"{name} → {into}"
    rows = _rows(*effect["rows"], budget)
    columns = effect["columns"]
    width = _dry_run.change(*columns, "column") if columns[0] != columns[1] else \
        _dry_run.count(columns[1], "column")
    if action == "add-column":
        column = payload["column"]
        kind = effect["dtypes"].get(column, "")
        what = f"{column} replaced" if columns[0] == columns[1] else f"adds {column}"
        return f"{target}: {rows}, {width} ({what}, {kind})"
    if action == "rename-columns":
        pairs = [f"{old} → {new}" for old, new in effect["renamed"].items()]
        return f"{target}: {rows}, {width} (renames {_dry_run.names(pairs)})"
    if action == "drop-columns":
        return f"{target}: {rows}, {width} (drops {_dry_run.names(payload['columns'])})"
    if action == "sort":
        order = "" if payload.get("ascending", True) else " (descending)"
        return f"{target}: {rows}, {width}, sorted by {_dry_run.names(payload['by'])}{order}"
    return f"{target}: {rows}, {width}"
