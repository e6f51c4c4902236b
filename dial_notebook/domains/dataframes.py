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

CHANGE is ``{"frame", "rows", "columns", "revision"}``: the frame changed (or made), its
shape, and the number ``undo`` uses to take the change back.

A table is ``{"columns", "index", "rows", "total_rows"}`` (at most 50 rows, JSON values).
``add-column`` takes column arithmetic (see ``_expressions``), never arbitrary code. pandas and
matplotlib are the optional extra ``dial-notebook[data]``.

    >>> import pandas as pd
    >>> frames = DataFramesDomain({"sales": pd.DataFrame({"price": [2.0, 3.0], "units": [1, 4]})})
    >>> frames.run("add-column", {"frame": "sales", "column": "revenue",
    ...                           "expression": "price * units"})["columns"]
    ['price', 'units', 'revenue']
    >>> frames.undo_last().action
    'add-column'
"""

from __future__ import annotations

import keyword
import sys
from typing import Any

from . import _expressions
from ._charts import KINDS, MAX_BARS, chart
from ._errors import ActionError
from ._frames import MAX_ROWS, Revisions, describe_frame, require_pandas, table
from ._hints import did_you_mean, show
from ._schema_domain import SchemaDomain

Payload = dict[str, Any]

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
         "bins": {"type": "integer", "minimum": 2, "maximum": 100}},
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
        undo = self._undo
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
            ("filter-rows", self._filter_rows, {"preview": self._preview_filter, "undo": undo}),
            ("add-column", self._add_column, {"preview": self._preview_add, "undo": undo}),
            ("rename-columns", self._rename_columns,
             {"preview": self._preview_rename, "undo": undo}),
            ("drop-columns", self._drop_columns,
             {"destructive": True, "preview": "Drop the columns {columns} from {frame}",
              "undo": undo}),
            ("sort", self._sort, {"preview": self._preview_sort, "undo": undo}),
            ("group-aggregate", self._group_aggregate,
             {"preview": self._preview_group, "undo": undo}),
        ]
        for name, run, options in actions:
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
        """A chart (line, bar, scatter or histogram) of a frame's columns, as a PNG image."""
        frame = self._frame(payload["frame"])
        columns = [payload["x"]] + ([payload["y"]] if "y" in payload else [])
        labels = [self._label(frame, c, "x", payload["frame"]) for c in columns]
        data = frame[labels].copy()
        data.columns = columns
        return chart(
            data, kind=payload["kind"], x=payload["x"], y=payload.get("y"),
            title=payload.get("title", ""), bins=payload.get("bins", 20),
        )

    # Mutating actions: each computes a new frame and rebinds a name, keeping the old one

    def _filter_rows(self, payload: Payload) -> dict[str, Any]:
        """Keep only the rows meeting every condition in where (in place, or into a new frame)."""
        frame = self._frame(payload["frame"])
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
        result = self._commit(payload.get("into", payload["frame"]), frame[mask])
        return {**result, "rows_before": len(frame)}

    def _add_column(self, payload: Payload) -> dict[str, Any]:
        """Add (or replace) a column computed from column arithmetic, e.g. price * units."""
        frame = self._frame(payload["frame"])
        try:
            values = _expressions.evaluate(payload["expression"], frame)
        except _expressions.ExpressionError as error:
            raise _expression_error(error) from None
        changed = frame.copy()
        changed[payload["column"]] = values
        result = self._commit(payload["frame"], changed)
        dtype = str(changed[payload["column"]].dtype)
        return {**result, "column": payload["column"], "dtype": dtype}

    def _rename_columns(self, payload: Payload) -> dict[str, Any]:
        """Rename columns: columns maps each old name to its new name."""
        frame = self._frame(payload["frame"])
        mapping = {self._label(frame, old, "columns", payload["frame"]): new
                   for old, new in payload["columns"].items()}
        return self._commit(payload["frame"], frame.rename(columns=mapping))

    def _drop_columns(self, payload: Payload) -> dict[str, Any]:
        """Remove columns from a frame."""
        frame = self._frame(payload["frame"])
        labels = [self._label(frame, c, "columns", payload["frame"]) for c in payload["columns"]]
        return self._commit(payload["frame"], frame.drop(columns=labels))

    def _sort(self, payload: Payload) -> dict[str, Any]:
        """Sort a frame's rows by columns (ascending unless ascending is false)."""
        frame = self._frame(payload["frame"])
        labels = [self._label(frame, c, "by", payload["frame"]) for c in payload["by"]]
        ordered = frame.sort_values(labels, ascending=payload.get("ascending", True), kind="stable")
        return self._commit(payload["frame"], ordered)

    def _group_aggregate(self, payload: Payload) -> dict[str, Any]:
        """Group a frame by columns and aggregate others into a new frame named into."""
        frame = self._frame(payload["frame"])
        keys = [self._label(frame, c, "by", payload["frame"]) for c in payload["by"]]
        named = {}
        for item in payload["aggregations"]:
            label = self._label(frame, item["column"], "aggregations", payload["frame"])
            named[f"{item['column']}_{item['func']}"] = (label, item["func"])
        try:
            grouped = frame.groupby(keys, dropna=False, sort=True).agg(**named).reset_index()
        except (TypeError, ValueError) as error:
            raise ActionError(
                f"cannot aggregate: {str(error)[:200]}", code="invalid-aggregation",
                field="aggregations",
                hint="aggregate numeric columns (sum, mean, …) or use count / nunique",
            ) from None
        result = self._commit(payload["into"], grouped)
        return {**result, "table": table(grouped, limit=10)}

    def _commit(self, name: str, frame: Any) -> dict[str, Any]:
        revision = self._revisions.change({name: frame})
        return {
            "frame": name, "rows": len(frame), "columns": [str(c) for c in frame.columns],
            "revision": revision,
        }

    def _undo(self, payload: Payload, result: dict[str, Any]) -> None:
        self._revisions.restore(result["revision"])

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
