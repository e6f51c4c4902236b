"""What the person is shown for each dataframes suggestion: one sentence per action.

The read-only actions with a fixed sentence keep it as a template where the domain defines
them; the others are here. Two of them read the frames there are now (``frames``): whether a
column or a frame a change writes is replaced.

    >>> preview_filter({"frame": "sales", "where": [{"column": "units", "op": ">", "value": 2}]})
    'Keep the rows of sales where units > 2'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

Payload = dict[str, Any]


def preview_head(payload: Payload) -> str:
    return f"Show the first {payload.get('n', 5)} rows of {payload['frame']}"


def preview_plot(payload: Payload) -> str:
    if payload["kind"] == "hist":
        return f"Plot a histogram of {payload['x']} in {payload['frame']}"
    return f"Plot a {payload['kind']} chart of {payload['y']} against {payload['x']} " \
           f"from {payload['frame']}"


def preview_filter(payload: Payload) -> str:
    conditions = " and ".join(describe_condition(c) for c in payload["where"])
    into = f" into {payload['into']}" if "into" in payload else ""
    return f"Keep the rows of {payload['frame']} where {conditions}{into}"


def preview_add(payload: Payload, frames: Mapping[str, Any]) -> str:
    frame = frames.get(payload["frame"])
    verb = "Replace" if frame is not None and payload["column"] in frame.columns else "Add"
    column, expression = payload["column"], payload["expression"]
    return f"{verb} the column {column} = {expression} in {payload['frame']}"


def preview_rename(payload: Payload) -> str:
    pairs = ", ".join(f"{old} → {new}" for old, new in payload["columns"].items())
    return f"Rename in {payload['frame']}: {pairs}"


def preview_sort(payload: Payload) -> str:
    order = "" if payload.get("ascending", True) else " (descending)"
    return f"Sort {payload['frame']} by {', '.join(payload['by'])}{order}"


def preview_group(payload: Payload, frames: Mapping[str, Any]) -> str:
    aggregations = ", ".join(f"{a['column']} {a['func']}" for a in payload["aggregations"])
    replaces = " (replaces it)" if payload["into"] in frames else ""
    return f"Group {payload['frame']} by {', '.join(payload['by'])} " \
           f"({aggregations}) into {payload['into']}{replaces}"


def describe_condition(condition: dict[str, Any]) -> str:
    """One condition of ``filter-rows`` as a person reads it: ``units > 2``."""
    op, value = condition["op"], condition.get("value")
    if op in ("is null", "not null"):
        return f"{condition['column']} {op}"
    shown = ", ".join(map(repr, value)) if isinstance(value, list) else repr(value)
    return f"{condition['column']} {op} {shown}"
