"""The engine's side of the tables domain: Ibis on demand, and a few rows as a JSON table.

Ibis is an optional extra: nothing here imports it at module level, and ``require_ibis`` says
how to install it. Rows leave the engine only through ``fetch`` (always with a ``LIMIT``) and
come back as Arrow, then as the ``{"columns", "index", "rows", "total_rows"}`` table of the
dataframes domain (JSON values only: ``_frames.jsonable``).

    >>> kind_of("float64"), kind_of("string"), kind_of("boolean"), kind_of("timestamp")
    ('number', 'text', 'other', 'time')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .._frames import MAX_ROWS, jsonable

INSTALL = 'pip install "dial-notebook[tables]"'


def require_ibis() -> Any:
    """The ``ibis`` module, or an ``ImportError`` saying how to install it."""
    try:
        import ibis
    except ImportError:
        raise ImportError(f"the tables domain needs Ibis: {INSTALL}") from None
    return ibis


def kind_of(dtype: Any) -> str:
    """``number`` (integers, floats, decimals), ``text``, ``time`` (dates, timestamps) or
    ``other`` (booleans too: pandas describes them as categories) for an Ibis type or its
    name."""
    name = str(dtype).lower().lstrip("!")
    if name.startswith(("int", "uint", "float", "decimal")):
        return "number"
    if name.startswith("string"):
        return "text"
    if name.startswith(("timestamp", "date", "time")):
        return "time"
    return "other"


def is_number(column: Any) -> bool:
    """Whether an Ibis column holds numbers (booleans are not numbers here)."""
    return kind_of(column.type()) == "number"


def fetch(expr: Any, backend: Any, limit: int = MAX_ROWS) -> list[list[Any]]:
    """The first ``limit`` rows of the table expression ``expr`` as lists of JSON values."""
    arrow = backend.to_pyarrow(expr.limit(limit))
    columns = [arrow.column(i).to_pylist() for i in range(arrow.num_columns)]
    return [[jsonable(column[row]) for column in columns] for row in range(arrow.num_rows)]


def table(columns: Sequence[Any], rows: list[list[Any]],
          total: int | None) -> dict[str, Any]:
    """A JSON table of ``rows`` (at most ``MAX_ROWS``); ``total_rows`` None when unknown."""
    shown = rows[:MAX_ROWS]
    return {"columns": [str(c) for c in columns], "index": list(range(len(shown))),
            "rows": shown, "total_rows": total}


def scalar(expr: Any, backend: Any) -> Any:
    """The value of a scalar expression (an aggregate), as a Python value."""
    value = backend.to_pyarrow(expr)
    return value.as_py() if hasattr(value, "as_py") else value


def fresh_name(wanted: str, taken: Sequence[str]) -> str:
    """``wanted``, or ``wanted_1``, ``wanted_2``… : a name not among ``taken``.

        >>> fresh_name("count", ["count", "count_1"])
        'count_2'
    """
    name, number = wanted, 0
    while name in taken:
        number += 1
        name = f"{wanted}_{number}"
    return name


def escape_text(text: str) -> str:
    """``text`` as XML text (the context a domain gives the agent): ``&``, ``<``, ``>``.

        >>> escape_text("a < b & c")
        'a &lt; b &amp; c'
    """
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
