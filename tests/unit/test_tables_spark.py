"""The spark tier: TablesDomain on a local Spark gives what it gives on DuckDB.

One scripted conversation (every action of the vocabulary, each change accepted, then the last
change undone) runs over ``TablesDomain`` on the default in-process DuckDB and on
``ibis.pyspark.connect(spark)`` (``local[2]``), both reading the same Parquet file. Compared:
each action's table (up to row order where the order is not the action's, floats to 9
significant digits), each change's rows and columns, each dry run's counts, the kept Ibis
code (up to the lines that make the connection and open the sources on it), the undo, and the
kept script run on a fresh Spark connection.

Spark's first queries take seconds (its JVM warming up): the bounds a dry run, a count or a
chart may take are tested on DuckDB (``test_tables_bounded``, ``test_tables_changes``), so here
they are wide, the same on both engines, to compare what each engine computes.
"""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from dial_notebook import Conversation, policy_human
from dial_notebook.domains.tables import TablesDomain, _engine_charts
from dial_notebook.runtime import _review
from tests.spark_session import spark  # noqa: F401  (the session fixture)
from tests.tables_data import ENGINE_WARNINGS, write_files

pytestmark = [
    pytest.mark.spark, *ENGINE_WARNINGS,
    pytest.mark.filterwarnings("ignore:The copy keyword is deprecated"),  # PySpark's, pandas 3
    pytest.mark.filterwarnings("ignore:unclosed <socket.socket:ResourceWarning"),  # py4j's
]

#: Seconds each engine may take, wide: what is compared here is what they compute.
WIDE = 120.0

STEPS: list[tuple[str, dict[str, Any]]] = [
    ("list-frames", {}),
    ("describe", {"frame": "sales"}),
    ("head", {"frame": "sales", "n": 5}),
    ("value-counts", {"frame": "sales", "column": "product"}),
    ("value-counts", {"frame": "sales", "column": "units"}),  # missing values counted too
    ("correlation", {"frame": "sales"}),
    ("plot", {"frame": "sales", "kind": "hist", "x": "price", "bins": 5,
              "format": "vega-lite"}),
    ("plot", {"frame": "sales", "kind": "bar", "x": "region", "y": "units",
              "format": "vega-lite"}),
    ("group-aggregate", {"frame": "sales", "by": ["units"], "into": "by_units",  # a missing key
                         "aggregations": [{"column": "price", "func": "max"}]}),
    ("filter-rows", {"frame": "sales", "where": [
        {"column": "units", "op": ">", "value": 3},
        {"column": "region", "op": "!=", "value": "West"},
        {"column": "product", "op": "contains", "value": "es"}]}),
    ("add-column", {"frame": "sales", "column": "revenue",
                    "expression": "round(price * units, 2) + sqrt(abs(units))"}),
    ("rename-columns", {"frame": "sales", "columns": {"product": "item"}}),
    ("group-aggregate", {"frame": "sales", "by": ["region"], "into": "by_region",
                         "aggregations": [{"column": "revenue", "func": "sum"},
                                          {"column": "units", "func": "mean"},
                                          {"column": "item", "func": "nunique"},
                                          {"column": "price", "func": "median"},
                                          {"column": "units", "func": "std"},
                                          {"column": "item", "func": "count"}]}),
    ("filter-rows", {"frame": "sales", "where": [{"column": "units", "op": "not null"}],
                     "into": "present"}),
    ("sort", {"frame": "sales", "by": ["price"], "ascending": False}),
    ("drop-columns", {"frame": "sales", "columns": ["id"]}),
    ("head", {"frame": "sales", "n": 50}),
    ("describe", {"frame": "by_region"}),
]
CHANGES = ("filter-rows", "add-column", "rename-columns", "drop-columns", "sort",
           "group-aggregate")
#: Actions whose rows come in an order of their own (the others: compared as sets of rows).
ORDERED = ("head", "value-counts", "describe", "correlation", "sort", "group-aggregate")
#: The change undone at the end: the last one (dropping ``id``).
UNDONE = f"s{[action for action, _ in STEPS].index('drop-columns')}"


def _suggest(action: str, payload: dict[str, Any], sid: str) -> str:
    body = json.dumps(payload).replace("<", "\\u003c")
    return (f'<dial><dial-suggest id="{sid}" action="{action}"><dial-payload '
            f'type="application/json">{body}</dial-payload></dial-suggest></dial>')


