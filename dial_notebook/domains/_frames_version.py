"""The version of a frame in a namespace: a short token that changes when the frame does.

A proposal records the version of the frames it works on, and the runtime compares it again
before Accept runs it (runtime/_stale.py), so a version must be cheap (milliseconds, whatever
the frame's size) and see what a person's cell does to a frame:

    another object bound to the name      its identity, and the domain's latest change to it
    shape, column names, dtypes changed   hashed
    values changed in place
      a frame of at most WHOLE_CELLS      every cell hashed (``hash_pandas_object``, index too)
      cells (a text cell weighs more)
      and WHOLE_COLUMNS columns
      a larger one                        the cells of a fixed sample of rows (both ends, and
                                          rows spread evenly between), of its first and last
                                          ``SAMPLE_COLUMNS`` columns, hashed; and a checksum of
                                          every row of each fixed-width column (numbers,
                                          booleans, times: the sum of their bits as integers,
                                          so a missing value changes it too), of at most
                                          ``SUM_COLUMNS`` columns and ``SUM_CELLS`` cells

Not seen in a larger frame: a change to a text (or other object) cell outside the sampled rows,
values of one column swapped between rows, a change to a column past the summed ones.
Measured here (2 shared cores, the best of 7): hashed whole, 1–9 ms (500,000 numbers; 9,259
rows of 4 number columns and a text one: 0.5 ms); sampled, 1–4 ms (2 million rows × 5
columns), 6 ms (10 million × 4), 17 ms (100,000 × 1,000).

    >>> import pandas as pd
    >>> frame = pd.DataFrame({"a": [1, 2]})
    >>> before = frame_version({"df": frame}, "df", None)
    >>> frame.loc[1, "a"] = 5
    >>> frame_version({"df": frame}, "df", None) == before
    False
"""

from __future__ import annotations

import hashlib
from typing import Any

from ._frames import require_pandas

#: A frame of at most this many cells (and columns) is hashed whole: a few milliseconds. A
#: text (or other object) cell counts ``TEXT_WEIGHT`` cells: hashing it costs that much more.
WHOLE_CELLS = 500_000
WHOLE_COLUMNS = 100
TEXT_WEIGHT = 50
#: A larger frame: the rows of its fixed sample (at most ``SAMPLE_CELLS`` cells, weighed as
#: above), of its first and last columns…
SAMPLE_ROWS = 2_000
SAMPLE_CELLS = 500_000
SAMPLE_COLUMNS = 50
#: … and the checksums of its fixed-width columns, within these bounds.
SUM_COLUMNS = 200
SUM_CELLS = 20_000_000

_MISSING = object()


def frame_version(namespace: dict[str, Any], name: str, made_by: int | None) -> str:
    """A short token of what ``name`` holds in ``namespace``: another object bound to it (the
    object's identity, and ``made_by``, the domain's latest change to it, so an id used again
    is not the same), or the frame changed in place, give another token."""
    pd = require_pandas()
    value = namespace.get(name, _MISSING)
    if value is _MISSING:
        return "absent"
    if not isinstance(value, pd.DataFrame):
        return f"not a frame: {type(value).__name__} {id(value)}"
    digest = hashlib.blake2b(digest_size=12)
    types = [t.str if type(t).__module__ == "numpy" else str(t) for t in value.dtypes]
    digest.update(repr((value.shape, [str(c) for c in value.columns], types)).encode())
    rows, columns = value.shape
    if columns <= WHOLE_COLUMNS and rows * row_cost(value) <= WHOLE_CELLS:
        _hash(digest, value)
    else:
        _hash(digest, _sample(value))
        digest.update(_checksums(value))
    return f"{id(value)}:{made_by}:{digest.hexdigest()}"


def _hash(digest: Any, part: Any) -> None:
    """Every cell of ``part`` and its index into ``digest`` (a ``RangeIndex`` by its range)."""
    pd = require_pandas()
    index = part.index
    if isinstance(index, pd.RangeIndex):
        digest.update(repr((index.start, index.stop, index.step)).encode())
    else:
        _update(digest, index)
    try:
        digest.update(_contiguous(pd.util.hash_pandas_object(part, index=False)))
    except (TypeError, ValueError):  # cells it cannot hash (lists, dicts…): a column at a time
        for _label, column in part.items():
            _update(digest, column)


