"""Small data for the tables domain's tests: one frame, written as Parquet and CSV in tmp_path.

The counts of each region and product differ (no ties), ``id`` and ``price`` are unique, so
pandas and the engine agree on every order without a tie to break; ``units`` has two missing
values. ``ENGINE_WARNINGS`` silences, narrowly, the deprecation warnings Ibis 12 raises from its
own modules on DuckDB 2 and pandas 3 (``fetch_arrow_table``, ``future.infer_string``): they are
Ibis's, not ours, and leave the results unchanged.

``timed_out`` stands for ``_bounded.run_bounded`` when the engine never answers in time.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

ENGINE_WARNINGS = [
    pytest.mark.filterwarnings(r"ignore:fetch_arrow_table\(\) is deprecated:DeprecationWarning"),
    pytest.mark.filterwarnings("ignore:The 'future.infer_string' option is deprecated"),
]

REGIONS = ["North"] * 12 + ["South"] * 9 + ["East"] * 6 + ["West"] * 3
PRODUCTS = ["desk"] * 14 + ["lamp"] * 10 + ["chair"] * 6


def sales_frame() -> Any:
    import pandas as pd

    count = len(REGIONS)
    units = [float((i * 7) % 11 + 1) for i in range(count)]
    units[4] = units[17] = float("nan")
    return pd.DataFrame({
        "id": list(range(1, count + 1)),
        "region": REGIONS,
        "product": [PRODUCTS[(i * 13) % count] for i in range(count)],
        "price": [round(10 + i * 1.37 + (i % 5) * 0.11, 2) for i in range(count)],
        "units": units,
    })


def write_files(folder: Path) -> dict[str, Path]:
    """The frame as ``sales.parquet`` and ``sales.csv``, and as two Parquet parts in ``parts/``."""
    frame = sales_frame()
    paths = {"parquet": folder / "sales.parquet", "csv": folder / "sales.csv"}
    frame.to_parquet(paths["parquet"], index=False)
    frame.to_csv(paths["csv"], index=False)
    parts = folder / "parts"
    parts.mkdir()
    frame.iloc[:15].to_parquet(parts / "a.parquet", index=False)
    frame.iloc[15:].to_parquet(parts / "b.parquet", index=False)
    paths["glob"] = parts / "*.parquet"
    return paths


def timed_out(work: Any, *, seconds: float, backend: Any) -> Any:
    """A ``run_bounded`` that never gets an answer in time (for the "unavailable" paths)."""
    from dial_notebook.domains.tables._bounded import Bounded

    return Bounded(None, "timed-out", f"not done within {seconds:g} s", seconds)
