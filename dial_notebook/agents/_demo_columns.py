"""What the frames demo brain needs to know of a column, whether a pandas column (the dataframes
domain's) or an Ibis column (the tables domain's, whose values live in an engine).

    >>> import pandas as pd
    >>> type_of(pd.Series(["a"], dtype="category")), rows_said(None)
    ('category', 'rows unknown')
"""

from __future__ import annotations

from typing import Any

#: Most values read to match what a person typed to a column's own spelling.
MOST_VALUES = 1000


def type_of(data: Any) -> str:
    """A column's type as text: a pandas column's ``dtype``, an Ibis column's ``type()``.

        >>> import pandas as pd
        >>> type_of(pd.Series([1.5]))
        'float64'
    """
    dtype = getattr(data, "dtype", None)
    if dtype is not None:
        return str(dtype)
    kind = getattr(data, "type", None)
    return str(kind()) if callable(kind) else ""


def text_values(domain: Any, frame: str, column: str, data: Any) -> list[Any]:
    """Up to ``MOST_VALUES`` values present in the text column ``data`` (``frame[column]``),
    none for a column of another kind: a pandas column's own, or those the domain reads from
    its engine (``domain.distinct_values``: a bounded query) for a table's.

        >>> import pandas as pd
        >>> text_values(None, "t", "region", pd.Series(["North", None, "North", "South"]))
        ['North', 'South']
    """
    dtype = getattr(data, "dtype", None)
    if dtype is not None:  # a pandas column
        if dtype.kind in "OSUT" or str(dtype) in ("str", "string", "category"):
            return list(data.dropna().unique()[:MOST_VALUES])
        return []
    read = getattr(domain, "distinct_values", None)
    if not type_of(data).lstrip("!").startswith("string") or not callable(read):
        return []
    return list(read(frame, column, limit=MOST_VALUES))


def rows_said(count: Any) -> str:
    """``12 rows``, ``1 row``, or ``rows unknown`` (a table the engine has not counted).

        >>> rows_said(1), rows_said(12)
        ('1 row', '12 rows')
    """
    if count is None:
        return "rows unknown"
    return f"{count} row" + ("" if count == 1 else "s")
