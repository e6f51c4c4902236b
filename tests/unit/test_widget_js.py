"""The front end's pure logic (URL checks, field paths, how the transcript becomes cards, the
questions panel's answer rules), tested with node:test in js/*.test.mjs; this runs each file so
pytest reports it."""

from __future__ import annotations

import json
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


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI"):
            pytest.fail("node is needed for the front end's tests")
        pytest.skip("node is not installed")
    return node


def test_the_front_end_and_the_runtime_name_the_same_hidden_characters():
    """A command the runtime flags suspicious is the one the card marks, code point for code
    point: both read the same Unicode categories (dial/_unicode.py, js/widget.js)."""
    import sys

    from dial_notebook.dial._unicode import is_hidden

    script = (
        'const { revealHidden } = await import(process.argv[1]);\n'
        'const hidden = [];\n'
        'for (let p = 0; p <= 0x10FFFF; p += 1) {\n'
        '  const c = String.fromCodePoint(p);\n'
        '  if (revealHidden(c) !== c) hidden.push(p);\n'
        '}\n'
        'process.stdout.write(JSON.stringify(hidden));\n'
    )
    widget = Path(__file__).resolve().parents[2] / "js" / "widget.js"
    run = subprocess.run([_node(), "--input-type=module", "-e", script, widget.as_uri()],
                         capture_output=True, text=True, timeout=120, check=True)
    in_browser = set(json.loads(run.stdout))
    in_python = {p for p in range(sys.maxunicode + 1) if is_hidden(chr(p))}
    assert in_browser == in_python
    assert {0x202E, 0x2066, 0x2069, 0x200B, 0x1B, 0xFEFF} <= in_python
