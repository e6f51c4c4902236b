"""TablesDomain's changes: lazy expressions, exact undo, and dry runs computed by the engine in
bounded time."""

from __future__ import annotations

import pytest

from dial_notebook import ActionError
from dial_notebook.domains.tables import TablesDomain
from tests.tables_data import ENGINE_WARNINGS, timed_out, write_files

pytestmark = [pytest.mark.engine, *ENGINE_WARNINGS]

FILTER = {"frame": "sales", "where": [{"column": "region", "op": "==", "value": "North"}]}
ADD = {"frame": "sales", "column": "revenue", "expression": "price * units"}
GROUP = {"frame": "sales", "by": ["region"], "into": "by_region",
         "aggregations": [{"column": "units", "func": "sum"}]}


@pytest.fixture
def tables(tmp_path):
    return TablesDomain({"sales": write_files(tmp_path)["parquet"]})


# Lazy


def test_a_change_rebinds_the_name_to_a_new_expression_and_materialises_nothing(tables):
    before = tables.table("sales")
    result = tables.run("filter-rows", FILTER)
    after = tables.table("sales")
    assert after is not before
    assert type(after.op()).__name__ == "Filter"  # an expression over the file, not data
    assert (result["rows"], result["rows_before"]) == (12, 30)
    assert result["code"] == 'sales = sales.filter(sales["region"] == "North")'
    assert result["summary"] == "sales: 30 → 12 rows"  # what its card says of it


def test_each_change_says_itself_in_a_summary_as_the_frames_domain_does(tables):
    assert tables.run("add-column", ADD)["summary"] == (
        "sales: a new column revenue (float64), 30 rows")
    assert tables.run("sort", {"frame": "sales", "by": ["price"]})["summary"] == (
        "sales: 30 rows, 6 columns")


def test_each_change_gives_the_shape_and_types_of_the_frames_domain(tables):
    added = tables.run("add-column", ADD)
    assert (added["column"], added["dtype"], added["rows"]) == ("revenue", "float64", 30)
    renamed = tables.run("rename-columns", {"frame": "sales", "columns": {"units": "qty"}})
    assert renamed["columns"] == ["id", "region", "product", "price", "qty", "revenue"]
    dropped = tables.run("drop-columns", {"frame": "sales", "columns": ["id", "product"]})
    assert dropped["columns"] == ["region", "price", "qty", "revenue"]
    ordered = tables.run("sort", {"frame": "sales", "by": ["price"], "ascending": False})
    assert tables.run("head", {"frame": "sales", "n": 1})["table"]["rows"][0][1] == 50.17
    assert ordered["rows"] == 30
    grouped = tables.run("group-aggregate", {**GROUP, "aggregations": [
        {"column": "qty", "func": "count"}]})
    assert grouped["table"]["rows"] == [["East", 6], ["North", 11], ["South", 8], ["West", 3]]
    assert set(tables.tables()) == {"sales", "by_region"}


# Undo


def test_undo_puts_the_very_previous_expression_back(tables):
    original = tables.table("sales")
    tables.run("filter-rows", FILTER)
    filtered = tables.table("sales")
    tables.run("add-column", ADD)
    assert tables.undo_last().action == "add-column"
    assert tables.table("sales") is filtered
    assert tables.undo_last().action == "filter-rows"
    assert tables.table("sales") is original
    assert tables.code().rstrip().endswith("# (no changes were kept)")


def test_a_later_change_or_a_table_made_from_it_makes_a_change_not_undoable(tables):
    first = tables.run("filter-rows", FILTER)
    tables.run("add-column", ADD)
    assert tables.undoable("filter-rows", FILTER, first) == \
        "sales was changed again since: undo that change first"
    tables.undo_last()
    tables.run("group-aggregate", GROUP)
    assert tables.undoable("filter-rows", FILTER, first) == \
        "by_region was made from sales since: undo that change first"
    with pytest.raises(ActionError):
        tables.undo("filter-rows", FILTER, first)


