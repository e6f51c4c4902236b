"""The tables domain: the dataframes domain's analysis, on tables of any size, through Ibis.

``TablesDomain({"sales": "data/sales/*.parquet", ...})`` opens each source as an Ibis table
(``_sources``) on one backend: an in-process DuckDB unless ``backend`` is given. The actions,
their payloads and their results are the dataframes domain's (``_frames_schemas.SCHEMAS``), so
the DIAL system prompt and the demo agent work unchanged:

| action          | kind                  | computed by the engine as                       |
|-----------------|-----------------------|-------------------------------------------------|
| list-frames     | read-only             | the schema (rows when known without a scan)     |
| describe        | read-only             | one aggregate query (``_reads``)                |
| head            | read-only             | a LIMIT                                         |
| value-counts    | read-only             | a group-by, LIMIT                               |
| correlation     | read-only             | one aggregate query (pearson)                   |
| plot            | read-only             | engine-side bins / group-bys (``_engine_charts``)|
| filter-rows     | mutates, undoable     | ``table.filter(…)`` (nothing runs but a COUNT)  |
| add-column      | mutates, undoable     | ``table.mutate(…)``                             |
| rename-columns  | mutates, undoable     | ``table.rename(…)``                             |
| drop-columns    | destructive, undoable | ``table.drop(…)``                               |
| sort            | mutates, undoable     | ``table.order_by(…)``                           |
| group-aggregate | mutates, undoable     | ``table.group_by(…).aggregate(…)``              |

A change is lazy: it rebinds the name to a new expression, and undo puts the previous one back
(exactly: expressions are immutable). ``dry_run`` asks the engine, bounded in time
(``_review``); ``code()`` is one Ibis script of the kept changes (``_script``), ``sql(name)``
a table's SQL for its backend; ``to_pandas(name, limit=…)`` materialises on request. The
person's own cell may ``replace`` a table's source or ``add`` one (not undone by undo).
``run_async`` runs an action off the event loop, its queries stopped when it is cancelled.

    >>> import pandas as pd
    >>> tables = TablesDomain({"sales": pd.DataFrame({"price": [2.0, 3.0], "units": [1, 4]})})
    >>> tables.run("add-column", {"frame": "sales", "column": "revenue",
    ...                           "expression": "price * units"})["columns"]
    ['price', 'units', 'revenue']
    >>> print(tables.code().splitlines()[-1])
    sales = sales.mutate(**{"revenue": (sales["price"] * sales["units"])})
"""

from __future__ import annotations

import functools
from typing import Any

from .. import _frames_previews as previews
from .._frames import Revisions, RevisionUndo, with_summary
from .._frames_schemas import SCHEMAS
from .._phrasing import did_you_mean
from .._schema_domain import SchemaDomain
from . import _reads, _sources
from ._changes import CHANGES, SAID
from ._checks import check_payload, table_named
from ._engine import escape_text, fetch, require_ibis
from ._off_loop import commit
from ._review import dry_run
from ._rows import Engine
from ._script import Step, script
from ._sources import Source, SourceError, SourceTypeError, backend_of_sources, open_source
from ._versions import Versions

__all__ = ["TablesDomain"]

Payload = dict[str, Any]
#: The longest ``to_pandas`` waits for the engine (a day: the person asked for the rows).
TO_PANDAS_SECONDS = 86_400.0


