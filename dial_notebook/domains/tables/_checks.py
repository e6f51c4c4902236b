"""The tables domain's own checks of a payload, beyond its schema: made before the person sees
a suggestion, and again before it runs. Nothing here runs a query: the columns and their types
are the expression's schema.

Which table, which columns (every field that names one, with the closest existing name), an
expression, conditions and aggregations that type-check against the columns' types, renames that leave no two
columns with one name, a new name that is no Python keyword.

    >>> table_named({"sales": None}, "sale")
    Traceback (most recent call last):
    ...
    dial_notebook.ActionError: there is no table 'sale'
"""

from __future__ import annotations

import keyword
from collections.abc import Mapping
from typing import Any

from .. import _expressions
from .._errors import ActionError
from .._frames_changes import expression_error
from .._frames_checks import check_columns, check_renames
from .._phrasing import did_you_mean, show
from ._changes import filtered, grouped
from ._ibis_expressions import translate

Payload = dict[str, Any]


def table_named(tables: Mapping[str, Any], name: str) -> Any:
    """The table called ``name`` among ``tables``, else ``ActionError`` naming the tables."""
    if name not in tables:
        known = ", ".join(tables) or "none"
        raise ActionError(
            f"there is no table {show(name)}", code="unknown-frame", field="frame",
            hint=f"there is no table {show(name)}{did_you_mean(name, tables)}; "
            f"the tables are: {known}",
        )
    return tables[name]


def check_payload(tables: Mapping[str, Any], payload: Payload) -> None:
    """Refuse (``ActionError``) a payload naming a table, a column or a name it may not."""
    if "frame" not in payload:
        return
    name = payload["frame"]
    table = table_named(tables, name)
    check_columns(table, payload, name)
    if "expression" in payload:
        try:
            translate(payload["expression"], table, name)
        except _expressions.ExpressionError as error:
            raise expression_error(error) from None
    if "where" in payload:  # values of the columns' types: built, never run
        filtered(table, payload)
    if "aggregations" in payload and "by" in payload:
        grouped(table, payload)
    if isinstance(payload.get("columns"), dict):
        check_renames(table, payload["columns"], name)
    if "into" in payload and keyword.iskeyword(payload["into"]):
        raise ActionError(f"{show(payload['into'])} is a Python keyword", code="invalid-name",
                          field="into")