class _Agent:
    """Proposes one step a turn, then acknowledges."""

    def __init__(self) -> None:
        self.replies = [_suggest(action, payload, f"s{i}")
                        for i, (action, payload) in enumerate(STEPS)]

    async def send(self, message: str) -> str:
        if self.replies:
            return self.replies.pop(0)
        return "<dial><dial-acknowledge>Done.</dial-acknowledge></dial>"


class Talk:
    """One engine's conversation: its domain, its events, its outcomes and its undo."""

    def __init__(self, tables: TablesDomain) -> None:
        self.tables = tables
        self.events: list[dict[str, Any]] = []
        self.outcomes: list[dict[str, Any]] = []
        self.undone: dict[str, Any] | None = None
        self.before_undo: dict[str, list[Any]] = {}

    async def run(self) -> Talk:
        talk = Conversation(agent=_Agent(), domain=self.tables, human=policy_human("accept"),
                            on_event=self.events.append, timeout=WIDE,
                            max_turns=len(STEPS) + 2)
        result = await talk.say("explore sales")
        assert result.status == "idle"
        self.outcomes = result.outcomes
        self.before_undo = {"sales": _rows(self.tables, "sales"),
                            "script": [self.tables.code()]}
        self.undone = await talk.undo(UNDONE)
        return self

    def dry_runs(self) -> list[dict[str, Any]]:
        return [e["dry_run"] for e in self.events
                if e["type"] == "suggestion" and e.get("dry_run") is not None]


def _domain(source: str, backend: Any = None) -> TablesDomain:
    return TablesDomain({"sales": source}, backend, dry_run_seconds=WIDE, count_seconds=WIDE,
                        query_seconds=WIDE)


@pytest.fixture(scope="module")
def parquet(tmp_path_factory) -> str:
    return str(write_files(tmp_path_factory.mktemp("tables"))["parquet"])


@pytest.fixture(scope="module")
def talks(spark, parquet):  # noqa: F811
    """The conversation on DuckDB and on Spark (once for the module: Spark is slow to warm)."""
    import asyncio

    import ibis

    wide = pytest.MonkeyPatch()
    wide.setattr(_review, "DRY_RUN_SECONDS", WIDE)
    wide.setattr(_engine_charts, "CHART_SECONDS", WIDE)
    wide.setattr(_engine_charts, "JOB_CHART_SECONDS", WIDE)
    try:
        duck = asyncio.run(Talk(_domain(parquet)).run())
        on_spark = asyncio.run(Talk(_domain(parquet, ibis.pyspark.connect(spark))).run())
    finally:
        wide.undo()
    return {"duckdb": duck, "spark": on_spark}


def _cell(value: Any) -> Any:
    if isinstance(value, float) and math.isfinite(value):
        return int(value) if value.is_integer() else float(f"{value:.9g}")
    return value


def _table(table: dict[str, Any], ordered: bool) -> tuple[list[str], list[Any]]:
    rows = [[_cell(v) for v in row] for row in table["rows"]]
    return table["columns"], rows if ordered else sorted(rows, key=repr)


def _rows(tables: TablesDomain, name: str) -> list[Any]:
    frame = tables.to_pandas(name, limit=None)
    return [[_cell(v) for v in row] for row in frame.astype(object).where(
        frame.notna(), None).itertuples(index=False, name=None)]


def _values(spec: dict[str, Any]) -> list[Any]:
    rows = [{k: _cell(v) for k, v in row.items()} for row in spec["data"]["values"]]
    return sorted(rows, key=repr)


# The conversation


def test_every_step_is_done_on_both_engines(talks):
    for engine, talk in talks.items():
        assert [(o["action"], o["status"]) for o in talk.outcomes] == \
            [(action, "done") for action, _ in STEPS], engine
    assert talks["spark"].tables.backend.name == "pyspark"
    assert talks["duckdb"].tables.backend.name == "duckdb"


def test_each_action_gives_the_same_table_on_spark_as_on_duckdb(talks):
    duck, spark_ = talks["duckdb"].outcomes, talks["spark"].outcomes
    compared = 0
    for (action, _payload), mine, theirs in zip(STEPS, spark_, duck, strict=True):
        got, want = mine["result"], theirs["result"]
        if "table" in want:
            ordered = action in ORDERED
            assert _table(got["table"], ordered) == _table(want["table"], ordered), action
            assert got["table"]["total_rows"] == want["table"]["total_rows"], action
            compared += 1
        if action == "plot":
            assert _values(got["vega_lite"]) == _values(want["vega_lite"]), _payload
            compared += 1
        if action == "list-frames":
            assert got == want
    assert compared == 11