class TablesDomain(RevisionUndo, SchemaDomain):
    """EDA over tables of any size (Parquet, CSV, frames, any Ibis backend), through Ibis.

    Args:
        sources: each table's name and source: a path or glob of Parquet / CSV files, a pandas
            or polars DataFrame, or an Ibis table (of ``backend``).
        backend: the Ibis connection the tables live on; by default the backend of the Ibis
            tables given, else a new in-process DuckDB (``ibis.duckdb.connect()``).
        dry_run_seconds: the time a dry run may ask the engine for (then: "unavailable").
        count_seconds: the time a change may take to count its rows (then: None).
        query_seconds: the time a read-only action may take on the engine (then: it fails).

    Raises ``ImportError`` naming ``pip install "dial-notebook[tables]"`` when Ibis is missing.
    """

    def __init__(self, sources: dict[str, Any], backend: Any = None, *,
                 dry_run_seconds: float = 1.0, count_seconds: float = 5.0,
                 query_seconds: float = 120.0) -> None:
        ibis = require_ibis()
        super().__init__(
            "tables", context=self._summary,
            description="Exploratory analysis of tables (Parquet, CSV, data frames, databases) "
                        "computed by an engine through Ibis.",
        )
        if backend is None:
            backend = backend_of_sources(sources)
        self._own = backend is None
        self.backend: Any = ibis.duckdb.connect() if backend is None else backend
        self.dry_run_seconds = dry_run_seconds
        self._engine = Engine(self.backend, count_seconds=count_seconds,
                              query_seconds=query_seconds)
        self._sources: dict[str, Source] = {}  # each name's first source (the script's)
        self._tables: dict[str, Any] = {}
        self._views: set[str] = set()  # the views made on our own DuckDB
        self._versions = Versions(self._tables, forget=self._engine.forget_reading)
        self._revisions = Revisions(self._tables)
        # the kept changes by revision, and the person's replaces (negative keys), in order
        self._steps: dict[int, Step] = {}
        self._replaces = 0
        for name, source in sources.items():
            self._sources[name] = opened = self._open(name, source)
            self._tables[name] = opened.table
        self._add_actions()

    def __repr__(self) -> str:
        return f"TablesDomain({list(self._tables)!r}, backend={self.backend.name!r})"

    def _add_actions(self) -> None:
        actions: list[tuple[str, Any, dict[str, Any]]] = [
            ("list-frames", self._list, {"mutates": False, "preview": "List the tables"}),
            ("describe", self._describe, {"mutates": False, "preview": "Describe {frame}"}),
            ("head", self._head, {"mutates": False, "preview": previews.preview_head}),
            ("value-counts", self._value_counts,
             {"mutates": False, "preview": "Count the values of {column} in {frame}"}),
            ("correlation", self._correlation,
             {"mutates": False, "preview": "Correlate the numeric columns of {frame}"}),
            ("plot", self._plot, {"mutates": False, "preview": previews.preview_plot}),
            ("filter-rows", self._change, {"preview": previews.preview_filter}),
            ("add-column", self._change, {"preview": self._preview_add}),
            ("rename-columns", self._change, {"preview": previews.preview_rename}),
            ("drop-columns", self._change,
             {"destructive": True, "preview": "Drop the columns {columns} from {frame}"}),
            ("sort", self._change, {"preview": previews.preview_sort}),
            ("group-aggregate", self._change, {"preview": self._preview_group}),
        ]
        for name, run, options in actions:
            if options.get("mutates", True):
                run = functools.partial(run, name)
                options.update(description=SAID[name],
                               undo=self._undo, undoable=self._undoable,
                               dry_run=functools.partial(self._dry_run, name),
                               code=functools.partial(self._code_of, name))
            self.add_action(name, schema=SCHEMAS[name], run=run, check=self._check, **options)

    # The tables, for the person and for the agent

    def tables(self) -> dict[str, Any]:
        """Each table's name and its current Ibis expression."""
        return dict(self._tables)

    frames = tables  # the dataframes domain's name for it: the demo agent reads it

    def table(self, name: str) -> Any:
        """The current Ibis expression of the table ``name`` (``KeyError`` when none)."""
        return self._tables[name]

    async def run_async(self, action: str, payload: Any) -> Any:
        """``run`` in a worker thread, the loop only awaiting it (what a conversation calls):
        cancelling the await stops the engine's query and the run (``_off_loop``)."""
        from ._off_loop import run_off_loop

        return await run_off_loop(self.run, action, payload)

    def stoppable(self, action: str) -> bool:
        """Stop may cancel any run: its query is stopped, and a change stopped before it is
        made changes nothing (``_off_loop``)."""
        return action in self.actions

    def to_pandas(self, name: str, *, limit: int | None) -> Any:
        """The table ``name`` as a pandas DataFrame: its first ``limit`` rows, or every row
        with ``limit=None`` (said explicitly: the whole table comes into memory)."""
        expr = self._tables[name]
        if limit is not None:
            expr = expr.limit(limit)
        # one query of ours at a time on the backend; interrupting the kernel cancels it
        arrow = self._engine.read(self.backend.to_pyarrow, expr, seconds=TO_PANDAS_SECONDS)
        return arrow.to_pandas()

    def distinct_values(self, name: str, column: str, *, limit: int = 1000) -> list[Any]:
        """Up to ``limit`` distinct values present in a column (a bounded query: ``[]`` when
        the engine does not answer within ``dry_run_seconds``), e.g. to match what a person
        typed ("north") to the column's own spelling ("North")."""
        from ._bounded import run_bounded

        expr = self._tables[name]
        values = expr.select(column).filter(expr[column].notnull()).distinct()
        found = run_bounded(lambda: fetch(values, self.backend, limit=limit),
                            seconds=self.dry_run_seconds, backend=self.backend)
        return [row[0] for row in found.value] if found.status == "done" else []

    def sql(self, name: str) -> str:
        """The SQL of the table ``name`` in its backend's dialect (compiled by Ibis); a source
        the person replaced is read from its own view (``sales_1``…: see ``replace``)."""
        return str(require_ibis().to_sql(self._tables[name], dialect=self.backend.name))

    def _summary(self) -> str:
        if not self._tables:
            return '<context tables="0"/>'
        lines = [self._line(name, expr) for name, expr in list(self._tables.items())[:10]]
        if len(self._tables) > 10:
            lines.append(f"+{len(self._tables) - 10} more tables")
        body = "\n".join(escape_text(line) for line in lines)
        return f'<context tables="{len(self._tables)}">\n{body}\n</context>'

    def _line(self, name: str, expr: Any) -> str:
        schema = list(expr.schema().items())
        parts = [f"{column} ({dtype})" for column, dtype in schema[:20]]
        more = f", +{len(schema) - 20} more" if len(schema) > 20 else ""
        rows = self._engine.known(expr)
        shown = "rows unknown" if rows is None else f"{rows} rows"
        return f"{name}: {shown} × {len(schema)} columns: {', '.join(parts)}{more}"

    def version(self, action: str, payload: Any) -> dict[str, str] | None:
        """A token of each table a proposal reads and writes (``frame``, ``into``): it changes
        whenever one of them is bound to another expression (a change, an undo, ``replace``)
        or a file it reads is rewritten on disk (``_versions``), so that a proposal made
        before is checked again. None for a payload naming no table.

            >>> import pandas as pd
            >>> tables = TablesDomain({"t": pd.DataFrame({"a": [3, 1]})})
            >>> before = tables.version("sort", {"frame": "t", "by": ["a"]})
            >>> _ = tables.run("sort", {"frame": "t", "by": ["a"]})
            >>> tables.version("sort", {"frame": "t", "by": ["a"]}) == before
            False
        """
        if not isinstance(payload, dict) or not isinstance(payload.get("frame"), str):
            return None
        names = dict.fromkeys(n for n in (payload["frame"], payload.get("into"))
                              if isinstance(n, str))
        return {name: self._versions.of(name) for name in names}

    # The person's own cell: a source replaced or added

    def replace(self, name: str, source: Any) -> None:
        """Bind the table ``name`` to a new ``source`` (what the constructor takes), checked
        as the constructor checks it: a ``ValueError`` (``SourceError``) says what is wrong,
        and the old table stays. Tables made from the old source stay as they were (the new
        one is another view of the engine), a card proposed on ``name`` before is stale, and
        ``code()`` opens the new source where the replace came. A replace is not a change of
        the conversation: it cannot be undone (replace again), and an undo of a change made
        to ``name`` before it is refused ("changed outside the conversation"), never bringing
        the replaced source back.

            >>> import pandas as pd
            >>> tables = TablesDomain({"t": pd.DataFrame({"a": [1]})})
            >>> tables.replace("t", pd.DataFrame({"a": [1, 2]}))
            >>> tables.run("list-frames", {})["frames"][0]["rows"]
            2
        """
        if name not in self._tables:
            raise SourceError(f"no table named {name!r}{did_you_mean(name, list(self._tables))}"
                              f": add(name, source) adds one")
        opened = self._open(name, source)
        self._tables[name] = opened.table
        self._replaces -= 1  # a key of its own, below every revision
        self._steps[self._replaces] = Step(
            name, name, f"{name} replaced by the person: {opened.where}", opened.code, True)

    def add(self, name: str, source: Any) -> None:
        """Add the table ``name`` from ``source`` (checked as the constructor checks it); a
        ``ValueError`` when ``name`` is a table already (``replace`` it)."""
        if name in self._tables:
            raise SourceError(f"{name!r} is already a table: replace(name, source) replaces "
                              "its source")
        self._sources[name] = opened = self._open(name, source)
        self._tables[name] = opened.table

    def _open(self, name: str, source: Any) -> Source:
        """``source`` opened for the table ``name`` (on our own DuckDB, as a view of a name
        no other table of ours has), its rows and files followed. Nothing changes when it
        is refused."""
        if not isinstance(name, str) or not name:
            raise SourceTypeError(f"a table's name must be a non-empty string, not {name!r}")
        view = _sources.view_for(name, self._views, self.backend) if self._own else name
        opened = open_source(name, source, self.backend, own=self._own, view=view)
        self._views.add(view)
        if opened.rows is not None:
            self._engine.remember(opened.table, opened.rows)
        if opened.path is not None:
            self._versions.watch(opened.table, opened.path)
        return opened

    # Checks (no query: the schema says enough)

    def _check(self, payload: Payload) -> None:
        check_payload(self._tables, payload)

    def _table(self, name: str) -> Any:
        return table_named(self._tables, name)

    def _columns(self, payload: Payload) -> Any:
        expr = self._table(payload["frame"])
        return expr.select(*payload["columns"]) if "columns" in payload else expr

    # Read-only actions

    def _list(self, payload: Payload) -> dict[str, Any]:
        """List the tables with their columns, column types and rows (when known)."""
        return {"frames": [
            {"name": name, "rows": self._engine.known(expr), "columns": list(expr.columns),
             "dtypes": {c: str(t) for c, t in expr.schema().items()}}
            for name, expr in self._tables.items()]}

    def _describe(self, payload: Payload) -> dict[str, Any]:
        """Summary statistics of a table's columns (count, mean, quartiles, top values…)."""
        expr = self._table(payload["frame"])
        described = self._engine.read(_reads.describe, self._columns(payload), self.backend,
                                      self._engine.known(expr))
        note = described.pop("note", None)
        return {"frame": payload["frame"], "table": described, **({"note": note} if note else {})}

    def _head(self, payload: Payload) -> dict[str, Any]:
        """The first rows of a table (5 unless n says otherwise, at most 50)."""
        expr = self._table(payload["frame"])
        return {"frame": payload["frame"], "table": self._engine.read(
            _reads.head, expr, payload.get("n", 5), self.backend, self._engine.known(expr))}

    def _value_counts(self, payload: Payload) -> dict[str, Any]:
        """How often each value of a column occurs, most frequent first."""
        expr = self._table(payload["frame"])
        return {"frame": payload["frame"], "column": payload["column"],
                "table": self._engine.read(_reads.value_counts, expr, payload["column"],
                                           payload.get("limit", 10), self.backend)}

    def _correlation(self, payload: Payload) -> dict[str, Any]:
        """Correlation between the numeric columns of a table (pearson)."""
        method = payload.get("method", "pearson")
        return {"frame": payload["frame"], "method": method,
                "table": self._engine.read(_reads.correlation, self._columns(payload), method,
                                           self.backend)}

    def _plot(self, payload: Payload) -> dict[str, Any]:
        """A chart (line, bar, scatter or histogram) of a table's columns, drawn from
        aggregates the engine computes (bins, group-bys, a bounded sample)."""
        from ._engine_charts import chart_from_engine

        return chart_from_engine(
            self._table(payload["frame"]), kind=payload["kind"], x=payload["x"],
            y=payload.get("y"), title=payload.get("title", ""), bins=payload.get("bins", 20),
            backend=self.backend, format=payload.get("format", "png"))

    # Changes: a new expression bound to a name, the old one kept for undo

    def _change(self, action: str, payload: Payload) -> dict[str, Any]:
        source_name = payload["frame"]
        source = self._table(source_name)
        described = self.preview(action, payload)  # before: "Add", not "Replace", the column
        made, code = CHANGES[action](source, payload)
        into = payload.get("into", source_name)
        same_rows = action in ("add-column", "rename-columns", "drop-columns", "sort")
        rows = self._engine.known(source) if same_rows else None
        grouped: dict[str, Any] | None = None
        if action == "group-aggregate":  # its first rows and its count: one aggregation
            grouped, rows = self._engine.read(_reads.head_and_count, made, 10, self.backend)
            self._engine.remember(made, rows)
        elif rows is None:
            rows = self._engine.count(made)
        else:
            self._engine.remember(made, rows)
        revision = commit(lambda: self._revisions.change({into: made}, reads=[source_name]))
        self._steps[revision] = Step(source_name, into, described, code)
        result: dict[str, Any] = {"frame": into, "rows": rows, "columns": list(made.columns),
                                  "revision": revision, "code": code}
        if action == "filter-rows":
            result["rows_before"] = self._engine.known(source)
        elif action == "add-column":
            result.update(column=payload["column"], dtype=str(made[payload["column"]].type()))
        elif grouped is not None:
            result["table"] = grouped
        return with_summary(result)  # what its card says of it

    # Before a change runs

    def _dry_run(self, action: str, payload: Payload) -> dict[str, Any]:
        return dry_run(action, payload, self._table(payload["frame"]), self._tables,
                       backend=self.backend, seconds=self.dry_run_seconds,
                       known_rows=self._engine.known)

    def _code_of(self, action: str, payload: Payload) -> str:
        return CHANGES[action](self._table(payload["frame"]), payload)[1]

    def _preview_add(self, payload: Payload) -> str:
        return previews.preview_add(payload, self._tables)

    def _preview_group(self, payload: Payload) -> str:
        return previews.preview_group(payload, self._tables)

    # The kept code

    def code(self, action: str | None = None, payload: Any = None) -> str | None:
        """With an action: the Ibis code one run of it amounts to (None for read-only
        actions). Without: one Ibis script of every change kept, in order, which opens the
        sources as they were and gives the tables as they are.

            >>> import pandas as pd
            >>> tables = TablesDomain({"t": pd.DataFrame({"a": [3, 1, 2]})})
            >>> tables.code("drop-columns", {"frame": "t", "columns": ["a"]})
            't = t.drop("a")'
        """
        if action is not None:
            return super().code(action, payload)
        return script(list(self._steps.values()), {n: o.code for n, o in self._sources.items()},
                      self.backend.name, own=self._own)

