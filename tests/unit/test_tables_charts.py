"""chart_from_engine: each kind of chart drawn from what the engine computed, never a whole table.

The data: 200,000 rows in a Parquet file (made once in a temporary folder). ``Recording`` wraps
the DuckDB backend and keeps every query sent and the rows each brought back: no query brings
back more than ``MAX_MARKS`` rows. The histogram's bins are the frames' (``_charts._histogram``,
numpy's) on the same column, count for count; the Vega-Lite spec is the one the frames' ``plot``
makes from the whole pandas frame.
"""

from __future__ import annotations

import base64
import math
from typing import Any

import pytest

from dial_notebook import ActionError
from dial_notebook.domains._charts import MAX_BARS, _histogram, vegalite_spec
from dial_notebook.domains.tables._engine_charts import CHART_SECONDS, MAX_MARKS, chart_from_engine
from dial_notebook.runtime._review import DRY_RUN_SECONDS
from tests.spark_session import spark  # noqa: F401  (the session fixture)
from tests.tables_data import ENGINE_WARNINGS

pytestmark = [pytest.mark.engine, *ENGINE_WARNINGS]

ROWS = 200_000
HOSTILE = 'units"; DROP TABLE sales; --'
PNG = "data:image/png;base64,"


def make_frame() -> Any:
    import numpy
    import pandas as pd

    random = numpy.random.default_rng(7)
    price = random.normal(50.0, 12.0, ROWS)
    price[::997] = numpy.nan  # missing values, left out of a histogram
    units = random.integers(0, 101, ROWS)  # 0 to 100: many values exactly on an edge
    return pd.DataFrame({
        "day": numpy.arange(ROWS),
        "price": price,
        "units": units,
        HOSTILE: units,
        "region": numpy.array(["North", "South", "East", "West", "Centre"])[
            random.integers(0, 5, ROWS)],
        "store": [f"store-{n:02d}" for n in random.integers(0, 80, ROWS)],
        "label": numpy.array(["a", "b"])[random.integers(0, 2, ROWS)],
    })


@pytest.fixture(scope="module")
def data(tmp_path_factory) -> tuple[Any, Any]:
    """The frame, and its Parquet file."""
    frame = make_frame()
    path = tmp_path_factory.mktemp("charts") / "sales.parquet"
    frame.to_parquet(path, index=False)
    return frame, path


class Recording:
    """A DuckDB backend that keeps the SQL of every query and the rows each returned."""

    def __init__(self, backend: Any) -> None:
        self.backend = backend
        self.name = backend.name
        self.con = backend.con  # run_bounded interrupts through it
        self.sql: list[str] = []
        self.rows: list[int] = []

    def execute(self, expr: Any, **options: Any) -> Any:
        self.sql.append(str(self.backend.compile(expr)))
        result = self.backend.execute(expr, **options)
        self.rows.append(len(result) if hasattr(result, "__len__") else 1)
        return result


@pytest.fixture
def engine(data) -> Any:
    import ibis

    backend = ibis.duckdb.connect()
    yield Recording(backend), backend.read_parquet(data[1], table_name="sales")
    backend.disconnect()


def vega(table: Any, backend: Any, kind: str, x: str, y: str | None = None,
         **options: Any) -> dict[str, Any]:
    options = {"title": "", "bins": 20, **options}
    result = chart_from_engine(table, kind=kind, x=x, y=y, backend=backend, format="vega-lite",
                               **options)
    return result["vega_lite"]


def test_a_chart_may_take_twice_a_dry_runs_bound():
    assert CHART_SECONDS == 2 * DRY_RUN_SECONDS


@pytest.mark.parametrize(("column", "bins"), [("price", 20), ("units", 20), ("units", 7),
                                              ("price", 100), ("units", 100),
                                              (HOSTILE, 20)])
def test_a_histograms_counts_are_the_frames_counts(engine, data, column, bins):
    backend, table = engine
    spec = vega(table, backend, "hist", column, bins=bins)
    assert spec["data"]["values"] == _histogram(data[0][column], bins)
    assert sum(b["count"] for b in spec["data"]["values"]) == data[0][column].notna().sum()
    assert max(backend.rows) <= bins  # the bins came back, not the rows


def test_a_histograms_spec_is_the_one_the_frames_make_from_the_whole_frame(engine, data):
    backend, table = engine
    frame = data[0]
    spec = vega(table, backend, "hist", "price", bins=30, title="Prices")
    assert spec == vegalite_spec(frame, "price", kind="hist", bins=30, title="Prices")