# Dry runs


def test_a_filters_dry_run_counts_rows_before_and_after_on_the_engine(tables):
    dry = tables.dry_run("filter-rows", {**FILTER, "into": "north"})
    assert dry["summary"] == "sales → north: 30 → 12 rows, 5 columns"
    effect = dry["effect"]
    assert (effect["rows"], effect["columns"], effect["into"]) == ([30, 12], [5, 5], "north")
    after = effect["sample"]["after"]
    assert after["columns"][0] == "region" and {row[0] for row in after["rows"]} == {"North"}
    assert after["total_rows"] == 12 and len(after["rows"]) == 5
    assert dry["code"] == 'north = sales.filter(sales["region"] == "North")'
    assert "sales" in tables.tables() and "north" not in tables.tables()  # nothing ran


def test_dry_runs_say_columns_added_removed_renamed_and_new_types(tables):
    added = tables.dry_run("add-column", ADD)
    assert added["summary"] == "sales: 30 rows, 5 → 6 columns (adds revenue, float64)"
    assert (added["effect"]["added"], added["effect"]["dtypes"]) == (["revenue"],
                                                                      {"revenue": "float64"})
    assert added["effect"]["sample"]["after"]["columns"][-1] == "revenue"
    replaced = tables.dry_run("add-column", {**ADD, "column": "units",
                                             "expression": "units * 2"})
    assert "replaces the column units (float64 → float64)" in replaced["note"]
    renamed = tables.dry_run("rename-columns", {"frame": "sales", "columns": {"units": "qty"}})
    assert renamed["effect"]["renamed"] == {"units": "qty"}
    assert renamed["effect"]["sample"]["after"]["columns"][0] == "qty"
    dropped = tables.dry_run("drop-columns", {"frame": "sales", "columns": ["id"]})
    assert (dropped["effect"]["removed"], dropped["effect"]["columns"]) == (["id"], [5, 4])
    grouped = tables.dry_run("group-aggregate", GROUP)
    assert grouped["summary"] == "sales → by_region: 30 → 4 rows, 5 → 2 columns"
    assert grouped["effect"]["dtypes"] == {"units_sum": "float64"}


def test_a_count_the_engine_does_not_give_in_time_is_said_unavailable(tables, monkeypatch):
    import dial_notebook.domains.tables._bounded as bounded

    monkeypatch.setattr(bounded, "run_bounded", timed_out)
    dry = tables.dry_run("filter-rows", FILTER)
    assert "rows after: unavailable (the engine did not answer within 1 s)" in dry["summary"]
    assert dry["effect"]["rows"] == [30, None]  # before: the Parquet footers, no query
    assert "unavailable (the engine did not answer within 1 s)" in dry["note"]
    assert dry["effect"]["sample"]["after"]["rows"] == []
    result = tables.run("filter-rows", FILTER)  # the run goes on; its count is not waited for
    assert result["rows"] is None


def test_a_slow_engine_never_holds_a_dry_run_past_its_bound(tmp_path):
    import time

    import duckdb

    path = tmp_path / "big.parquet"
    duckdb.sql(f"COPY (SELECT range AS a, range % 7 AS b FROM range(3000000)) TO '{path}'")
    slow = TablesDomain({"big": path}, dry_run_seconds=0.2)
    started = time.monotonic()
    dry = slow.dry_run("group-aggregate", {"frame": "big", "by": ["a"], "into": "g",
                                           "aggregations": [{"column": "b", "func": "nunique"}]})
    waited = time.monotonic() - started
    # 3,000,000 groups are not counted within 0.2 s: the card says so rather than wait
    assert dry["effect"]["rows"][0] == 3_000_000  # the footers: no query
    if dry["effect"]["rows"][1] is None:
        assert "rows after: unavailable (the engine did not answer within 0.2 s)" in dry["summary"]
    assert waited < 0.2 + 1.5  # one budget shared by its queries, plus their start-up


