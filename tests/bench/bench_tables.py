"""Benchmark: the tables domain on 100 million rows of Parquet, through a ``Conversation``, side
by side with the dataframes domain on the largest frame pandas holds here comfortably (prints
times and memory, asserts none).

    .venv/bin/python tests/bench/bench_tables.py [--quick] [--rows 100_000_000]
                                                 [--frames-rows 10_000_000] [--data DIR]

The data is made by ``scripts/make_big_parquet.py`` (DuckDB's ``range()``, sales-like columns)
in ``DIR`` (default ``/tmp/dial-notebook-bench``; never in the repository), once per size.
In one process, a scripted agent proposes and an accepting human accepts, over
``TablesDomain({"sales": "<DIR>/part-*.parquet"})``: describe, an added column, a filter into a
new table, a group-by and a plot. Printed: each dry run's time against its bound (the card's,
computed by the engine), each run's time, the longest the event loop was held (a heartbeat
on it) and the peak memory of the process (its RSS, from ``resource.getrusage``). Then the
same steps on ``DataFramesDomain`` in a child process (its own peak memory), on a data set
of ``--frames-rows`` rows made the same way and read into pandas.

``--quick`` (used by the test that checks every benchmark still runs): 200,000 rows each.
The targets (issue 30): every dry run within about a second, peak memory under 2 GB, a
group-by under 10 s on 2 cores.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import resource
import subprocess
import sys
import time
import warnings
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
ROWS = 100_000_000
FRAMES_ROWS = 10_000_000
QUICK_ROWS = 200_000
DATA = Path("/tmp/dial-notebook-bench")

#: The conversation: (label, action, payload), proposed one at a time and accepted.
STEPS: list[tuple[str, str, dict[str, Any]]] = [
    ("describe", "describe", {"frame": "sales"}),
    ("add a column", "add-column",
     {"frame": "sales", "column": "revenue", "expression": "round(price * units, 2)"}),
    ("filter into a table", "filter-rows",
     {"frame": "sales", "into": "north", "where": [
         {"column": "region", "op": "==", "value": "North"},
         {"column": "units", "op": ">", "value": 20}]}),
    ("group-by", "group-aggregate",
     {"frame": "sales", "by": ["region", "product"], "into": "totals",
      "aggregations": [{"column": "revenue", "func": "sum"},
                       {"column": "units", "func": "mean"}]}),
    ("plot", "plot", {"frame": "sales", "kind": "hist", "x": "price", "bins": 30}),
]


def _rows(text: str) -> int:
    return int(text.replace("_", "").replace(",", ""))


def peak_memory_mb() -> float:
    """The process's peak resident memory so far, in MB (Linux reports KB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def data_set(rows: int, folder: Path) -> Path:
    """The folder of ``rows`` rows of sales as Parquet: made once per size, then reused."""
    target = folder / f"sales-{rows}"
    done = folder / f"sales-{rows}.json"  # beside the folder: only Parquet files in it
    if done.exists() and json.loads(done.read_text()).get("rows") == rows:
        return target
    spec = importlib.util.spec_from_file_location("make_big_parquet",
                                                  ROOT / "scripts" / "make_big_parquet.py")
    assert spec is not None and spec.loader is not None
    maker = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(maker)
    started = time.perf_counter()
    paths = maker.write(rows, target)
    size = sum(path.stat().st_size for path in paths)
    print(f"made {rows:,} rows in {len(paths)} Parquet files ({size / 1e9:.2f} GB) in "
          f"{time.perf_counter() - started:.1f} s: {target}")
    done.write_text(json.dumps({"rows": rows}))
    return target


class Timed:
    """The domain, its dry runs and runs timed (everything else passed through)."""

    def __init__(self, domain: Any) -> None:
        self._domain = domain
        self.times: list[tuple[str, str, float, Any]] = []  # (what, action, seconds, value)
        if hasattr(domain, "run_async"):  # the runtime awaits it when the domain has one
            self.run_async = self._run_async

    def __getattr__(self, name: str) -> Any:
        return getattr(self._domain, name)

    def dry_run(self, action: str, payload: Any) -> Any:
        started = time.perf_counter()
        value = self._domain.dry_run(action, payload)
        self.times.append(("dry run", action, time.perf_counter() - started, value))
        return value

    def run(self, action: str, payload: Any) -> Any:
        started = time.perf_counter()
        value = self._domain.run(action, payload)
        self.times.append(("run", action, time.perf_counter() - started, value))
        return value

    async def _run_async(self, action: str, payload: Any) -> Any:
        started = time.perf_counter()
        value = await self._domain.run_async(action, payload)
        self.times.append(("run", action, time.perf_counter() - started, value))
        return value


