"""The tables domain's read-only actions, computed by the engine: aggregates over the whole
table in one query where pandas would read every row into memory, rows only with a LIMIT.

Each gives the table of the dataframes domain's action of the same name (the same columns,
the same statistics): ``describe`` the count, unique, top, freq, mean, std, min, quartiles and
max of each column (as pandas' ``describe(include="all")``: the quartiles interpolated);
``value_counts`` the most frequent values; ``correlation`` Pearson's coefficients.

    >>> describe_columns(["number", "text"])
    ['count', 'unique', 'top', 'freq', 'mean', 'std', 'min', '25%', '50%', '75%', 'max']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .._errors import ActionError
from ._engine import fetch, fresh_name, is_number, kind_of, scalar, table

_TEXT_STATS = ["count", "unique", "top", "freq"]
_NUMBER_STATS = ["count", "mean", "std", "min", "25%", "50%", "75%", "max"]
_TIME_STATS = ["count", "min", "max"]
#: Each quartile's name in the description, and its fraction.
QUARTILES = (("25%", 0.25), ("50%", 0.5), ("75%", 0.75))
#: Most rows on which quartiles and unique counts are exact (a sort, a hash set of every
#: value); past them, or on a table of unknown size, the engine's estimates.
EXACT_ROWS = 1_000_000


def describe_columns(kinds: Sequence[str]) -> list[str]:
    """The statistics a description shows for columns of these kinds, in pandas' order."""
    wanted = set()
    for kind in kinds:
        wanted.update(_NUMBER_STATS if kind == "number" else
                      _TIME_STATS if kind == "time" else _TEXT_STATS)
    order = ["count", "unique", "top", "freq", "mean", "std", "min", "25%", "50%", "75%", "max"]
    return [stat for stat in order if stat in wanted]


def describe(expr: Any, backend: Any, rows: int | None = None) -> dict[str, Any]:
    """The description table: one row per column, one aggregate query (and one small
    group-by per column that is not a number, for its most frequent value). The quartiles
    and the counts of unique values are exact on a table of ``rows`` up to ``EXACT_ROWS``,
    estimated by the engine (in bounded memory) on a larger one or one of unknown size."""
    exact = rows is not None and rows <= EXACT_ROWS
    sampled = rows is not None and not exact  # the quartiles: from a sample (_quartiles)
    names = list(expr.columns)
    kinds = [kind_of(expr[name].type()) for name in names]
    metrics: dict[str, Any] = {}
    for index, (name, kind) in enumerate(zip(names, kinds, strict=True)):
        found = expr[name]
        metrics[f"c{index}_count"] = found.count()
        if kind == "number":
            as_float = found.cast("float64")
            metrics.update({f"c{index}_mean": as_float.mean(), f"c{index}_std": as_float.std(),
                            f"c{index}_min": found.min(), f"c{index}_max": found.max()})
            for quartile, q in (() if sampled else QUARTILES):
                metrics[f"c{index}_{quartile}"] = as_float.quantile(q) if exact else \
                    as_float.approx_quantile(q)
        elif kind == "time":
            metrics.update({f"c{index}_min": found.min(), f"c{index}_max": found.max()})
        else:
            metrics[f"c{index}_unique"] = found.nunique() if exact else found.approx_nunique()
    [values] = fetch(expr.aggregate(**metrics), backend, limit=1) if metrics else [[]]
    by_name = dict(zip(metrics, values, strict=True))
    if sampled:
        by_name.update(_quartiles(expr, kinds, rows or 0, backend))
    stats = describe_columns(kinds)
    lines = []
    for index, (name, kind) in enumerate(zip(names, kinds, strict=True)):
        found = {stat: by_name.get(f"c{index}_{stat}") for stat in stats}
        if kind not in ("number", "time"):
            found["top"], found["freq"] = _most_frequent(expr, name, backend)
        lines.append([name, *(found.get(stat) for stat in stats)])
    described = table(["column", *stats], lines, len(lines))
    if not exact and any(kind != "time" for kind in kinds):
        size = "of unknown size" if rows is None else f"of {rows:,} rows"
        described["note"] = (f"on a table {size}, the quartiles and unique counts are the "
                             "engine's estimates" + (f" (the quartiles from a sample of about "
                                                     f"{EXACT_ROWS:,} rows)" if sampled else ""))
    return described


