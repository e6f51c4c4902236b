"""The sources of a tables domain: files, frames or Ibis tables, each opened as an Ibis table.

    a path or glob of Parquet / CSV files ─▶ backend.read_parquet / read_csv: a view the
      (a folder: its Parquet files)          engine reads when asked (never loaded here)
    a pandas or polars DataFrame          ─▶ a snapshot as Arrow, registered in the domain's
                                             own DuckDB under its name (an Ibis memtable on
                                             another backend)
    an Ibis table                         ─▶ itself, when it is on the domain's backend
                                             (or on none: a memtable); else refused

Each opened source says how a script opens it again (``code``, ``_script``) and its row count
when that is cheap (a frame's length, the Parquet files' footers), else None: nothing here
scans a table.

    >>> file_format("/data/sales/*.parquet"), file_format("s.csv.gz")
    ('parquet', 'csv')
"""

from __future__ import annotations

import glob
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .._pandas_code import reference, string
from ._engine import fresh_name

#: Most Parquet files whose footers are read for a row count (past it: rows unknown).
MAX_FOOTERS = 200

_FORMATS = {".parquet": "parquet", ".pq": "parquet", ".csv": "csv", ".tsv": "csv",
            ".csv.gz": "csv", ".tsv.gz": "csv", ".csv.zst": "csv"}


@dataclass(frozen=True)
class Source:
    """An opened source: its table, how a script opens it, and its rows when cheap."""

    name: str
    table: Any
    kind: str  # "parquet" | "csv" | "frame" | "table"
    code: str
    rows: int | None
    where: str  # the path, or what it was, for the context
    path: str | None = None  # the path or glob of a file source (its version: ``_files``)


class SourceError(ValueError):
    """A source refused: which one, and why (a ``TypeError`` / ``FileNotFoundError`` too, for
    a source of the wrong kind / a path that matches no file)."""


class SourceTypeError(SourceError, TypeError):
    pass


class SourceNotFoundError(SourceError, FileNotFoundError):
    pass


def file_format(path: str) -> str | None:
    """``parquet`` or ``csv`` from a path's ending, else None."""
    low = path.lower()
    for ending in sorted(_FORMATS, key=len, reverse=True):
        if low.endswith(ending):
            return _FORMATS[ending]
    return None


def backend_of(table: Any) -> Any:
    """The backend an Ibis table is bound to, or None (a memtable, an unbound table)."""
    try:
        op = table.op()
        from ibis.expr.operations import InMemoryTable, UnboundTable

        if isinstance(op, InMemoryTable | UnboundTable):
            return None
        return table._find_backend()
    except Exception:  # no backend at all
        return None


def backend_of_sources(sources: dict[str, Any]) -> Any:
    """The backend of the first Ibis table among ``sources`` bound to one, else None."""
    for source in sources.values():
        if is_ibis_table(source):
            found = backend_of(source)
            if found is not None:
                return found
    return None


def view_for(name: str, taken: set[str], backend: Any) -> str:
    """``name``, or ``name_1``, ``name_2``…: a name for a view on our own DuckDB that neither
    ``taken`` nor the connection's catalog has (so a view is never replaced under a table)."""
    found = backend.con.execute("SELECT table_name FROM information_schema.tables").fetchall()
    return fresh_name(name, sorted(taken | {str(row[0]) for row in found}))


def is_ibis_table(value: Any) -> bool:
    try:
        import ibis.expr.types as types
    except ImportError:
        return False
    return isinstance(value, types.Table)


def open_source(name: str, source: Any, backend: Any, *, own: bool,
                view: str | None = None) -> Source:
    """``source`` opened as an Ibis table on ``backend`` (``own``: the domain made it, and the
    table is the view ``view``, by default ``name``, on it). ``SourceError`` (a ValueError)
    says what is wrong with a source; nothing is registered then."""
    ref = reference(name)
    view = name if view is None else view
    if isinstance(source, str | os.PathLike):
        path = os.fspath(source)
        if os.path.isdir(path):  # a folder of Parquet files (a partitioned data set)
            path = os.path.join(path, "**", "*.parquet")
        return _open_files(name, path, backend, own=own, view=view)
    if is_ibis_table(source):
        return _open_table(name, source, backend)
    arrow = _arrow_of(source)
    if arrow is None:
        raise SourceTypeError(
            f"source {name!r}: a path or glob of Parquet / CSV files, a pandas or polars "
            f"DataFrame, or an Ibis table, not {type(source).__name__}")
    frame_name = f"{view}_frame"
    code = (f"# {name} was an in-memory frame: pass it in as {frame_name} "
            f"(a pandas or polars DataFrame)\n{ref} = ibis.memtable({reference(frame_name)})")
    if own:
        backend.con.register(view, arrow)
        table = _registered(view, arrow, backend)
    else:
        import ibis

        table = ibis.memtable(arrow)
    return Source(name, table, "frame", code, arrow.num_rows, "an in-memory frame")


