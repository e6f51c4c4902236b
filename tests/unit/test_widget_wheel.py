"""An installed copy finds its own front end: the wheel carries the bundle inside the package,
and ChatWidget loads it from there, whatever else is installed beside it — here a top-level
``js`` package with a decoy widget.js, which other packages create (an installed copy used to
read ``site-packages/js``). It carries the notebooks too: the installed ``dial-notebook``
command copies them out, and the copied quickstart runs on a kernel of the installed copy.

Offline: the wheel is built with the hatchling of this environment (``--no-build-isolation``)
and installed with ``--no-index --no-deps`` into a fresh venv whose dependencies come from this
environment's site-packages (a path in a .pth file, so this checkout's editable install is not
seen there)."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from dial_notebook.widget._chat_widget import STATIC

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted([*(p.name for p in (ROOT / "notebooks").glob("*.ipynb")),
                    "quickstart_marimo.py"])
SALES = ROOT / "dial_notebook" / "domains" / "data" / "sales.csv"
DECOY = "export default { render() { throw new Error('the wrong front end'); } };\n"
PROBE = """
import json, sys
from pathlib import Path
import dial_notebook
from dial_notebook.widget import ChatWidget
static = Path(dial_notebook.__file__).parent / "widget" / "static"
print(json.dumps({
    "package": dial_notebook.__file__,
    "esm": str(ChatWidget._esm),
    "css": str(ChatWidget._css),
    "static": str(static),
    "js": __import__("js").__file__ or "",
}))
"""

pytestmark = pytest.mark.install


def _pip(*args: str, cwd: Path) -> None:
    run = subprocess.run([sys.executable, "-m", "pip", "--disable-pip-version-check",
                          "--no-input", *args], cwd=cwd, capture_output=True, text=True,
                         timeout=180, check=False, env={**os.environ, "PIP_NO_INDEX": "1"})
    assert run.returncode == 0, run.stdout + run.stderr


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    if importlib.util.find_spec("hatchling") is None:  # in the test extra: fails, never skips
        pytest.fail("hatchling (the build backend, in the test extra) is needed to build the "
                    "wheel: pip install -e '.[test]'")
    tmp = tmp_path_factory.mktemp("wheel")
    _pip("wheel", str(ROOT), "--no-deps", "--no-build-isolation", "--no-index",
         "--wheel-dir", str(tmp / "dist"), cwd=tmp)
    [wheel] = (tmp / "dist").glob("dial_notebook-*.whl")

    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True,
                   timeout=60)
    python = venv / "bin" / "python"
    site = Path(subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True, text=True, check=True, timeout=30).stdout.strip())
    # the dependencies: this environment's site-packages, after the fresh one's own
    (site / "dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n")
    # a top-level js package beside dial_notebook, with a front end that is not ours
    (site / "js").mkdir()
    (site / "js" / "__init__.py").write_text("")
    (site / "js" / "widget.js").write_text(DECOY)
    (site / "js" / "widget.css").write_text("/* not ours */\n")
    _pip("--python", str(python), "install", "--no-index", "--no-deps", str(wheel), cwd=tmp)

    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "ANYWIDGET_HMR")}
    run = subprocess.run([str(python), "-c", PROBE], cwd=tmp, env=env, capture_output=True,
                         text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    return {**json.loads(run.stdout), "site": str(site), "wheel": str(wheel),
            "python": str(python)}


def test_the_wheel_carries_the_bundle_inside_the_package_and_not_js(installed):
    names = zipfile.ZipFile(installed["wheel"]).namelist()
    assert {"dial_notebook/widget/static/widget.js",
            "dial_notebook/widget/static/widget.css"} <= set(names)
    assert not [n for n in names if n.startswith("js/") or "/js/" in n]


def test_an_installed_copy_imports_beside_a_top_level_js_package(installed):
    assert Path(installed["package"]).is_relative_to(installed["site"])
    assert Path(installed["js"]).is_relative_to(installed["site"])  # the decoy is importable


def test_an_installed_copy_loads_its_own_bundle(installed):
    assert Path(installed["static"]).is_relative_to(installed["site"])
    assert installed["esm"] == (STATIC / "widget.js").read_text(encoding="utf-8")
    assert installed["css"] == (STATIC / "widget.css").read_text(encoding="utf-8")
    assert "the wrong front end" not in installed["esm"]


def test_the_wheel_carries_the_notebooks_and_nothing_else_of_notebooks(installed):
    wheel = zipfile.ZipFile(installed["wheel"])
    folder = "dial_notebook/_notebooks/"
    shipped = sorted(n.removeprefix(folder) for n in wheel.namelist() if n.startswith(folder))
    assert len(NOTEBOOKS) == 8 and shipped == NOTEBOOKS  # a new notebook: add it to pyproject
    for name in NOTEBOOKS:
        assert wheel.read(folder + name) == (ROOT / "notebooks" / name).read_bytes(), name
        if name.endswith(".ipynb"):  # as committed: never a run's outputs (the demo runs a
            cells = json.loads(wheel.read(folder + name))["cells"]  # copy: .demo/)
            assert not any(c.get("outputs") or c.get("execution_count") for c in cells), name
    assert not [n for n in wheel.namelist() if n.startswith("notebooks/") or n.endswith(".html")]


def test_the_installed_command_copies_the_notebooks_and_the_quickstart_runs(
        installed, tmp_path, monkeypatch):
    import nbclient  # the test extra's: always there where the tests run
    import nbformat
    from jupyter_client.kernelspec import get_kernel_spec

    for name in ("PYTHONPATH", "ANYWIDGET_HMR", "OPENAI_API_KEY", "ANTHROPIC_API_KEY"):
        monkeypatch.delenv(name, raising=False)  # offline, and only the installed copy
    python = Path(installed["python"])
    folder = tmp_path / "copied"
    run = subprocess.run([str(python.parent / "dial-notebook"), "notebooks", str(folder)],
                         cwd=tmp_path, capture_output=True, text=True, timeout=60,
                         check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"jupyter lab {folder}/quickstart.ipynb" in run.stdout
    assert sorted(p.name for p in folder.iterdir()) == sorted([*NOTEBOOKS, "sales.csv"])
    for name in NOTEBOOKS:
        assert (folder / name).read_bytes() == (ROOT / "notebooks" / name).read_bytes(), name
    assert (folder / "sales.csv").read_bytes() == SALES.read_bytes()

    # the kernel "python3" is the fresh venv's interpreter (a kernelspec first on JUPYTER_PATH),
    # so the copied notebook runs the installed copy; its dependencies come through the .pth
    spec = tmp_path / "jupyter" / "kernels" / "python3"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [str(python), "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "Python 3 (the installed wheel)", "language": "python"}))
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path / "jupyter"))
    assert get_kernel_spec("python3").argv[0] == str(python)
    nb = nbformat.read(folder / "quickstart.ipynb", as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(
        "import dial_notebook; print(dial_notebook.__file__)"))
    nbclient.NotebookClient(nb, timeout=120, kernel_name="python3",
                            resources={"metadata": {"path": str(folder)}}).execute()
    code = [c for c in nb.cells if c.cell_type == "code"]
    errors = [o for c in code for o in c.get("outputs", []) if o.output_type == "error"]
    assert errors == []
    assert all(c.get("execution_count") for c in code)  # every code cell ran
    [printed] = [o.text for o in code[-1].outputs if o.output_type == "stream"]
    assert Path(printed.strip()).is_relative_to(installed["site"])
