"""The front end's pure logic (URL checks, field paths, how the transcript becomes cards), tested
with node:test in js/widget.test.mjs; this runs it so pytest reports it."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

JS_TESTS = Path(__file__).resolve().parents[2] / "js" / "widget.test.mjs"


def test_the_front_ends_pure_logic_passes_its_node_tests():
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI"):
            pytest.fail("node is needed for js/widget.test.mjs")
        pytest.skip("node is not installed")
    run = subprocess.run([node, "--test", str(JS_TESTS)], capture_output=True, text=True,
                         timeout=60, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "# fail 0" in run.stdout
