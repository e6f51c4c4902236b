"""The dataframes domain: read-only EDA actions, exactly undoable changes, charts, the data set."""

from __future__ import annotations

import base64
import importlib.util
import json
import subprocess
import sys
import types
from pathlib import Path

import pandas as pd
import pytest

from dial_notebook.domains import ActionError, DataFramesDomain, load_sales

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def namespace() -> dict:
    return {"sales": load_sales(), "_hidden": load_sales(), "n": 3}


@pytest.fixture
def frames(namespace) -> DataFramesDomain:
    return DataFramesDomain(namespace)


def same(one: pd.DataFrame, two: pd.DataFrame) -> bool:
    return (
        one.equals(two)
        and one.dtypes.equals(two.dtypes)
        and one.index.equals(two.index)
        and list(one.columns) == list(two.columns)
    )


# The data set


def test_load_sales_gives_two_hundred_rows_with_typed_columns():
    sales = load_sales()
    assert sales.shape == (200, 6)
    assert list(sales.columns) == ["date", "region", "product", "size", "price", "units"]
    assert pd.api.types.is_datetime64_any_dtype(sales["date"])
    assert sales["price"].dtype == "float64" and sales["units"].dtype == "int64"
    assert set(sales["region"]) == {"North", "South", "East", "West"}


