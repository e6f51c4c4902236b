"""The dataframes domain: exploratory data analysis over the pandas DataFrames of a notebook.

The frames are the DataFrame values of a namespace dict — by default the IPython user
namespace when running in a kernel — whose names do not start with ``_``. Read-only actions
run without asking; mutating ones rebind a variable to a new frame and are undone by putting
the previous object back (so equality, dtypes and index are exactly those of before).

| action          | kind                  | result                                          |
|-----------------|-----------------------|-------------------------------------------------|
| list-frames     | read-only             | ``{"frames": [{"name", "rows", "columns",``     |
|                 |                       | ``"dtypes"}]}``                                 |
| describe        | read-only             | ``{"frame", "table"}``                          |
| head            | read-only             | ``{"frame", "table"}``                          |
| value-counts    | read-only             | ``{"frame", "column", "table"}``                |
| correlation     | read-only             | ``{"frame", "method", "table"}``                |
| plot            | read-only             | ``{"media": [{"src", "alt"}]}``: a PNG chart    |
|                 |                       | as a ``data:image/png;base64,…`` URL            |
| filter-rows     | mutates, undoable     | CHANGE + ``"rows_before"``                      |
| add-column      | mutates, undoable     | CHANGE + ``"column", "dtype"``                  |
| rename-columns  | mutates, undoable     | CHANGE                                          |
| drop-columns    | destructive, undoable | CHANGE                                          |
| sort            | mutates, undoable     | CHANGE                                          |
| group-aggregate | mutates, undoable     | CHANGE + ``"table"`` (the new frame's rows)     |

CHANGE is ``{"frame", "rows", "columns", "revision", "code"}``: the frame changed (or made),
its shape, the number ``undo`` uses to take the change back, and the pandas code the change
amounts to.

Before a change runs, ``dry_run(action, payload)`` says what it would do, computed on a copy
or, for a long frame, on its first rows, in well under half a second and never touching the
namespace (the shape is in ``_dry_run``); ``code(action, payload)`` is the code alone. After,
``undoable(action, payload, result)`` says whether undo would restore exactly (True), or why
not: a later change to the same frame, a frame made from it since, a frame rebound outside
the conversation. ``code()`` is one script of every change kept, in order, in plain pandas
(``_pandas_code``): run on the frames as they were, it gives the frames as they are.

A table is ``{"columns", "index", "rows", "total_rows"}`` (at most 50 rows, JSON values).
``add-column`` takes column arithmetic (see ``_expressions``), never arbitrary code. pandas and
matplotlib are the optional extra ``dial-notebook[data]``.

Here are the actions and the life of each change (run, undo, the script); the payloads' schemas
are in ``_frames_schemas``, the checks in ``_frames_checks``, each change and its code in
``_frames_changes``, the dry runs in ``_frames_review``, the previews in ``_frames_previews``.

    >>> import pandas as pd
    >>> frames = DataFramesDomain({"sales": pd.DataFrame({"price": [2.0, 3.0], "units": [1, 4]})})
    >>> frames.run("add-column", {"frame": "sales", "column": "revenue",
    ...                           "expression": "price * units"})["columns"]
    ['price', 'units', 'revenue']
    >>> frames.dry_run("sort", {"frame": "sales", "by": ["price"]})["summary"]
    'sales: 2 rows, 3 columns, sorted by price'
    >>> frames.undo_last().action
    'add-column'
"""

from __future__ import annotations

import functools
import sys
from dataclasses import dataclass
from typing import Any

from . import _frames_changes as change
from . import _pandas_code
from ._charts import chart, not_drawn, vegalite_spec
from ._errors import ActionError
from ._frames import (
    Revisions,
    RevisionUndo,
    describe_frame,
    require_pandas,
    table,
    with_summary,
)
from ._frames_checks import check_payload, frame_named
from ._frames_previews import (
    preview_add,
    preview_filter,
    preview_group,
    preview_head,
    preview_plot,
    preview_rename,
    preview_sort,
)
from ._frames_review import dry_run
from ._frames_schemas import SCHEMAS
from ._frames_version import frame_version
from ._schema_domain import SchemaDomain

__all__ = ["SCHEMAS", "DataFramesDomain"]

Payload = dict[str, Any]


def _summarised(run: Any) -> Any:
    """``run`` whose result says itself (``with_summary``)."""
    @functools.wraps(run)  # its name and docstring: what the action says of itself
    def summarised(payload: Payload) -> dict[str, Any]:
        return with_summary(run(payload))
    return summarised


