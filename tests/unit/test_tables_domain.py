"""TablesDomain: its sources, its read-only actions, and the same answers as DataFramesDomain.

One scripted conversation is run over a DataFramesDomain holding a pandas frame and over a
TablesDomain reading the same data from Parquet: every action's table is the same (up to row
order, floats to 9 places).
"""

from __future__ import annotations

import json
import math
import subprocess
import sys

import pytest

from dial_notebook import ActionError, Conversation, DataFramesDomain, policy_human
from dial_notebook.domains.tables import TablesDomain
from tests.tables_data import ENGINE_WARNINGS, sales_frame, write_files

pytestmark = [pytest.mark.engine, *ENGINE_WARNINGS]


@pytest.fixture
def files(tmp_path):
    return write_files(tmp_path)


# Sources


def test_parquet_csv_glob_and_frames_open_as_tables_with_the_same_columns(files):
    import polars

    tables = TablesDomain({"p": str(files["parquet"]), "c": files["csv"], "g": str(files["glob"]),
                           "pd": sales_frame(), "pl": polars.from_pandas(sales_frame()),
                           "dir": files["glob"].parent})
    columns = {name: list(expr.columns) for name, expr in tables.tables().items()}
    assert set(map(tuple, columns.values())) == {("id", "region", "product", "price", "units")}
    listed = {row["name"]: row["rows"] for row in tables.run("list-frames", {})["frames"]}
    # rows known without a scan: frames and Parquet footers; a CSV's are not
    assert listed == {"p": 30, "c": None, "g": 30, "pd": 30, "pl": 30, "dir": 30}


def test_the_context_names_tables_columns_types_and_says_rows_unknown_when_not_cheap(files):
    tables = TablesDomain({"sales": files["parquet"], "raw": files["csv"]})
    context = tables.context()
    assert context.startswith('<context tables="2">')
    assert "sales: 30 rows × 5 columns: id (int64), region (string)" in context
    assert "raw: rows unknown × 5 columns" in context


def test_an_ibis_table_of_the_domains_backend_is_used_and_one_of_another_refused(files):
    import ibis

    con = ibis.duckdb.connect()
    mine = con.read_parquet(files["parquet"])
    tables = TablesDomain({"sales": mine})
    assert tables.backend is con
    assert tables.table("sales") is mine
    other = ibis.duckdb.connect().read_parquet(files["parquet"])
    with pytest.raises(ValueError, match="another backend"):
        TablesDomain({"sales": mine, "other": other})


def test_a_source_that_is_not_a_table_or_a_file_is_refused_clearly(tmp_path):
    with pytest.raises(TypeError, match="Parquet / CSV"):
        TablesDomain({"x": 42})
    with pytest.raises(ValueError, match=r"not a \.parquet or \.csv"):
        TablesDomain({"x": str(tmp_path / "notes.txt")})
    with pytest.raises(FileNotFoundError):
        TablesDomain({"x": str(tmp_path / "missing.parquet")})