def test_a_change_the_engine_refuses_is_a_failed_dry_run_with_a_hint(tables):
    with pytest.raises(ActionError) as refused:
        tables.dry_run("add-column", {**ADD, "expression": "region * 2"})
    assert refused.value.code == "invalid-expression"


async def test_the_card_of_a_change_carries_the_engines_dry_run(tables):
    from dial_notebook import Conversation, policy_human

    reply = ('<dial><dial-suggest id="s1" action="filter-rows"><dial-payload type="application/'
             'json">{"frame": "sales", "where": [{"column": "units", "op": "<", "value": 4}]}'
             '</dial-payload></dial-suggest></dial>')
    replies = [reply, "<dial><dial-acknowledge>ok</dial-acknowledge></dial>"]

    class Agent:
        async def send(self, message: str) -> str:
            return replies.pop(0)

    events: list[dict] = []
    talk = Conversation(agent=Agent(), domain=tables, human=policy_human("dismiss"),
                        on_event=events.append, timeout=30)
    await talk.say("small orders only")
    [card] = [e for e in events if e["type"] == "suggestion"]
    assert card["dry_run"]["ok"] is True
    assert card["dry_run"]["summary"] == "sales: 30 → 8 rows, 5 columns"
    assert tables.table("sales").op().__class__.__name__ != "Filter"  # dismissed: nothing ran


def test_plot_hands_the_current_expression_and_the_backend_to_the_engine_charts(
        tables, monkeypatch):
    import sys
    import types

    name = "dial_notebook.domains.tables._engine_charts"
    module = types.ModuleType(name)  # a stand-in, for the wiring only (its own tests: H2's)
    monkeypatch.setitem(sys.modules, name, module)
    calls: list[dict] = []

    def chart_from_engine(table, *, kind, x, y, title, bins, backend, format):
        calls.append({"table": table, "kind": kind, "x": x, "y": y, "title": title,
                      "bins": bins, "backend": backend, "format": format})
        return {"media": [{"src": "data:image/png;base64,AA==", "alt": title}]}

    monkeypatch.setattr(module, "chart_from_engine", chart_from_engine, raising=False)
    tables.run("filter-rows", FILTER)
    result = tables.run("plot", {"frame": "sales", "kind": "hist", "x": "price", "bins": 7})
    assert result["media"][0]["src"].startswith("data:image/png")
    [call] = calls
    assert call["table"] is tables.table("sales") and call["backend"] is tables.backend
    assert (call["kind"], call["x"], call["y"], call["bins"], call["format"]) == \
        ("hist", "price", None, 7, "png")


def test_a_histogram_is_drawn_from_the_engines_bins(tables):
    result = tables.run("plot", {"frame": "sales", "kind": "hist", "x": "price",
                                 "format": "vega-lite"})
    counts = [bin_["count"] for bin_ in result["vega_lite"]["data"]["values"]]
    assert sum(counts) == 30


def test_the_version_of_a_proposal_changes_when_a_table_it_reads_or_writes_is_rebound(tables):
    version = tables.version("filter-rows", {**FILTER, "into": "north"})
    assert version == tables.version("filter-rows", {**FILTER, "into": "north"})  # stable
    other = tables.version("head", {"frame": "sales"})
    tables.run("group-aggregate", GROUP)  # writes by_region only
    assert tables.version("filter-rows", {**FILTER, "into": "north"}) == version
    tables.run("add-column", ADD)
    changed = tables.version("filter-rows", {**FILTER, "into": "north"})
    assert changed != version and tables.version("head", {"frame": "sales"}) != other
    tables.run("filter-rows", {**FILTER, "into": "north"})
    assert tables.version("filter-rows", {**FILTER, "into": "north"}) != changed
    tables.undo_last()
    assert tables.version("filter-rows", {**FILTER, "into": "north"}) == changed
    assert tables.version("list-frames", {}) is None
