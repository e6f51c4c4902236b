"""Helpers for the dataframes domain: pandas on demand, frames as JSON tables, undoable changes.

pandas is an optional extra: nothing here imports it at module level, and ``require_pandas``
says how to install it. A table is ``{"columns", "index", "rows", "total_rows"}`` holding JSON
values only (NaN and NaT become null, timestamps ISO strings), at most ``MAX_ROWS`` rows.

``Revisions`` changes variables in a namespace so that each change can be taken back exactly:
the previous object itself is put back, so equality, dtypes and index are those of before.
(A frame's version, for stale proposals: ``_frames_version``.)

    >>> namespace = {"df": "old"}
    >>> revisions = Revisions(namespace)
    >>> number = revisions.change({"df": "new"})
    >>> revisions.restore(number); namespace["df"]
    'old'
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ._errors import ActionError

#: Most rows a table result carries (the widget and the agent both read it).
MAX_ROWS = 50
INSTALL = 'pip install "dial-notebook[data]"'

_MISSING = object()


def require_pandas() -> Any:
    """The pandas module, or an ``ImportError`` saying how to install it."""
    try:
        import pandas
    except ImportError:
        raise ImportError(f"the dataframes domain needs pandas: {INSTALL}") from None
    return pandas


def jsonable(value: Any) -> Any:
    """A cell value as JSON: numbers, text, booleans or null; a time at midnight (no zone) is
    its date alone, as pandas prints it.

        >>> import datetime
        >>> jsonable(datetime.datetime(2024, 1, 3)), jsonable(datetime.datetime(2024, 1, 3, 9))
        ('2024-01-03', '2024-01-03T09:00:00')
    """
    if value is None or isinstance(value, bool | str):
        return value
    try:
        if value != value:  # NaN, NaT
            return None
    except (TypeError, ValueError):  # pd.NA refuses to be a truth value
        return None
    if isinstance(value, datetime.datetime) and value.tzinfo is None \
            and value.time() == datetime.time() and not getattr(value, "nanosecond", 0):
        return value.date().isoformat()
    if isinstance(value, datetime.datetime | datetime.date):
        return value.isoformat()
    if hasattr(value, "item") and not hasattr(value, "__len__"):
        value = value.item()  # numpy scalar → Python
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, int | bool | str):
        return value
    return str(value)


def table(frame: Any, *, limit: int = MAX_ROWS) -> dict[str, Any]:
    """The first ``limit`` rows of ``frame`` as a JSON table."""
    shown = frame.head(limit)
    return {
        "columns": [str(column) for column in shown.columns],
        "index": [jsonable(label) for label in shown.index],
        "rows": [[jsonable(cell) for cell in row] for row in shown.itertuples(index=False)],
        "total_rows": len(frame),
    }


def describe_frame(name: str, frame: Any, *, max_columns: int = 20) -> str:
    """One line: ``sales: 200 rows × 6 columns: region (str), price (float64), …``."""
    parts = [f"{column} ({dtype})" for column, dtype in list(frame.dtypes.items())[:max_columns]]
    more = f", +{frame.shape[1] - max_columns} more" if frame.shape[1] > max_columns else ""
    rows, columns = frame.shape
    return f"{name}: {rows} rows × {columns} columns: {', '.join(parts)}{more}"


def with_summary(result: dict[str, Any]) -> dict[str, Any]:
    """A change's result with its ``summary``: what the card says of it (the other fields are
    for the agent and for Undo).

        >>> with_summary({"frame": "sales", "rows": 40, "rows_before": 200})["summary"]
        'sales: 200 → 40 rows'
    """
    name, rows = result.get("frame"), result.get("rows")
    counted = f"{rows:,} rows" if isinstance(rows, int) else "rows not counted"
    if isinstance(result.get("rows_before"), int):
        said = f"{name}: {result['rows_before']:,} → {counted}"
    elif result.get("column") is not None:
        said = f"{name}: a new column {result['column']} ({result.get('dtype')}), {counted}"
    else:
        columns = result.get("columns")
        width = f", {len(columns)} columns" if isinstance(columns, list) else ""
        said = f"{name}: {counted}{width}"
    return {**result, "summary": said}


class Revisions:
    """Changes to variables of a namespace, each of which can be restored exactly.

    A change may be restored only while no later change depends on it: it is the latest
    change of each variable it touched, those variables still hold what it put there, and no
    later change still in place read them (a frame made from it).

        >>> namespace = {"df": "old"}
        >>> revisions = Revisions(namespace)
        >>> first = revisions.change({"df": "new"})
        >>> later = revisions.change({"copy": "made from new"}, reads=["df"])
        >>> revisions.undoable(first)
        'copy was made from df since: undo that change first'
        >>> revisions.restore(later); revisions.undoable(first)
        True
    """

    def __init__(self, namespace: dict[str, Any]) -> None:
        self._namespace = namespace
        # number → the change (what it replaced and put, and the later changes that read it)
        self._saved: dict[int, _Change] = {}
        self._latest: dict[str, int | None] = {}
        self._next = 1

    def change(self, values: dict[str, Any], *, reads: Iterable[str] = ()) -> int:
        """Bind each name to its value; the number of the change. ``reads`` names the
        variables the values were made from: the changes that made them cannot be restored
        while this one is in place."""
        number = self._next
        self._next += 1
        for name in reads:
            made = self._latest.get(name)
            if made is not None and self.is_current(name):
                self._saved[made].read_by.append((number, name))
        before = {name: self._namespace.get(name, _MISSING) for name in values}
        previous = {name: self._latest.get(name) for name in values}
        self._namespace.update(values)
        self._saved[number] = _Change(before, dict(values), previous)
        for name in values:
            self._latest[name] = number
        return number

    def latest(self, name: str) -> int | None:
        """The number of the latest change to ``name`` still in place (None: none)."""
        return self._latest.get(name)

    def is_current(self, name: str) -> bool:
        """Whether ``name`` holds what the latest change to it put there (True when no change
        touched it)."""
        made = self._latest.get(name)
        if made is None:
            return True
        return self._namespace.get(name, _MISSING) is self._saved[made].after[name]

    def undoable(self, number: int) -> bool | str:
        """True when change ``number`` can be restored now, else why not, in words."""
        obstacle = self._obstacle(number)
        return True if obstacle is None else obstacle[1]

    def restore(self, number: int) -> None:
        """Put back what change ``number`` replaced; ``ActionError`` when that is not safe."""
        obstacle = self._obstacle(number)
        if obstacle is not None:
            code, _reason, message, hint = obstacle
            raise ActionError(message, code=code, hint=hint)
        change = self._saved.pop(number)
        for name, value in change.before.items():
            if value is _MISSING:
                self._namespace.pop(name, None)
            else:
                self._namespace[name] = value
            self._latest[name] = change.previous[name]

    def _obstacle(self, number: int) -> tuple[str, str, str, str | None] | None:
        """Why change ``number`` cannot be restored: (code, reason, message, hint), or None."""
        change = self._saved.get(number)
        if change is None:
            message = f"change {number} is not one that can be undone"
            return "not-undoable", "it was already undone", message, None
        for name, value in change.after.items():
            if self._latest.get(name) != number:
                return ("undo-order", f"{name} was changed again since: undo that change first",
                        f"{name} was changed again since", f"undo the later change to {name} first")
            if self._namespace.get(name, _MISSING) is not value:
                return ("changed-elsewhere",
                        f"{name} was changed outside the conversation since: it is left as it is",
                        f"{name} was changed outside the conversation",
                        f"{name} no longer holds what this change made; it is left as it is")
        for later, name in change.read_by:
            if later in self._saved:
                made = ", ".join(self._saved[later].after)
                return ("undo-order", f"{made} was made from {name} since: undo that change first",
                        f"{made} was made from {name} since",
                        f"undo the change that made {made} first")
        return None


class RevisionUndo:
    """Undo of a change by its revision (``result["revision"]``), for a domain holding its
    changes in ``_revisions`` and the code they kept in ``_steps`` by revision (the dataframes
    and the tables domains)."""

    _revisions: Revisions
    _steps: dict[int, Any]

    def _undo(self, payload: dict[str, Any], result: dict[str, Any]) -> None:
        self._revisions.restore(result["revision"])
        self._steps.pop(result["revision"], None)

    def _undoable(self, payload: dict[str, Any], result: Any) -> bool | str:
        revision = result.get("revision") if isinstance(result, dict) else None
        if not isinstance(revision, int) or isinstance(revision, bool):
            return "it cannot be undone"
        return self._revisions.undoable(revision)


@dataclass
class _Change:
    before: dict[str, Any]  # each name's value before (or _MISSING)
    after: dict[str, Any]  # what the change put
    previous: dict[str, int | None]  # each name's latest change before this one
    read_by: list[tuple[int, str]] = field(default_factory=list)  # later changes that read it
