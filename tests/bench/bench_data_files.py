"""Benchmark of the files a person may be sent, read as data, and of judging a hostile reply:

    .venv/bin/python tests/bench/bench_data_files.py [--quick]

Printed: the seconds to read and check a saved report of N scenarios (Report.load), a YAML
scenario file near its size cap (load_scenarios), a saved conversation of N events (the
replay's read_saved); and, for an evaluation whose agent replies with 2 MB of misspelt tags,
the longest the event loop was held (tests/stall_watchdog.py) and the scenario's wall time.

Prints figures; asserts nothing about time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from dial_notebook.agents import ScriptedAgent  # noqa: E402
from dial_notebook.evaluation import Report, evaluate, load_scenarios  # noqa: E402
from dial_notebook.evaluation._scenario import MAX_SCENARIO_BYTES  # noqa: E402
from dial_notebook.widget._replay_source import read_saved  # noqa: E402
from tests.stall_watchdog import LoopWatch, watch_loop  # noqa: E402
from tests.unit.test_evaluation import GOOD, todo_domain  # noqa: E402


def timed(fn, *args):  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    fn(*args)
    return time.perf_counter() - start


async def report_file(folder: Path, scenarios: int) -> Path:
    report = await evaluate(agent=lambda: ScriptedAgent(list(GOOD)), domain=todo_domain(),
                            scenarios=[{"name": f"s{i}", "say": ["add milk"]}
                                       for i in range(scenarios)])
    return report.save(folder / "report.json")


def yaml_file(folder: Path) -> Path:
    item = ("- name: s{}\n  say: [add milk please, and bread]\n  expect:\n"
            "    actions: [add-todo]\n    payloads:\n      add-todo: {{type: object, "
            "required: [title]}}\n")
    text, n = "", 0
    while len(text) + len(item) + 8 < MAX_SCENARIO_BYTES:
        text += item.format(n)
        n += 1
    path = folder / "scenarios.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def snapshot_file(folder: Path, events: int) -> Path:
    four = [{"type": "sent", "turn": 1, "message": "x" * 200},
            {"type": "reply", "turn": 1, "text": "y" * 400},
            {"type": "suggestion", "id": "s1", "action": "a", "text": "t", "payload": {"a": 1},
             "preview": "p", "destructive": False, "mutates": True},
            {"type": "outcome", "id": "s1", "action": "a", "status": "done", "preview": "p",
             "result": {"k": list(range(20))}}]
    path = folder / "conversation.json"
    path.write_text(json.dumps({"format": "dial-notebook/conversation", "version": 1,
                                "transcript": four * (events // 4)}), encoding="utf-8")
    return path


async def hostile_evaluation() -> tuple[float, float]:
    reply = ('<dial version="0.1" actor="agent">'
             + "<dial-infrom>x</dial-infrom>" * (2_000_000 // 28) + "</dial>")
    watch = LoopWatch(limit=1e9)
    start = time.perf_counter()
    async with watch_loop(limit=1e9, watch=watch):
        await evaluate(agent=lambda: ScriptedAgent([reply]), domain=todo_domain(),
                       scenario_timeout=1.0, scenarios=[{"name": "misspelt", "say": ["hi"]}])
    return watch.worst, time.perf_counter() - start


def main(quick: bool) -> None:
    scenarios, events = (50, 4_000) if quick else (1_000, 100_000)
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        path = asyncio.run(report_file(folder, scenarios))
        print(f"Report.load, {scenarios} scenarios ({path.stat().st_size / 1e6:.1f} MB): "
              f"{timed(Report.load, path):.3f} s")
        path = yaml_file(folder)
        print(f"load_scenarios, YAML of {path.stat().st_size / 1e3:.0f} kB: "
              f"{timed(load_scenarios, path):.3f} s")
        path = snapshot_file(folder, events)
        print(f"read_saved (replay), {events} events ({path.stat().st_size / 1e6:.1f} MB): "
              f"{timed(read_saved, path):.3f} s")
    worst, wall = asyncio.run(hostile_evaluation())
    print(f"evaluate, a 2 MB reply of misspelt tags (scenario_timeout=1): loop held at most "
          f"{worst:.3f} s; {wall:.2f} s in all")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    main(parser.parse_args().quick)
