"""The demo's log holds what a person needs, nothing frightening: JupyterLab started as
``./scripts/dev demo`` starts it (from the checkout, its ``.venv`` inside, the quickstart
opened) and as ``dial-notebook demo`` does (from a new folder), the quickstart's page loaded,
and no traceback, minified JavaScript or Node error in what it printed.

The cause this guards against: a ``package.json`` at the checkout's root that says
``"type": "module"`` made Node read JupyterLab's own files in ``.venv/`` as ES modules, so
every start and page load printed screens of minified JavaScript ("Dynamic require of "util"
is not supported", "require is not defined in ES module scope")."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from ._harness import BIN, free_port, jupyter_env

pytestmark = pytest.mark.browser  # a real JupyterLab (no browser: the page is fetched)

ROOT = Path(__file__).resolve().parents[2]
#: What must never be in the demo's output.
FRIGHTENING = ("Traceback", "Dynamic require", "require is not defined", "ERR_REQUIRE_ESM",
               "node-version-check", "Fail to get yarn configuration")
#: A line longer than this is not for a person (minified JavaScript is thousands).
LONGEST_LINE = 400


def run_until_page_loaded(command: list[str], cwd: Path, env: dict[str, str],
                          port: int, log: Path) -> str:
    """Start ``command``, open the address it prints (its token included) twice, as a person
    would (each load ran Node before), and return what it printed until then; then stop it
    with Ctrl-C, twice."""
    address = re.compile(rf"http://127\.0\.0\.1:{port}/lab/tree/quickstart\.ipynb\?token=\w+")
    with log.open("w") as out:
        server = subprocess.Popen(command, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 90
            loaded = 0
            while loaded < 2:
                if server.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"the demo did not print the quickstart's address:\n"
                                f"{log.read_text()}")
                found = address.search(log.read_text())
                if found is None:
                    time.sleep(0.3)
                    continue
                try:
                    with urllib.request.urlopen(found.group(0), timeout=5) as response:
                        loaded += response.status == 200
                except OSError:
                    time.sleep(0.3)
            time.sleep(2)  # what a page load starts in the background has printed by now
            printed = log.read_text()  # what a person reads while using it
        finally:
            server.send_signal(signal.SIGINT)
            time.sleep(1)  # as a person presses it twice: no confirmation prompt
            server.send_signal(signal.SIGINT)
            try:
                server.wait(15)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(10)
    return printed


def assert_nothing_frightening(output: str) -> None:
    lines = output.splitlines()
    scary = [line[:160] for line in lines
             if any(word in line for word in FRIGHTENING) or len(line) > LONGEST_LINE]
    assert not scary, "the demo printed:\n" + "\n".join(scary)


def test_the_checkout_demo_prints_no_traceback_or_minified_javascript(tmp_path):
    port = free_port()
    # the command ./scripts/dev demo runs once its set-up is done (read from the script itself)
    script = (ROOT / "scripts" / "dev").read_text()
    demo = script[script.index("  demo)"):script.index("  app)")]
    flags = re.findall(r"--(?:ServerApp|LabApp)\.[\w.]+=[^\s\\]+", demo)
    assert "--LabApp.default_url=/lab/tree/quickstart.ipynb" in flags
    # its working copy of the notebooks (scripts/demo_copy.py), made here in a new folder
    [root] = [flag for flag in flags if flag.startswith("--ServerApp.root_dir=")]
    copy = tmp_path / "demo"
    subprocess.run([sys.executable, str(ROOT / "scripts" / "demo_copy.py"),
                    str(ROOT / "notebooks"), str(copy)], check=True, capture_output=True)
    flags[flags.index(root)] = f"--ServerApp.root_dir={copy}"
    lab = [str(BIN / "jupyter"), "lab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
           "--port-retries=0", *flags]
    if os.geteuid() == 0:
        lab.append("--allow-root")
    output = run_until_page_loaded(lab, ROOT, jupyter_env(tmp_path), port, tmp_path / "lab.log")
    assert_nothing_frightening(output)


def test_the_installed_demo_starts_as_root_and_prints_nothing_frightening(tmp_path):
    port = free_port()
    env = {**jupyter_env(tmp_path), "TMPDIR": str(tmp_path)}  # its new folder goes here
    command = [sys.executable, "-m", "dial_notebook", "demo", "--", "--no-browser",
               "--ip=127.0.0.1", f"--port={port}", "--port-retries=0"]
    output = run_until_page_loaded(command, tmp_path, env, port, tmp_path / "demo.log")
    assert "no API key" in output and "stop it with Ctrl-C" in output
    if os.geteuid() == 0:
        assert "Running as root: JupyterLab is started with --allow-root." in output
    assert_nothing_frightening(output)
