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
import keyword
import sys
from dataclasses import dataclass
from typing import Any

from . import _dry_run, _expressions, _pandas_code
from ._charts import KINDS, MAX_BARS, chart, not_drawn, vegalite_spec
from ._errors import ActionError
from ._frames import MAX_ROWS, Revisions, describe_frame, require_pandas, table
from ._hints import did_you_mean, show
from ._schema_domain import SchemaDomain

Payload = dict[str, Any]
#: What a dry run of one action works out: its summary, its effect, notes to warn of.
Review = tuple[str, dict[str, Any], list[str]]

_FRAME = {"type": "string", "minLength": 1, "description": "the name of a DataFrame"}
_COLUMN = {"type": "string", "minLength": 1}
_COLUMNS = {"type": "array", "items": _COLUMN, "minItems": 1, "uniqueItems": True}
_NEW_NAME = {
    "type": "string", "pattern": "^[A-Za-z][A-Za-z0-9_]*$", "maxLength": 60,
    "description": "a new variable name for the result",
}
_OPS = ["==", "!=", "<", "<=", ">", ">=", "in", "not in", "contains", "is null", "not null"]
_CONDITION = {
    "type": "object",
    "properties": {
        "column": _COLUMN,
        "op": {"enum": _OPS},
        "value": {"type": ["string", "number", "boolean", "array"]},
    },
    "required": ["column", "op"],
    "additionalProperties": False,
    "allOf": [
        {
            "if": {"properties": {"op": {"enum": ["in", "not in"]}}},
            "then": {"required": ["value"], "properties": {"value": {"type": "array"}}},
        },
        {
            "if": {"properties": {"op": {"enum": ["==", "!=", "<", "<=", ">", ">=", "contains"]}}},
            "then": {
                "required": ["value"],
                "properties": {"value": {"type": ["string", "number", "boolean"]}},
            },
        },
    ],
}
_FUNCS = ["sum", "mean", "median", "min", "max", "count", "nunique", "std"]


def _object(properties: dict[str, Any], *required: str, **extra: Any) -> dict[str, Any]:
    return {
        "type": "object", "properties": properties, "required": list(required),
        "additionalProperties": False, **extra,
    }


SCHEMAS: dict[str, dict[str, Any]] = {
    "list-frames": _object({}),
    "describe": _object({"frame": _FRAME, "columns": _COLUMNS}, "frame"),
    "head": _object(
        {"frame": _FRAME, "n": {"type": "integer", "minimum": 1, "maximum": MAX_ROWS}}, "frame"
    ),
    "value-counts": _object(
        {"frame": _FRAME, "column": _COLUMN, "limit": {"type": "integer", "minimum": 1,
                                                       "maximum": MAX_ROWS}},
        "frame", "column",
    ),
    "correlation": _object(
        {"frame": _FRAME, "columns": {**_COLUMNS, "minItems": 2},
         "method": {"enum": ["pearson", "spearman", "kendall"]}},
        "frame",
    ),
    "plot": _object(
        {"frame": _FRAME, "kind": {"enum": list(KINDS)}, "x": _COLUMN, "y": _COLUMN,
         "title": {"type": "string", "maxLength": 100},
         "bins": {"type": "integer", "minimum": 2, "maximum": 100},
         "format": {"enum": ["png", "vega-lite"]}},
        "frame", "kind", "x",
        allOf=[{"if": {"properties": {"kind": {"enum": ["line", "bar", "scatter"]}}},
                "then": {"required": ["y"]}}],
    ),
    "filter-rows": _object(
        {"frame": _FRAME, "where": {"type": "array", "items": _CONDITION, "minItems": 1,
                                    "maxItems": 10},
         "into": _NEW_NAME},
        "frame", "where",
    ),
    "add-column": _object(
        {"frame": _FRAME, "column": _COLUMN,
         "expression": {"type": "string", "minLength": 1, "maxLength": _expressions.MAX_LENGTH}},
        "frame", "column", "expression",
    ),
    "rename-columns": _object(
        {"frame": _FRAME, "columns": {"type": "object", "minProperties": 1,
                                      "additionalProperties": _COLUMN}},
        "frame", "columns",
    ),
    "drop-columns": _object({"frame": _FRAME, "columns": _COLUMNS}, "frame", "columns"),
    "sort": _object(
        {"frame": _FRAME, "by": _COLUMNS, "ascending": {"type": "boolean"}}, "frame", "by"
    ),
    "group-aggregate": _object(
        {"frame": _FRAME, "by": _COLUMNS,
         "aggregations": {"type": "array", "minItems": 1, "maxItems": 20, "items": _object(
             {"column": _COLUMN, "func": {"enum": _FUNCS}}, "column", "func")},
         "into": _NEW_NAME},
        "frame", "by", "aggregations", "into",
    ),
}