class Agent:
    """Proposes the steps, one per say; acknowledges each outcome."""

    def __init__(self) -> None:
        self.replies: list[str] = []

    def propose(self, action: str, payload: dict[str, Any]) -> None:
        body = json.dumps(payload).replace("<", "\\u003c")
        self.replies = [f'<dial><dial-suggest id="s{len(payload)}{action}" action="{action}">'
                        f'<dial-payload type="application/json">{body}</dial-payload>'
                        "</dial-suggest></dial>"]

    async def send(self, message: str) -> str:
        if self.replies:
            return self.replies.pop(0)
        return "<dial><dial-acknowledge>Noted.</dial-acknowledge></dial>"


async def converse(domain: Any, bound: float | None) -> list[tuple[str, str, str]]:
    """The steps proposed and accepted through a Conversation; each one's figures printed."""
    from dial_notebook import Conversation, policy_human

    timed, agent, held = Timed(domain), Agent(), [0.0]
    beating = asyncio.create_task(heartbeat(held))
    talk = Conversation(agent=agent, domain=timed, human=policy_human("accept"), timeout=600,
                        run_timeout=3600, max_turns=4)
    statuses = []
    for label, action, payload in STEPS:
        timed.times.clear()
        agent.propose(action, payload)
        started = time.perf_counter()
        result = await talk.say(label)
        took = time.perf_counter() - started
        outcome = result.outcomes[0] if result.outcomes else {"status": "no outcome"}
        statuses.append((label, action, outcome["status"]))
        for what, _, seconds, value in timed.times:
            against = f" (bound {bound:g} s)" if what == "dry run" and bound else ""
            said = value.get("summary", "") if what == "dry run" and value else ""
            print(f"  {label:<20} {what:<8} {seconds:8.2f} s{against}  {said}")
        rows = (outcome.get("result") or {}).get("rows") if outcome.get("result") else None
        print(f"  {label:<20} outcome  {outcome['status']} in {took:.2f} s"
              + (f", rows {rows:,}" if isinstance(rows, int) else "")
              + (f", {outcome.get('code')}: {outcome.get('hint')}" if outcome.get("code") else ""))
    beating.cancel()
    print(f"  the event loop's longest hold (a 10 ms heartbeat's lateness): {held[0]:.2f} s")
    return statuses


async def heartbeat(held: list[float], interval: float = 0.01) -> None:
    """Note in ``held[0]`` the longest time the loop could not wake this task up."""
    loop = asyncio.get_running_loop()
    while True:
        started = loop.time()
        await asyncio.sleep(interval)
        held[0] = max(held[0], loop.time() - started - interval)


def tables_part(rows: int, folder: Path) -> None:
    from dial_notebook.domains.tables import TablesDomain

    data = data_set(rows, folder)
    print(f"TablesDomain (DuckDB) on {rows:,} rows of Parquet, in this process:")
    started = time.perf_counter()
    tables = TablesDomain({"sales": str(data / "part-*.parquet")})
    print(f"  opened in {time.perf_counter() - started:.2f} s: {tables.context().splitlines()[1]}")
    statuses = asyncio.run(converse(tables, tables.dry_run_seconds))
    print(f"  outcomes: {', '.join(f'{label} {status}' for label, _, status in statuses)}")
    print(f"  peak memory (RSS) of this process: {peak_memory_mb():,.0f} MB")


def frames_part(rows: int, folder: Path) -> None:
    import pandas as pd

    from dial_notebook import DataFramesDomain

    data = data_set(rows, folder)
    started = time.perf_counter()
    sales = pd.read_parquet(data)
    held = sales.memory_usage(deep=True).sum() / 1e6
    print(f"DataFramesDomain (pandas) on {len(sales):,} rows, in a process of its own "
          f"(read in {time.perf_counter() - started:.1f} s, {held:,.0f} MB in pandas):")
    statuses = asyncio.run(converse(DataFramesDomain({"sales": sales}), None))
    print(f"  outcomes: {', '.join(f'{label} {status}' for label, _, status in statuses)}")
    print(f"  peak memory (RSS) of that process: {peak_memory_mb():,.0f} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_ROWS:,} rows each")
    parser.add_argument("--rows", type=_rows, default=ROWS, help=f"(default {ROWS:,})")
    parser.add_argument("--frames-rows", type=_rows, default=FRAMES_ROWS,
                        help=f"rows for pandas (default {FRAMES_ROWS:,}); 0: skip it")
    parser.add_argument("--data", type=Path, default=DATA, help=f"(default {DATA})")
    parser.add_argument("--frames-only", action="store_true", help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    rows = QUICK_ROWS if arguments.quick else arguments.rows
    frames_rows = QUICK_ROWS if arguments.quick else arguments.frames_rows
    warnings.simplefilter("ignore", DeprecationWarning)  # Ibis 12's own, on DuckDB 2
    if arguments.frames_only:
        frames_part(frames_rows, arguments.data)
        return
    tables_part(rows, arguments.data)
    if frames_rows:
        child = [sys.executable, __file__, "--frames-only", "--frames-rows", str(frames_rows),
                 "--data", str(arguments.data)]
        subprocess.run(child, check=True)


if __name__ == "__main__":
    main()
