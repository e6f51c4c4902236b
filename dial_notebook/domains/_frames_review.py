"""Dry runs of the dataframes changes: what each would do, worked out on a copy or a sample.

``dry_run(action, payload, frame, frames)`` is the ``dry_run`` of every mutating action of
``DataFramesDomain``: a summary, the effect (``_dry_run``'s shape), the code, and a note when
there is something to warn of. One review per action works out the first three; nothing here
touches the namespace or the frame read.

    >>> import pandas as pd
    >>> frame = pd.DataFrame({"a": [3, 1, 2]})
    >>> dry_run("sort", {"frame": "df", "by": ["a"]}, frame, {"df": frame})["summary"]
    'df: 3 rows, 1 column, sorted by a'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from . import _dry_run
from . import _frames_changes as change

Payload = dict[str, Any]
#: What a dry run of one action works out: its summary, its effect, notes to warn of.
Review = tuple[str, dict[str, Any], list[str]]


def dry_run(action: str, payload: Payload, frame: Any,
            frames: Mapping[str, Any]) -> dict[str, Any]:
    """What ``action`` would do to ``frame`` (``payload["frame"]`` among ``frames``)."""
    import numpy as np

    with np.errstate(all="ignore"):  # a dry run says what happens; the run warns
        summary, effect, notes = REVIEWS[action](frame, payload)
    into = payload.get("into", payload["frame"])
    existing = frames.get(into)
    if into != payload["frame"] and existing is not None:
        notes.append(f"{into} already holds a frame ({_dry_run.count(len(existing), 'row')} "
                     f"× {_dry_run.count(existing.shape[1], 'column')}): it will be replaced")
    dry = {"summary": summary, "effect": effect,
           "code": change.step_code(action, payload, frame)}
    if notes:
        dry["note"] = "; ".join(notes)
    return dry


def review_filter_rows(frame: Any, payload: Payload) -> Review:
    import numpy as np

    name, into = payload["frame"], payload.get("into", payload["frame"])
    part, mask = _dry_run.bounded(lambda rows: change.flags(change.mask(rows, payload)), frame)
    exact, total = part is frame, len(frame)
    kept = int(mask.sum()) if exact or not len(part) else round(mask.mean() * total)
    kept_at, dropped_at = np.flatnonzero(mask), np.flatnonzero(~mask)
    show_dropped = min(len(dropped_at), 2 if len(kept_at) else _dry_run.SHOWN_ROWS)
    show_kept = min(len(kept_at), _dry_run.SHOWN_ROWS - show_dropped)
    before_at = sorted([*kept_at[:show_kept], *dropped_at[:show_dropped]])
    labels = [change.label(frame, c["column"], "where", name) for c in payload["where"]]
    tables = (_dry_run.shown(frame.iloc[before_at], labels, total=total),
              _dry_run.shown(frame.iloc[kept_at[:_dry_run.SHOWN_ROWS]], labels, total=kept))
    sampled = None if exact else \
        f"{_dry_run.on_sample(frame, part)}; the row counts are estimates"
    about = "" if exact else "about "
    target = name if into == name else f"{name} → {into}"
    summary = (f"{target}: {_dry_run.change(total, kept, 'row', about=about)}, "
               f"{_dry_run.count(frame.shape[1], 'column')}")
    effect = _dry_run.effect(name, into, frame, frame.columns, (total, kept),
                             sample_tables=tables, sampled=sampled)
    return summary, effect, []


def review_add_column(frame: Any, payload: Payload) -> Review:
    name, column = payload["frame"], payload["column"]
    part, values = _dry_run.bounded(lambda rows: change.values(rows, payload), frame)
    changed = part.copy(deep=False)  # copy on write: the frame itself is never changed
    changed[column] = values
    dtype, exact = change.dtype(changed, column), part is frame
    replaced = column in frame.columns
    reads = [label for label in change.reads(frame, payload["expression"]) if label != column]
    before_columns = [*reads, column] if replaced else reads
    total = len(frame)
    tables = (_dry_run.shown(part, before_columns, total=total, only=True),
              _dry_run.shown(changed, [*reads, column], total=total, only=True))
    count = frame.shape[1]
    notes = []
    if replaced:
        old = change.dtype(frame, column)
        notes.append(f"replaces the column {column} ({old} → {dtype})")
        summary = f"{name}: {_dry_run.count(total, 'row')}, {_dry_run.count(count, 'column')} " \
                  f"({column} replaced: {old} → {dtype})"
    else:
        summary = f"{name}: {_dry_run.count(total, 'row')}, " \
                  f"{_dry_run.change(count, changed.shape[1], 'column')} (adds {column}, {dtype})"
    effect = _dry_run.effect(name, name, frame, changed.columns, (total, total),
                             dtypes={column: dtype}, sample_tables=tables,
                             sampled=None if exact else _dry_run.on_sample(frame, part))
    return summary, effect, notes


def review_rename_columns(frame: Any, payload: Payload) -> Review:
    name = payload["frame"]
    head = frame.head(_dry_run.SHOWN_ROWS)
    renames = change.renames(frame, payload)
    renamed = change.renamed(head, payload)
    total = len(frame)
    tables = (_dry_run.shown(head, [old for old, _ in renames], total=total),
              _dry_run.shown(renamed, [new for _, new in renames], total=total))
    pairs = {str(old): new for old, new in renames}
    listed = _dry_run.names([f"{old} → {new}" for old, new in pairs.items()])
    summary = f"{name}: {_dry_run.count(total, 'row')}, " \
              f"{_dry_run.count(frame.shape[1], 'column')} (renames {listed})"
    effect = _dry_run.effect(name, name, frame, renamed.columns, (total, total),
                             renamed=pairs, sample_tables=tables)
    return summary, effect, []


def review_drop_columns(frame: Any, payload: Payload) -> Review:
    name = payload["frame"]
    head = frame.head(_dry_run.SHOWN_ROWS)
    dropped = change.dropped(head, payload)
    total = len(frame)
    tables = (_dry_run.shown(head, change.labels(frame, payload, "columns"), total=total),
              _dry_run.shown(dropped, total=total))
    summary = f"{name}: {_dry_run.count(total, 'row')}, " \
              f"{_dry_run.change(frame.shape[1], dropped.shape[1], 'column')} " \
              f"(drops {_dry_run.names(payload['columns'])})"
    effect = _dry_run.effect(name, name, frame, dropped.columns, (total, total),
                             sample_tables=tables)
    return summary, effect, []


def review_sort(frame: Any, payload: Payload) -> Review:
    name, ascending = payload["frame"], payload.get("ascending", True)
    labels = change.labels(frame, payload, "by")

    def sort(rows: Any) -> Any:
        return change.sorted_frame(rows, payload)

    part = _dry_run.sample(frame)
    first = sort(frame).head(_dry_run.SHOWN_ROWS) if part is frame else \
        _dry_run.first_sorted(frame, labels, ascending, sort)
    exact = first is not None
    if first is None:
        first = sort(part).head(_dry_run.SHOWN_ROWS)
    total = len(frame)
    tables = (_dry_run.shown(frame, labels, total=total),
              _dry_run.shown(first, labels, total=total))
    order = "" if ascending else " (descending)"
    summary = f"{name}: {_dry_run.count(total, 'row')}, " \
              f"{_dry_run.count(frame.shape[1], 'column')}, sorted by " \
              f"{_dry_run.names(payload['by'])}{order}"
    sampled = None if exact else (f"{_dry_run.on_sample(frame, part, 'sorted')}: the first "
                                  "rows of the whole frame may differ")
    effect = _dry_run.effect(name, name, frame, frame.columns, (total, total),
                             sample_tables=tables, sampled=sampled)
    return summary, effect, []


def review_group_aggregate(frame: Any, payload: Payload) -> Review:
    name, into = payload["frame"], payload["into"]
    part, grouped = _dry_run.bounded(lambda rows: change.grouped(rows, payload), frame)
    exact = part is frame
    sources = [label for label, _ in change.aggregations(frame, payload).values()]
    keys = change.labels(frame, payload, "by")
    total, groups = len(frame), len(grouped)
    tables = (_dry_run.shown(part, [*keys, *sources], total=total, only=True),
              _dry_run.shown(grouped, total=groups))
    known = {str(label) for label in frame.columns}
    dtypes = {str(c): str(t) for c, t in grouped.dtypes.items() if str(c) not in known}
    at_least = "" if exact else "at least "
    summary = f"{name} → {into}: {_dry_run.change(total, groups, 'row', about=at_least)}, " \
              f"{_dry_run.change(frame.shape[1], grouped.shape[1], 'column')}"
    sampled = None if exact else (
        f"{_dry_run.on_sample(frame, part)}; the row counts are estimates (the new frame has "
        f"at least {_dry_run.number(groups)} rows) and the values shown are the sample's")
    effect = _dry_run.effect(name, into, frame, grouped.columns, (total, groups),
                             dtypes=dtypes, sample_tables=tables, sampled=sampled)
    return summary, effect, []


#: The review of each mutating action.
REVIEWS: dict[str, Callable[[Any, Payload], Review]] = {
    "filter-rows": review_filter_rows,
    "add-column": review_add_column,
    "rename-columns": review_rename_columns,
    "drop-columns": review_drop_columns,
    "sort": review_sort,
    "group-aggregate": review_group_aggregate,
}
