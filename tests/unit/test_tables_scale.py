"""The tables domain past a million rows: a description's quartiles come from a seeded sample
of about a million rows (the engine's streaming estimates take half a minute a column on 100
million rows), close to the exact ones and said to be estimates.

The data set is ``scripts/make_big_parquet.py``'s; the bound is lowered so that a small one
counts as large.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from dial_notebook.domains.tables import TablesDomain, _reads
from tests.tables_data import ENGINE_WARNINGS

pytestmark = [pytest.mark.engine, *ENGINE_WARNINGS]

ROOT = Path(__file__).resolve().parents[2]
ROWS = 200_000


def _maker():
    spec = importlib.util.spec_from_file_location("make_big_parquet",
                                                  ROOT / "scripts" / "make_big_parquet.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def big(tmp_path_factory):
    folder = tmp_path_factory.mktemp("big")
    _maker().write(ROWS, folder, files=2)
    return str(folder / "part-*.parquet")


def test_the_generated_data_set_has_its_rows_columns_and_row_groups(big):
    tables = TablesDomain({"sales": big})
    [listed] = tables.run("list-frames", {})["frames"]
    assert listed["rows"] == ROWS
    assert listed["columns"] == ["date", "region", "product", "size", "price", "units"]
    counts = tables.run("value-counts", {"frame": "sales", "column": "region"})["table"]
    assert sorted(row[0] for row in counts["rows"]) == ["East", "North", "South", "West"]


def test_past_the_exact_bound_the_quartiles_come_from_a_sample_close_to_the_exact(
        big, monkeypatch):
    exact = TablesDomain({"sales": big}).run("describe", {"frame": "sales"})
    monkeypatch.setattr(_reads, "EXACT_ROWS", 20_000)
    sampled = TablesDomain({"sales": big}).run("describe", {"frame": "sales"})
    assert "the quartiles from a sample of about 20,000 rows" in sampled["note"]
    assert "note" not in exact
    columns = exact["table"]["columns"]
    rows = {row[0]: dict(zip(columns, row, strict=True)) for row in exact["table"]["rows"]}
    for row in sampled["table"]["rows"]:
        got, want = dict(zip(columns, row, strict=True)), rows[row[0]]
        if row[0] in ("price", "units"):
            for quartile in ("25%", "50%", "75%"):
                assert got[quartile] == pytest.approx(want[quartile], rel=0.1), (row[0], quartile)
            assert (got["count"], got["min"], got["max"]) == \
                (want["count"], want["min"], want["max"])
