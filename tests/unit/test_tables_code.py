"""TablesDomain's kept code: the Ibis script run, and each table's SQL executed, on a fresh
connection with the same files give the domain's rows."""

from __future__ import annotations

import duckdb
import pytest

from dial_notebook.domains.tables import TablesDomain
from tests.tables_data import ENGINE_WARNINGS, sales_frame, write_files

pytestmark = [pytest.mark.engine, *ENGINE_WARNINGS]

CHANGES = [
    ("filter-rows", {"frame": "sales", "where": [
        {"column": "units", "op": ">=", "value": 3},
        {"column": "region", "op": "not in", "value": ["West"]},
        {"column": "product", "op": "contains", "value": "es"}]}),
    ("add-column", {"frame": "sales", "column": "revenue",
                    "expression": "round(price * units, 1) + sqrt(abs(units)) - 2 ** 3"}),
    ("add-column", {"frame": "sales", "column": "big", "expression": "(price > 30) & ~(units < 5)"}),
    ("rename-columns", {"frame": "sales", "columns": {"product": "item name"}}),
    ("group-aggregate", {"frame": "sales", "by": ["region", "big"], "into": "summary",
                         "aggregations": [{"column": "revenue", "func": "sum"},
                                          {"column": "item name", "func": "count"},
                                          {"column": "units", "func": "std"}]}),
    ("drop-columns", {"frame": "sales", "columns": ["id"]}),
    ("filter-rows", {"frame": "mem", "where": [{"column": "units", "op": "is null"}],
                     "into": "missing"}),
    ("sort", {"frame": "sales", "by": ["price"], "ascending": False}),
]


@pytest.fixture
def files(tmp_path):
    return write_files(tmp_path)


@pytest.fixture
def tables(files):
    domain = TablesDomain({"sales": files["parquet"], "mem": sales_frame(),
                           "raw": files["csv"]})
    for action, payload in CHANGES:
        domain.run(action, payload)
    return domain


def _rows(backend, expr, *, ordered: bool) -> list:
    rows = [tuple(_plain(v) for v in row.values())
            for row in backend.to_pyarrow(expr).to_pylist()]
    return rows if ordered else sorted(rows, key=repr)


def _plain(value):
    return round(value, 9) if isinstance(value, float) else value


def test_the_script_run_on_a_fresh_connection_gives_the_domains_tables(tables):
    script = tables.code()
    assert script.startswith("# The kept changes of the conversation, in Ibis")
    assert "con = ibis.duckdb.connect()" in script
    assert "# mem was an in-memory frame: pass it in as mem_frame" in script
    assert "raw" not in script  # no change read it
    namespace: dict = {"mem_frame": sales_frame()}
    exec(compile(script, "<kept script>", "exec"), namespace)
    for name, ordered in (("sales", True), ("summary", False), ("missing", False)):
        mine = _rows(tables.backend, tables.table(name), ordered=ordered)
        assert mine, name
        assert _rows(namespace["con"], namespace[name], ordered=ordered) == mine, name


def test_each_tables_sql_run_on_a_fresh_connection_gives_its_rows(tables, files):
    fresh = duckdb.connect()
    fresh.execute(f"CREATE VIEW sales AS SELECT * FROM read_parquet('{files['parquet']}')")
    fresh.register("mem", sales_frame())
    for name, ordered in (("sales", True), ("summary", False), ("missing", False)):
        sql = tables.sql(name)
        got = [tuple(_plain(v) for v in row) for row in fresh.execute(sql).fetchall()]
        got = got if ordered else sorted(got, key=repr)
        assert got == _rows(tables.backend, tables.table(name), ordered=ordered), name


def test_an_undone_change_leaves_the_script(tables):
    tables.undo_last()  # the sort
    script = tables.code()
    assert 'ibis.desc("price"' not in script and "# 8." not in script
    assert "# 7. Keep the rows of mem where units is null into missing" in script


def test_one_change_has_its_code_before_it_runs(files):
    tables = TablesDomain({"sales": files["parquet"]})
    code = tables.code("sort", {"frame": "sales", "by": ["price", "id"]})
    assert code == ('sales = sales.order_by([ibis.asc("price", nulls_first=False), '
                    'ibis.asc("id", nulls_first=False)])')
    assert tables.code("head", {"frame": "sales"}) is None


def test_a_table_of_the_persons_own_connection_is_opened_from_that_connection(files):
    import ibis

    con = ibis.duckdb.connect()
    con.read_parquet(files["parquet"], table_name="orders")
    tables = TablesDomain({"sales": con.table("orders")})
    tables.run("filter-rows", {"frame": "sales", "where": [
        {"column": "region", "op": "==", "value": "South"}]})
    script = tables.code()
    assert "# con: the duckdb connection the tables are on" in script
    assert 'sales = con.table("orders")' in script
    other = ibis.duckdb.connect()
    other.read_parquet(files["parquet"], table_name="orders")
    namespace: dict = {"con": other}
    exec(compile(script, "<kept script>", "exec"), namespace)
    assert _rows(other, namespace["sales"], ordered=False) == \
        _rows(con, tables.table("sales"), ordered=False)
    assert len(_rows(con, tables.table("sales"), ordered=False)) == 9
