"""Charts of a table of any size: the engine computes what the chart needs, a few rows come back.

``chart_from_engine`` gives the result ``DataFramesDomain``'s ``plot`` gives (a PNG as
``{"media": [...]}``, or ``{"vega_lite": spec}``; ``domains/_charts.py``), but no table is ever
pulled whole into the kernel: each kind asks the engine for no more than it draws.

    hist          min and max of x, then one group-by of x's bin: ``bins`` counts (the bins of
                  numpy's histogram, each value on the same side of an edge as numpy puts it)
    bar           y summed for each x: the ``MAX_BARS`` largest (the rest said to be left out)
    line/scatter  x and y of a random sample of at most ``MAX_MARKS`` rows (all when fewer),
                  a line's in x order

The queries run in one ``run_bounded`` call (``_bounded``) of at most ``CHART_SECONDS`` (on
Spark, ``JOB_CHART_SECONDS``: its jobs take seconds, its first ones many more): past
it they are cancelled on the engine and the result says the chart was not drawn and why
(``{"drawn": False, "why": …}``, as ``_charts.not_drawn``), so the agent is never told of a
chart that is not there. An engine's error fails the action. Column names are the table's own,
checked first and handed to Ibis, which quotes them: a name is never pasted into SQL. The
drawing is the frames' (``_charts.vegalite_spec`` and ``_charts.chart``) on the small frame the
engine returned; a PNG histogram is the frames' ``_charts.histogram`` of the engine's bins.
"""

from __future__ import annotations

import math
from typing import Any

from .._charts import KINDS, MAX_BARS, MAX_SPEC_ROWS, chart, histogram, not_drawn, vegalite_spec
from .._errors import ActionError
from .._phrasing import did_you_mean, show

__all__ = ["CHART_SECONDS", "JOB_CHART_SECONDS", "MAX_MARKS", "chart_from_engine",
           "chart_seconds"]

#: Most marks (points of a line or scatter) sent to a chart: the rows a Vega-Lite spec carries.
MAX_MARKS = MAX_SPEC_ROWS
#: Seconds the engine may take for a chart's data: twice a dry run's bound
#: (``runtime/_review.py``'s ``DRY_RUN_SECONDS``; domains do not import the runtime).
CHART_SECONDS = 2.0
#: … on an engine that schedules jobs (Spark): a second or two a query even when warm, and
#: many more for its first ones while its JVM warms up (measured here, a cold local[2] Spark:
#: 3–7 s for the first histogram of 200,000 rows, then 0.4–2 s a chart). The run is off the
#: kernel's loop (``run_async``; Stop cancels its jobs), so the loop is never held meanwhile.
JOB_CHART_SECONDS = 30.0
#: The backends (Ibis names) whose charts have ``JOB_CHART_SECONDS``.
JOB_ENGINES = frozenset({"pyspark"})


def chart_seconds(backend: Any) -> float:
    """The longest a chart's queries may take on ``backend``: ``JOB_CHART_SECONDS`` on an
    engine of jobs (``JOB_ENGINES``), else ``CHART_SECONDS``.

        >>> chart_seconds(None) == CHART_SECONDS
        True
    """
    return JOB_CHART_SECONDS if getattr(backend, "name", None) in JOB_ENGINES else CHART_SECONDS