def test_importing_the_package_does_not_import_ibis():
    code = ("import sys, dial_notebook, dial_notebook.domains; "
            "from dial_notebook.domains import tables; print('ibis' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_without_ibis_the_error_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "ibis", None)
    with pytest.raises(ImportError, match=r"pip install \"dial-notebook\[tables\]\""):
        TablesDomain({})


# Read-only actions


def test_head_is_a_limit_and_to_pandas_needs_a_limit(files):
    tables = TablesDomain({"sales": files["parquet"]})
    head = tables.run("head", {"frame": "sales", "n": 3})["table"]
    assert head["rows"] == [[1, "North", "desk", 10.0, 1.0], [2, "North", "desk", 11.48, 8.0],
                            [3, "North", "chair", 12.96, 4.0]]
    assert head["total_rows"] == 30
    assert len(tables.to_pandas("sales", limit=7)) == 7
    assert len(tables.to_pandas("sales", limit=None)) == 30
    with pytest.raises(TypeError):
        tables.to_pandas("sales")  # type: ignore[call-arg]


def test_refusals_name_the_field_and_the_closest_name(files):
    tables = TablesDomain({"sales": files["parquet"]})
    refused = tables.validate("head", {"frame": "sale"})
    assert (refused["code"], refused["field"]) == ("unknown-frame", "frame")
    assert "did you mean 'sales'" in refused["hint"]
    refused = tables.validate("value-counts", {"frame": "sales", "column": "regoin"})
    assert (refused["code"], refused["field"]) == ("unknown-column", "column")
    assert "region" in refused["hint"]
    refused = tables.validate("filter-rows", {"frame": "sales", "where": [
        {"column": "units", "op": ">", "value": "many"}]})
    assert (refused["code"], refused["field"]) == ("invalid-filter", "where[0].value")


def test_correlation_other_than_pearson_is_refused_with_a_hint(files):
    tables = TablesDomain({"sales": files["parquet"]})
    with pytest.raises(ActionError) as refused:
        tables.run("correlation", {"frame": "sales", "method": "kendall"})
    assert refused.value.code == "not-supported"


def test_distinct_values_are_read_with_a_bounded_query(files):
    tables = TablesDomain({"sales": files["parquet"]})
    assert sorted(tables.distinct_values("sales", "region")) == ["East", "North", "South", "West"]


# The same conversation over both domains


def _suggest(action: str, payload: dict, sid: str) -> str:
    body = json.dumps(payload).replace("<", "\\u003c")
    return (f'<dial><dial-suggest id="{sid}" action="{action}"><dial-payload '
            f'type="application/json">{body}</dial-payload></dial-suggest></dial>')


STEPS = [
    ("list-frames", {}),
    ("describe", {"frame": "sales"}),
    ("head", {"frame": "sales", "n": 5}),
    ("value-counts", {"frame": "sales", "column": "product"}),
    ("correlation", {"frame": "sales"}),
    ("filter-rows", {"frame": "sales", "where": [{"column": "units", "op": ">", "value": 3},
                                                 {"column": "region", "op": "!=", "value": "West"}]}),
    ("add-column", {"frame": "sales", "column": "revenue",
                    "expression": "round(price * units, 2)"}),
    ("rename-columns", {"frame": "sales", "columns": {"product": "item"}}),
    ("sort", {"frame": "sales", "by": ["price"], "ascending": False}),
    ("drop-columns", {"frame": "sales", "columns": ["id"]}),
    ("group-aggregate", {"frame": "sales", "by": ["region"], "into": "by_region",
                         "aggregations": [{"column": "revenue", "func": "sum"},
                                          {"column": "units", "func": "mean"},
                                          {"column": "item", "func": "nunique"},
                                          {"column": "price", "func": "median"}]}),
    ("head", {"frame": "sales", "n": 50}),
    ("describe", {"frame": "by_region"}),
]


class _Agent:
    def __init__(self) -> None:
        self.replies = [_suggest(action, payload, f"s{i}") for i, (action, payload)
                        in enumerate(STEPS)] + ["<dial><dial-acknowledge>Done.</dial-acknowledge></dial>"]

    async def send(self, message: str) -> str:
        return self.replies.pop(0)


async def _outcomes(domain) -> list[dict]:
    talk = Conversation(agent=_Agent(), domain=domain, human=policy_human("accept"),
                        timeout=30, max_turns=len(STEPS) + 2)
    result = await talk.say("explore sales")
    assert result.status == "idle"
    return result.outcomes


def _cell(value):
    if isinstance(value, float) and math.isfinite(value):
        return round(value, 9) if not value.is_integer() else int(value)
    return value


def _rows(table: dict, ordered: bool) -> list:
    rows = [[_cell(v) for v in row] for row in table["rows"]]
    return rows if ordered else sorted(rows, key=repr)


async def test_the_same_conversation_gives_the_same_tables_as_the_dataframes_domain(files):
    frames = await _outcomes(DataFramesDomain({"sales": sales_frame()}))
    tables = await _outcomes(TablesDomain({"sales": files["parquet"]}))
    assert [o["status"] for o in tables] == ["done"] * len(STEPS)
    assert [o["status"] for o in frames] == ["done"] * len(STEPS)
    for (action, payload), mine, theirs in zip(STEPS, tables, frames, strict=True):
        got, want = mine["result"], theirs["result"]
        if action == "list-frames":
            assert got["frames"][0]["rows"] == want["frames"][0]["rows"] == 30
            assert got["frames"][0]["columns"] == want["frames"][0]["columns"]
            continue
        if "table" in want:
            ordered = action in ("head", "value-counts", "describe", "correlation")
            assert got["table"]["columns"] == want["table"]["columns"], action
            assert _rows(got["table"], ordered) == _rows(want["table"], ordered), \
                (action, payload)
        if action in dict.fromkeys(("filter-rows", "add-column", "rename-columns", "sort",
                                    "drop-columns", "group-aggregate")):
            assert (got["frame"], got["rows"], got["columns"]) == \
                (want["frame"], want["rows"], want["columns"]), action


async def test_the_offline_demo_agent_drives_the_tables_domain(files):
    from dial_notebook import DemoAgent

    tables = TablesDomain({"sales": files["parquet"]})
    talk = Conversation(agent=DemoAgent(tables), domain=tables, human=policy_human("accept"),
                        timeout=30)
    done = []
    for words in ("list frames", "describe sales", "show sales", "count region in sales",
                  "filter sales where units > 3", "add a column revenue = price * units",
                  "sort sales by price descending", "total units by region"):
        result = await talk.say(words)
        done += [(o["action"], o["status"]) for o in result.outcomes]
    assert done == [(action, "done") for action in (
        "list-frames", "describe", "head", "value-counts", "filter-rows", "add-column", "sort",
        "group-aggregate")]
    frame = sales_frame()
    expected = frame[frame["units"] > 3].groupby("region")["units"].sum()
    assert tables.run("head", {"frame": "sales_by_region", "n": 4})["table"]["rows"] == \
        [[region, units] for region, units in expected.items()]


def test_on_a_table_of_unknown_size_describe_says_its_quartiles_are_estimates(files):
    tables = TablesDomain({"raw": files["csv"], "sales": files["parquet"]})
    estimated = tables.run("describe", {"frame": "raw"})
    assert "the quartiles and unique counts are the engine's estimates" in estimated["note"]
    assert [row[0] for row in estimated["table"]["rows"]] == \
        ["id", "region", "product", "price", "units"]
    assert "note" not in tables.run("describe", {"frame": "sales"})  # 30 rows: exact
