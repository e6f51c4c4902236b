"""Each dataframes change computed from the frame it reads, and the pandas code it amounts to.

A change never alters the frame it reads: it returns a new one (or the values of one), so a
dry run can compute the same on a sample and the run can bind the result to a name and keep
the old frame for undo. Columns are named by text in payloads and found among the frame's
labels here (``label``), with a "did you mean" when there is no such column.

    >>> import pandas as pd
    >>> frame = pd.DataFrame({"a": [3, 1, 2]})
    >>> payload = {"frame": "df", "by": ["a"]}
    >>> sorted_frame(frame, payload)["a"].tolist()
    [1, 2, 3]
    >>> step_code("sort", payload, frame)
    'df = df.sort_values(["a"], kind="stable")'
"""

from __future__ import annotations

import ast
from typing import Any

from . import _expressions, _pandas_code
from ._errors import ActionError
from ._frames import require_pandas
from ._phrasing import did_you_mean, show

Payload = dict[str, Any]


def label(frame: Any, column: str, field: str, frame_name: str) -> Any:
    """The label of ``frame``'s column named ``column``, else ``ActionError`` on ``field``."""
    for found in frame.columns:
        if str(found) == column:
            return found
    names = [str(found) for found in frame.columns]
    raise ActionError(
        f"{frame_name} has no column {show(column)}", code="unknown-column", field=field,
        hint=f"{frame_name} has no column {show(column)}{did_you_mean(column, names)}",
    )


def labels(frame: Any, payload: Payload, field: str) -> list[Any]:
    """The labels of the columns the list ``payload[field]`` names."""
    return [label(frame, c, field, payload["frame"]) for c in payload[field]]


def mask(frame: Any, payload: Payload) -> Any:
    """Which rows of ``frame`` meet every condition of ``where``."""
    rows = require_pandas().Series(True, index=frame.index)
    for index, item in enumerate(payload["where"]):
        found = label(frame, item["column"], f"where[{index}].column", payload["frame"])
        try:
            rows &= condition(frame[found], item["op"], item.get("value"))
        except (TypeError, ValueError) as error:
            raise ActionError(
                f"cannot compare {item['column']} with {show(item.get('value'))}",
                code="invalid-filter", field=f"where[{index}].value", hint=str(error)[:200],
            ) from None
    return rows


def condition(series: Any, op: str, value: Any) -> Any:
    """Which values of ``series`` meet one condition of ``filter-rows``."""
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


def values(frame: Any, payload: Payload) -> Any:
    """The new column's values (a Series, or one value for every row)."""
    try:
        return _expressions.evaluate(payload["expression"], frame)
    except _expressions.ExpressionError as error:
        raise expression_error(error) from None


def renames(frame: Any, payload: Payload) -> list[tuple[Any, str]]:
    """Each renamed column's label and its new name."""
    return [(label(frame, old, "columns", payload["frame"]), new)
            for old, new in payload["columns"].items()]


def renamed(frame: Any, payload: Payload) -> Any:
    return frame.rename(columns=dict(renames(frame, payload)))


def dropped(frame: Any, payload: Payload) -> Any:
    return frame.drop(columns=labels(frame, payload, "columns"))


def sorted_frame(frame: Any, payload: Payload) -> Any:
    by = labels(frame, payload, "by")
    return frame.sort_values(by, ascending=payload.get("ascending", True), kind="stable")


def grouped(frame: Any, payload: Payload) -> Any:
    keys = labels(frame, payload, "by")
    try:
        return frame.groupby(keys, dropna=False, sort=True).agg(
            **aggregations(frame, payload)).reset_index()
    except (TypeError, ValueError) as error:
        raise ActionError(
            f"cannot aggregate: {str(error)[:200]}", code="invalid-aggregation",
            field="aggregations",
            hint="aggregate numeric columns (sum, mean, …) or use count / nunique",
        ) from None


def aggregations(frame: Any, payload: Payload) -> dict[str, tuple[Any, str]]:
    """Each new column's name → (the label it aggregates, the function)."""
    named = {}
    for item in payload["aggregations"]:
        found = label(frame, item["column"], "aggregations", payload["frame"])
        named[f"{item['column']}_{item['func']}"] = (found, item["func"])
    return named


def reads(frame: Any, expression: str) -> list[Any]:
    """The columns an expression reads, in the frame's order."""
    tree = _expressions.parse(expression, [str(c) for c in frame.columns])
    callees = {id(node.func) for node in ast.walk(tree) if isinstance(node, ast.Call)}
    named = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and id(node) not in callees:
            named.add(node.id)
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "col":
            named.add(node.args[0].value)  # type: ignore[attr-defined]
    return [found for found in frame.columns if isinstance(found, str) and found in named]


def step_code(action: str, payload: Payload, frame: Any) -> str:
    """The plain pandas code of one change of ``frame`` (see ``_pandas_code``)."""
    source = payload["frame"]
    if action == "filter-rows":
        conditions = [(label(frame, c["column"], f"where[{i}].column", source),
                       c["op"], c.get("value")) for i, c in enumerate(payload["where"])]
        return _pandas_code.filter_rows(source, payload.get("into", source), frame, conditions)
    if action == "add-column":
        try:
            return _pandas_code.add_column(source, frame, payload["column"],
                                           payload["expression"])
        except _expressions.ExpressionError as error:
            raise expression_error(error) from None
    if action == "rename-columns":
        return _pandas_code.rename_columns(source, frame, renames(frame, payload))
    if action == "drop-columns":
        return _pandas_code.drop_columns(source, frame, labels(frame, payload, "columns"))
    if action == "sort":
        return _pandas_code.sort(source, frame, labels(frame, payload, "by"),
                                 payload.get("ascending", True))
    return _pandas_code.group_aggregate(source, payload["into"], frame,
                                        labels(frame, payload, "by"),
                                        aggregations(frame, payload))


def flags(rows: Any) -> Any:
    """A mask as a numpy array of booleans (missing is False)."""
    return rows.to_numpy(dtype=bool, na_value=False)


def dtype(frame: Any, column: str) -> str:
    """The type of ``frame``'s column ``column`` (the last, when two share the name)."""
    found = frame[column]
    if found.ndim == 1:
        return str(found.dtype)
    return str(found.dtypes.iloc[-1])


def expression_error(error: Exception) -> ActionError:
    return ActionError(str(error), code="invalid-expression", field="expression")