def chart_from_engine(table: Any, *, kind: str, x: str, y: str | None, title: str = "",
                      bins: int = 20, backend: Any = None, format: str = "png",
                      seconds: float | None = None) -> dict[str, Any]:
    """The chart of ``table``'s columns ``x`` (and ``y``), its data computed by the engine
    (``backend``; the table's own when None) in at most ``seconds`` (``chart_seconds(backend)``
    at most); ``format`` is ``"png"`` or ``"vega-lite"``.

        sales = ibis.duckdb.connect().read_parquet("sales/*.parquet")
        chart_from_engine(sales, kind="hist", x="units", y=None, bins=4, format="vega-lite")
        # {"vega_lite": {…, "data": {"values": [{"start": 1.0, "end": 3.0, "count": 3}, …]}}}

    A kind or a column the table does not have is refused before the engine is asked:

        >>> chart_from_engine(None, kind="pie", x="units", y=None)
        Traceback (most recent call last):
        ...
        dial_notebook.ActionError: 'pie' is not a kind of chart
    """
    from ._bounded import run_bounded

    if kind not in KINDS:
        raise ActionError(f"{show(kind)} is not a kind of chart", code="invalid-kind",
                          field="kind", hint=f"kind is one of {', '.join(KINDS)}")
    _check(table, kind, x, y)
    if backend is None:
        import ibis

        backend = ibis.get_backend(table)
    bound = chart_seconds(backend)
    limit = bound if seconds is None else min(seconds, bound)
    found = run_bounded(lambda: _data(table, kind, x, y, bins, backend), seconds=limit,
                        backend=backend)
    if found.status == "failed":
        raise ActionError(f"the engine could not compute the chart: {found.why}",
                          code="engine-error", field="", hint=found.why)
    if found.status == "timed-out":
        return {"drawn": False, "why": f"the chart was not drawn: the engine did not compute "
                f"its data within {limit:g} s ({found.why})"}
    frame, note = found.value
    if kind == "hist":
        return _histogram_chart(frame, x, title, bins, format)
    if format == "vega-lite":
        spec = vegalite_spec(frame, x, y, kind, title=title, bins=bins)
        if note:
            spec["title"]["subtitle"] = note
        return {"vega_lite": spec, **not_drawn()}
    result = chart(frame, kind=kind, x=x, y=y, title=title, bins=bins)
    if note:
        result["media"][0]["alt"] += f" ({note})"
    return result


def _check(table: Any, kind: str, x: str, y: str | None) -> None:
    """Each column named is one of the table's, of a type the chart can draw."""
    names = list(table.columns)
    wanted = [("x", x)] if kind == "hist" else [("x", x), ("y", y)]
    for field, name in wanted:
        if name is None:
            raise ActionError(f"a {kind} chart needs y", code="missing-field", field=field,
                              hint=f"name the column to draw against {show(x)} in y")
        if name not in names:
            raise ActionError(
                f"the table has no column {show(name)}", code="unknown-column", field=field,
                hint=f"the table has no column {show(name)}{did_you_mean(name, names)}")
    if kind != "hist" and x == y:
        raise ActionError("x and y are the same column", code="invalid-payload", field="y")
    numeric = ("x", x) if kind == "hist" else ("y", y) if kind == "bar" else None
    if numeric is not None and not _is_number(table[numeric[1]]):
        what = "a histogram counts" if kind == "hist" else "a bar chart sums"
        raise ActionError(
            f"{what} numbers: {show(numeric[1])} is of type {table[numeric[1]].type()}",
            code="invalid-column", field=numeric[0],
            hint=f"{what} a numeric column; a bar chart of counts is value-counts")


def _is_number(column: Any) -> bool:
    kind = column.type()
    return bool(kind.is_numeric() or kind.is_boolean())


def _data(table: Any, kind: str, x: str, y: str | None, bins: int,
          backend: Any) -> tuple[Any, str]:
    """In the worker: the small frame the chart is drawn from, and a note on what it holds."""
    if kind == "hist":
        return _bins(table, x, bins, backend), ""
    if kind == "bar":
        return _sums(table, x, y or "", backend)
    return _sample(table, kind, x, y or "", backend)


