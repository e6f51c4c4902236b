"""Review before a change runs, undo after, and code you can keep: dry runs that never change
anything and say what the run then does, undo that restores exactly, ``undoable`` saying why
not, and ``code`` that reproduces every kept change in plain pandas."""

from __future__ import annotations

import inspect
import json

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st
from pandas.testing import assert_frame_equal

from dial_notebook.domains import (
    ActionError,
    DataFramesDomain,
    NotesDomain,
    SchemaDomain,
    _dry_run,
    load_sales,
)
from dial_notebook.runtime._review import DRY_RUN_SECONDS
from tests.hypothesis_profiles import examples
from tests.stall_watchdog import held_seconds

MUTATING = ["filter-rows", "add-column", "rename-columns", "drop-columns", "sort",
            "group-aggregate"]
EFFECT_KEYS = {"frame", "into", "rows", "columns", "added", "removed", "renamed", "dtypes",
               "sample", "sampled"}
TABLE_KEYS = {"columns", "index", "rows", "total_rows"}


def exactly(one: pd.DataFrame, two: pd.DataFrame) -> None:
    """The same frame: values (NaN where NaN), dtypes, index, column labels and order."""
    assert_frame_equal(one, two, check_exact=True)
    assert list(one.columns) == list(two.columns)
    assert one.index.equals(two.index) and one.dtypes.equals(two.dtypes)


# Random small frames and valid payloads of every change

NAMES = ["a", "b", "c", "d", "e", "f g", "h", 'q"x']
TEXT = st.text(alphabet='ab"\'\n\\é', max_size=3)


@st.composite
def frames_(draw) -> pd.DataFrame:
    rows = draw(st.integers(0, 9))
    small = st.integers(-5, 5)
    columns = {
        "a": pd.Series(draw(st.lists(small, min_size=rows, max_size=rows)), dtype="int64"),
        "b": pd.Series(draw(st.lists(st.one_of(st.none(), st.floats(-3, 3, width=16)),
                                     min_size=rows, max_size=rows)), dtype="float64"),
        "c": pd.Series(draw(st.lists(st.one_of(st.none(), TEXT), min_size=rows, max_size=rows)),
                       dtype="str"),
        "d": pd.Series(draw(st.lists(st.booleans(), min_size=rows, max_size=rows)), dtype=bool),
        "e": pd.Series(pd.to_datetime(draw(st.lists(
            st.one_of(st.none(), st.sampled_from(["2024-01-05", "2024-03-01", "2024-06-30"])),
            min_size=rows, max_size=rows)))),
        "f g": pd.Series(draw(st.lists(st.sampled_from([0.5, -1.25, 2.0, float("nan")]),
                                       min_size=rows, max_size=rows)), dtype="float64"),
        "h": pd.Series(draw(st.lists(st.one_of(st.none(), small), min_size=rows,
                                     max_size=rows)), dtype="Int64"),
        'q"x': pd.Series(draw(st.lists(small, min_size=rows, max_size=rows)), dtype="int64"),
    }
    chosen = draw(st.lists(st.sampled_from(NAMES), min_size=1, max_size=6, unique=True))
    frame = pd.DataFrame({name: columns[name] for name in chosen})
    if draw(st.booleans()):  # an index of its own, duplicates and all
        frame.index = pd.Index(draw(st.lists(st.integers(0, 4), min_size=rows, max_size=rows)))
    return frame


NUMERIC = ["a", "b", "f g", "h", 'q"x']


def column_ref(name: str) -> str:
    return name if name.isidentifier() else f"col({name!r})"


@st.composite
def expressions(draw, numeric: list[str], depth: int = 2) -> str:
    leaves = [st.sampled_from([column_ref(n) for n in numeric])] if numeric else []
    leaf = st.one_of(*leaves, st.sampled_from(["2", "0.5", "3 ** 2", "-3 ** 2", "round(2.567, 1)",
                                               "abs(-4)", "2 ** 0.5"]))
    if depth == 0 or draw(st.booleans()):
        return draw(leaf)
    inner = expressions(numeric, depth - 1)
    shape = draw(st.sampled_from(["binary", "binary", "unary", "abs", "round", "compare",
                                  "divide"]))
    if shape == "binary":
        op = draw(st.sampled_from(["+", "-", "*"]))
        return f"({draw(inner)}) {op} ({draw(inner)})"
    if shape == "unary":
        return f"-({draw(inner)})"
    if shape == "abs":
        return f"abs({draw(inner)})"
    if shape == "round":
        return f"round({draw(inner)}, {draw(st.sampled_from([0, 1, 2.0]))})"
    if shape == "divide":
        return f"({draw(inner)}) / 4"
    op = draw(st.sampled_from(["<", ">=", "==", "!="]))
    return f"({draw(inner)}) {op} ({draw(inner)})"


