"""Every notebook in notebooks/ runs top to bottom on a fresh kernel, offline, with no key."""

from __future__ import annotations

import os
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).resolve().parents[2] / "notebooks").glob("*.ipynb"))


def test_there_is_a_quickstart():
    assert any(p.name == "quickstart.ipynb" for p in NOTEBOOKS)


@pytest.mark.kernel
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs_all_cells_without_error(path, tmp_path):
    nb = nbformat.read(path, as_version=4)
    assert all(not c.get("outputs") for c in nb.cells if c.cell_type == "code"), (
        f"{path.name} is stored with outputs; clear them before committing")
    env_keys = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY")
    saved = {k: os.environ.pop(k) for k in env_keys if k in os.environ}
    try:
        NotebookClient(nb, timeout=120, kernel_name="python3",
                       resources={"metadata": {"path": str(tmp_path)}}).execute()
    finally:
        os.environ.update(saved)
    errors = [o for c in nb.cells for o in c.get("outputs", []) if o.output_type == "error"]
    assert errors == []