def _update(digest: Any, values: Any) -> None:
    pd = require_pandas()
    try:
        digest.update(_contiguous(pd.util.hash_pandas_object(values, index=False)))
    except (TypeError, ValueError):
        digest.update(b"unhashable")


def _contiguous(hashes: Any) -> Any:
    """The row hashes as a buffer (no copy to bytes)."""
    import numpy

    return memoryview(numpy.ascontiguousarray(hashes.to_numpy()))


def row_cost(frame: Any) -> int:
    """The cost of hashing one row of ``frame``, in cells of numbers (``TEXT_WEIGHT`` for a
    text or other object cell).

        >>> import pandas as pd
        >>> row_cost(pd.DataFrame({"a": [1], "b": [2.0], "c": ["x"]}))
        52
    """
    return sum(1 if _cheap(dtype) else TEXT_WEIGHT for dtype in frame.dtypes)


def _cheap(dtype: Any) -> bool:
    return getattr(dtype, "kind", "O") in "biufmM" or str(dtype) == "category"


def _sample(frame: Any) -> Any:
    """The rows of a fixed sample of ``frame`` (its ends, and rows spread evenly between: the
    same positions for the same length), of its first and last ``SAMPLE_COLUMNS`` columns."""
    import numpy

    pd = require_pandas()
    rows, columns = frame.shape
    kept = list(range(columns))
    if columns > 2 * SAMPLE_COLUMNS:
        kept = kept[:SAMPLE_COLUMNS] + kept[-SAMPLE_COLUMNS:]
    dtypes = list(frame.dtypes)
    cost = sum(1 if _cheap(dtypes[n]) else TEXT_WEIGHT for n in kept)
    wanted = max(1, min(SAMPLE_ROWS, SAMPLE_CELLS // max(1, cost)))
    if rows <= wanted:
        positions = numpy.arange(rows)
    else:
        ends = min(100, wanted // 4)
        spread = numpy.linspace(ends, rows - ends - 1, wanted - 2 * ends).astype(numpy.int64)
        positions = numpy.unique(numpy.concatenate(
            [numpy.arange(ends), spread, numpy.arange(rows - ends, rows)]))
    # column by column: a wide frame's block is never copied whole
    taken = {n: frame.iloc[:, n].array.take(positions) for n in kept}
    return pd.DataFrame(taken, index=frame.index.take(positions), copy=False)


def _checksums(frame: Any) -> bytes:
    """The sum, as unsigned integers, of the bits of every value of each fixed-width column
    (numpy numbers, booleans, times; a nullable number's values and mask), of at most
    ``SUM_COLUMNS`` such columns and ``SUM_CELLS`` cells: any one value changed changes it."""
    import numpy

    left = max(1, min(SUM_COLUMNS, SUM_CELLS // max(1, len(frame))))
    sums: list[int] = []
    for _label, column in frame.items():
        parts = [_bits(part) for part in _arrays(column)]
        if not parts or any(part is None for part in parts):
            continue  # text, objects, categories…: only the sample sees them
        sums += [int(part.sum(dtype=numpy.uint64)) for part in parts]
        left -= 1
        if left == 0:
            break
    return repr(sums).encode()


def _arrays(column: Any) -> list[Any]:
    """The numpy arrays holding a column's values: its own, a time column's, or a nullable
    column's values and mask."""
    array = column.array
    if hasattr(array, "_data") and hasattr(array, "_mask"):  # Int64, Float64, boolean
        return [array._data, array._mask]
    if hasattr(array, "_ndarray"):  # numpy-backed, times with a time zone too
        return [array._ndarray]
    return [column.to_numpy(copy=False)] if column.dtype.kind in "biufmM" else []


def _bits(part: Any) -> Any:
    """A fixed-width numpy array seen as unsigned integers of its width (None otherwise)."""
    import numpy

    if not isinstance(part, numpy.ndarray) or part.dtype.kind not in "biufmM":
        return None
    width = part.dtype.itemsize
    return part.view(f"u{width}") if width in (1, 2, 4, 8) else None
