"""TablesDomain.replace / add: the person's own cell replacing (or adding) a source, with the
checks of construction; and file sources rewritten on disk. Either makes a card proposed before
stale: checked again and dry-run again before Accept runs it, one outcome."""

from __future__ import annotations

import os
import time

import pandas as pd
import pytest

from dial_notebook import ActionError
from dial_notebook.domains.tables import TablesDomain, _files
from dial_notebook.runtime import Conversation
from tests.tables_data import ENGINE_WARNINGS, sales_frame, write_files

from .runtime_doubles import ScriptedAgent, dial, suggest
from .test_stale_proposals import ACCEPT, Person, cards, outcomes

pytestmark = [pytest.mark.engine, *ENGINE_WARNINGS]

ADD = {"frame": "sales", "column": "revenue", "expression": "price * units"}
GROUP = {"frame": "sales", "by": ["region"], "into": "by_region",
         "aggregations": [{"column": "units", "func": "sum"}]}


def small(prices=(5.0, 6.0, 7.0)) -> pd.DataFrame:
    return pd.DataFrame({"price": list(prices), "units": [1.0] * len(prices),
                         "region": ["North"] * len(prices)})


def rows(tables: TablesDomain, name: str) -> int:
    return len(tables.to_pandas(name, limit=None))


@pytest.fixture
def files(tmp_path):
    return write_files(tmp_path)


def talk(domain, person, *elements):
    events: list = []
    agent = ScriptedAgent([dial(*elements), dial()])
    return Conversation(agent=agent, domain=domain, human=person, on_event=events.append,
                        timeout=10), events


# -- replace and add ---------------------------------------------------------------------------

@pytest.mark.parametrize("source", ["frame", "parquet", "csv", "glob", "ibis"])
def test_replace_takes_each_kind_of_source_and_changes_the_version(files, source):
    tables = TablesDomain({"sales": small()})
    before = tables.version("add-column", ADD)
    new = {"frame": sales_frame(), "parquet": files["parquet"], "csv": str(files["csv"]),
           "glob": str(files["glob"]),
           "ibis": None}[source]
    if source == "ibis":
        new = tables.backend.read_parquet(files["parquet"])
    tables.replace("sales", new)
    assert rows(tables, "sales") == 30
    assert tables.version("add-column", ADD) != before
    assert tables.run("add-column", ADD)["rows"] == 30


def test_a_replaced_source_leaves_the_tables_made_from_the_old_one_as_they_were(files):
    tables = TablesDomain({"sales": files["parquet"]})
    tables.run("group-aggregate", GROUP)
    kept = tables.to_pandas("by_region", limit=None)
    tables.replace("sales", small())  # a frame, registered under another view name
    tables.replace("sales", small((1.0,)))  # and again
    assert rows(tables, "sales") == 1
    pd.testing.assert_frame_equal(tables.to_pandas("by_region", limit=None), kept)


@pytest.mark.parametrize("bad, kind", [
    (42, TypeError), ("notes.txt", ValueError), ("missing.parquet", FileNotFoundError),
    ("broken.parquet", ValueError)])
def test_a_bad_source_is_a_clear_value_error_and_the_old_table_stays(files, tmp_path, bad, kind):
    (tmp_path / "broken.parquet").write_bytes(b"not parquet at all")
    tables = TablesDomain({"sales": files["parquet"]})
    version, table = tables.version("add-column", ADD), tables.table("sales")
    source = bad if isinstance(bad, int) else str(tmp_path / bad)
    with pytest.raises(ValueError, match="source 'sales'") as raised:
        tables.replace("sales", source)
    assert isinstance(raised.value, kind)  # the type construction raises, too
    assert tables.table("sales") is table and tables.version("add-column", ADD) == version
    assert rows(tables, "sales") == 30


def test_replace_needs_a_table_and_add_a_new_name(files):
    tables = TablesDomain({"sales": files["parquet"]})
    with pytest.raises(ValueError, match=r"no table named 'sale'.*add"):
        tables.replace("sale", small())
    with pytest.raises(ValueError, match=r"'sales' is already a table.*replace"):
        tables.add("sales", small())
    with pytest.raises(ValueError, match="non-empty string"):
        tables.add("", small())
    tables.add("extra", small())
    listed = tables.run("list-frames", {})["frames"]
    assert [(t["name"], t["rows"]) for t in listed] == [("sales", 30), ("extra", 3)]
    assert "extra: 3 rows" in tables.context()


def test_an_added_name_that_is_a_view_already_does_not_clobber_it(files):
    tables = TablesDomain({"sales": small()})
    tables.replace("sales", small((1.0, 2.0)))  # the new frame's view: another name
    tables.add("sales_1", sales_frame())
    assert (rows(tables, "sales"), rows(tables, "sales_1")) == (2, 30)


def test_undo_never_brings_back_a_replaced_source(files):
    tables = TablesDomain({"sales": files["parquet"]})
    tables.run("add-column", ADD)
    tables.replace("sales", small())
    with pytest.raises(ActionError, match="changed outside the conversation"):
        tables.undo_last()
    assert list(tables.table("sales").columns) == ["price", "units", "region"]
    # a change made after the replace undoes to the replacement, not to the old source
    tables.run("add-column", ADD)
    tables.undo(*_last(tables))
    assert list(tables.table("sales").columns) == ["price", "units", "region"]
    assert rows(tables, "sales") == 3