def values_for(name: str) -> st.SearchStrategy:
    """Values of the column's type (text, dates, booleans, numbers)."""
    if name == "c":
        return TEXT
    if name == "e":
        return st.sampled_from(["2024-01-05", "2024-03-01"])
    if name == "d":
        return st.booleans()
    return st.one_of(st.integers(-5, 5), st.sampled_from([0.5, -1.5]))


@st.composite
def conditions(draw, frame: pd.DataFrame) -> dict:
    name = draw(st.sampled_from([str(c) for c in frame.columns]))
    op = draw(st.sampled_from(["==", "!=", "<", "<=", ">", ">=", "in", "not in", "contains",
                               "is null", "not null"]))
    if name == "d" and op in ("<", "<=", ">", ">="):
        op = "=="
    if op in ("is null", "not null"):
        return {"column": name, "op": op}
    if op in ("in", "not in"):
        return {"column": name, "op": op,
                "value": draw(st.lists(values_for(name), max_size=3))}
    mismatched = st.sampled_from([3, "text"])  # comparing text with a number fails
    return {"column": name, "op": op,
            "value": draw(st.one_of(values_for(name), values_for(name), mismatched))}


@st.composite
def payloads(draw, frames: dict[str, pd.DataFrame], action: str) -> dict | None:
    """A payload of ``action`` for one of ``frames`` (None when none fits)."""
    usable = {name: frame for name, frame in frames.items() if frame.shape[1]}
    if not usable:
        return None
    name = draw(st.sampled_from(sorted(usable)))
    frame = usable[name]
    columns = [str(c) for c in frame.columns]
    numeric = [c for c in columns if c in NUMERIC]
    sortable = [c for c in columns if c != "d" or len(columns) == 1]
    if action == "filter-rows":
        payload = {"frame": name, "where": draw(st.lists(conditions(frame), min_size=1,
                                                         max_size=3))}
        into = draw(st.sampled_from([None, "out", name]))
        if into is not None and into.isidentifier():
            payload["into"] = into
        return payload
    if action == "add-column":
        target = draw(st.sampled_from(["new", "new col", *numeric]))
        return {"frame": name, "column": target, "expression": draw(expressions(numeric))}
    if action == "rename-columns":
        old = draw(st.lists(st.sampled_from(columns), min_size=1, max_size=2, unique=True))
        new = draw(st.lists(st.sampled_from(["x1", "x 2", *columns]), min_size=len(old),
                            max_size=len(old), unique=True))
        return {"frame": name, "columns": dict(zip(old, new, strict=True))}
    if action == "drop-columns":
        return {"frame": name, "columns": draw(st.lists(st.sampled_from(columns), min_size=1,
                                                        max_size=len(columns), unique=True))}
    if action == "sort":
        return {"frame": name, "by": draw(st.lists(st.sampled_from(sortable), min_size=1,
                                                   max_size=2, unique=True)),
                "ascending": draw(st.booleans())}
    keys = [c for c in columns if c in ("a", "c", "d", "h")]
    if not keys or not numeric:
        return None
    return {
        "frame": name, "by": draw(st.lists(st.sampled_from(keys), min_size=1, max_size=2,
                                           unique=True)),
        "aggregations": draw(st.lists(st.fixed_dictionaries({
            "column": st.sampled_from(numeric),
            "func": st.sampled_from(["sum", "mean", "min", "max", "count", "nunique", "std"]),
        }), min_size=1, max_size=3)),
        "into": draw(st.sampled_from(["totals", name if name.isidentifier() else "totals"])),
    }


def snapshot(domain: DataFramesDomain) -> dict:
    """Each value of the namespace, and a deep copy of each frame."""
    return {name: (value, value.copy(deep=True) if isinstance(value, pd.DataFrame) else value)
            for name, value in domain.namespace.items()}


def unchanged(domain: DataFramesDomain, before: dict) -> None:
    """The namespace holds the very same objects, and each frame equals its copy."""
    assert list(domain.namespace) == list(before)
    for name, (value, copy) in before.items():
        assert domain.namespace[name] is value
        if isinstance(value, pd.DataFrame):
            assert value.equals(copy)
            exactly(value, copy)


def effect_of_run(before: pd.DataFrame, after: pd.DataFrame, action: str,
                  in_place: bool = True) -> dict:
    """What the dry run's counts should be, from the frames read and made (a new frame
    removes nothing from the frame read)."""
    names_before = [str(c) for c in before.columns]
    names_after = [str(c) for c in after.columns]
    rename = action == "rename-columns"
    return {
        "rows": [len(before), len(after)],
        "columns": [len(names_before), len(names_after)],
        "added": [] if rename else [c for c in dict.fromkeys(names_after)
                                    if c not in names_before],
        "removed": [] if rename or not in_place else [c for c in dict.fromkeys(names_before)
                                                      if c not in names_after],
    }