def _quartiles(expr: Any, kinds: list[str], rows: int, backend: Any) -> dict[str, Any]:
    """The quartiles of the numeric columns of a table of ``rows`` (over ``EXACT_ROWS``),
    exact on a block sample of about ``EXACT_ROWS`` rows (seeded): on 100 million rows a few
    tenths of a second, where the engine's streaming estimates take half a minute a column.
    A backend that cannot sample gets those estimates."""
    names = list(expr.columns)
    sample = None
    for seed in (0, None):  # seeded where the engine can (Spark cannot: an unseeded sample)
        try:
            candidate = expr.sample(EXACT_ROWS / rows, method="block", seed=seed)
            backend.compile(candidate)  # what the engine cannot do is refused here, unasked
        except Exception:  # no (seeded) TABLESAMPLE on this backend
            continue
        sample = candidate
        break
    metrics = {}
    for index, kind in enumerate(kinds):
        if kind == "number":
            column = (expr if sample is None else sample)[names[index]].cast("float64")
            for quartile, q in QUARTILES:
                metrics[f"c{index}_{quartile}"] = column.approx_quantile(q) if sample is None \
                    else column.quantile(q)
    if not metrics:
        return {}
    [values] = fetch((expr if sample is None else sample).aggregate(**metrics), backend, limit=1)
    return dict(zip(metrics, values, strict=True))


def _most_frequent(expr: Any, name: str, backend: Any) -> tuple[Any, Any]:
    """The most frequent value present in a column, and how often (None, None when none)."""
    import ibis

    count = fresh_name("count", list(expr.columns))
    present = expr.filter(expr[name].notnull())
    top = present.group_by(name).aggregate(**{count: ibis._.count()}).order_by(
        [ibis.desc(count), ibis.asc(name)])
    rows = fetch(top, backend, limit=1)
    return (rows[0][0], rows[0][1]) if rows else (None, None)


def value_counts(expr: Any, name: str, limit: int, backend: Any) -> dict[str, Any]:
    """The ``limit`` most frequent values of a column (missing included), most frequent
    first, as a table ``[name, "count"]``."""
    import ibis

    count = fresh_name("count", list(expr.columns))
    counts = expr.group_by(name).aggregate(**{count: ibis._.count()}).order_by(
        [ibis.desc(count), ibis.asc(name, nulls_first=False)])
    rows = fetch(counts.select(name, count), backend, limit=limit)
    return table([name, "count"], rows, len(rows))


def correlation(expr: Any, method: str, backend: Any) -> dict[str, Any]:
    """Pearson's correlation between every two numeric columns, rounded to 4 places."""
    if method != "pearson":
        raise ActionError(
            f"the tables domain computes pearson correlation only, not {method}",
            code="not-supported", field="method", hint='use "method": "pearson"')
    names = [name for name in expr.columns if is_number(expr[name])]
    if len(names) < 2:
        raise ActionError(
            "the table has fewer than two numeric columns", code="not-numeric",
            field="columns", hint="correlation needs at least two numeric columns")
    metrics = {}
    for i, one in enumerate(names):
        for j in range(i + 1, len(names)):
            two = names[j]
            metrics[f"r{i}_{j}"] = expr[one].cast("float64").corr(
                expr[two].cast("float64"), how="pop")  # pop or sample: the same coefficient
    values = dict(zip(metrics, fetch(expr.aggregate(**metrics), backend, limit=1)[0],
                      strict=True))
    rows = []
    for i, one in enumerate(names):
        row: list[Any] = [one]
        for j in range(len(names)):
            value = 1.0 if i == j else values[f"r{min(i, j)}_{max(i, j)}"]
            row.append(None if value is None else round(float(value), 4))
        rows.append(row)
    return table(["column", *names], rows, len(rows))


def head(expr: Any, n: int, backend: Any, total: int | None) -> dict[str, Any]:
    """The first ``n`` rows (as the engine gives them: a LIMIT)."""
    return table(list(expr.columns), fetch(expr, backend, limit=n), total)


def head_and_count(expr: Any, n: int, backend: Any) -> tuple[dict[str, Any], int]:
    """The first ``n`` rows and the rows in all, in one query (a group-by computed once)."""
    total = fresh_name("rows", list(expr.columns))
    rows = fetch(expr.mutate(**{total: expr.count()}), backend, limit=n)
    count_all = rows[0][-1] if rows else 0
    shown = [row[:-1] for row in rows]
    return table(list(expr.columns), shown, count_all), int(count_all)


def count(expr: Any, backend: Any) -> int:
    """The rows of a table (a query: use it bounded)."""
    return int(scalar(expr.count(), backend))