def test_the_shipped_csv_is_what_the_generator_script_makes():
    spec = importlib.util.spec_from_file_location(
        "make_sales_data", ROOT / "scripts" / "make_sales_data.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    made = pd.DataFrame(module.rows())
    shipped = load_sales()
    assert list(made["date"]) == [d.date().isoformat() for d in shipped["date"]]
    assert list(made["price"].astype(float)) == list(shipped["price"])
    assert list(made["units"]) == list(shipped["units"])


# What the agent is told


def test_context_summarises_the_frames_in_a_few_lines(frames):
    assert frames.context() == (
        '<context frames="1">\n'
        "sales: 200 rows × 6 columns: date (datetime64[us]), region (str), product (str), "
        "size (str), price (float64), units (int64)\n"
        "</context>"
    )


def test_context_with_no_frames_and_escaped_column_names():
    domain = DataFramesDomain({})
    assert domain.context() == '<context frames="0"/>'
    domain.namespace["odd"] = pd.DataFrame({"a<b & c": [1]})
    assert "a&lt;b &amp; c (int64)" in domain.context()


def test_list_frames_skips_private_names_and_other_values(frames):
    listed = frames.run("list-frames", {})
    assert [f["name"] for f in listed["frames"]] == ["sales"]
    assert listed["frames"][0]["rows"] == 200
    assert listed["frames"][0]["dtypes"]["units"] == "int64"


# Read-only actions


def test_read_only_actions_run_without_asking_and_return_json(frames):
    for action in ("list-frames", "describe", "head", "value-counts", "correlation", "plot"):
        assert frames.actions[action].mutates is False
    results = [
        frames.run("describe", {"frame": "sales", "columns": ["price", "region"]}),
        frames.run("head", {"frame": "sales", "n": 3}),
        frames.run("value-counts", {"frame": "sales", "column": "region", "limit": 2}),
        frames.run("correlation", {"frame": "sales", "method": "spearman"}),
    ]
    json.dumps(results, allow_nan=False)  # plain JSON: no NaN, no timestamps
    described, head, counts, correlation = results
    assert described["table"]["columns"][:3] == ["column", "count", "unique"]
    assert [row[0] for row in described["table"]["rows"]] == ["price", "region"]
    assert head["table"]["rows"][0] == ["2024-01-03", "East", "Widget", "M", 3.76, 22]
    assert head["table"]["total_rows"] == 200
    assert counts["table"]["columns"] == ["region", "count"]
    assert len(counts["table"]["rows"]) == 2
    assert correlation["table"]["columns"] == ["column", "price", "units"]
    assert frames.history == []


def test_correlation_needs_two_numeric_columns(frames):
    with pytest.raises(ActionError) as raised:
        frames.run("correlation", {"frame": "sales", "columns": ["region", "price"]})
    assert raised.value.code == "not-numeric"


@pytest.mark.parametrize(
    ("payload", "wording"),
    [
        (
            {"frame": "sales", "kind": "scatter", "x": "price", "y": "units"},
            "Scatter of units against price",
        ),
        (
            {"frame": "sales", "kind": "line", "x": "date", "y": "units"},
            "Line chart of units against date",
        ),
        ({"frame": "sales", "kind": "hist", "x": "price", "bins": 10}, "Histogram of price"),
        (
            {"frame": "sales", "kind": "scatter", "x": "price", "y": "units", "title": "Demand"},
            "Demand",
        ),
    ],
)
def test_plot_returns_a_png_data_url_the_widget_can_show(frames, payload, wording):
    result = frames.run("plot", payload)
    [media] = result["media"]
    assert media["alt"] == wording
    prefix = "data:image/png;base64,"
    assert media["src"].startswith(prefix)
    assert base64.b64decode(media["src"][len(prefix) :]).startswith(b"\x89PNG\r\n\x1a\n")


def test_plot_does_not_touch_pyplots_figures(frames):
    import matplotlib.pyplot as plt

    before = plt.get_fignums()
    frames.run("plot", {"frame": "sales", "kind": "hist", "x": "price"})
    assert plt.get_fignums() == before


def test_bar_charts_of_long_frames_are_refused_before_the_person_sees_them(frames):
    verdict = frames.validate(
        "plot", {"frame": "sales", "kind": "bar", "x": "region", "y": "units"}
    )
    assert verdict["code"] == "too-many-rows"
    assert "at most 50 bars" in verdict["hint"]
    assert (
        frames.validate("plot", {"frame": "sales", "kind": "line", "x": "date"})["hint"]
        == "y is required"
    )


# Checks against the notebook's state


@pytest.mark.parametrize(
    ("action", "payload", "field", "wording"),
    [
        (
            "head",
            {"frame": "salse"},
            "frame",
            "there is no data frame 'salse' (did you mean 'sales'?); the frames are: sales",
        ),
        (
            "value-counts",
            {"frame": "sales", "column": "regon"},
            "column",
            "sales has no column 'regon' (did you mean 'region'?)",
        ),
        (
            "sort",
            {"frame": "sales", "by": ["price", "unit"]},
            "by[1]",
            "sales has no column 'unit' (did you mean 'units'?)",
        ),
        (
            "filter-rows",
            {"frame": "sales", "where": [{"column": "prise", "op": ">", "value": 1}]},
            "where[0].column",
            "sales has no column 'prise' (did you mean 'price'?)",
        ),
        (
            "add-column",
            {"frame": "sales", "column": "x", "expression": "__import__('os')"},
            "expression",
            "function '__import__' is not allowed (allowed: abs, round, sqrt, log, "
            "log10, exp, floor, ceil)",
        ),
        (
            "add-column",
            {"frame": "sales", "column": "x", "expression": "price.real"},
            "expression",
            "attribute access ('.real') is not allowed: use column names, numbers, "
            "+ - * / // % **, comparisons, & | ~ and functions",
        ),
        (
            "rename-columns",
            {"frame": "sales", "columns": {"price": "units"}},
            "columns",
            "two columns of sales would be named 'units'",
        ),
        (
            "group-aggregate",
            {
                "frame": "sales",
                "by": ["region"],
                "into": "n",
                "aggregations": [{"column": "units", "func": "sum"}],
            },
            "into",
            "'n' already holds a value of type int: choose another name",
        ),
        (
            "filter-rows",
            {"frame": "sales", "where": [{"column": "region", "op": "in", "value": "North"}]},
            "where[0].value",
            "where[0].value must be a list, not a string",
        ),
        (
            "filter-rows",
            {"frame": "sales", "where": [{"column": "region", "op": "=", "value": "North"}]},
            "where[0].op",
            "where[0].op must be one of '==', '!=', '<', '<=', '>', '>=', 'in', 'not in', "
            "'contains', 'is null', 'not null' (did you mean '=='?)",
        ),
    ],
)
def test_payloads_that_do_not_fit_the_frames_are_refused_with_a_hint(
    frames, action, payload, field, wording
):
    verdict = frames.validate(action, payload)
    assert (verdict["field"], verdict["hint"]) == (field, wording)


def test_add_column_never_evaluates_code(frames, monkeypatch):
    import builtins

    monkeypatch.setattr(builtins, "eval", lambda *a: pytest.fail("eval was called"))
    with pytest.raises(ActionError) as raised:
        frames.run(
            "add-column",
            {"frame": "sales", "column": "x", "expression": "__import__('os').system('true')"},
        )
    assert raised.value.code == "invalid-expression"
    frames.run("add-column", {"frame": "sales", "column": "revenue", "expression": "price * units"})
    assert "revenue" in frames.namespace["sales"].columns


# Mutating actions and their undo

MUTATIONS = [
    (
        "filter-rows",
        {
            "frame": "sales",
            "where": [
                {"column": "region", "op": "==", "value": "North"},
                {"column": "price", "op": ">=", "value": 10},
            ],
        },
    ),
    (
        "filter-rows",
        {
            "frame": "sales",
            "where": [
                {"column": "size", "op": "in", "value": ["S", "L"]},
                {"column": "product", "op": "contains", "value": "dg"},
            ],
        },
    ),
    (
        "filter-rows",
        {"frame": "sales", "where": [{"column": "date", "op": "<", "value": "2024-03-01"}]},
    ),
    (
        "add-column",
        {"frame": "sales", "column": "revenue", "expression": "round(price * units, 2)"},
    ),
    ("add-column", {"frame": "sales", "column": "units", "expression": "units * 2"}),
    ("rename-columns", {"frame": "sales", "columns": {"price": "unit_price", "units": "qty"}}),
    ("drop-columns", {"frame": "sales", "columns": ["size", "date"]}),
    ("sort", {"frame": "sales", "by": ["region", "price"], "ascending": False}),
]


@pytest.mark.parametrize(("action", "payload"), MUTATIONS, ids=[m[0] for m in MUTATIONS])
def test_each_mutating_action_changes_the_frame_and_undo_restores_it_exactly(
    namespace, action, payload
):
    frames = DataFramesDomain(namespace)
    original = namespace["sales"]
    copy = original.copy(deep=True)
    assert frames.actions[action].mutates is True
    result = frames.run(action, payload)
    assert result["frame"] == "sales"
    assert not same(namespace["sales"], copy)
    assert same(original, copy)  # the original object itself was never modified
    frames.undo(action, payload, result)
    assert namespace["sales"] is original
    assert same(namespace["sales"], copy)
    assert frames.history == []


def test_group_aggregate_makes_a_new_frame_and_undo_removes_it(frames, namespace):
    payload = {
        "frame": "sales",
        "by": ["region"],
        "into": "totals",
        "aggregations": [{"column": "units", "func": "sum"}, {"column": "price", "func": "mean"}],
    }
    assert frames.preview("group-aggregate", payload) == (
        "Group sales by region (units sum, price mean) into totals"
    )
    result = frames.run("group-aggregate", payload)
    totals = namespace["totals"]
    assert list(totals.columns) == ["region", "units_sum", "price_mean"]
    assert totals["units_sum"].sum() == namespace["sales"]["units"].sum()
    assert result["table"]["total_rows"] == 4
    frames.undo_last()
    assert "totals" not in namespace


def test_group_aggregate_into_an_existing_frame_is_previewed_and_undone(frames, namespace):
    namespace["totals"] = previous = pd.DataFrame({"x": [1]})
    payload = {
        "frame": "sales",
        "by": ["product", "size"],
        "into": "totals",
        "aggregations": [{"column": "units", "func": "count"}],
    }
    assert frames.preview("group-aggregate", payload).endswith("into totals (replaces it)")
    frames.run("group-aggregate", payload)
    assert namespace["totals"].shape[1] == 3
    frames.undo_last()
    assert namespace["totals"] is previous


def test_filter_into_a_new_frame_leaves_the_source_alone(frames, namespace):
    original = namespace["sales"]
    payload = {
        "frame": "sales",
        "into": "north",
        "where": [{"column": "region", "op": "==", "value": "North"}],
    }
    assert (
        frames.preview("filter-rows", payload)
        == "Keep the rows of sales where region == 'North' into north"
    )
    result = frames.run("filter-rows", payload)
    assert namespace["sales"] is original
    assert (result["frame"], result["rows_before"]) == ("north", 200)
    assert set(namespace["north"]["region"]) == {"North"}
    assert result["summary"] == f"north: 200 → {result['rows']} rows"  # what its card says


def test_a_chain_of_changes_is_undone_in_reverse_order_back_to_the_start(frames, namespace):
    original = namespace["sales"]
    for action, payload in MUTATIONS:
        if frames.validate(action, payload)["ok"]:
            frames.run(action, payload)
    assert len(frames.history) >= 4
    while frames.history:
        frames.undo_last()
    assert namespace["sales"] is original


def test_undo_out_of_order_is_refused(frames):
    first = frames.run("sort", {"frame": "sales", "by": ["price"]})
    frames.run("drop-columns", {"frame": "sales", "columns": ["size"]})
    with pytest.raises(ActionError) as raised:
        frames.undo("sort", {"frame": "sales", "by": ["price"]}, first)
    assert raised.value.code == "undo-order"
    assert raised.value.hint == "undo the later change to sales first"


def test_undo_after_the_person_rebound_the_frame_is_refused(frames, namespace):
    frames.run("sort", {"frame": "sales", "by": ["price"]})
    namespace["sales"] = namespace["sales"].head(3)
    with pytest.raises(ActionError) as raised:
        frames.undo_last()
    assert raised.value.code == "changed-elsewhere"


def test_previews_say_what_will_happen_in_the_persons_terms(frames):
    assert frames.preview(
        "add-column", {"frame": "sales", "column": "revenue", "expression": "price * units"}
    ) == ("Add the column revenue = price * units in sales")
    assert frames.preview(
        "add-column", {"frame": "sales", "column": "units", "expression": "units * 2"}
    ).startswith("Replace the column")
    assert frames.preview("rename-columns", {"frame": "sales", "columns": {"price": "p"}}) == (
        "Rename in sales: price → p"
    )
    assert frames.preview("drop-columns", {"frame": "sales", "columns": ["size", "date"]}) == (
        "Drop the columns size, date from sales"
    )
    assert frames.preview("sort", {"frame": "sales", "by": ["price"], "ascending": False}) == (
        "Sort sales by price (descending)"
    )
    assert frames.preview(
        "plot", {"frame": "sales", "kind": "scatter", "x": "price", "y": "units"}
    ) == ("Plot a scatter chart of units against price from sales")
    assert frames.actions["drop-columns"].destructive is True


def test_comparing_text_with_a_number_fails_with_a_hint(frames):
    with pytest.raises(ActionError) as raised:
        frames.run(
            "filter-rows",
            {"frame": "sales", "where": [{"column": "region", "op": ">", "value": 3}]},
        )
    assert (raised.value.code, raised.value.field) == ("invalid-filter", "where[0].value")


# Where the frames live, and pandas as an optional extra


def test_in_a_kernel_the_default_namespace_is_the_ipython_user_namespace(monkeypatch):
    user_ns = {"df": pd.DataFrame({"a": [1]})}
    shell = types.SimpleNamespace(user_ns=user_ns)
    monkeypatch.setitem(sys.modules, "IPython", types.SimpleNamespace(get_ipython=lambda: shell))
    domain = DataFramesDomain()
    assert domain.namespace is user_ns
    assert list(domain.frames()) == ["df"]


def test_outside_a_kernel_the_default_namespace_is_a_new_dict(monkeypatch):
    monkeypatch.setitem(sys.modules, "IPython", types.SimpleNamespace(get_ipython=lambda: None))
    assert DataFramesDomain().namespace == {}


def run_python(code: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT
    )


def test_importing_the_package_does_not_import_pandas_or_matplotlib():
    done = run_python(
        "import sys, dial_notebook, dial_notebook.domains\n"
        "print('pandas' in sys.modules, 'matplotlib' in sys.modules)"
    )
    assert done.stdout.strip() == "False False", done.stderr


def test_without_pandas_the_domain_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)  # as if it were not installed
    with pytest.raises(ImportError) as raised:
        DataFramesDomain({})
    assert (
        str(raised.value) == 'the dataframes domain needs pandas: pip install "dial-notebook[data]"'
    )
    with pytest.raises(ImportError, match=r"pip install \"dial-notebook\[data\]\""):
        load_sales()


