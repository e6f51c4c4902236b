"""Helpers for the dataframes domain: pandas on demand, frames as JSON tables, undoable changes.

pandas is an optional extra: nothing here imports it at module level, and ``require_pandas``
says how to install it. A table is ``{"columns", "index", "rows", "total_rows"}`` holding JSON
values only (NaN and NaT become null, timestamps ISO strings), at most ``MAX_ROWS`` rows.

``Revisions`` changes variables in a namespace so that each change can be taken back exactly:
the previous object itself is put back, so equality, dtypes and index are those of before.

    >>> namespace = {"df": "old"}
    >>> revisions = Revisions(namespace)
    >>> number = revisions.change({"df": "new"})
    >>> revisions.restore(number); namespace["df"]
    'old'
"""

from __future__ import annotations

import datetime
import math
from typing import Any

from ._errors import ActionError

#: Most rows a table result carries (the widget and the agent both read it).
MAX_ROWS = 50
INSTALL = "pip install dial-notebook[data]"

_MISSING = object()


def require_pandas() -> Any:
    """The pandas module, or an ``ImportError`` saying how to install it."""
    try:
        import pandas
    except ImportError:
        raise ImportError(f"the dataframes domain needs pandas: {INSTALL}") from None
    return pandas


def jsonable(value: Any) -> Any:
    """A cell value as JSON: numbers, text, booleans or null."""
    if value is None or isinstance(value, bool | str):
        return value
    try:
        if value != value:  # NaN, NaT
            return None
    except (TypeError, ValueError):  # pd.NA refuses to be a truth value
        return None
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


class Revisions:
    """Changes to variables of a namespace, each of which can be restored exactly.

    A change may be restored only while it is the latest change of each variable it touched
    and those variables still hold what it put there.
    """

    def __init__(self, namespace: dict[str, Any]) -> None:
        self._namespace = namespace
        # number → (values before, values after, each name's previous latest change)
        self._saved: dict[int, tuple[dict[str, Any], dict[str, Any], dict[str, int | None]]] = {}
        self._latest: dict[str, int | None] = {}
        self._next = 1

    def change(self, values: dict[str, Any]) -> int:
        """Bind each name to its value; the number of the change."""
        number = self._next
        self._next += 1
        before = {name: self._namespace.get(name, _MISSING) for name in values}
        previous = {name: self._latest.get(name) for name in values}
        self._namespace.update(values)
        self._saved[number] = (before, dict(values), previous)
        for name in values:
            self._latest[name] = number
        return number

    def restore(self, number: int) -> None:
        """Put back what change ``number`` replaced; ``ActionError`` when that is not safe."""
        saved = self._saved.get(number)
        if saved is None:
            raise ActionError(f"change {number} is not one that can be undone", code="not-undoable")
        before, after, previous = saved
        for name, value in after.items():
            if self._latest.get(name) != number:
                raise ActionError(
                    f"{name} was changed again since", code="undo-order",
                    hint=f"undo the later change to {name} first",
                )
            if self._namespace.get(name, _MISSING) is not value:
                raise ActionError(
                    f"{name} was changed outside the conversation", code="changed-elsewhere",
                    hint=f"{name} no longer holds what this change made; it is left as it is",
                )
        for name, value in before.items():
            if value is _MISSING:
                self._namespace.pop(name, None)
            else:
                self._namespace[name] = value
            self._latest[name] = previous[name]
        del self._saved[number]
