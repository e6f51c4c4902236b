"""The JSON Schemas of the dataframes domain's payloads, one per action (``SCHEMAS``).

What the agent may write for each action, and what the person's edits are checked against;
the domain's own checks (which frame, which columns: ``_frames_checks``) come after these.

    >>> SCHEMAS["sort"]["required"]
    ['frame', 'by']
"""

from __future__ import annotations

from typing import Any

from . import _expressions
from ._charts import KINDS
from ._frames import MAX_ROWS

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