class DataFramesDomain(RevisionUndo, SchemaDomain):
    """EDA over the pandas DataFrames of a namespace.

    Args:
        namespace: the dict holding the frames; by default the IPython user namespace when
            in a kernel, else a new empty dict (add frames to ``domain.namespace``).

    Raises ``ImportError`` naming ``pip install "dial-notebook[data]"`` when pandas is missing.
    """

    def __init__(self, namespace: dict[str, Any] | None = None) -> None:
        self._pd = require_pandas()
        super().__init__(
            "dataframes", context=self._summary,
            description="Exploratory analysis of the pandas DataFrames in the notebook.",
        )
        if namespace is None:
            namespace = _kernel_namespace()
        self.namespace: dict[str, Any] = {} if namespace is None else namespace
        self._revisions = Revisions(self.namespace)
        # The changes made and not undone, by revision, in order: what code() writes out.
        self._steps: dict[int, _Step] = {}
        actions: list[tuple[str, Any, dict[str, Any]]] = [
            ("list-frames", self._list_frames,
             {"mutates": False, "preview": "List the data frames"}),
            ("describe", self._describe, {"mutates": False, "preview": "Describe {frame}"}),
            ("head", self._head, {"mutates": False, "preview": preview_head}),
            ("value-counts", self._value_counts,
             {"mutates": False, "preview": "Count the values of {column} in {frame}"}),
            ("correlation", self._correlation,
             {"mutates": False, "preview": "Correlate the numeric columns of {frame}"}),
            ("plot", self._plot, {"mutates": False, "preview": preview_plot}),
            ("filter-rows", self._filter_rows, {"preview": preview_filter}),
            ("add-column", self._add_column, {"preview": self._preview_add}),
            ("rename-columns", self._rename_columns, {"preview": preview_rename}),
            ("drop-columns", self._drop_columns,
             {"destructive": True, "preview": "Drop the columns {columns} from {frame}"}),
            ("sort", self._sort, {"preview": preview_sort}),
            ("group-aggregate", self._group_aggregate, {"preview": self._preview_group}),
        ]
        for name, run, options in actions:
            if options.get("mutates", True):  # every change: undo, its check, dry run, code
                options.update(undo=self._undo, undoable=self._undoable,
                               dry_run=functools.partial(self._dry_run, name),
                               code=functools.partial(self._code_of, name))
                run = _summarised(run)  # its card says it in a line (with_summary)
            self.add_action(
                name, schema=SCHEMAS[name], run=run, check=self._check_payload, **options
            )

    # What the agent is told

    def frames(self) -> dict[str, Any]:
        """The DataFrames of the namespace by name (names starting with ``_`` left out)."""
        kind = self._pd.DataFrame
        return {
            name: value for name, value in list(self.namespace.items())
            if isinstance(name, str) and not name.startswith("_") and isinstance(value, kind)
        }

    def _summary(self) -> str:
        frames = self.frames()
        if not frames:
            return '<context frames="0"/>'
        lines = [describe_frame(name, frame) for name, frame in list(frames.items())[:10]]
        if len(frames) > 10:
            lines.append(f"+{len(frames) - 10} more frames")
        body = "\n".join(_escape(line) for line in lines)
        return f'<context frames="{len(frames)}">\n{body}\n</context>'

    def version(self, action: str, payload: Any) -> dict[str, str] | None:
        """What a proposal works on, a token per frame it names (``frame``, ``into``): another
        token once a name is bound to another frame or the frame is changed in place (see
        ``frame_version``), so a card made before is checked again before it runs.

            >>> import pandas as pd
            >>> frames = DataFramesDomain({"df": pd.DataFrame({"a": [1]})})
            >>> list(frames.version("sort", {"frame": "df", "by": ["a"]}))
            ['df']
        """
        names = [payload.get(k) for k in ("frame", "into")] if isinstance(payload, dict) else []
        return {name: frame_version(self.namespace, name, self._revisions.latest(name))
                for name in dict.fromkeys(names) if isinstance(name, str)} or None

    # Checks made before the person sees a suggestion (and again before it runs): _frames_checks

    def _check_payload(self, payload: Payload) -> None:
        if "frame" in payload:
            check_payload(self.frames(), self.namespace, payload)

    def _frame(self, name: str) -> Any:
        return frame_named(self.frames(), name)

    def _columns(self, frame: Any, payload: Payload) -> Any:
        """``frame``, or only the columns ``payload["columns"]`` names when it names some."""
        if "columns" not in payload:
            return frame
        return frame[change.labels(frame, payload, "columns")]

    # Read-only actions

    def _list_frames(self, payload: Payload) -> dict[str, Any]:
        """List the data frames in the notebook with their shapes and column types."""
        return {"frames": [
            {"name": name, "rows": len(frame), "columns": [str(c) for c in frame.columns],
             "dtypes": {str(c): str(t) for c, t in frame.dtypes.items()}}
            for name, frame in self.frames().items()
        ]}

    def _describe(self, payload: Payload) -> dict[str, Any]:
        """Summary statistics of a frame's columns (count, mean, quartiles, top values…)."""
        frame = self._columns(self._frame(payload["frame"]), payload)
        stats = frame.describe(include="all").transpose().reset_index(names="column")
        return {"frame": payload["frame"], "table": table(stats)}

    def _head(self, payload: Payload) -> dict[str, Any]:
        """The first rows of a frame (5 unless n says otherwise, at most 50)."""
        frame = self._frame(payload["frame"])
        return {"frame": payload["frame"], "table": table(frame, limit=payload.get("n", 5))}

    def _value_counts(self, payload: Payload) -> dict[str, Any]:
        """How often each value of a column occurs, most frequent first."""
        frame = self._frame(payload["frame"])
        label = change.label(frame, payload["column"], "column", payload["frame"])
        counts = frame[label].value_counts(dropna=False).head(payload.get("limit", 10))
        result = counts.rename("count").reset_index()
        result.columns = [str(payload["column"]), "count"]
        return {"frame": payload["frame"], "column": payload["column"], "table": table(result)}

    def _correlation(self, payload: Payload) -> dict[str, Any]:
        """Correlation between the numeric columns of a frame (pearson unless method says)."""
        frame = self._columns(self._frame(payload["frame"]), payload)
        method = payload.get("method", "pearson")
        numeric = frame.select_dtypes("number")
        if numeric.shape[1] < 2:
            raise ActionError(
                f"{payload['frame']} has fewer than two numeric columns", code="not-numeric",
                field="columns", hint="correlation needs at least two numeric columns",
            )
        matrix = numeric.corr(method=method).round(4).reset_index(names="column")
        return {"frame": payload["frame"], "method": method, "table": table(matrix)}

    def _plot(self, payload: Payload) -> dict[str, Any]:
        """A chart (line, bar, scatter or histogram) of a frame's columns, as a PNG image (or,
        with ``"format": "vega-lite"``, as a Vega-Lite spec with inline values, drawn by the
        widget; ``"drawn": false`` and ``"why"`` when this kernel cannot draw it)."""
        frame = self._frame(payload["frame"])
        columns = [payload["x"]] + ([payload["y"]] if "y" in payload else [])
        labels = [change.label(frame, c, "x", payload["frame"]) for c in columns]
        data = frame[labels].copy()
        data.columns = columns
        if payload.get("format") == "vega-lite":
            return {"vega_lite": vegalite_spec(
                data, payload["x"], payload.get("y"), payload["kind"],
                title=payload.get("title", ""), bins=payload.get("bins", 20)), **not_drawn()}
        return chart(
            data, kind=payload["kind"], x=payload["x"], y=payload.get("y"),
            title=payload.get("title", ""), bins=payload.get("bins", 20),
        )

    # Mutating actions: each computes a new frame from the one it reads (without changing it,
    # so a dry run can compute the same on a sample: _frames_changes) and rebinds a name,
    # keeping the old one

    def _filter_rows(self, payload: Payload) -> dict[str, Any]:
        """Keep only the rows meeting every condition in where (in place, or into a new frame)."""
        frame = self._frame(payload["frame"])
        result = self._commit("filter-rows", payload, frame, frame[change.mask(frame, payload)])
        return {**result, "rows_before": len(frame)}

    def _add_column(self, payload: Payload) -> dict[str, Any]:
        """Add (or replace) a column computed from column arithmetic, e.g. price * units."""
        frame = self._frame(payload["frame"])
        values = change.values(frame, payload)
        changed = frame.copy()
        changed[payload["column"]] = values
        result = self._commit("add-column", payload, frame, changed)
        return {**result, "column": payload["column"],
                "dtype": change.dtype(changed, payload["column"])}

    def _rename_columns(self, payload: Payload) -> dict[str, Any]:
        """Rename columns: columns maps each old name to its new name."""
        frame = self._frame(payload["frame"])
        return self._commit("rename-columns", payload, frame, change.renamed(frame, payload))

    def _drop_columns(self, payload: Payload) -> dict[str, Any]:
        """Remove columns from a frame."""
        frame = self._frame(payload["frame"])
        return self._commit("drop-columns", payload, frame, change.dropped(frame, payload))

    def _sort(self, payload: Payload) -> dict[str, Any]:
        """Sort a frame's rows by columns (ascending unless ascending is false)."""
        frame = self._frame(payload["frame"])
        return self._commit("sort", payload, frame, change.sorted_frame(frame, payload))

    def _group_aggregate(self, payload: Payload) -> dict[str, Any]:
        """Group a frame by columns and aggregate others into a new frame named into."""
        frame = self._frame(payload["frame"])
        grouped = change.grouped(frame, payload)
        result = self._commit("group-aggregate", payload, frame, grouped)
        return {**result, "table": table(grouped, limit=10)}

    def _commit(self, action: str, payload: Payload, frame: Any, made: Any) -> dict[str, Any]:
        """Bind ``into`` (or the frame's own name) to ``made``, remembering the step's code."""
        source = payload["frame"]
        name = payload.get("into", source)
        code: str | None
        try:
            code = written = change.step_code(action, payload, frame)
        except Exception as error:  # never stop a change for want of its code: say so
            code = None
            written = _pandas_code.comment(
                f"# (not written as code: {type(error).__name__}: {error})"[:200])
        step = _Step(source, name, self.preview(action, payload), written,
                     outside=not self._revisions.is_current(source))
        revision = self._revisions.change({name: made}, reads=[source])
        self._steps[revision] = step
        return {
            "frame": name, "rows": len(made), "columns": [str(c) for c in made.columns],
            "revision": revision, "code": code,
        }

    # The code of a change, and of them all
    def code(self, action: str | None = None, payload: Any = None) -> str | None:
        """With an action: the pandas code one run of it amounts to (None for read-only
        actions). Without: one script of every change made and not undone, in order, which
        run on the frames as they were before the first change gives the frames as they are
        (``import pandas as pd`` first; it needs nothing of this domain).

            >>> import pandas as pd
            >>> frames = DataFramesDomain({"df": pd.DataFrame({"a": [3, 1, 2]})})
            >>> frames.code("sort", {"frame": "df", "by": ["a"]})
            'df = df.sort_values(["a"], kind="stable")'
            >>> _ = frames.run("filter-rows", {"frame": "df", "where": [
            ...     {"column": "a", "op": ">", "value": 1}]})
            >>> print(frames.code())
            # The kept changes of the conversation, in plain pandas.
            # Run it on the frames as they were before the first change: df.
            import pandas as pd
            <BLANKLINE>
            # 1. Keep the rows of df where a > 1
            df = df[df["a"] > 1]
            <BLANKLINE>
        """
        if action is None:
            return self._script()
        return super().code(action, payload)

    def _script(self) -> str:
        steps, made, starts = [], set(), []
        for step in self._steps.values():
            if step.source not in made and step.source not in starts:
                starts.append(step.source)
            made.add(step.into)
            description = step.description
            if step.outside:
                description += (f" (note: {step.source} had been changed outside the "
                                "conversation before this step: the script does not have that)")
            steps.append((description, step.code))
        return _pandas_code.script(steps, starts)

    def _code_of(self, action: str, payload: Payload) -> str:
        return change.step_code(action, payload, self._frame(payload["frame"]))

    # Before a change runs: what it would do (_frames_review), and two previews reading the
    # frames there are now (_frames_previews)

    def _dry_run(self, action: str, payload: Payload) -> dict[str, Any]:
        return dry_run(action, payload, self._frame(payload["frame"]), self.frames())

    def _preview_add(self, payload: Payload) -> str:
        return preview_add(payload, self.frames())

    def _preview_group(self, payload: Payload) -> str:
        return preview_group(payload, self.frames())


@dataclass(frozen=True)
class _Step:
    """A change made: the frame it read, the name it bound, its preview, its code."""

    source: str
    into: str
    description: str
    code: str
    outside: bool  # the frame read had been changed outside the conversation before


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _kernel_namespace() -> dict[str, Any] | None:
    """The IPython user namespace when running in a kernel (IPython already imported)."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    namespace = getattr(shell, "user_ns", None)
    return namespace if isinstance(namespace, dict) else None