def test_each_change_gives_the_same_rows_columns_types_and_code(talks):
    for (action, _), mine, theirs in zip(STEPS, talks["spark"].outcomes,
                                         talks["duckdb"].outcomes, strict=True):
        if action not in CHANGES:
            continue
        got, want = mine["result"], theirs["result"]
        for key in ("frame", "rows", "columns", "code", "rows_before", "column", "dtype"):
            assert got.get(key) == want.get(key), (action, key)
        assert got["rows"] is not None


def test_the_same_dry_runs_counts_columns_and_summaries(talks):
    duck, on_spark = talks["duckdb"].dry_runs(), talks["spark"].dry_runs()
    assert len(duck) == len(on_spark) == sum(action in CHANGES for action, _ in STEPS)
    for got, want in zip(on_spark, duck, strict=True):
        assert got["ok"] and want["ok"], (got, want)
        assert "note" not in got, got["note"]  # nothing unavailable
        for key in ("rows", "columns", "added", "removed", "renamed", "dtypes", "into"):
            assert got["effect"][key] == want["effect"][key], (want["summary"], key)
        assert got["summary"] == want["summary"]
        assert got["code"] == want["code"]
        assert None not in got["effect"]["rows"]
        shown = got["effect"]["sample"]
        assert shown["before"]["columns"] == want["effect"]["sample"]["before"]["columns"]
        assert shown["after"]["columns"] == want["effect"]["sample"]["after"]["columns"]
        assert shown["before"]["rows"] and len(shown["before"]["rows"]) == \
            len(want["effect"]["sample"]["before"]["rows"])


def test_the_tables_are_the_same_before_and_after_the_undo(talks):
    duck, on_spark = talks["duckdb"], talks["spark"]
    assert on_spark.before_undo["sales"] == duck.before_undo["sales"]  # sorted: in order
    assert on_spark.undone is not None and duck.undone is not None
    assert on_spark.undone["status"] == duck.undone["status"] == "undone"
    assert on_spark.tables.table("sales").columns[0] == "id"  # the drop taken back
    for name in ("sales", "by_region", "present", "by_units"):
        ordered = name != "present"
        got, want = _rows(on_spark.tables, name), _rows(duck.tables, name)
        assert got == want if ordered else sorted(got, key=repr) == sorted(want, key=repr)
        assert got, name
    assert set(on_spark.tables.tables()) == set(duck.tables.tables()) == \
        {"sales", "by_region", "present", "by_units"}


def _steps(script: str) -> list[str]:
    """The script from its first change on (what is past the connection and the sources)."""
    lines = script.splitlines()
    return lines[next(i for i, line in enumerate(lines) if line.startswith("# 1. ")):]


def test_the_kept_code_is_the_same_up_to_the_connection(talks, parquet):
    duck, on_spark = talks["duckdb"].tables.code(), talks["spark"].tables.code()
    assert _steps(on_spark) == _steps(duck)
    assert "drop" not in "\n".join(_steps(duck))  # the undone step is not kept
    assert "con = ibis.duckdb.connect()" in duck
    assert "# con: the pyspark connection the tables are on" in on_spark
    assert f'sales = con.read_parquet("{parquet}")' in on_spark.splitlines()
    assert talks["spark"].before_undo["script"][0] != on_spark  # the drop was in it


def test_the_kept_script_gives_the_tables_again_on_a_fresh_spark_connection(talks, spark):  # noqa: F811
    import ibis

    tables = talks["spark"].tables
    fresh = ibis.pyspark.connect(spark.newSession())  # its own temporary views
    namespace: dict[str, Any] = {"con": fresh}
    exec(compile(tables.code(), "<kept script>", "exec"), namespace)
    for name in ("sales", "by_region", "present", "by_units"):
        again = fresh.to_pyarrow(namespace[name]).to_pandas()
        rows = [[_cell(v) for v in row] for row in again.astype(object).where(
            again.notna(), None).itertuples(index=False, name=None)]
        mine = _rows(tables, name)
        assert rows == mine if name != "present" else \
            sorted(rows, key=repr) == sorted(mine, key=repr), name


def test_each_tables_sql_for_spark_runs_on_spark_and_gives_its_rows(talks, spark, parquet):  # noqa: F811
    tables = talks["spark"].tables
    sql = tables.sql("by_region")
    assert "`" in sql  # Spark's quoting of names, not DuckDB's
    source = tables._sources["sales"].table.op().name  # the view Ibis made for the file
    assert source in sql
    got = spark.sql(sql).toPandas()
    assert [[_cell(v) for v in row] for row in got.itertuples(index=False, name=None)] == \
        _rows(tables, "by_region")