@pytest.mark.parametrize("kind", ["hist", "bar", "line", "scatter"])
@pytest.mark.parametrize("format", ["png", "vega-lite"])
def test_each_kind_is_drawn_from_at_most_max_marks_rows(engine, kind, format):
    backend, table = engine
    x, y = {"hist": ("price", None), "bar": ("region", "units")}.get(kind, ("day", "price"))
    result = chart_from_engine(table, kind=kind, x=x, y=y, title="", bins=20, backend=backend,
                               format=format)
    assert backend.rows and max(backend.rows) <= MAX_MARKS
    if format == "png":
        (image,) = result["media"]
        assert image["src"].startswith(PNG) and len(base64.b64decode(
            image["src"][len(PNG):])) > 1000
        assert image["alt"].split()[0] in {"Histogram", "Bar", "Line", "Scatter"}
    else:
        assert 0 < len(result["vega_lite"]["data"]["values"]) <= MAX_MARKS


@pytest.mark.parametrize("kind", ["line", "scatter"])
def test_a_line_or_scatter_of_many_rows_is_a_sample_and_says_so(engine, data, kind):
    backend, table = engine
    spec = vega(table, backend, kind, "day", "price")
    values = spec["data"]["values"]
    assert MAX_MARKS * 0.9 < len(values) <= MAX_MARKS
    assert spec["title"]["subtitle"] == f"a sample of {len(values):,} of {ROWS:,} rows"
    frame = data[0].set_index("day")
    for value in values[:50]:  # the marks are rows of the table, not made up
        expected = frame.loc[value["x"], "price"]
        if math.isnan(expected):
            assert value["y"] is None
        else:
            assert value["y"] == pytest.approx(expected)
    days = [value["x"] for value in values]
    assert min(days) < ROWS * 0.01 and max(days) > ROWS * 0.99  # all of it, not its start
    if kind == "line":
        assert days == sorted(days)  # a line runs in x order


def test_a_line_of_few_rows_has_every_row_in_x_order(engine, data):
    backend, table = engine
    few = table.filter(table.day < 300).order_by(table.day.desc())
    spec = vega(few, backend, "line", "day", "units")
    assert [v["x"] for v in spec["data"]["values"]] == list(range(300))
    assert [v["y"] for v in spec["data"]["values"]] == list(data[0]["units"][:300])
    assert "subtitle" not in spec["title"]


def test_a_bar_chart_sums_y_for_each_x(engine, data):
    backend, table = engine
    spec = vega(table, backend, "bar", "region", "units")
    sums = data[0].groupby("region")["units"].sum()
    assert {v["x"]: v["y"] for v in spec["data"]["values"]} == sums.to_dict()
    assert spec["encoding"]["x"]["title"] == "region"
    assert "subtitle" not in spec["title"]


def test_a_bar_chart_of_many_values_shows_the_largest_and_says_how_many(engine, data):
    backend, table = engine
    spec = vega(table, backend, "bar", "store", "units")
    sums = data[0].groupby("store")["units"].sum().sort_values(ascending=False)
    assert [v["x"] for v in spec["data"]["values"]] == list(sums.index[:MAX_BARS])
    assert spec["title"]["subtitle"] == f"the {MAX_BARS} largest of 80 values of store"


def test_a_hostile_column_name_is_quoted_by_ibis_never_pasted(engine, data):
    backend, table = engine
    spec = vega(table, backend, "bar", "region", HOSTILE)
    assert {v["x"]: v["y"] for v in spec["data"]["values"]} == data[0].groupby("region")[
        HOSTILE].sum().to_dict()
    quoted = '"units""; DROP TABLE sales; --"'
    assert backend.sql and all(quoted in sql for sql in backend.sql)
    assert all(sql.replace(quoted, "").count(HOSTILE) == 0 for sql in backend.sql)
    assert backend.backend.execute(table.count()) == ROWS  # nothing was dropped


@pytest.mark.parametrize("payload", [
    {"kind": "hist", "x": 'price"); DROP TABLE sales; --', "y": None},
    {"kind": "scatter", "x": "day", "y": "price\u0000; DELETE FROM sales"},
])
def test_a_column_the_table_does_not_have_is_refused_before_the_engine_is_asked(engine,
                                                                                payload):
    backend, table = engine
    with pytest.raises(ActionError, match="the table has no column") as refused:
        chart_from_engine(table, title="", bins=20, backend=backend, **payload)
    assert refused.value.code == "unknown-column"
    assert backend.sql == []
    assert backend.backend.execute(table.count()) == ROWS


