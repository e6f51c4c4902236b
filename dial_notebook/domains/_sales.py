"""The small sales data set shipped for the EDA notebook (made by scripts/make_sales_data.py).

    >>> load_sales().shape
    (200, 6)
"""

from __future__ import annotations

from importlib import resources
from typing import Any

from ._frames import require_pandas


def load_sales() -> Any:
    """The sales data set as a pandas DataFrame: 200 rows of date, region, product, size,
    price, units (``date`` parsed as datetimes). Needs pandas (``dial-notebook[data]``)."""
    pandas = require_pandas()
    source = resources.files(__package__).joinpath("data", "sales.csv")
    with source.open("r", encoding="utf-8") as file:
        return pandas.read_csv(file, parse_dates=["date"])
