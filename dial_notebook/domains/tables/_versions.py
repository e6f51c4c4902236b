"""The versions of a tables domain's tables, for stale proposals (runtime/_stale.py).

A table's version is the number of the expression bound to its name (one per expression, so
an undo gives back the number of before; a change, an undo or the person's ``replace`` give
another), followed by the version on disk of each file source the expression reads
(``_files``: a Parquet file rewritten under the same path gives another). When a file source
is seen to have changed, the row counts the domain remembered for expressions reading it are
forgotten (a dry run counts them again, bounded).

    >>> import ibis
    >>> versions = Versions({"t": ibis.table({"a": "int64"}, name="t")}, forget=print)
    >>> versions.of("t"), versions.of("t"), versions.of("none")
    ('1', '1', 'absent')
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ._files import files_version


class Versions:
    """The versions of the tables in ``tables`` (the domain's own dict, read as it changes);
    ``forget(view)`` is called when the files of the view ``view`` are seen to have changed."""

    def __init__(self, tables: dict[str, Any], *, forget: Callable[[str], Any]) -> None:
        self._tables = tables
        self._forget = forget
        self._stamps: dict[int, tuple[Any, int]] = {}  # id(expression) → (it, its number)
        self._files: dict[str, str] = {}  # a file source's view → its path or glob
        self._seen: dict[str, str] = {}  # … → its files' version when last read

    def watch(self, table: Any, path: str) -> None:
        """Follow the files at ``path`` (a file or glob) that the view of ``table`` reads."""
        view = view_of(table)
        if view is not None:
            self._files[view] = path
            self._seen[view] = files_version(path)

    def of(self, name: str) -> str:
        """The version of the table ``name`` (``absent`` when there is none)."""
        expr = self._tables.get(name)
        if expr is None:
            return "absent"
        parts = [str(self._stamp(expr))]
        if self._files:
            for view in sorted(views_read(expr) & self._files.keys()):
                now = files_version(self._files[view])
                if now != self._seen[view]:
                    self._seen[view] = now
                    self._forget(view)
                parts.append(f"{view}: {now}")
        return "; ".join(parts)

    def _stamp(self, expr: Any) -> int:
        found = self._stamps.get(id(expr))
        if found is None or found[0] is not expr:
            found = self._stamps[id(expr)] = (expr, len(self._stamps) + 1)
        return found[1]


def view_of(table: Any) -> str | None:
    """The name of the engine's table or view ``table`` is (None for an expression)."""
    import ibis.expr.operations as ops

    op = table.op()
    return op.name if isinstance(op, ops.DatabaseTable) else None


def views_read(expr: Any) -> set[str]:
    """The names of the engine's tables and views an Ibis expression reads."""
    import ibis.expr.operations as ops

    return {op.name for op in expr.op().find(ops.DatabaseTable)}
