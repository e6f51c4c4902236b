"""The dataframes domain's own checks of a payload, beyond its schema: made before the person
sees a suggestion, and again before it runs.

Which frame (``frame_named``), which columns (every field that names one), an expression
that parses, renames that leave no two columns with one name, a new name that is no keyword
and holds no other kind of value, a bar chart of few enough rows. Each refusal is an
``ActionError`` with a code, the field, and a hint naming the closest existing name.

    >>> frame_named({"sales": None}, "sale")
    Traceback (most recent call last):
    ...
    dial_notebook.ActionError: there is no data frame 'sale'
"""

from __future__ import annotations

import keyword
from collections.abc import Mapping
from typing import Any

from . import _expressions
from ._charts import MAX_BARS
from ._errors import ActionError
from ._frames import require_pandas
from ._frames_changes import expression_error, label
from ._phrasing import did_you_mean, show

Payload = dict[str, Any]


def frame_named(frames: Mapping[str, Any], name: str) -> Any:
    """The frame called ``name`` among ``frames``, else ``ActionError`` naming the frames."""
    if name not in frames:
        known = ", ".join(frames) or "none"
        raise ActionError(
            f"there is no data frame {show(name)}", code="unknown-frame", field="frame",
            hint=f"there is no data frame {show(name)}{did_you_mean(name, frames)}; "
            f"the frames are: {known}",
        )
    return frames[name]


def check_payload(frames: Mapping[str, Any], namespace: Mapping[str, Any],
                  payload: Payload) -> None:
    """Refuse (``ActionError``) a payload naming a frame, a column or a name it may not."""
    if "frame" not in payload:
        return
    name = payload["frame"]
    frame = frame_named(frames, name)
    check_columns(frame, payload, name)
    if "expression" in payload:
        try:
            _expressions.parse(payload["expression"], [str(c) for c in frame.columns])
        except _expressions.ExpressionError as error:
            raise expression_error(error) from None
    if isinstance(payload.get("columns"), dict):
        check_renames(frame, payload["columns"], name)
    if "into" in payload:
        check_new_name(namespace, payload["into"])
    if payload.get("kind") == "bar" and len(frame) > MAX_BARS:
        raise ActionError(
            f"{name} has {len(frame)} rows: too many bars", code="too-many-rows",
            field="kind", hint=f"a bar chart shows at most {MAX_BARS} bars: "
            "group-aggregate or filter the frame first",
        )


def check_columns(frame: Any, payload: Payload, name: str) -> None:
    """Every field of ``payload`` that names a column names one of ``frame`` (a pandas frame,
    or an Ibis table: ``label`` reads both), else ``ActionError`` with the closest name."""
    for field in ("columns", "by"):
        if isinstance(payload.get(field), list):
            for index, column in enumerate(payload[field]):
                label(frame, column, f"{field}[{index}]", name)
    for field in ("column", "x", "y"):
        if field in payload and not (field == "column" and "expression" in payload):
            label(frame, payload[field], field, name)
    for index, condition in enumerate(payload.get("where", [])):
        label(frame, condition["column"], f"where[{index}].column", name)
    for index, aggregation in enumerate(payload.get("aggregations", [])):
        label(frame, aggregation["column"], f"aggregations[{index}].column", name)


def check_renames(frame: Any, renames: dict[str, str], frame_name: str) -> None:
    """Every old name a column of ``frame``, and no two columns named alike after."""
    for old in renames:
        label(frame, old, f"columns[{show(old)}]", frame_name)
    final = [renames.get(str(found), str(found)) for found in frame.columns]
    for name in renames.values():
        if final.count(name) > 1:
            raise ActionError(
                f"two columns would be named {show(name)}", code="duplicate-column",
                field="columns", hint=f"two columns of {frame_name} would be named {show(name)}",
            )


def check_new_name(namespace: Mapping[str, Any], name: str) -> None:
    """``name`` may be bound to a new frame: no keyword, and not holding another kind of value."""
    if keyword.iskeyword(name):
        raise ActionError(f"{show(name)} is a Python keyword", code="invalid-name", field="into")
    existing = namespace.get(name)
    if existing is not None and not isinstance(existing, require_pandas().DataFrame):
        raise ActionError(
            f"{show(name)} already holds something else", code="name-taken", field="into",
            hint=f"{show(name)} already holds a value of type {type(existing).__name__}: "
            "choose another name",
        )
