"""The front end (js/src, bundled into dial_notebook/widget/static): its pure logic (URL checks,
field paths, how the transcript becomes cards, the questions panel's answer rules) under
node:test in js/test/*.test.mjs; the committed bundle is what esbuild makes of js/src today; the
modules type-check (tsc over their JSDoc). Each runs here so that pytest reports it.

Node is needed: without it these skip, except under ``CI``, where they fail. The npm
devDependencies (esbuild, typescript: package-lock.json) are installed with ``npm ci`` when
node_modules lacks them or holds other versions."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from dial_notebook.widget._chat_widget import STATIC

#: A static import in the (minified) bundle: ``import{a}from"x"``, ``import x from "y"``,
#: ``import"x"``, ``import*as x``.
IMPORT = re.compile(r"""(?:^|[;}\s])import\s*(?:[{*"']|[\w$]+\s*(?:,|from\b))""")

ROOT = Path(__file__).resolve().parents[2]
JS_TESTS = sorted((ROOT / "js" / "test").glob("*.test.mjs"))
BUNDLE = ("widget.js", "widget.css")  # the one bundle: ChatWidget's and Replay's


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI"):
            pytest.fail("node is needed for the front end's tests")
        pytest.skip("node is not installed")
    return node


def _dev_dependencies() -> Path:
    """node_modules with the pinned esbuild and typescript, installed by ``npm ci`` if not."""
    _node()
    modules = ROOT / "node_modules"
    pinned = json.loads((ROOT / "package.json").read_text())["devDependencies"]

    def installed(name: str) -> str | None:
        manifest = modules / name / "package.json"
        return json.loads(manifest.read_text()).get("version") if manifest.exists() else None

    if any(installed(name) != version for name, version in pinned.items()):
        npm = shutil.which("npm")
        if npm is None:
            if os.environ.get("CI"):
                pytest.fail("npm is needed to install the front end's devDependencies")
            pytest.skip("npm is not installed")
        run = subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=ROOT,
                             capture_output=True, text=True, timeout=300, check=False)
        assert run.returncode == 0, run.stdout + run.stderr
        assert all(installed(name) == version for name, version in pinned.items()), (
            run.stdout + run.stderr)
    return modules


def test_there_are_front_end_tests():
    assert {p.name for p in JS_TESTS} >= {"widget.test.mjs", "questions.test.mjs", "replay.test.mjs"}


@pytest.mark.parametrize("path", JS_TESTS, ids=lambda p: p.name)
def test_the_front_ends_pure_logic_passes_its_node_tests(path):
    run = subprocess.run([_node(), "--test", str(path)], capture_output=True, text=True,
                         timeout=60, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "# fail 0" in run.stdout and "# pass 0" not in run.stdout


def test_the_front_end_and_the_runtime_name_the_same_hidden_characters():
    """A command the runtime flags suspicious is the one the card marks, code point for code
    point: both read the same Unicode categories (dial/_unicode.py, js/src/text.js)."""
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
    text = ROOT / "js" / "src" / "text.js"
    run = subprocess.run([_node(), "--input-type=module", "-e", script, text.as_uri()],
                         capture_output=True, text=True, timeout=120, check=True)
    in_browser = set(json.loads(run.stdout))
    in_python = {p for p in range(sys.maxunicode + 1) if is_hidden(chr(p))}
    assert in_browser == in_python
    assert {0x202E, 0x2066, 0x2069, 0x200B, 0x1B, 0xFEFF} <= in_python


def test_the_committed_bundle_is_what_js_src_builds(tmp_path):
    """Edit js/src, then ``npm run build``: a bundle that is not rebuilt fails here."""
    _dev_dependencies()
    run = subprocess.run([_node(), str(ROOT / "js" / "build.mjs"), "--outdir", str(tmp_path)],
                         cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(BUNDLE)
    for name in BUNDLE:
        built, committed = (tmp_path / name).read_bytes(), (STATIC / name).read_bytes()
        assert built == committed, (
            f"dial_notebook/widget/static/{name} is not what js/src builds: run `npm run build`")
    # nothing else ships: a file left from an older build (replay.js) is in no widget
    assert sorted(p.name for p in STATIC.iterdir()) == sorted(BUNDLE)


def test_both_widgets_load_the_one_bundle():
    """The wheel carries each module once: ChatWidget and Replay load the same files, and the
    bundle's render picks the view from the model's ``_view`` trait (the Replay's only)."""
    from dial_notebook.widget import ChatWidget, Replay

    source = (STATIC / "widget.js").read_text(encoding="utf-8")
    css = (STATIC / "widget.css").read_text(encoding="utf-8")
    assert str(ChatWidget._esm) == str(Replay._esm) == source
    assert str(ChatWidget._css) == str(Replay._css) == css
    assert Replay(Replay.EXAMPLE).get_state()["_view"] == "replay"
    assert "_view" not in ChatWidget.class_trait_names(sync=True)


def test_the_bundle_is_one_plain_es_module_with_a_default_export():
    """What anywidget loads: one file (it imports nothing), whose default export initializes
    the model (appends to the transcript) and renders."""
    source = (STATIC / "widget.js").read_text(encoding="utf-8")
    assert source.startswith("// generated by esbuild from js/src — edit js/src, then "
                             "`npm run build`")
    assert re.search(r"\bexport\s*\{[^}]*\bwidget_default as default\b[^}]*\};?\s*$", source)
    assert re.search(r"\bvar widget_default\s*=\s*\{\s*initialize:\s*initializeModel,\s*"
                     r"render:\s*renderView\s*\};", source)
    assert not IMPORT.search(source)
    assert (STATIC / "widget.css").read_text(encoding="utf-8").startswith(
        "/* generated by esbuild from js/src")


def test_the_front_end_type_checks():
    """tsc over the modules' JSDoc (js/tsconfig.json: checkJs, strict)."""
    modules = _dev_dependencies()
    run = subprocess.run([_node(), str(modules / "typescript" / "bin" / "tsc"), "-p",
                          str(ROOT / "js")], cwd=ROOT, capture_output=True, text=True,
                         timeout=180, check=False)
    assert run.returncode == 0, run.stdout + run.stderr


def test_the_rules_that_hide_the_copy_look_a_few_levels_down_only():
    """chat.css hides the static copy after the live widget with :has() on the notebook's output
    areas. A :has() that searched an output's whole subtree made the page walk the widget's
    every node (22,000 at 2,000 events) at each entry added: 2 ms of style each time. Every
    :has() on an output area names its path with child combinators (``>``), a few levels deep."""
    css = (STATIC / "widget.css").read_text(encoding="utf-8")
    found = re.findall(r"(?:\.jp-OutputArea-child|\.output_area):has\(((?:[^()]|\([^()]*\))*)\)",
                       css)
    assert len(found) >= 12  # three states, each side, JupyterLab's and the classic notebook's
    for argument in found:
        for part in argument.split(","):
            assert part.strip().startswith(">"), part
            assert part.count("*") <= 2, part