class DataFramesDomain(SchemaDomain):
    """EDA over the pandas DataFrames of a namespace.

    Args:
        namespace: the dict holding the frames; by default the IPython user namespace when
            in a kernel, else a new empty dict (add frames to ``domain.namespace``).

    Raises ``ImportError`` naming ``pip install dial-notebook[data]`` when pandas is missing.
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
            ("head", self._head, {"mutates": False, "preview": self._preview_head}),
            ("value-counts", self._value_counts,
             {"mutates": False, "preview": "Count the values of {column} in {frame}"}),
            ("correlation", self._correlation,
             {"mutates": False, "preview": "Correlate the numeric columns of {frame}"}),
            ("plot", self._plot, {"mutates": False, "preview": self._preview_plot}),
            ("filter-rows", self._filter_rows, {"preview": self._preview_filter}),
            ("add-column", self._add_column, {"preview": self._preview_add}),
            ("rename-columns", self._rename_columns, {"preview": self._preview_rename}),
            ("drop-columns", self._drop_columns,
             {"destructive": True, "preview": "Drop the columns {columns} from {frame}"}),
            ("sort", self._sort, {"preview": self._preview_sort}),
            ("group-aggregate", self._group_aggregate, {"preview": self._preview_group}),
        ]
        for name, run, options in actions:
            if options.get("mutates", True):  # every change: undo, its check, dry run, code
                options.update(undo=self._undo, undoable=self._undoable,
                               dry_run=functools.partial(self._dry_run, name),
                               code=functools.partial(self._code_of, name))
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

    # Checks made before the person sees a suggestion (and again before it runs)

    def _check_payload(self, payload: Payload) -> None:
        if "frame" not in payload:
            return
        frame = self._frame(payload["frame"])
        for field in ("columns", "by"):
            if isinstance(payload.get(field), list):
                for index, column in enumerate(payload[field]):
                    self._label(frame, column, f"{field}[{index}]", payload["frame"])
        for field in ("column", "x", "y"):
            if field in payload and not (field == "column" and "expression" in payload):
                self._label(frame, payload[field], field, payload["frame"])
        for index, condition in enumerate(payload.get("where", [])):
            self._label(frame, condition["column"], f"where[{index}].column", payload["frame"])
        for index, aggregation in enumerate(payload.get("aggregations", [])):
            self._label(frame, aggregation["column"], f"aggregations[{index}].column",
                        payload["frame"])
        if "expression" in payload:
            try:
                _expressions.parse(payload["expression"], [str(c) for c in frame.columns])
            except _expressions.ExpressionError as error:
                raise _expression_error(error) from None
        if isinstance(payload.get("columns"), dict):
            self._check_renames(frame, payload["columns"], payload["frame"])
        if "into" in payload:
            self._check_new_name(payload["into"])
        if payload.get("kind") == "bar" and len(frame) > MAX_BARS:
            raise ActionError(
                f"{payload['frame']} has {len(frame)} rows: too many bars", code="too-many-rows",
                field="kind", hint=f"a bar chart shows at most {MAX_BARS} bars: "
                "group-aggregate or filter the frame first",
            )

    def _frame(self, name: str) -> Any:
        frames = self.frames()
        if name not in frames:
            known = ", ".join(frames) or "none"
            raise ActionError(
                f"there is no data frame {show(name)}", code="unknown-frame", field="frame",
                hint=f"there is no data frame {show(name)}{did_you_mean(name, frames)}; "
                f"the frames are: {known}",
            )
        return frames[name]

    def _label(self, frame: Any, column: str, field: str, frame_name: str) -> Any:
        for label in frame.columns:
            if str(label) == column:
                return label
        names = [str(label) for label in frame.columns]
        raise ActionError(
            f"{frame_name} has no column {show(column)}", code="unknown-column", field=field,
            hint=f"{frame_name} has no column {show(column)}{did_you_mean(column, names)}",
        )

    def _check_renames(self, frame: Any, renames: dict[str, str], frame_name: str) -> None:
        for old in renames:
            self._label(frame, old, f"columns[{show(old)}]", frame_name)
        final = [renames.get(str(label), str(label)) for label in frame.columns]
        for name in renames.values():
            if final.count(name) > 1:
                raise ActionError(
                    f"two columns would be named {show(name)}", code="duplicate-column",
                    field="columns", hint=f"two columns of {frame_name} would be named {show(name)}",
                )

    def _check_new_name(self, name: str) -> None:
        if keyword.iskeyword(name):
            raise ActionError(f"{show(name)} is a Python keyword", code="invalid-name", field="into")
        existing = self.namespace.get(name)
        if existing is not None and not isinstance(existing, self._pd.DataFrame):
            raise ActionError(
                f"{show(name)} already holds something else", code="name-taken", field="into",
                hint=f"{show(name)} already holds a value of type {type(existing).__name__}: "
                "choose another name",
            )

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
        frame = self._frame(payload["frame"])
        if "columns" in payload:
            frame = frame[[self._label(frame, c, "columns", payload["frame"])
                           for c in payload["columns"]]]
        stats = frame.describe(include="all").transpose().reset_index(names="column")
        return {"frame": payload["frame"], "table": table(stats)}

    def _head(self, payload: Payload) -> dict[str, Any]:
        """The first rows of a frame (5 unless n says otherwise, at most 50)."""
        frame = self._frame(payload["frame"])
        return {"frame": payload["frame"], "table": table(frame, limit=payload.get("n", 5))}

    def _value_counts(self, payload: Payload) -> dict[str, Any]:
        """How often each value of a column occurs, most frequent first."""
        frame = self._frame(payload["frame"])
        label = self._label(frame, payload["column"], "column", payload["frame"])
        counts = frame[label].value_counts(dropna=False).head(payload.get("limit", 10))
        result = counts.rename("count").reset_index()
        result.columns = [str(payload["column"]), "count"]
        return {"frame": payload["frame"], "column": payload["column"], "table": table(result)}

    def _correlation(self, payload: Payload) -> dict[str, Any]:
        """Correlation between the numeric columns of a frame (pearson unless method says)."""
        frame = self._frame(payload["frame"])
        if "columns" in payload:
            frame = frame[[self._label(frame, c, "columns", payload["frame"])
                           for c in payload["columns"]]]
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
        labels = [self._label(frame, c, "x", payload["frame"]) for c in columns]
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
    # so a dry run can compute the same on a sample) and rebinds a name, keeping the old one

    def _filter_rows(self, payload: Payload) -> dict[str, Any]:
        """Keep only the rows meeting every condition in where (in place, or into a new frame)."""
        frame = self._frame(payload["frame"])
        result = self._commit("filter-rows", payload, frame, frame[self._mask(frame, payload)])
        return {**result, "rows_before": len(frame)}

    def _add_column(self, payload: Payload) -> dict[str, Any]:
        """Add (or replace) a column computed from column arithmetic, e.g. price * units."""
        frame = self._frame(payload["frame"])
        values = self._values(frame, payload)
        changed = frame.copy()
        changed[payload["column"]] = values
        result = self._commit("add-column", payload, frame, changed)
        return {**result, "column": payload["column"], "dtype": _dtype(changed, payload["column"])}

    def _rename_columns(self, payload: Payload) -> dict[str, Any]:
        """Rename columns: columns maps each old name to its new name."""
        frame = self._frame(payload["frame"])
        return self._commit("rename-columns", payload, frame, self._renamed(frame, payload))

    def _drop_columns(self, payload: Payload) -> dict[str, Any]:
        """Remove columns from a frame."""
        frame = self._frame(payload["frame"])
        return self._commit("drop-columns", payload, frame, self._dropped(frame, payload))

    def _sort(self, payload: Payload) -> dict[str, Any]:
        """Sort a frame's rows by columns (ascending unless ascending is false)."""
        frame = self._frame(payload["frame"])
        return self._commit("sort", payload, frame, self._sorted(frame, payload))

    def _group_aggregate(self, payload: Payload) -> dict[str, Any]:
        """Group a frame by columns and aggregate others into a new frame named into."""
        frame = self._frame(payload["frame"])
        grouped = self._grouped(frame, payload)
        result = self._commit("group-aggregate", payload, frame, grouped)
        return {**result, "table": table(grouped, limit=10)}

    def _commit(self, action: str, payload: Payload, frame: Any, made: Any) -> dict[str, Any]:
        """Bind ``into`` (or the frame's own name) to ``made``, remembering the step's code."""
        source = payload["frame"]
        name = payload.get("into", source)
        code: str | None
        try:
            code = written = self._step_code(action, payload, frame)
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

    def _undo(self, payload: Payload, result: dict[str, Any]) -> None:
        self._revisions.restore(result["revision"])
        self._steps.pop(result["revision"], None)

    def _undoable(self, payload: Payload, result: Any) -> bool | str:
        revision = result.get("revision") if isinstance(result, dict) else None
        if not isinstance(revision, int) or isinstance(revision, bool):
            return "it cannot be undone"
        return self._revisions.undoable(revision)

    # Each change, computed from the frame it reads (the whole frame, or a dry run's sample)

    def _mask(self, frame: Any, payload: Payload) -> Any:
        """Which rows of ``frame`` meet every condition of ``where``."""
        mask = self._pd.Series(True, index=frame.index)
        for index, condition in enumerate(payload["where"]):
            label = self._label(frame, condition["column"], f"where[{index}].column",
                                payload["frame"])
            try:
                mask &= _condition(frame[label], condition["op"], condition.get("value"))
            except (TypeError, ValueError) as error:
                raise ActionError(
                    f"cannot compare {condition['column']} with {show(condition.get('value'))}",
                    code="invalid-filter", field=f"where[{index}].value", hint=str(error)[:200],
                ) from None
        return mask

    def _values(self, frame: Any, payload: Payload) -> Any:
        """The new column's values (a Series, or one value for every row)."""
        try:
            return _expressions.evaluate(payload["expression"], frame)
        except _expressions.ExpressionError as error:
            raise _expression_error(error) from None

    def _renamed(self, frame: Any, payload: Payload) -> Any:
        return frame.rename(columns=dict(self._renames(frame, payload)))

    def _renames(self, frame: Any, payload: Payload) -> list[tuple[Any, str]]:
        return [(self._label(frame, old, "columns", payload["frame"]), new)
                for old, new in payload["columns"].items()]

    def _dropped(self, frame: Any, payload: Payload) -> Any:
        return frame.drop(columns=self._labels(frame, payload, "columns"))

    def _sorted(self, frame: Any, payload: Payload) -> Any:
        labels = self._labels(frame, payload, "by")
        return frame.sort_values(labels, ascending=payload.get("ascending", True), kind="stable")

    def _grouped(self, frame: Any, payload: Payload) -> Any:
        keys = self._labels(frame, payload, "by")
        try:
            return frame.groupby(keys, dropna=False, sort=True).agg(
                **self._aggregations(frame, payload)).reset_index()
        except (TypeError, ValueError) as error:
            raise ActionError(
                f"cannot aggregate: {str(error)[:200]}", code="invalid-aggregation",
                field="aggregations",
                hint="aggregate numeric columns (sum, mean, …) or use count / nunique",
            ) from None

    def _aggregations(self, frame: Any, payload: Payload) -> dict[str, tuple[Any, str]]:
        named = {}
        for item in payload["aggregations"]:
            label = self._label(frame, item["column"], "aggregations", payload["frame"])
            named[f"{item['column']}_{item['func']}"] = (label, item["func"])
        return named

    def _labels(self, frame: Any, payload: Payload, field: str) -> list[Any]:
        return [self._label(frame, c, field, payload["frame"]) for c in payload[field]]

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
        return self._step_code(action, payload, self._frame(payload["frame"]))

    def _step_code(self, action: str, payload: Payload, frame: Any) -> str:
        source = payload["frame"]
        if action == "filter-rows":
            conditions = [(self._label(frame, c["column"], f"where[{i}].column", source),
                           c["op"], c.get("value")) for i, c in enumerate(payload["where"])]
            return _pandas_code.filter_rows(source, payload.get("into", source), frame,
                                            conditions)
        if action == "add-column":
            try:
                return _pandas_code.add_column(source, frame, payload["column"],
                                               payload["expression"])
            except _expressions.ExpressionError as error:
                raise _expression_error(error) from None
        if action == "rename-columns":
            return _pandas_code.rename_columns(source, frame, self._renames(frame, payload))
        if action == "drop-columns":
            return _pandas_code.drop_columns(source, frame,
                                             self._labels(frame, payload, "columns"))
        if action == "sort":
            return _pandas_code.sort(source, frame, self._labels(frame, payload, "by"),
                                     payload.get("ascending", True))
        return _pandas_code.group_aggregate(source, payload["into"], frame,
                                            self._labels(frame, payload, "by"),
                                            self._aggregations(frame, payload))

    # Dry runs: what a change would do, computed on a copy or a sample (see _dry_run)

    def _dry_run(self, action: str, payload: Payload) -> dict[str, Any]:
        import numpy as np

        frame = self._frame(payload["frame"])
        review = getattr(self, "_review_" + action.replace("-", "_"))
        with np.errstate(all="ignore"):  # a dry run says what happens; the run warns
            summary, effect, notes = review(frame, payload)
        into = payload.get("into", payload["frame"])
        existing = self.frames().get(into)
        if into != payload["frame"] and existing is not None:
            notes.append(f"{into} already holds a frame ({_dry_run.count(len(existing), 'row')} "
                         f"× {_dry_run.count(existing.shape[1], 'column')}): it will be replaced")
        dry = {"summary": summary, "effect": effect,
               "code": self._step_code(action, payload, frame)}
        if notes:
            dry["note"] = "; ".join(notes)
        return dry

    def _review_filter_rows(self, frame: Any, payload: Payload) -> Review:
        import numpy as np

        name, into = payload["frame"], payload.get("into", payload["frame"])
        part, mask = _dry_run.bounded(lambda rows: _flags(self._mask(rows, payload)), frame)
        exact, total = part is frame, len(frame)
        kept = int(mask.sum()) if exact or not len(part) else round(mask.mean() * total)
        kept_at, dropped_at = np.flatnonzero(mask), np.flatnonzero(~mask)
        show_dropped = min(len(dropped_at), 2 if len(kept_at) else _dry_run.SHOWN_ROWS)
        show_kept = min(len(kept_at), _dry_run.SHOWN_ROWS - show_dropped)
        before_at = sorted([*kept_at[:show_kept], *dropped_at[:show_dropped]])
        labels = [self._label(frame, c["column"], "where", name) for c in payload["where"]]
        tables = (_dry_run.shown(frame.iloc[before_at], labels, total=total),
                  _dry_run.shown(frame.iloc[kept_at[:_dry_run.SHOWN_ROWS]], labels, total=kept))
        sampled = None if exact else \
            f"{_dry_run.on_sample(frame, part)}; the row counts are estimates"
        about = "" if exact else "about "
        target = name if into == name else f"{name} → {into}"
        summary = (f"{target}: {_dry_run.change(total, kept, 'row', about=about)}, "
                   f"{_dry_run.count(frame.shape[1], 'column')}")
        effect = _dry_run.effect(name, into, frame, frame.columns, (total, kept),
                                 sample_tables=tables, sampled=sampled)
        return summary, effect, []

    def _review_add_column(self, frame: Any, payload: Payload) -> Review:
        name, column = payload["frame"], payload["column"]
        part, values = _dry_run.bounded(lambda rows: self._values(rows, payload), frame)
        changed = part.copy(deep=False)  # copy on write: the frame itself is never changed
        changed[column] = values
        dtype, exact = _dtype(changed, column), part is frame
        replaced = column in frame.columns
        reads = [label for label in self._reads(frame, payload["expression"]) if label != column]
        before_columns = [*reads, column] if replaced else reads
        total = len(frame)
        tables = (_dry_run.shown(part, before_columns, total=total, only=True),
                  _dry_run.shown(changed, [*reads, column], total=total, only=True))
        count = frame.shape[1]
        notes = []
        if replaced:
            old = _dtype(frame, column)
            notes.append(f"replaces the column {column} ({old} → {dtype})")
            summary = f"{name}: {_dry_run.count(total, 'row')}, {_dry_run.count(count, 'column')} " \
                      f"({column} replaced: {old} → {dtype})"
        else:
            summary = f"{name}: {_dry_run.count(total, 'row')}, " \
                      f"{_dry_run.change(count, changed.shape[1], 'column')} (adds {column}, {dtype})"
        effect = _dry_run.effect(name, name, frame, changed.columns, (total, total),
                                 dtypes={column: dtype}, sample_tables=tables,
                                 sampled=None if exact else _dry_run.on_sample(frame, part))
        return summary, effect, notes

    def _review_rename_columns(self, frame: Any, payload: Payload) -> Review:
        name = payload["frame"]
        head = frame.head(_dry_run.SHOWN_ROWS)
        renames = self._renames(frame, payload)
        renamed = self._renamed(head, payload)
        total = len(frame)
        tables = (_dry_run.shown(head, [old for old, _ in renames], total=total),
                  _dry_run.shown(renamed, [new for _, new in renames], total=total))
        pairs = {str(old): new for old, new in renames}
        listed = _dry_run.names([f"{old} → {new}" for old, new in pairs.items()])
        summary = f"{name}: {_dry_run.count(total, 'row')}, " \
                  f"{_dry_run.count(frame.shape[1], 'column')} (renames {listed})"
        effect = _dry_run.effect(name, name, frame, renamed.columns, (total, total),
                                 renamed=pairs, sample_tables=tables)
        return summary, effect, []

    def _review_drop_columns(self, frame: Any, payload: Payload) -> Review:
        name = payload["frame"]
        head = frame.head(_dry_run.SHOWN_ROWS)
        dropped = self._dropped(head, payload)
        total = len(frame)
        tables = (_dry_run.shown(head, self._labels(frame, payload, "columns"), total=total),
                  _dry_run.shown(dropped, total=total))
        summary = f"{name}: {_dry_run.count(total, 'row')}, " \
                  f"{_dry_run.change(frame.shape[1], dropped.shape[1], 'column')} " \
                  f"(drops {_dry_run.names(payload['columns'])})"
        effect = _dry_run.effect(name, name, frame, dropped.columns, (total, total),
                                 sample_tables=tables)
        return summary, effect, []

    def _review_sort(self, frame: Any, payload: Payload) -> Review:
        name, ascending = payload["frame"], payload.get("ascending", True)
        labels = self._labels(frame, payload, "by")

        def sort(rows: Any) -> Any:
            return self._sorted(rows, payload)

        part = _dry_run.sample(frame)
        first = sort(frame).head(_dry_run.SHOWN_ROWS) if part is frame else \
            _dry_run.first_sorted(frame, labels, ascending, sort)
        exact = first is not None
        if first is None:
            first = sort(part).head(_dry_run.SHOWN_ROWS)
        total = len(frame)
        tables = (_dry_run.shown(frame, labels, total=total),
                  _dry_run.shown(first, labels, total=total))
        order = "" if ascending else " (descending)"
        summary = f"{name}: {_dry_run.count(total, 'row')}, " \
                  f"{_dry_run.count(frame.shape[1], 'column')}, sorted by " \
                  f"{_dry_run.names(payload['by'])}{order}"
        sampled = None if exact else (f"{_dry_run.on_sample(frame, part, 'sorted')}: the first "
                                      "rows of the whole frame may differ")
        effect = _dry_run.effect(name, name, frame, frame.columns, (total, total),
                                 sample_tables=tables, sampled=sampled)
        return summary, effect, []

    def _review_group_aggregate(self, frame: Any, payload: Payload) -> Review:
        name, into = payload["frame"], payload["into"]
        part, grouped = _dry_run.bounded(lambda rows: self._grouped(rows, payload), frame)
        exact = part is frame
        sources = [label for label, _ in self._aggregations(frame, payload).values()]
        keys = self._labels(frame, payload, "by")
        total, groups = len(frame), len(grouped)
        tables = (_dry_run.shown(part, [*keys, *sources], total=total, only=True),
                  _dry_run.shown(grouped, total=groups))
        known = {str(label) for label in frame.columns}
        dtypes = {str(c): str(t) for c, t in grouped.dtypes.items() if str(c) not in known}
        at_least = "" if exact else "at least "
        summary = f"{name} → {into}: {_dry_run.change(total, groups, 'row', about=at_least)}, " \
                  f"{_dry_run.change(frame.shape[1], grouped.shape[1], 'column')}"
        sampled = None if exact else (
            f"{_dry_run.on_sample(frame, part)}; the row counts are estimates (the new frame has "
            f"at least {_dry_run.number(groups)} rows) and the values shown are the sample's")
        effect = _dry_run.effect(name, into, frame, grouped.columns, (total, groups),
                                 dtypes=dtypes, sample_tables=tables, sampled=sampled)
        return summary, effect, []

    def _reads(self, frame: Any, expression: str) -> list[Any]:
        """The columns an expression reads, in the frame's order."""
        import ast

        tree = _expressions.parse(expression, [str(c) for c in frame.columns])
        callees = {id(node.func) for node in ast.walk(tree) if isinstance(node, ast.Call)}
        named = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and id(node) not in callees:
                named.add(node.id)
            elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "col":
                named.add(node.args[0].value)  # type: ignore[attr-defined]
        return [label for label in frame.columns if isinstance(label, str) and label in named]

    # Previews

    def _preview_head(self, payload: Payload) -> str:
        return f"Show the first {payload.get('n', 5)} rows of {payload['frame']}"

    def _preview_plot(self, payload: Payload) -> str:
        if payload["kind"] == "hist":
            return f"Plot a histogram of {payload['x']} in {payload['frame']}"
        return f"Plot a {payload['kind']} chart of {payload['y']} against {payload['x']} " \
               f"from {payload['frame']}"

    def _preview_filter(self, payload: Payload) -> str:
        conditions = " and ".join(_describe_condition(c) for c in payload["where"])
        into = f" into {payload['into']}" if "into" in payload else ""
        return f"Keep the rows of {payload['frame']} where {conditions}{into}"

    def _preview_add(self, payload: Payload) -> str:
        frame = self.frames().get(payload["frame"])
        verb = "Replace" if frame is not None and payload["column"] in frame.columns else "Add"
        column, expression = payload["column"], payload["expression"]
        return f"{verb} the column {column} = {expression} in {payload['frame']}"

    def _preview_rename(self, payload: Payload) -> str:
        pairs = ", ".join(f"{old} → {new}" for old, new in payload["columns"].items())
        return f"Rename in {payload['frame']}: {pairs}"

    def _preview_sort(self, payload: Payload) -> str:
        order = "" if payload.get("ascending", True) else " (descending)"
        return f"Sort {payload['frame']} by {', '.join(payload['by'])}{order}"

    def _preview_group(self, payload: Payload) -> str:
        aggregations = ", ".join(f"{a['column']} {a['func']}" for a in payload["aggregations"])
        replaces = " (replaces it)" if payload["into"] in self.frames() else ""
        return f"Group {payload['frame']} by {', '.join(payload['by'])} " \
               f"({aggregations}) into {payload['into']}{replaces}"