def _open_files(name: str, path: str, backend: Any, *, own: bool, view: str) -> Source:
    kind = file_format(path)
    if kind is None:
        raise SourceError(f"source {name!r}: {path!r} is not a .parquet or .csv path or glob")
    matches = sorted(glob.glob(path, recursive=True)) if glob.has_magic(path) else [path]
    if not matches or not all(os.path.isfile(p) for p in matches):
        raise SourceNotFoundError(f"source {name!r}: no {kind} file at {path!r}")
    reader = backend.read_parquet if kind == "parquet" else backend.read_csv
    named = {"table_name": view} if own else {}
    try:
        table = reader(path, **named)
    except Exception as error:  # not Parquet, a CSV the engine cannot parse, …
        from ._bounded import one_line

        raise SourceError(f"source {name!r}: the engine cannot read {path!r} as {kind}: "
                          f"{one_line(error)}") from None
    call = f"con.read_{kind}({string(path)}" + (f", table_name={string(view)})" if own else ")")
    rows = _parquet_rows(matches) if kind == "parquet" else None
    return Source(name, table, kind, f"{reference(name)} = {call}", rows,
                  f"{kind} {_shown_path(path)}", path)


def _open_table(name: str, table: Any, backend: Any) -> Source:
    bound = backend_of(table)
    if bound is not None and bound is not backend:
        raise SourceError(
            f"source {name!r} is a table of another backend ({bound.name}) than the domain's "
            f"({backend.name}): pass backend= the table's own connection, or make one domain "
            "per backend")
    ref = reference(name)
    op = table.op()
    from ibis.expr.operations import DatabaseTable

    if isinstance(op, DatabaseTable):
        where = [part for part in (op.namespace.catalog, op.namespace.database) if part]
        database = "" if not where else (
            f", database={string(where[0])}" if len(where) == 1 else
            f", database=({string(where[0])}, {string(where[1])})")
        code = f"{ref} = con.table({string(op.name)}{database})"
    else:
        code = (f"# {name} was an Ibis expression: pass it in as {name}_table\n"
                f"{ref} = {reference(name + '_table')}")
    return Source(name, table, "table", code, None, f"a table of {backend.name}")


def _registered(name: str, arrow: Any, backend: Any) -> Any:
    """The table of the view ``name`` just registered from ``arrow``: its schema is the Arrow
    table's, so the engine is not asked for it (``backend.table`` asks, when this fails)."""
    try:
        import ibis
        import ibis.expr.operations as ops

        schema = ibis.Schema.from_pyarrow(arrow.schema)
        return ops.DatabaseTable(name=name, schema=schema, source=backend,
                                 namespace=ops.Namespace()).to_expr()
    except Exception:  # another Ibis: the public way
        return backend.table(name)


def _arrow_of(frame: Any) -> Any:
    """A pandas or polars DataFrame as an Arrow table (a snapshot), else None."""
    kind = type(frame)
    module = kind.__module__.split(".")[0]
    if module == "pandas" and kind.__name__ == "DataFrame":
        import pyarrow

        frame = frame.copy(deep=False)
        frame.columns = [str(c) for c in frame.columns]
        return pyarrow.Table.from_pandas(frame, preserve_index=False)
    if module == "polars" and kind.__name__ == "DataFrame":
        return frame.to_arrow()
    return None


def _parquet_rows(paths: list[str]) -> int | None:
    """The rows of Parquet files, from their footers (None past ``MAX_FOOTERS`` files)."""
    if len(paths) > MAX_FOOTERS:
        return None
    try:
        import pyarrow.parquet as parquet

        return sum(parquet.ParquetFile(p).metadata.num_rows for p in paths)
    except Exception:  # an unreadable footer: the engine will say so when it reads
        return None


def _shown_path(path: str) -> str:
    home = str(Path.home())
    return "~" + path[len(home):] if home != "/" and path.startswith(home) else path
