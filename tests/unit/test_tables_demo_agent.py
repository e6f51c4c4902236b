"""The offline demo agent on a TablesDomain: every request of ``notebooks/eda-assistant.ipynb``
(its markdown's list, and its code's), through a ``Conversation``, on the demo's sales data
written as Parquet, gives the same outcomes as on the DataFramesDomain holding the same frame.

The demo agent reads a column's type (``dtype`` for pandas, ``type()`` for Ibis) and matches
a value typed by the person ("north") to the column's own spelling ("North") from the values
the engine reads (``TablesDomain.distinct_values``), never pulling a table into memory.
"""

from __future__ import annotations

import pytest

from dial_notebook import Conversation, DataFramesDomain, DemoAgent, load_sales, policy_human
from dial_notebook.domains.tables import TablesDomain
from tests.tables_data import ENGINE_WARNINGS

pytestmark = [pytest.mark.engine, *ENGINE_WARNINGS]

#: The notebook's requests, in its order (the markdown's list, then its code's).
REQUESTS = [
    ("describe sales", [("describe", "done")]),
    ("filter sales where region is north", [("filter-rows", "done")]),
    ("add a column revenue = price * units", [("add-column", "done")]),
    ("plot price against size", [("plot", "done")]),
    ("plot price against size as vega-lite", [("plot", "done")]),
    ("total units by region", [("group-aggregate", "done")]),
    ("undo", []),
    ("plot price against units as vega-lite", [("plot", "done")]),
    ("sort sales by price descending", [("sort", "done")]),
]


@pytest.fixture
def parquet(tmp_path):
    path = tmp_path / "sales.parquet"
    load_sales().to_parquet(path, index=False)
    return path


async def _follow(domain, requests=REQUESTS):
    """Each request said in turn: the outcomes (each with the payload it was proposed with),
    and the agent's replies."""
    replies: list[str] = []
    payloads: dict[str, object] = {}

    def seen(event: dict) -> None:
        if event["type"] in ("reply", "inform"):
            replies.append(event.get("text") or "")
        elif event["type"] == "suggestion":
            payloads[event["id"]] = event["payload"]

    talk = Conversation(agent=DemoAgent(domain), domain=domain, human=policy_human("accept"),
                        timeout=30, on_event=seen)
    said = []
    for words, _ in requests:
        result = await talk.say(words)
        said.append([{**o, "payload": payloads[o["id"]]} for o in result.outcomes])
    await talk.say("thanks")  # the agent's word on the last outcomes
    return said, replies


async def test_every_request_of_the_eda_notebook_works_on_a_parquet_table(parquet):
    tables = TablesDomain({"sales": parquet})
    said, replies = await _follow(tables)
    assert [[(o["action"], o["status"]) for o in outcomes] for outcomes in said] == \
        [expected for _, expected in REQUESTS]
    assert not any("None row" in text for text in replies)
    assert any("frames.undo_last()" in text or "undo_last()" in text for text in replies)


async def test_a_value_typed_in_lower_case_is_matched_to_the_tables_spelling(parquet):
    tables = TablesDomain({"sales": parquet})
    [[filtered]], _ = await _follow(tables, REQUESTS[1:2])
    assert filtered["payload"]["where"] == [{"column": "region", "op": "==", "value": "North"}]
    north = int((load_sales()["region"] == "North").sum())
    assert (filtered["result"]["rows"], filtered["result"]["rows_before"]) == (north, 200)


async def test_the_tables_give_what_the_frames_give_for_the_same_requests(parquet):
    tables, _ = await _follow(TablesDomain({"sales": parquet}))
    frames, _ = await _follow(DataFramesDomain({"sales": load_sales()}))
    for mine, theirs in zip(tables, frames, strict=True):
        assert [(o["action"], o["status"]) for o in mine] == \
            [(o["action"], o["status"]) for o in theirs]
        for got, want in zip(mine, theirs, strict=True):
            assert got["payload"] == want["payload"]
            if got["action"] in ("filter-rows", "add-column", "sort", "group-aggregate"):
                assert (got["result"]["rows"], got["result"]["columns"]) == \
                    (want["result"]["rows"], want["result"]["columns"])


async def test_a_plot_over_a_date_column_is_a_line_and_a_csv_table_says_rows_unknown(tmp_path):
    path = tmp_path / "sales.csv"
    load_sales().to_csv(path, index=False)
    tables = TablesDomain({"sales": path})
    requests = [("list frames", [("list-frames", "done")]),
                ("plot units against date", [("plot", "done")])]
    said, replies = await _follow(tables, requests)
    assert said[1][0]["payload"]["kind"] == "line"
    assert any("sales: rows unknown" in text for text in replies)
    assert not any("None row" in text for text in replies)


async def test_a_value_not_in_a_text_column_is_kept_as_typed(parquet):
    tables = TablesDomain({"sales": parquet})
    requests = [("filter sales where region is atlantis", [("filter-rows", "done")])]
    [[filtered]], _ = await _follow(tables, requests)
    assert filtered["payload"]["where"][0]["value"] == "atlantis"
    assert filtered["result"]["rows"] == 0


async def test_a_value_written_as_sql_is_only_ever_a_value(parquet):
    tables = TablesDomain({"sales": parquet})
    said = "x' or '1'='1"
    requests = [(f"filter sales where region is {said}", [("filter-rows", "done")])]
    [[filtered]], _ = await _follow(tables, requests)
    assert filtered["payload"]["where"][0]["value"] == said
    assert filtered["result"]["rows"] == 0
    assert tables.run("list-frames", {})["frames"][0]["columns"] == list(load_sales().columns)
