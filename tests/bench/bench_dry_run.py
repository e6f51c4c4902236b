"""Benchmark: dry runs of the dataframes domain's changes on a 5,000,000-row frame (prints
times, asserts none).

    .venv/bin/python tests/bench/bench_dry_run.py [--quick] [--rows N]

``--quick`` (used by the test that checks every benchmark still runs) times each case once.

Each case is one ``DataFramesDomain.dry_run``: what it prints next to the time says whether
the figures are the whole frame's (``exact``) or the sample's (``sampled``). For comparison
the last lines time the real runs of a few of them.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import numpy as np
import pandas as pd

from dial_notebook.domains import DataFramesDomain

ROWS = 5_000_000
REPEATS = 5


def frame(rows: int) -> pd.DataFrame:
    """A sales-like frame: dates, two text columns, price (with NaN), units, a flag."""
    rng = np.random.default_rng(0)
    regions = np.array(["North", "South", "East", "West"], dtype=object)
    products = np.array(["Widget", "Gadget", "Gizmo", "Doohickey"], dtype=object)
    price = rng.random(rows) * 100
    price[rng.random(rows) < 0.01] = np.nan
    return pd.DataFrame({
        "date": pd.Timestamp("2024-01-01") + pd.to_timedelta(rng.integers(0, 366, rows), "D"),
        "region": pd.Series(regions[rng.integers(0, 4, rows)]).astype("str"),
        "product": pd.Series(products[rng.integers(0, 4, rows)]).astype("str"),
        "price": price,
        "units": rng.integers(0, 50, rows),
        "returned": rng.random(rows) < 0.05,
    })


CASES = [
    ("filter price > 90", "filter-rows",
     {"frame": "sales", "where": [{"column": "price", "op": ">", "value": 90}]}),
    ("filter region == North", "filter-rows",
     {"frame": "sales", "where": [{"column": "region", "op": "==", "value": "North"}]}),
    ("filter product contains dg, into", "filter-rows",
     {"frame": "sales", "into": "dg",
      "where": [{"column": "product", "op": "contains", "value": "dg"},
                {"column": "units", "op": ">=", "value": 10}]}),
    ("add-column price * units", "add-column",
     {"frame": "sales", "column": "revenue", "expression": "round(price * units, 2)"}),
    ("add-column region + product", "add-column",
     {"frame": "sales", "column": "label", "expression": 'region + " " + product'}),
    ("rename-columns", "rename-columns", {"frame": "sales", "columns": {"price": "unit_price"}}),
    ("drop-columns", "drop-columns", {"frame": "sales", "columns": ["date", "returned"]}),
    ("sort by price", "sort", {"frame": "sales", "by": ["price"], "ascending": False}),
    ("sort by units, price", "sort", {"frame": "sales", "by": ["units", "price"]}),
    ("sort by region, price", "sort", {"frame": "sales", "by": ["region", "price"]}),
    ("group by region", "group-aggregate",
     {"frame": "sales", "by": ["region"], "into": "totals",
      "aggregations": [{"column": "units", "func": "sum"}, {"column": "price", "func": "mean"}]}),
    ("group by units", "group-aggregate",
     {"frame": "sales", "by": ["units"], "into": "by_units",
      "aggregations": [{"column": "price", "func": "max"}]}),
]
RUNS = ["filter region == North", "sort by price", "group by region"]


def timed(function: Callable[[], object], repeats: int) -> tuple[float, float, object]:
    times, value = [], None
    for _ in range(repeats):
        started = time.perf_counter()
        value = function()
        times.append(time.perf_counter() - started)
    return min(times), statistics.median(times), value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="time each case once")
    parser.add_argument("--rows", type=int, default=ROWS, help=f"rows (default {ROWS:,})")
    arguments = parser.parse_args()
    repeats = 1 if arguments.quick else REPEATS
    started = time.perf_counter()
    sales = frame(arguments.rows)
    print(f"{len(sales):,} rows × {sales.shape[1]} columns "
          f"(built in {time.perf_counter() - started:.1f} s), best / median of {repeats} runs")
    domain = DataFramesDomain({"sales": sales})
    worst = 0.0
    for label, action, payload in CASES:
        best, median, dry = timed(lambda a=action, p=payload: domain.dry_run(a, p), repeats)
        worst = max(worst, median)
        sampled = "sampled" if dry["effect"]["sampled"] else "exact"
        print(f"  dry run  {label:<34} {best * 1000:7.1f} ms {median * 1000:7.1f} ms  "
              f"{sampled:<8} {dry['summary']}")
    print(f"  slowest dry run (median): {worst * 1000:.1f} ms")
    for label, action, payload in CASES:
        if label in RUNS:
            best, _, result = timed(lambda a=action, p=payload: domain.run(a, p), 1)
            domain.undo(action, payload, result)
            print(f"  real run {label:<34} {best * 1000:7.1f} ms")


if __name__ == "__main__":
    main()
