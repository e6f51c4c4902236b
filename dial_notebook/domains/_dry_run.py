"""What a dataframes change would do, worked out before it runs, in bounded time.

A dry run never touches the namespace: it computes the change on the frame's first rows
(``PROBE_ROWS``, then up to ``SAMPLE_ROWS``) and, while the time so far shows that the next
step is cheap (projected under ``CHEAP`` seconds), on more of them up to the whole frame;
when it stops short, what it says comes from the sample and ``sampled`` says so. Its result is JSON:

    {"summary": "sales: 200 → 64 rows, 6 columns",
     "effect": {"frame", "into", "rows": [before, after], "columns": [before, after],
                "added", "removed", "renamed", "dtypes",
                "sample": {"before": TABLE, "after": TABLE}, "sampled": None or a sentence},
     "code": "…", "note": "…" (only when there is something to warn of)}

``rows`` and ``columns`` compare the frame read (``frame``) with the frame made (``into``);
``added`` names the columns only the frame made has, ``removed`` those a change in place
takes away (a new frame removes nothing: the frame read keeps every column; a rename is in
``renamed`` instead); ``dtypes`` gives the type of each column added or replaced. A TABLE is the
``table`` shape of ``_frames`` with a few of the rows the change affects.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from ._frames import table

#: Most rows a dry run computes on when the whole frame would take too long, and the rows
#: it tries first to see how long that takes.
SAMPLE_ROWS = 100_000
PROBE_ROWS = 10_000
#: Seconds a computation on the whole frame may be projected to take and still be done.
CHEAP = 0.12
#: Rows and columns each sample table shows.
SHOWN_ROWS = 5
SHOWN_COLUMNS = 8
#: Most rows the exact first rows of a sort are looked for among (else the sample is sorted).
SORT_CANDIDATES = 200_000

T = TypeVar("T")


def sample(frame: Any) -> Any:
    """The first ``SAMPLE_ROWS`` rows of ``frame`` (``frame`` itself when it is no longer)."""
    return frame if len(frame) <= SAMPLE_ROWS else frame.iloc[:SAMPLE_ROWS]


def bounded(compute: Callable[[Any], T], frame: Any) -> tuple[Any, T]:
    """``compute`` on the longest of the frame's first ``PROBE_ROWS``, first ``SAMPLE_ROWS``
    or all rows that the time taken so far says is cheap (each step projected from the last
    to take at most ``CHEAP`` seconds): (the rows it was computed on, its value). The rows
    are ``frame`` itself when the value is the whole frame's."""
    sizes = [size for size in (PROBE_ROWS, SAMPLE_ROWS) if size < len(frame)] + [len(frame)]
    part = frame if sizes[0] == len(frame) else frame.iloc[:sizes[0]]
    started = time.perf_counter()
    value = compute(part)
    for size in sizes[1:]:
        seconds = time.perf_counter() - started
        if seconds * size / max(len(part), 1) * 1.5 > CHEAP:
            break
        part = frame if size == len(frame) else frame.iloc[:size]
        started = time.perf_counter()
        value = compute(part)
    return part, value


def shown(frame: Any, first: Sequence[Any] = (), *, total: int | None = None,
          only: bool = False) -> dict[str, Any]:
    """A TABLE of ``frame``'s first ``SHOWN_ROWS`` rows: the columns labelled ``first``
    first, then others up to ``SHOWN_COLUMNS`` (none with ``only``); ``total_rows`` is
    ``total`` when given (the whole frame's, not the sample's)."""
    positions: list[int] = []
    for name in first:
        positions += [i for i, label in enumerate(frame.columns)
                      if label is name or _same(label, name)]
    positions = list(dict.fromkeys(positions))
    if not only:
        others = [i for i in range(frame.shape[1]) if i not in positions]
        positions += others[:max(SHOWN_COLUMNS - len(positions), 0)]
    shown_table = table(frame.iloc[:SHOWN_ROWS, positions], limit=SHOWN_ROWS)
    if total is not None:
        shown_table["total_rows"] = total
    return shown_table


def first_sorted(frame: Any, labels: Sequence[Any], ascending: bool,
                 sort: Callable[[Any], Any]) -> Any:
    """The first ``SHOWN_ROWS`` rows ``sort`` (a stable sort by ``labels``) gives for the
    whole ``frame``, found without sorting it all, or None when there is no quick way.

    The first rows of a sort by a numeric first key are among the rows whose key is at most
    the k-th smallest (at least the k-th largest, descending); a stable sort of just those,
    kept in their order, puts them as the whole sort would."""
    import numpy as np

    key = frame[labels[0]]
    if getattr(key, "ndim", 2) != 1 or not isinstance(key.dtype, np.dtype) \
            or key.dtype.kind not in "iufmM" or key.notna().sum() < SHOWN_ROWS:
        return None
    chosen = key.nsmallest(SHOWN_ROWS) if ascending else key.nlargest(SHOWN_ROWS)
    threshold = chosen.iloc[-1]
    candidates = (key <= threshold) if ascending else (key >= threshold)
    if int(candidates.sum()) > SORT_CANDIDATES:
        return None
    return sort(frame[candidates]).head(SHOWN_ROWS)


def effect(frame_name: str, into: str, before: Any, after_columns: Sequence[Any],
           rows: tuple[int, int], *, renamed: dict[str, str] | None = None,
           dtypes: dict[str, str] | None = None, sample_tables: tuple[Any, Any],
           sampled: str | None = None) -> dict[str, Any]:
    """The ``effect`` of a dry run (see the module's header)."""
    names_before = [str(label) for label in before.columns]
    names_after = [str(label) for label in after_columns]
    renamed = renamed or {}
    if renamed:
        added: list[str] = []
        removed: list[str] = []
    else:
        added = [name for name in dict.fromkeys(names_after) if name not in names_before]
        removed = [] if into != frame_name else [
            name for name in dict.fromkeys(names_before) if name not in names_after]
    return {
        "frame": frame_name, "into": into, "rows": [int(rows[0]), int(rows[1])],
        "columns": [len(names_before), len(names_after)], "added": added, "removed": removed,
        "renamed": dict(renamed), "dtypes": dict(dtypes or {}),
        "sample": {"before": sample_tables[0], "after": sample_tables[1]}, "sampled": sampled,
    }


def on_sample(frame: Any, part: Any, what: str = "computed on") -> str:
    """``computed on the first 100,000 of 5,000,000 rows`` (``part``'s of ``frame``'s)."""
    return f"{what} the first {number(len(part))} of {number(len(frame))} rows"


def number(count: int) -> str:
    """``5,000,000``."""
    return f"{int(count):,}"


def count(how_many: int, noun: str) -> str:
    """``1 row``, ``5,000 rows``: every count a summary says, with its noun agreeing.

        >>> count(1, "row"), count(2_000, "column")
        ('1 row', '2,000 columns')
    """
    return f"{number(how_many)} {noun}{'' if int(how_many) == 1 else 's'}"


def change(before: int, after: int, noun: str, *, about: str = "") -> str:
    """``200 → 64 rows``, ``49 → 1 row``, ``200 → about 3 rows`` (``about``: "about ",
    "at least ")."""
    return f"{number(before)} → {about}{count(after, noun)}"


def names(items: Sequence[str], *, most: int = 5) -> str:
    """``a, b, c`` (``a, b, c, d, e, +3 more`` past ``most``)."""
    shown_names = ", ".join(str(item) for item in items[:most])
    return shown_names + (f", +{len(items) - most} more" if len(items) > most else "")


def _same(one: Any, two: Any) -> bool:
    try:
        return bool(one == two)
    except (TypeError, ValueError):
        return False
