"""Every benchmark script still runs (in its quick mode) and prints figures.

The figures themselves are read by people (``./scripts/dev bench``); no test asserts speed.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCHES = sorted((ROOT / "tests" / "bench").glob("bench_*.py"))


def test_there_are_benchmarks():
    assert BENCHES


@pytest.mark.parametrize("path", BENCHES, ids=lambda p: p.name)
def test_benchmark_runs_in_quick_mode_and_prints_figures(path):
    out = subprocess.run([sys.executable, str(path), "--quick"], cwd=ROOT, capture_output=True,
                         text=True, timeout=110)
    assert out.returncode == 0, out.stderr[-2000:]
    assert any(ch.isdigit() for ch in out.stdout), out.stdout