@dataclass(frozen=True)
class _Step:
    """A change made: the frame it read, the name it bound, its preview, its code."""

    source: str
    into: str
    description: str
    code: str
    outside: bool  # the frame read had been changed outside the conversation before


def _flags(mask: Any) -> Any:
    """A mask as a numpy array of booleans (missing is False)."""
    return mask.to_numpy(dtype=bool, na_value=False)


def _dtype(frame: Any, column: str) -> str:
    """The type of ``frame``'s column ``column`` (the last, when two share the name)."""
    values = frame[column]
    if values.ndim == 1:
        return str(values.dtype)
    return str(values.dtypes.iloc[-1])


def _condition(series: Any, op: str, value: Any) -> Any:
    if op == "is null":
        return series.isna()
    if op == "not null":
        return series.notna()
    if op == "in":
        return series.isin(value)
    if op == "not in":
        return ~series.isin(value)
    if op == "contains":
        found = series.astype(str).str.contains(str(value), regex=False)
        return found & series.notna()
    compare = {"==": series.__eq__, "!=": series.__ne__, "<": series.__lt__,
               "<=": series.__le__, ">": series.__gt__, ">=": series.__ge__}[op]
    return compare(value).fillna(False).astype(bool)


def _describe_condition(condition: dict[str, Any]) -> str:
    op, value = condition["op"], condition.get("value")
    if op in ("is null", "not null"):
        return f"{condition['column']} {op}"
    shown = ", ".join(map(repr, value)) if isinstance(value, list) else repr(value)
    return f"{condition['column']} {op} {shown}"


def _expression_error(error: Exception) -> ActionError:
    return ActionError(str(error), code="invalid-expression", field="expression")


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _kernel_namespace() -> dict[str, Any] | None:
    """The IPython user namespace when running in a kernel (IPython already imported)."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    namespace = getattr(shell, "user_ns", None)
    return namespace if isinstance(namespace, dict) else None