def test_the_tiers_spark_is_local_quiet_without_a_ui_and_writes_under_the_runs_folder(
        spark, tmp_path_factory):  # noqa: F811
    context = spark.sparkContext
    assert context.master == "local[2]" and context.uiWebUrl is None
    assert spark.conf.get("spark.sql.shuffle.partitions") == "2"
    root = tmp_path_factory.getbasetemp()
    for key in ("spark.local.dir", "spark.sql.warehouse.dir"):
        assert str(context.getConf().get(key)).removeprefix("file:").startswith(str(root)), key


def test_describe_past_the_exact_size_takes_its_quartiles_from_a_sample_on_spark_too(
        spark, parquet, monkeypatch):  # noqa: F811
    import ibis

    from dial_notebook.domains.tables import _reads

    monkeypatch.setattr(_reads, "EXACT_ROWS", 10)  # 30 rows: past it, as 30 million would be
    duck = _domain(parquet).run("describe", {"frame": "sales"})
    # Spark has no seeded samples: an unseeded one, not a failure
    on_spark = _domain(parquet, ibis.pyspark.connect(spark)).run("describe", {"frame": "sales"})
    assert on_spark["note"] == duck["note"]
    assert "the quartiles from a sample of about 10 rows" in on_spark["note"]
    columns = on_spark["table"]["columns"]
    assert columns == duck["table"]["columns"]
    exact = [columns.index(stat) for stat in ("count", "mean", "std", "min", "max")]
    quartiles = [columns.index(stat) for stat in ("25%", "50%", "75%")]
    for mine, theirs in zip(on_spark["table"]["rows"], duck["table"]["rows"], strict=True):
        assert [_cell(mine[i]) for i in exact] == [_cell(theirs[i]) for i in exact], mine[0]
        if mine[0] in ("id", "price", "units"):  # the numbers: quartiles of sampled rows
            low, high = mine[columns.index("min")], mine[columns.index("max")]
            assert all(low <= mine[i] <= high for i in quartiles), mine


# A chart on Spark: its own bound, so that the first one on a cold Spark is drawn

def test_a_chart_on_spark_has_its_own_bound_and_duckdb_keeps_twice_a_dry_runs(spark):  # noqa: F811
    import ibis

    on_spark = ibis.pyspark.connect(spark)
    assert _engine_charts.chart_seconds(on_spark) == _engine_charts.JOB_CHART_SECONDS
    assert _engine_charts.chart_seconds(ibis.duckdb.connect()) == _engine_charts.CHART_SECONDS
    assert _engine_charts.JOB_CHART_SECONDS > 10 * _engine_charts.CHART_SECONDS


COLD = """
import asyncio, json, sys, time
from pathlib import Path

import ibis

from dial_notebook.domains.tables import TablesDomain
from dial_notebook.domains.tables._engine_charts import chart_seconds
from tests.spark_session import start


async def first_chart(tables):
    gaps, last = [0.0], time.perf_counter()

    async def tick():
        nonlocal last
        while True:
            await asyncio.sleep(0.02)
            now = time.perf_counter()
            gaps.append(now - last)
            last = now

    ticker = asyncio.ensure_future(tick())
    started = time.perf_counter()
    result = await tables.run_async("plot", {"frame": "sales", "kind": "hist", "x": "price"})
    took = time.perf_counter() - started
    ticker.cancel()
    return result, took, max(gaps)


session = start(Path(sys.argv[2]))
tables = TablesDomain({"sales": sys.argv[1]}, ibis.pyspark.connect(session))
result, took, gap = asyncio.run(first_chart(tables))
media = result.get("media") or [{}]
print(json.dumps({"alt": media[0].get("alt"), "png": str(media[0].get("src", ""))[:22],
                  "why": result.get("why"), "took": took, "gap": gap,
                  "bound": chart_seconds(tables.backend)}))
session.stop()
"""


def test_the_first_chart_on_a_cold_spark_is_drawn_and_never_holds_the_loop(parquet, tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", COLD, parquet, str(tmp_path)], cwd=root,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["why"] is None, found  # drawn, not "the chart was not drawn…"
    assert (found["alt"], found["png"]) == ("Histogram of price", "data:image/png;base64,")
    assert found["took"] < found["bound"]
    assert found["gap"] < 0.5, found  # the loop ticked on while the engine worked
    # the tier's Spark is quiet from its start: none of its start-up lines reach a notebook
    assert "Setting default log level" not in done.stderr + done.stdout
    assert "log4j" not in done.stderr + done.stdout