@pytest.mark.parametrize(("payload", "code", "field"), [
    ({"kind": "line", "x": "day", "y": None}, "missing-field", "y"),
    ({"kind": "hist", "x": "region", "y": None}, "invalid-column", "x"),
    ({"kind": "bar", "x": "region", "y": "label"}, "invalid-column", "y"),
    ({"kind": "scatter", "x": "price", "y": "price"}, "invalid-payload", "y"),
    ({"kind": "pie", "x": "price", "y": None}, "invalid-kind", "kind"),
])
def test_what_a_chart_cannot_draw_is_refused(engine, payload, code, field):
    backend, table = engine
    with pytest.raises(ActionError) as refused:
        chart_from_engine(table, title="", bins=20, backend=backend, **payload)
    assert (refused.value.code, refused.value.field) == (code, field)
    assert backend.sql == []


def test_past_its_bound_the_chart_is_not_drawn_and_says_why(engine, data):
    import ibis

    backend, table = engine
    numbers = ibis.range(100_000).unnest().name("i").as_table()
    pairs = numbers.cross_join(numbers.rename(j="i"))  # 10¹⁰ rows: never done in time
    result = chart_from_engine(pairs, kind="hist", x="i", y=None, title="", bins=20,
                               backend=backend, format="vega-lite", seconds=0.3)
    assert result["drawn"] is False and "vega_lite" not in result
    assert result["why"].startswith("the chart was not drawn: the engine did not compute its "
                                    "data within 0.3 s") and "cancelled" in result["why"]
    again = vega(table, backend, "hist", "units")  # the connection serves the next chart
    assert again["data"]["values"] == _histogram(data[0]["units"], 20)


def test_an_engine_error_fails_the_chart_with_its_reason(data, tmp_path):
    import ibis

    path = tmp_path / "gone.parquet"
    data[0].iloc[:100].to_parquet(path, index=False)
    backend = ibis.duckdb.connect()
    table = backend.read_parquet(path)
    path.unlink()
    with pytest.raises(ActionError, match="the engine could not compute the chart") as failed:
        chart_from_engine(table, kind="hist", x="price", y=None, backend=backend)
    assert failed.value.code == "engine-error" and "\n" not in failed.value.hint


@pytest.mark.spark
@pytest.mark.filterwarnings("ignore:The copy keyword is deprecated")  # PySpark's, on pandas 3
@pytest.mark.filterwarnings("ignore:unclosed <socket.socket:ResourceWarning")  # its collect's
def test_on_spark_the_same_bins_and_a_bounded_sample(spark, data):  # noqa: F811
    import ibis

    # within Spark's own bound (JOB_CHART_SECONDS), its first queries too
    backend = ibis.pyspark.connect(spark)
    table = backend.read_parquet(str(data[1]))
    spec = vega(table, backend, "hist", "units", bins=20)
    assert spec["data"]["values"] == _histogram(data[0]["units"], 20)
    sample = vega(table, backend, "scatter", "day", "price")
    assert 0 < len(sample["data"]["values"]) <= MAX_MARKS
    assert sample["title"]["subtitle"].endswith(f"of {ROWS:,} rows")


@pytest.mark.parametrize(("column", "bins"), [("price", 20), ("units", 7)])
def test_a_png_histogram_is_the_one_the_frames_draw_from_the_same_bins(engine, data, column,
                                                                        bins):
    from dial_notebook.domains._charts import chart

    backend, table = engine
    mine = chart_from_engine(table, kind="hist", x=column, y=None, backend=backend,
                             bins=bins, title="T")
    frames = chart(data[0], kind="hist", x=column, y=None, title="T", bins=bins)
    assert mine == frames  # one drawing of ready bins (``_charts.histogram``) serves both


def test_the_frames_histogram_draws_ready_bins():
    from dial_notebook.domains._charts import histogram

    drawn = histogram([0.0, 1.0, 2.0], [3, 5], x="units", title="")
    assert drawn["media"][0]["alt"] == "Histogram of units"
    assert drawn["media"][0]["src"].startswith(PNG)
    assert histogram([], [], x="units", title="None")["media"][0]["alt"] == "None"
