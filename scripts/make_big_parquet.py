"""Write a sales-like Parquet data set of any size, for the tables domain's benchmark and notebook.

    python scripts/make_big_parquet.py --rows 100_000_000 --out /tmp/sales-100m [--files 8]

The columns are those of the demo's ``sales.csv`` (``scripts/make_sales_data.py``): date,
region, product, size, price, units; prices depend on product and size, units fall as the
price rises and vary by region. Every value is a function of the row's number (bits of
DuckDB's ``hash``), so a data set of N rows is the same every time, and its rows are made by DuckDB
itself (``range()``, no Python loop, nothing in pandas): one ``COPY … TO`` per file, row
groups of about a million rows. Write it outside the repository (``/tmp``): 100 million rows
are a few GB.

    >>> import tempfile, duckdb
    >>> folder = tempfile.mkdtemp()
    >>> written = write(1_000, folder, files=2)
    >>> query = f"select count(*) from '{folder}/*.parquet'"
    >>> len(written), duckdb.connect().execute(query).fetchone()[0]
    (2, 1000)
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

#: Rows in one Parquet row group.
ROW_GROUP = 1_000_000

#: One row of sales from the row number ``i``: each column draws its own bits of ``hash(i)``.
SELECT = """
with hashed as (
    select i, hash(i) as h from range({start}, {stop}) as t(i)
), drawn as (
    select i,
           cast(h % 366 as integer) as day,
           cast((h >> 9) % 4 as integer) as p,
           cast((h >> 11) % 10 as integer) as s,
           cast((h >> 15) % 4 as integer) as r,
           cast((h >> 17) % 10000 as double) / 10000 as jitter,
           cast((h >> 31) % 10000 as double) / 10000 as noise
    from hashed
), priced as (
    select *,
           list_extract([4.0, 12.5, 25.0, 7.5]::double[], p + 1)
             * (case when s < 3 then 0.8 when s < 8 then 1.0 else 1.35 end)
             * (0.9 + 0.2 * jitter) as raw
    from drawn
)
select date '2024-01-01' + day as date,
       ['North', 'South', 'East', 'West'][r + 1] as region,
       ['Widget', 'Gadget', 'Gizmo', 'Doohickey'][p + 1] as product,
       case when s < 3 then 'S' when s < 8 then 'M' else 'L' end as size,
       round(raw, 2) as price,
       greatest(1, cast(round(60 / sqrt(raw)
                              * list_extract([1.1, 0.9, 1.0, 1.25]::double[], r + 1)
                              * (0.75 + 0.5 * noise)) as bigint)) as units
from priced
"""


def write(rows: int, out: str | Path, *, files: int | None = None) -> list[Path]:
    """Write ``rows`` rows as ``files`` Parquet files (by default one per ~12.5M rows) in
    ``out`` (made if missing; earlier ``part-*.parquet`` there are replaced); their paths."""
    import duckdb

    if rows < 1:
        raise ValueError("rows must be at least 1")
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("part-*.parquet"):
        old.unlink()
    count = files if files is not None else max(1, -(-rows // 12_500_000))
    count = max(1, min(count, rows))
    connection = duckdb.connect()
    written = []
    try:
        for index in range(count):
            start, stop = rows * index // count, rows * (index + 1) // count
            path = folder / f"part-{index:03d}.parquet"
            query = SELECT.format(start=start, stop=stop)
            connection.execute(f"copy ({query}) to '{path}' "
                               f"(format parquet, row_group_size {ROW_GROUP}, compression zstd)")
            written.append(path)
    finally:
        connection.close()
    return written


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=lambda text: int(text.replace("_", "")), required=True)
    parser.add_argument("--out", required=True, help="the folder to write (outside the repo)")
    parser.add_argument("--files", type=int, default=None)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    paths = write(args.rows, args.out, files=args.files)
    size = sum(path.stat().st_size for path in paths)
    print(f"{args.rows:,} rows in {len(paths)} files, {size / 1e9:.2f} GB, "
          f"{time.perf_counter() - started:.1f} s: {Path(args.out) / 'part-*.parquet'}")


if __name__ == "__main__":
    main()