def test_without_matplotlib_plot_fails_with_how_to_install_it(frames, monkeypatch):
    for name in ("matplotlib", "matplotlib.figure", "matplotlib.backends.backend_agg"):
        monkeypatch.setitem(sys.modules, name, None)  # as if it were not installed
    with pytest.raises(ActionError) as raised:
        frames.run("plot", {"frame": "sales", "kind": "hist", "x": "price"})
    assert (raised.value.code, raised.value.hint) == (
        "missing-dependency",
        'pip install "dial-notebook[data]"',
    )


def test_a_vega_lite_plot_without_its_renderer_says_it_will_not_be_drawn(frames, monkeypatch):
    monkeypatch.setitem(sys.modules, "vl_convert", None)  # as if it were not installed
    result = frames.run("plot", {"frame": "sales", "kind": "hist", "x": "price",
                                 "format": "vega-lite"})
    assert result["vega_lite"]["mark"] == "bar"  # the spec is still there, for the person
    assert result["drawn"] is False
    assert "vl-convert-python is not installed" in result["why"]
    assert "pip install" in result["why"]


def test_a_vega_lite_plot_with_its_renderer_claims_nothing_it_may_draw_later(frames):
    assert importlib.util.find_spec("vl_convert") is not None  # the test extra installs it
    result = frames.run("plot", {"frame": "sales", "kind": "hist", "x": "price",
                                 "format": "vega-lite"})
    assert "drawn" not in result and "why" not in result  # late is not "not drawn"
