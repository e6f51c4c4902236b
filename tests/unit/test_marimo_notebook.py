"""notebooks/quickstart_marimo.py is a valid marimo notebook that runs in marimo's kernel.

No browser: ``marimo check --strict`` (the file format, marimo's lint rules), the module
imported as marimo imports it (an ``App`` with its cells), and ``marimo export session``,
which runs every cell in a real marimo kernel and exits non-zero when one fails. The person's
clicks are tests/browser/test_marimo.py's.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import marimo  # a test dependency: the tests fail, never skip, without it
import pytest

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "quickstart_marimo.py"
MARIMO = Path(sys.executable).parent / "marimo"


def _env(home: Path) -> dict[str, str]:
    """marimo with a HOME of its own: no user config read or written, no update check."""
    return {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / "config"),
            "XDG_CACHE_HOME": str(home / "cache"), "XDG_STATE_HOME": str(home / "state"),
            "XDG_DATA_HOME": str(home / "data"), "MARIMO_SKIP_UPDATE_CHECK": "1"}


def test_marimo_check_finds_nothing(tmp_path: Path) -> None:
    run = subprocess.run([str(MARIMO), "check", "--strict", str(NOTEBOOK)], env=_env(tmp_path),
                         capture_output=True, text=True, timeout=60, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "warning" not in run.stdout + run.stderr


def test_the_file_is_a_marimo_app_that_wraps_the_chat_with_mo_ui_anywidget() -> None:
    spec = importlib.util.spec_from_file_location("quickstart_marimo", NOTEBOOK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # defines the app; runs no cell
    assert isinstance(module.app, marimo.App)
    source = NOTEBOOK.read_text(encoding="utf-8")
    assert "mo.ui.anywidget(\n        ChatWidget(" in source
    assert 'task = chat.say("add a note: buy milk")' in source
    for step in ("**1. Send a request.**", "**2. Edit a proposal.**", "**3. Dismiss one.**",
                 "**4. Or just talk.**"):
        assert step in source


@pytest.mark.kernel  # a real (marimo) kernel: the full tier's, not the fast one's
def test_every_cell_runs_in_a_marimo_kernel_and_the_say_reaches_the_agent(
        tmp_path: Path) -> None:
    folder = tmp_path / "nb"
    folder.mkdir()
    notebook = folder / NOTEBOOK.name
    shutil.copy(NOTEBOOK, notebook)  # marimo writes __marimo__/ beside the notebook
    run = subprocess.run([str(MARIMO), "--yes", "export", "session", "--no-sandbox",
                          str(notebook)], env=_env(tmp_path / "home"), cwd=folder,
                         capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stdout + run.stderr  # non-zero when a cell failed
    snapshot = json.loads((folder / "__marimo__" / "session" / f"{NOTEBOOK.name}.json")
                          .read_text(encoding="utf-8"))
    outputs = [output for cell in snapshot["cells"] for output in cell["outputs"]]
    assert not [output for output in outputs if output.get("type") == "error"]
    shown = json.dumps(outputs)
    assert "marimo-anywidget" in shown  # the chat, as marimo's anywidget element
    assert "note 2: book the dentist" in shown  # the notes cell
    # the say ran as a task on the kernel's loop: the agent was sent the person's words
    assert "add a note: buy milk" in shown and "turn 1" in shown
