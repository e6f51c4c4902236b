"""The front end's pure logic (URL checks, field paths, how the transcript becomes cards, the
questions panel's answer rules), tested with node:test in js/*.test.mjs; this runs each file so
pytest reports it."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

JS_TESTS = sorted((Path(__file__).resolve().parents[2] / "js").glob("*.test.mjs"))


def test_there_are_front_end_tests():
    assert {p.name for p in JS_TESTS} >= {"widget.test.mjs", "questions.test.mjs"}


@pytest.mark.parametrize("path", JS_TESTS, ids=lambda p: p.name)
def test_the_front_ends_pure_logic_passes_its_node_tests(path):
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI"):
            pytest.fail(f"node is needed for js/{path.name}")
        pytest.skip("node is not installed")
    run = subprocess.run([node, "--test", str(path)], capture_output=True, text=True,
                         timeout=60, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "# fail 0" in run.stdout and "# pass 0" not in run.stdout