def _last(tables):
    record = tables.history[-1]
    return record.action, record.payload, record.result


def test_the_script_across_a_replace_gives_the_tables_as_they_are(files):
    tables = TablesDomain({"sales": files["parquet"]})
    tables.run("group-aggregate", GROUP)  # from the old source
    tables.replace("sales", files["csv"])
    tables.run("add-column", ADD)  # on the replacement
    script = tables.code()
    assert "replaced by the person" in script
    namespace: dict = {}
    exec(compile(script, "<kept script>", "exec"), namespace)
    for name in ("sales", "by_region"):
        mine = tables.to_pandas(name, limit=None)
        theirs = namespace["con"].to_pyarrow(namespace[name]).to_pandas()
        pd.testing.assert_frame_equal(theirs, mine, check_dtype=False)
    # the SQL names the replacement's view; it reads the CSV file
    assert "sales_1" in tables.sql("sales")


async def test_a_card_proposed_before_the_persons_cell_replaced_the_source_is_stale(files):
    tables = TablesDomain({"sales": files["parquet"]})
    person = Person([(lambda: tables.replace("sales", small()), ACCEPT), (None, ACCEPT)])
    conversation, events = talk(tables, person, suggest("add-column", ADD, id="s1"))
    result = await conversation.say("add revenue")
    first, again = cards(events)
    assert "stale" not in first and again["stale"]["changed"] == ["sales"]
    assert first["dry_run"]["effect"]["rows"] == [30, 30]
    assert again["dry_run"]["effect"]["rows"] == [3, 3]  # dry-run again, on the new table
    assert [o["status"] for o in result.outcomes] == ["done"] and len(outcomes(events)) == 1
    assert tables.to_pandas("sales", limit=None)["revenue"].tolist() == [5.0, 6.0, 7.0]


# -- files rewritten on disk -------------------------------------------------------------------

def _rewrite(path, frame) -> None:
    stat = os.stat(path)
    frame.to_parquet(path, index=False)
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))  # surely later


def test_a_rewritten_parquet_file_changes_the_version_of_what_reads_it(files):
    tables = TablesDomain({"sales": files["parquet"], "other": small()})
    tables.run("filter-rows", {"frame": "sales", "into": "north", "where": [
        {"column": "region", "op": "==", "value": "North"}]})
    north = {"frame": "north", "by": ["price"]}
    before, other = tables.version("sort", north), tables.version("sort", {"frame": "other",
                                                                           "by": ["price"]})
    assert tables.version("sort", north) == before  # stable while the file is
    _rewrite(files["parquet"], sales_frame().iloc[:10])
    assert tables.version("sort", north) != before  # north reads it
    assert tables.version("sort", {"frame": "other", "by": ["price"]}) == other


def test_a_glob_sees_a_file_added_and_caps_what_it_stats(files, monkeypatch):
    tables = TablesDomain({"sales": str(files["glob"])})
    payload = {"frame": "sales", "by": ["price"]}
    before = tables.version("sort", payload)
    sales_frame().iloc[:2].to_parquet(files["glob"].parent / "c.parquet", index=False)
    assert tables.version("sort", payload) != before
    monkeypatch.setattr(_files, "MAX_FILES", 2)
    capped = tables.version("sort", payload)
    assert "unknown" in capped["sales"] and tables.version("sort", payload) == capped


def test_a_glob_of_many_files_is_versioned_within_50_ms(tmp_path):
    folder = tmp_path / "many"
    folder.mkdir()
    sales_frame().iloc[:1].to_parquet(folder / "part-0.parquet", index=False)
    for n in range(1, 5_000):
        os.link(folder / "part-0.parquet", folder / f"part-{n}.parquet")
    tables = TablesDomain({"sales": str(folder / "*.parquet")})
    payload = {"frame": "sales", "by": ["price"]}
    tables.version("sort", payload)
    started = time.perf_counter()
    version = tables.version("sort", payload)
    assert time.perf_counter() - started < 0.05
    assert "unknown" in version["sales"]  # past the cap: said, not statted


async def test_a_card_proposed_before_its_file_was_rewritten_is_stale_and_counted_again(files):
    tables = TablesDomain({"sales": files["parquet"]})
    person = Person([(lambda: _rewrite(files["parquet"], sales_frame().iloc[:10]), ACCEPT),
                     (None, ACCEPT)])
    conversation, events = talk(tables, person, suggest("add-column", ADD, id="s1"))
    result = await conversation.say("add revenue")
    first, again = cards(events)
    assert again["stale"]["changed"] == ["sales"]
    assert first["dry_run"]["effect"]["rows"] == [30, 30]
    assert again["dry_run"]["effect"]["rows"] == [10, 10]  # the Parquet footers read again
    assert [o["status"] for o in result.outcomes] == ["done"] and len(outcomes(events)) == 1
    assert rows(tables, "sales") == 10 and "revenue" in tables.table("sales").columns
