"""Hostile agent text against TablesDomain: an expression that is code, SQL in a filter's value,
a column named like SQL, names that try to break out of the kept script. Nothing but a refusal
or a literal comparison happens: no code runs, no statement but our query reaches the engine,
the source is intact after."""

from __future__ import annotations

import pytest

from dial_notebook.domains.tables import TablesDomain
from tests.tables_data import ENGINE_WARNINGS, sales_frame, write_files

pytestmark = [pytest.mark.engine, *ENGINE_WARNINGS]

SQL_NAME = 'x"; DROP TABLE t; --'
CODE_NAME = '"]); import os; os.system("touch PWNED"); (["'


@pytest.fixture
def files(tmp_path):
    return write_files(tmp_path)


@pytest.fixture
def tables(files):
    return TablesDomain({"sales": files["parquet"]})


def _intact(tables: TablesDomain) -> int:
    """The rows of the source view, read straight from the engine."""
    return int(tables.backend.to_pyarrow(tables.backend.table("sales").count()).as_py())


@pytest.mark.parametrize("expression", [
    "__import__('os').system('touch PWNED')",
    "price.__class__.__mro__",
    "open('/etc/passwd')",
    "exec('import os')",
    "(lambda: 1)()",
    "[p for p in price]",
    "price; DROP TABLE sales",
    "9 ** 9 ** 9",
    "round(price, -10 ** 7)",
    "price if units else 0",
    "col('price') + col(\"x'; DROP TABLE sales; --\")",
])
def test_an_expression_that_is_not_column_arithmetic_is_refused_and_nothing_runs(
        tables, expression, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    payload = {"frame": "sales", "column": "c", "expression": expression}
    refused = tables.validate("add-column", payload)
    assert (refused["ok"], refused["code"], refused["field"]) == \
        (False, "invalid-expression", "expression")
    assert not (tmp_path / "PWNED").exists()
    assert _intact(tables) == 30 and "c" not in tables.table("sales").columns


def test_sql_in_a_filters_value_is_a_literal_compared_with_the_column(tables):
    attack = "North'; DROP TABLE sales; --"
    payload = {"frame": "sales", "where": [{"column": "region", "op": "==", "value": attack}]}
    assert tables.dry_run("filter-rows", payload)["effect"]["rows"] == [30, 0]
    assert tables.run("filter-rows", payload)["rows"] == 0
    assert "'North''; DROP TABLE sales; --'" in tables.sql("sales")  # quoted by Ibis
    assert _intact(tables) == 30


def test_contains_is_a_literal_substring_not_a_pattern(tables):
    for text in ("%", "_", "'"):
        payload = {"frame": "sales", "where": [{"column": "region", "op": "contains",
                                                "value": text}]}
        assert tables.dry_run("filter-rows", payload)["effect"]["rows"] == [30, 0], text


def test_a_column_named_like_sql_is_quoted_in_every_action(tmp_path):
    frame = sales_frame().rename(columns={"region": SQL_NAME})
    frame.to_parquet(tmp_path / "t.parquet", index=False)
    tables = TablesDomain({"t": tmp_path / "t.parquet"})
    assert tables.run("value-counts", {"frame": "t", "column": SQL_NAME})["table"]["rows"][0] \
        == ["North", 12]
    assert tables.run("describe", {"frame": "t", "columns": [SQL_NAME]})["table"]["rows"][0][0] \
        == SQL_NAME
    tables.run("add-column", {"frame": "t", "column": "loud",
                              "expression": f"col({SQL_NAME!r}) + '!'"})
    tables.run("filter-rows", {"frame": "t", "where": [
        {"column": SQL_NAME, "op": "in", "value": ["North", "South"]}]})
    made = tables.run("group-aggregate", {"frame": "t", "by": [SQL_NAME], "into": "g",
                                          "aggregations": [{"column": "units", "func": "sum"}]})
    assert [row[0] for row in made["table"]["rows"]] == ["North", "South"]
    assert tables.run("head", {"frame": "t", "n": 1})["table"]["rows"][0][-1] == "North!"
    assert int(tables.backend.to_pyarrow(tables.backend.table("t").count()).as_py()) == 30


def test_new_names_from_the_agent_never_break_out_of_the_sql_or_the_script(
        tables, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    tables.run("rename-columns", {"frame": "sales", "columns": {"price": SQL_NAME}})
    tables.run("add-column", {"frame": "sales", "column": CODE_NAME, "expression": "units * 2"})
    tables.run("add-column", {"frame": "sales", "column": "two\nlines",
                              "expression": "1"})
    assert tables.run("head", {"frame": "sales", "n": 1})["table"]["columns"] == \
        ["id", "region", "product", SQL_NAME, "units", CODE_NAME, "two\nlines"]
    assert _intact(tables) == 30
    script = tables.code()
    namespace: dict = {}
    exec(compile(script, "<kept script>", "exec"), namespace)
    assert not (tmp_path / "PWNED").exists()
    assert list(namespace["sales"].columns) == list(tables.table("sales").columns)


def test_a_new_tables_name_must_be_a_plain_identifier(tables):
    for name in ("x; DROP TABLE sales", "a b", "class", "_hidden", "é"):
        refused = tables.validate("group-aggregate", {
            "frame": "sales", "by": ["region"], "into": name,
            "aggregations": [{"column": "units", "func": "sum"}]})
        assert refused["ok"] is False and refused["field"] == "into", name