def _bins(table: Any, x: str, bins: int, backend: Any) -> Any:
    """``bins`` counts of x's values (nulls and NaN left out, as the frames' histogram does)
    as a frame of ``start``, ``end``, ``count``; no rows when x has no values."""
    import ibis
    import numpy
    import pandas

    value = table[x].cast("float64")
    kept = table.filter(value.notnull() & ~value.isnan())
    value = kept[x].cast("float64")
    stats = backend.execute(kept.aggregate(low=value.min(), high=value.max()))
    low, high = stats["low"].iloc[0], stats["high"].iloc[0]
    if pandas.isna(low):
        return pandas.DataFrame({"start": [], "end": [], "count": []})
    low, high = float(low), float(high)
    if not (math.isfinite(low) and math.isfinite(high)):
        raise ActionError(f"{show(x)} has infinite values: its histogram has no finite range",
                          code="invalid-column", field="x",
                          hint="filter-rows to keep the finite values first")
    if low == high:  # numpy's range for a single value
        low, high = low - 0.5, high + 0.5
    edges = numpy.linspace(low, high, bins + 1)
    # numpy's own steps: the index from the value's place in the range, then moved by one
    # where it falls the wrong side of its edge (edge i is i * step + low; the last is high)
    step = (high - low) / bins
    first = ((value - low) / (high - low) * bins).floor().cast("int64").clip(upper=bins - 1)
    below = value < first.cast("float64") * step + low
    first = ibis.ifelse(below, first - 1, first)
    upper = ibis.ifelse(first + 1 == bins, high, (first + 1).cast("float64") * step + low)
    index = ibis.ifelse((value >= upper) & (first != bins - 1), first + 1, first)
    counted = backend.execute(kept.group_by(bin=index).aggregate(count=kept.count()))
    counts = dict(zip(counted["bin"].astype(int), counted["count"].astype(int), strict=True))
    return pandas.DataFrame({"start": edges[:-1], "end": edges[1:],
                             "count": [counts.get(n, 0) for n in range(bins)]})


def _sums(table: Any, x: str, y: str, backend: Any) -> tuple[Any, str]:
    """y summed for each value of x: the ``MAX_BARS`` largest sums, and a note when more."""
    import ibis

    sums = table.group_by(x=table[x]).aggregate(y=table[y].sum())
    frame = backend.execute(sums.order_by(ibis.desc("y"), "x").limit(MAX_BARS + 1))
    note = ""
    if len(frame) > MAX_BARS:
        groups = backend.execute(sums.count())
        frame = frame.iloc[:MAX_BARS]
        note = f"the {MAX_BARS} largest of {int(groups):,} values of {x}"
    frame.columns = [x, y]
    return frame, note


def _sample(table: Any, kind: str, x: str, y: str, backend: Any) -> tuple[Any, str]:
    """x and y of at most ``MAX_MARKS`` rows, a random sample of them past that (a line's
    in x order), and a note when sampled."""
    from ibis.common.exceptions import UnsupportedOperationError

    pairs = table.select(x=table[x], y=table[y])
    total = int(backend.execute(pairs.count()))
    note = ""
    if total > MAX_MARKS:
        # a Bernoulli sample a little under MAX_MARKS rows (three standard deviations), so
        # that the LIMIT only rarely cuts it (a cut would favour the first rows read)
        share = MAX_MARKS * (1 - 3 / math.sqrt(MAX_MARKS)) / total
        try:
            frame = backend.execute(pairs.sample(share, seed=0).limit(MAX_MARKS))
        except UnsupportedOperationError:  # an engine without seeded samples (Spark)
            frame = backend.execute(pairs.sample(share).limit(MAX_MARKS))
        note = f"a sample of {len(frame):,} of {total:,} rows"
    else:
        frame = backend.execute(pairs)
    if kind == "line":
        frame = frame.sort_values("x", kind="stable", ignore_index=True)
    frame.columns = [x, y]
    return frame, note


def _histogram_chart(frame: Any, x: str, title: str, bins: int, format: str) -> dict[str, Any]:
    """The histogram of the engine's counts, as the frames draw theirs."""
    values = [{"start": float(row.start), "end": float(row.end), "count": int(row.count)}
              for row in frame.itertuples(index=False)]
    if format == "vega-lite":
        import pandas

        spec = vegalite_spec(pandas.DataFrame({x: pandas.Series([], dtype="float64")}), x,
                             kind="hist", title=title, bins=bins)
        spec["data"]["values"] = values
        return {"vega_lite": spec, **not_drawn()}
    edges = [value["start"] for value in values] + [values[-1]["end"]] if values else []
    return histogram(edges, [value["count"] for value in values], x=x, title=title)