SETTINGS = settings(max_examples=examples(150), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


@SETTINGS
@given(data=st.data(), action=st.sampled_from(MUTATING))
def test_a_dry_run_never_changes_anything_and_says_what_the_run_then_does(data, action):
    sales = data.draw(frames_(), label="sales")
    domain = DataFramesDomain({"sales": sales, "my data": sales.iloc[::-1], "n": 3})
    payload = data.draw(payloads(domain.frames(), action), label="payload")
    assume(payload is not None and domain.validate(action, payload)["ok"])
    before = snapshot(domain)
    try:
        dry = domain.dry_run(action, payload)
    except ActionError as error:  # the run fails the same way
        event(f"{action}: refused ({error.code})")
        unchanged(domain, before)
        with pytest.raises(ActionError) as raised:
            domain.run(action, payload)
        assert raised.value.code == error.code
        return
    event(f"{action}: dry run")
    unchanged(domain, before)
    assert domain.history == [] and domain.code() == DataFramesDomain({}).code()
    json.dumps(dry, allow_nan=False)
    assert set(dry) <= {"summary", "effect", "code", "note"}
    effect = dry["effect"]
    assert set(effect) == EFFECT_KEYS and effect["sampled"] is None
    assert set(effect["sample"]["before"]) == set(effect["sample"]["after"]) == TABLE_KEYS
    source = domain.namespace[payload["frame"]]
    code = domain.code(action, payload)

    result = domain.run(action, payload)
    made = domain.namespace[result["frame"]]
    assert effect["frame"] == payload["frame"] and effect["into"] == result["frame"]
    expected = effect_of_run(source, made, action, result["frame"] == payload["frame"])
    assert {key: effect[key] for key in expected} == expected
    assert effect["rows"][1] == result["rows"] and effect["sample"]["after"]["total_rows"] == \
        result["rows"]
    assert dry["code"] == result["code"] == code
    for name, dtype in effect["dtypes"].items():
        assert str(made.dtypes[made.columns == name].iloc[-1]) == dtype
    if action == "rename-columns":
        renamed = [effect["renamed"].get(str(c), str(c)) for c in source.columns]
        assert renamed == result["columns"]


# The shape of each dry run, and what its sample shows


@pytest.fixture
def frames() -> DataFramesDomain:
    return DataFramesDomain({"sales": load_sales()})


def test_a_filters_dry_run_counts_the_rows_kept_and_shows_some_kept_and_some_dropped(frames):
    payload = {"frame": "sales", "where": [{"column": "region", "op": "==", "value": "North"}]}
    dry = frames.dry_run("filter-rows", payload)
    kept = int((frames.namespace["sales"]["region"] == "North").sum())
    assert dry["summary"] == f"sales: 200 → {kept} rows, 6 columns"
    assert dry["code"] == 'sales = sales[sales["region"] == "North"]'
    effect = dry["effect"]
    assert (effect["rows"], effect["columns"], effect["added"], effect["removed"]) == (
        [200, kept], [6, 6], [], [])
    before, after = effect["sample"]["before"], effect["sample"]["after"]
    assert before["columns"][0] == after["columns"][0] == "region"  # the column filtered on
    regions = [row[0] for row in before["rows"]]
    assert "North" in regions and set(regions) - {"North"}  # kept rows and dropped ones
    assert {row[0] for row in after["rows"]} == {"North"} and after["total_rows"] == kept
    assert "note" not in dry


def test_add_columns_dry_run_shows_the_new_column_beside_the_columns_it_reads(frames):
    dry = frames.dry_run("add-column", {"frame": "sales", "column": "revenue",
                                        "expression": "round(price * units, 2)"})
    assert dry["summary"] == "sales: 200 rows, 6 → 7 columns (adds revenue, float64)"
    assert dry["code"] == 'sales["revenue"] = (sales["price"] * sales["units"]).round(2)'
    effect = dry["effect"]
    assert (effect["added"], effect["dtypes"]) == (["revenue"], {"revenue": "float64"})
    assert effect["sample"]["before"]["columns"] == ["price", "units"]
    after = effect["sample"]["after"]
    assert after["columns"] == ["price", "units", "revenue"]
    assert all(row[2] == round(row[0] * row[1], 2) for row in after["rows"])
    replaced = frames.dry_run("add-column", {"frame": "sales", "column": "units",
                                             "expression": "units / 2"})
    assert replaced["note"] == "replaces the column units (int64 → float64)"
    assert replaced["effect"]["added"] == [] and replaced["effect"]["columns"] == [6, 6]


def test_rename_drop_sort_and_group_dry_runs(frames):
    rename = frames.dry_run("rename-columns", {"frame": "sales", "columns": {"price": "p"}})
    assert rename["effect"]["renamed"] == {"price": "p"}
    assert rename["effect"]["sample"]["after"]["columns"][0] == "p"
    assert rename["code"] == 'sales = sales.rename(columns={"price": "p"})'
    drop = frames.dry_run("drop-columns", {"frame": "sales", "columns": ["size", "date"]})
    assert drop["effect"]["removed"] == ["date", "size"]
    assert drop["summary"] == "sales: 200 rows, 6 → 4 columns (drops size, date)"
    sort = frames.dry_run("sort", {"frame": "sales", "by": ["price"], "ascending": False})
    top = frames.namespace["sales"]["price"].sort_values(ascending=False).head(5).tolist()
    assert [row[0] for row in sort["effect"]["sample"]["after"]["rows"]] == top
    assert sort["code"] == 'sales = sales.sort_values(["price"], ascending=False, kind="stable")'
    frames.namespace["totals"] = pd.DataFrame({"x": [1]})
    group = frames.dry_run("group-aggregate", {
        "frame": "sales", "by": ["region"], "into": "totals",
        "aggregations": [{"column": "units", "func": "sum"}]})
    assert group["summary"] == "sales → totals: 200 → 4 rows, 6 → 2 columns"
    assert group["effect"]["into"] == "totals"
    assert group["effect"]["dtypes"] == {"units_sum": "int64"}
    assert group["note"] == "totals already holds a frame (1 row × 1 column): it will be replaced"
    assert group["code"] == (
        "totals = (\n"
        '    sales.groupby(["region"], dropna=False)\n'
        '    .agg(units_sum=("units", "sum"))\n'
        "    .reset_index()\n"
        ")")


def test_a_dry_run_says_one_row_not_one_rows_and_a_new_frame_removes_nothing(frames):
    # issue 27: "49 → 1 rows" stood under the card's own "49 → 1 row", and a group into a new
    # frame listed the grouped frame's columns as "Removes" (the frame read keeps them all)
    one = frames.dry_run("filter-rows", {"frame": "sales", "where": [
        {"column": "price", "op": "==", "value": float(frames.namespace["sales"]["price"].iloc[0])}]})
    kept = one["effect"]["rows"][1]
    assert kept == 1 and one["summary"] == "sales: 200 → 1 row, 6 columns"
    group = frames.dry_run("group-aggregate", {
        "frame": "sales", "by": ["region"], "into": "by_region",
        "aggregations": [{"column": "units", "func": "sum"}]})
    assert group["effect"]["removed"] == [] and group["effect"]["added"] == ["units_sum"]
    frames.namespace["single"] = frames.namespace["sales"].head(1)
    solo = frames.dry_run("group-aggregate", {
        "frame": "single", "by": ["region"], "into": "single",
        "aggregations": [{"column": "units", "func": "sum"}]})
    assert solo["summary"] == "single → single: 1 → 1 row, 6 → 2 columns" or \
        solo["summary"] == "single: 1 → 1 row, 6 → 2 columns"
    assert "date" in solo["effect"]["removed"]  # in place, the columns that go are said


def test_dry_runs_refuse_what_validation_refuses_and_read_only_actions_have_none(frames):
    with pytest.raises(ActionError) as raised:
        frames.dry_run("sort", {"frame": "sales", "by": ["prise"]})
    assert raised.value.code == "unknown-column"
    with pytest.raises(ActionError) as raised:  # the run would fail: so does its dry run
        frames.dry_run("filter-rows", {"frame": "sales",
                                       "where": [{"column": "region", "op": ">", "value": 3}]})
    assert raised.value.code == "invalid-filter"
    assert frames.dry_run("head", {"frame": "sales"}) is None
    assert frames.code("head", {"frame": "sales"}) is None


@pytest.fixture
def tiny_sample(monkeypatch):
    """Dry runs that must work on a sample: a 40-row sample and nothing counted as cheap."""
    monkeypatch.setattr(_dry_run, "SAMPLE_ROWS", 40)
    monkeypatch.setattr(_dry_run, "PROBE_ROWS", 20)
    monkeypatch.setattr(_dry_run, "CHEAP", 0.0)


def test_on_a_sample_a_dry_run_says_so_and_estimates_the_rows(frames, tiny_sample):
    payload = {"frame": "sales", "where": [{"column": "price", "op": ">", "value": 10}]}
    dry = frames.dry_run("filter-rows", payload)
    effect = dry["effect"]
    assert effect["sampled"] == "computed on the first 20 of 200 rows; the row counts are " \
                                "estimates"
    assert dry["summary"].startswith("sales: 200 → about ")
    kept_in_sample = int((frames.namespace["sales"]["price"].head(20) > 10).sum())
    assert effect["rows"] == [200, round(kept_in_sample / 20 * 200)]
    group = frames.dry_run("group-aggregate", {
        "frame": "sales", "by": ["product"], "into": "t",
        "aggregations": [{"column": "units", "func": "sum"}]})
    assert "at least" in group["summary"] and group["effect"]["sampled"].startswith(
        "computed on the first 20 of 200 rows; the row counts are estimates")


@pytest.mark.parametrize("ascending", [True, False])
@pytest.mark.parametrize("by", [["price"], ["units", "price"], ["date", "region"]])
def test_a_sorts_dry_run_on_a_long_frame_shows_the_first_rows_of_the_whole_sort(
        frames, tiny_sample, by, ascending):
    payload = {"frame": "sales", "by": by, "ascending": ascending}
    dry = frames.dry_run("sort", payload)
    first = frames.namespace["sales"].sort_values(by, ascending=ascending, kind="stable").head(5)
    assert dry["effect"]["sample"]["after"]["index"] == first.index.tolist()
    assert dry["effect"]["sampled"] is None


def test_a_sort_by_text_on_a_long_frame_sorts_the_sample_and_says_so(frames, tiny_sample):
    dry = frames.dry_run("sort", {"frame": "sales", "by": ["region"]})
    assert dry["effect"]["sampled"] == (
        "sorted the first 40 of 200 rows: the first rows of the whole frame may differ")


def test_a_dry_run_on_five_million_rows_stays_well_under_its_bound():
    rows = 5_000_000
    rng = np.random.default_rng(1)
    regions = np.array(["North", "South", "East", "West"], dtype=object)
    sales = pd.DataFrame({
        "region": pd.Series(regions[rng.integers(0, 4, rows)]).astype("str"),
        "price": rng.random(rows) * 100, "units": rng.integers(0, 50, rows),
    })
    domain = DataFramesDomain({"sales": sales})
    cases = [
        ("filter-rows", {"frame": "sales", "where": [
            {"column": "region", "op": "contains", "value": "th"},
            {"column": "price", "op": ">", "value": 50}]}),
        ("add-column", {"frame": "sales", "column": "revenue", "expression": "price * units"}),
        ("rename-columns", {"frame": "sales", "columns": {"units": "qty"}}),
        ("drop-columns", {"frame": "sales", "columns": ["units"]}),
        ("sort", {"frame": "sales", "by": ["price"]}),
        ("sort", {"frame": "sales", "by": ["region", "price"]}),
        ("group-aggregate", {"frame": "sales", "by": ["region"], "into": "t",
                             "aggregations": [{"column": "units", "func": "sum"}]}),
    ]
    before = snapshot(domain)
    for action, payload in cases:
        # the time it held the thread, less any wait for a CPU: a busy machine cannot fail it
        dry, seconds = held_seconds(lambda: domain.dry_run(action, payload))  # noqa: B023
        print(f"dry run of {action} on {rows:,} rows: {seconds * 1000:.0f} ms "
              f"({'sampled' if dry['effect']['sampled'] else 'exact'})")
        assert seconds < DRY_RUN_SECONDS  # the runtime shows it unavailable past this
    unchanged(domain, before)


# Undo restores exactly, and undoable says why not


CHANGES = [
    ("filter-rows", {"frame": "sales", "where": [
        {"column": "region", "op": "==", "value": "North"},
        {"column": "price", "op": ">=", "value": 10}]}),
    ("filter-rows", {"frame": "sales", "into": "north",
                     "where": [{"column": "region", "op": "==", "value": "North"}]}),
    ("add-column", {"frame": "sales", "column": "revenue", "expression": "price * units"}),
    ("add-column", {"frame": "sales", "column": "units", "expression": "units / 2"}),
    ("rename-columns", {"frame": "sales", "columns": {"price": "unit price"}}),
    ("drop-columns", {"frame": "sales", "columns": ["size", "date"]}),
    ("sort", {"frame": "sales", "by": ["region", "price"], "ascending": False}),
    ("group-aggregate", {"frame": "sales", "by": ["region"], "into": "totals",
                         "aggregations": [{"column": "units", "func": "sum"}]}),
    ("group-aggregate", {"frame": "sales", "by": ["region"], "into": "sales",
                         "aggregations": [{"column": "units", "func": "sum"}]}),
]


@pytest.mark.parametrize(("action", "payload"), CHANGES,
                         ids=[f"{a}-{i}" for i, (a, _) in enumerate(CHANGES)])
def test_undo_of_every_change_restores_the_exact_previous_frames(action, payload):
    namespace = {"sales": load_sales(), "totals": pd.DataFrame({"x": [1.5]})}
    domain = DataFramesDomain(namespace)
    before = snapshot(domain)
    result = domain.run(action, payload)
    assert result["code"] and domain.undoable(action, payload, result) is True
    domain.undo(action, payload, result)
    unchanged(domain, before)
    assert domain.history == []
    assert domain.undoable(action, payload, result) == "it was already undone, or did not run here"


def test_undoable_says_why_not_after_a_later_change_to_the_same_frame(frames):
    sort = ("sort", {"frame": "sales", "by": ["price"]})
    done = frames.run(*sort)
    assert frames.undoable(*sort, done) is True
    frames.run("drop-columns", {"frame": "sales", "columns": ["size"]})
    assert frames.undoable(*sort, done) == "sales was changed again since: undo that change first"
    with pytest.raises(ActionError) as raised:
        frames.undo(*sort, done)
    assert raised.value.code == "undo-order"
    frames.undo_last()
    assert frames.undoable(*sort, done) is True


def test_undoable_says_why_not_while_a_frame_made_from_the_change_is_in_place(frames):
    sort = ("sort", {"frame": "sales", "by": ["price"]})
    done = frames.run(*sort)
    made = frames.run("filter-rows", {"frame": "sales", "into": "cheap",
                                      "where": [{"column": "price", "op": "<", "value": 5}]})
    assert frames.undoable(*sort, done) == "cheap was made from sales since: undo that change first"
    with pytest.raises(ActionError) as raised:
        frames.undo(*sort, done)
    assert (raised.value.code, raised.value.hint) == ("undo-order",
                                                      "undo the change that made cheap first")
    frames.undo("filter-rows", frames.history[-1].payload, made)
    assert frames.undoable(*sort, done) is True


def test_undoable_says_why_not_after_the_frame_was_changed_outside(frames):
    sort = ("sort", {"frame": "sales", "by": ["price"]})
    done = frames.run(*sort)
    frames.namespace["sales"] = frames.namespace["sales"].head(3)
    assert frames.undoable(*sort, done) == (
        "sales was changed outside the conversation since: it is left as it is")
    assert frames.undoable("head", {"frame": "sales"}, {}) is False  # never could be: no word
    assert frames.undoable("fly", {}, {}) == "there is no action 'fly'"


def test_undo_with_a_result_that_went_through_json_forgets_the_right_run(frames):
    first = frames.run("sort", {"frame": "sales", "by": ["price"]})
    second = frames.run("sort", {"frame": "sales", "by": ["units"]})
    copied = json.loads(json.dumps(second))
    assert frames.undoable("sort", {"frame": "sales", "by": ["units"]}, copied) is True
    frames.undo("sort", {"frame": "sales", "by": ["units"]}, copied)
    assert [record.result for record in frames.history] == [first]


# code(): the pandas code of each change, and one script of them all


def test_the_run_result_of_each_change_carries_its_code(frames):
    result = frames.run("filter-rows", {"frame": "sales", "where": [
        {"column": "size", "op": "in", "value": ["S", "L"]},
        {"column": "product", "op": "contains", "value": "dg"},
        {"column": "price", "op": "not null"}]})
    assert result["code"] == (
        'sales = sales[sales["size"].isin(["S", "L"]) & (sales["product"].astype(str)'
        '.str.contains("dg", regex=False) & sales["product"].notna()) & sales["price"].notna()]')


def test_nullable_columns_compare_missing_as_false_in_the_code_too():
    frame = pd.DataFrame({"n": pd.array([1, None, 3], dtype="Int64")})
    domain = DataFramesDomain({"df": frame})
    payload = {"frame": "df", "where": [{"column": "n", "op": ">", "value": 1}]}
    assert domain.code("filter-rows", payload) == (
        'df = df[(df["n"] > 1).fillna(False).astype(bool)]')


def test_the_code_quotes_whatever_names_and_values_the_agent_chose():
    hostile = 'x"]\nimport os; os.system("echo hacked") #'
    frame = pd.DataFrame({hostile: [1, 2, 3], "ok": ["a\nb", 'c"', "d"]})
    original = frame.copy()
    domain = DataFramesDomain({"odd name": frame})
    domain.run("filter-rows", {"frame": "odd name", "where": [
        {"column": "ok", "op": "!=", "value": 'c"\n#'}]})
    domain.run("rename-columns", {"frame": "odd name", "columns": {hostile: "v\u2028w"}})
    domain.run("add-column", {"frame": "odd name", "column": hostile,
                              "expression": 'col("v\u2028w") * 2'})
    script = domain.code()
    assert "\nimport os" not in script and "\u2028" not in script
    assert 'globals()["odd name"]' in script
    namespace = {"odd name": original}
    exec(script, namespace)
    exactly(namespace["odd name"], domain.namespace["odd name"])


def test_constant_parts_are_written_as_the_value_the_run_computes():
    frame = pd.DataFrame({"x": [1.0, 2.0]})
    domain = DataFramesDomain({"df": frame})
    payload = {"frame": "df", "column": "y",
               "expression": "x * sqrt(4) + 70000 ** 63 / 1e300 - (-3) ** 2"}
    huge = float(70000) ** 63.0 / 1e300  # the run's powers: floats, not integers
    code = domain.code("add-column", payload)
    assert code == f'df["y"] = df["x"] * np.float64(2.0) + {huge!r} - 9'
    result = domain.run("add-column", payload)
    namespace = {"df": frame, "np": np}
    exec(code, namespace)
    assert result["dtype"] == str(namespace["df"]["y"].dtype)
    exactly(namespace["df"], domain.namespace["df"])


def test_a_change_whose_code_cannot_be_written_still_runs_and_the_script_says_so(
        frames, monkeypatch):
    from dial_notebook.domains import _pandas_code

    def broken(*args):
        raise KeyError("odd label")

    monkeypatch.setattr(_pandas_code, "sort", broken)
    result = frames.run("sort", {"frame": "sales", "by": ["price"]})
    assert result["code"] is None and frames.namespace["sales"]["price"].is_monotonic_increasing
    assert "# (not written as code: KeyError: 'odd label')" in frames.code()


def test_with_nothing_kept_the_script_only_imports_pandas(frames):
    done = frames.run("sort", {"frame": "sales", "by": ["price"]})
    frames.undo("sort", {"frame": "sales", "by": ["price"]}, done)
    assert frames.code() == (
        "# The kept changes of the conversation, in plain pandas.\n"
        "import pandas as pd\n\n# (no changes were kept)\n")


def test_the_script_notes_a_frame_changed_outside_the_conversation(frames):
    frames.run("sort", {"frame": "sales", "by": ["price"]})
    frames.namespace["sales"] = frames.namespace["sales"].head(10)
    frames.run("drop-columns", {"frame": "sales", "columns": ["size"]})
    assert "(note: sales had been changed outside the conversation before this step" in \
        frames.code()


@settings(max_examples=examples(100), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(data=st.data())
def test_the_script_reproduces_the_frames_after_any_runs_edits_and_undos(data):
    originals = {"sales": data.draw(frames_(), label="sales")}
    if data.draw(st.booleans(), label="second frame"):
        originals["my data"] = data.draw(frames_(), label="my data")
    domain = DataFramesDomain({name: frame.copy() for name, frame in originals.items()})
    ran = undone = 0
    for _ in range(data.draw(st.integers(1, 12), label="steps")):
        step = data.draw(st.sampled_from(["run", "run", "edited-run", "undo", "undo-last"]))
        if step.startswith("undo"):
            if not domain.history:
                continue
            record = domain.history[-1] if step == "undo-last" else \
                data.draw(st.sampled_from(domain.history), label="undo which")
            verdict = domain.undoable(record.action, record.payload, record.result)
            if verdict is True:
                domain.undo(record.action, record.payload, record.result)
                undone += 1
            else:
                event(f"undo refused: {verdict.split(':')[0].split(' ', 1)[1]}")
                before = snapshot(domain)
                with pytest.raises(ActionError):
                    domain.undo(record.action, record.payload, record.result)
                unchanged(domain, before)
            continue
        action = data.draw(st.sampled_from(MUTATING), label="action")
        payload = data.draw(payloads(domain.frames(), action), label="payload")
        if payload is None or not domain.validate(action, payload)["ok"]:
            continue
        if step == "edited-run":  # the person edits the card: the edited payload runs
            domain.dry_run(action, payload) if _runs(domain, action, payload) else None
            edited = data.draw(payloads(domain.frames(), action), label="edited")
            if edited is None or not domain.validate(action, edited)["ok"]:
                continue
            payload = edited
        if _runs(domain, action, payload):
            domain.run(action, payload)
            ran += 1
    event(f"{ran} changes run, {undone} undone, {len(domain.history)} kept")
    script = domain.code()
    namespace = {name: frame.copy() for name, frame in originals.items()}
    exec(script, namespace)
    made = {name for name, value in namespace.items() if isinstance(value, pd.DataFrame)}
    assert made == set(domain.frames())
    for name, frame in domain.frames().items():
        exactly(namespace[name], frame)


def _runs(domain: DataFramesDomain, action: str, payload: dict) -> bool:
    """Whether the change can run (a comparison of text with a number cannot)."""
    try:
        domain.dry_run(action, payload)
    except ActionError:
        return False
    return True


# SchemaDomain: dry_run=, code=, undoable= and the domain's methods


def make_counter() -> tuple[SchemaDomain, list[int]]:
    store: list[int] = []
    domain = SchemaDomain("counter")

    @domain.action(
        schema={"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]},
        undo=lambda payload, result: store.pop(),
        dry_run=lambda payload: {"summary": f"{len(store)} → {len(store) + 1} numbers",
                                 "effect": {"adds": payload["n"]}},
        code=lambda payload: f"store.append({payload['n']})",
        undoable=lambda payload, result: True if store and store[-1] == payload["n"]
        else "the last number is another",
    )
    def push(payload):
        store.append(payload["n"])
        return {"length": len(store)}

    domain.add_action("total", run=lambda payload: sum(store), mutates=False)
    return domain, store


def test_dry_run_calls_the_actions_function_and_changes_nothing():
    domain, store = make_counter()
    assert domain.dry_run("push", {"n": 4}) == {"summary": "0 → 1 numbers",
                                                "effect": {"adds": 4}}
    assert store == [] and domain.history == []
    assert domain.dry_run("total", {}) is None
    with pytest.raises(ActionError) as raised:
        domain.dry_run("push", {"n": "four"})
    assert raised.value.field == "n"
    assert domain.code("push", {"n": 4}) == "store.append(4)"
    assert domain.code("total", {}) is None


def test_undoable_asks_the_action_and_knows_what_was_undone():
    domain, store = make_counter()
    first = domain.run("push", {"n": 1})
    second = domain.run("push", {"n": 2})
    assert domain.undoable("push", {"n": 2}, second) is True
    assert domain.undoable("push", {"n": 1}, first) == "the last number is another"
    assert domain.undoable("total", {}, 3) is False
    domain.undo("push", {"n": 2}, second)
    assert domain.undoable("push", {"n": 2}, second) == "it was already undone, or did not run here"
    assert domain.undoable("push", {"n": 1}, first) is True and store == [1]


def test_undoable_never_raises_and_defaults_to_true_for_an_undo_without_a_check():
    domain = SchemaDomain("d")
    domain.add_action("a", run=lambda p: 1, undo=lambda p, r: None,
                      undoable=lambda p, r: 1 / 0)
    domain.add_action("b", run=lambda p: 2, undo=lambda p, r: None)
    assert domain.undoable("a", {}, domain.run("a", {})) == \
        "it cannot be undone now (ZeroDivisionError)"
    assert domain.undoable("b", {}, domain.run("b", {})) is True


def test_the_new_functions_are_options_everywhere_actions_are_defined(tmp_path):
    signature = inspect.signature(SchemaDomain.add_action)
    assert {"dry_run", "code", "undoable"} <= set(signature.parameters)
    assert signature.parameters["dry_run"].default is None
    domain = SchemaDomain.from_dict("d", {"a": {"dry_run": lambda p: {"summary": "s",
                                                                      "effect": {}}}})
    assert domain.dry_run("a", {})["summary"] == "s"
    with pytest.raises(TypeError, match="dry_run must be a function"):
        SchemaDomain("d").add_action("a", dry_run="nope")
    path = tmp_path / "d.json"
    path.write_text(json.dumps({"actions": {"a": {"dry_run": "x"}}}))
    with pytest.raises(ValueError, match="bind dry_run in Python"):
        SchemaDomain.from_file(path)
    path.write_text(json.dumps({"actions": {"a": {}}}))
    loaded = SchemaDomain.from_file(path)
    loaded.bind("a", lambda p: 1, dry_run=lambda p: {"summary": "bound", "effect": {}})
    assert loaded.dry_run("a", {})["summary"] == "bound"


# NotesDomain: undo exactly


def test_notes_undo_of_add_and_remove_restores_the_notes_exactly():
    notes = NotesDomain(["a", "b", "c"])
    before = [dict(note) for note in notes.notes]
    removed = notes.run("remove-note", {"id": 2})
    added = notes.run("add-note", {"text": "d"})
    assert notes.undoable("remove-note", {"id": 2}, removed) is True
    notes.undo("remove-note", {"id": 2}, removed)  # out of order: the notes are independent
    assert notes.notes == [*before, {"id": 4, "text": "d"}]
    notes.undo("add-note", {"text": "d"}, added)
    assert notes.notes == before and notes.history == []


def test_notes_undoable_says_why_not_and_undo_refuses_instead_of_duplicating():
    notes = NotesDomain(["a"])
    added = notes.run("add-note", {"text": "b"})
    removed = notes.run("remove-note", {"id": 2})
    assert notes.undoable("add-note", {"text": "b"}, added) == \
        "note 2 was removed since: undo that first"
    with pytest.raises(ActionError) as raised:
        notes.undo("add-note", {"text": "b"}, added)
    assert raised.value.code == "not-undoable"
    notes.undo("remove-note", {"id": 2}, removed)
    with pytest.raises(ActionError):
        notes.undo("remove-note", {"id": 2}, removed)  # twice would make two notes 2
    assert notes.notes == [{"id": 1, "text": "a"}, {"id": 2, "text": "b"}]
    assert notes.undoable("open-poll", {}, {}) is False  # never could be: nothing is said
