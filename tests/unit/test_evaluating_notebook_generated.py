"""The committed evaluating notebook is what scripts/make_notebooks.py writes (its text is
reviewed there, as code; the notebook is regenerated, never edited by hand), stored without
outputs, and its section on learning from a recorded session is in it, before "With a real
model" (which replays the same day with a model when there is a key)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[2]
NAME = "evaluating-a-domain.ipynb"


def script():
    spec = importlib.util.spec_from_file_location("make_notebooks",
                                                  ROOT / "scripts" / "make_notebooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_notebook_is_what_the_script_writes(tmp_path, monkeypatch):
    made = script()
    monkeypatch.setattr(made, "NOTEBOOKS", tmp_path)
    made.main([NAME])
    assert (tmp_path / NAME).read_text() == (ROOT / "notebooks" / NAME).read_text(), (
        f"notebooks/{NAME} differs from what scripts/make_notebooks.py writes: "
        f"run .venv/bin/python scripts/make_notebooks.py {NAME}")


def test_the_learning_section_comes_before_the_real_model_and_runs_offline():
    nb = nbformat.read(ROOT / "notebooks" / NAME, as_version=4)
    assert all(not c.get("outputs") for c in nb.cells if c.cell_type == "code")
    headings = [c.source.splitlines()[0] for c in nb.cells
                if c.cell_type == "markdown" and c.source.startswith("## ")]
    assert headings == ["## Learn from what the person decided", "## With a real model"]
    start = next(n for n, c in enumerate(nb.cells)
                 if c.source.startswith("## Learn from what the person decided"))
    end = next(n for n, c in enumerate(nb.cells) if c.source.startswith("## With a real"))
    section = "\n".join(c.source for c in nb.cells[start:end] if c.cell_type == "code")
    for step in ("scripted_human(", "save_snapshot(", "Scenario.from_session(session)",
                 "save_scenarios(", "replay_decisions(agent=lambda: SchemaDemoAgent",
                 "replay_decisions(agent=SloppyAgent", ".disagreements()",
                 "compare(careful_day, sloppy_day", 'drop=["reason", "comments", "due"]'):
        assert step in section, step
    # no key, no network: the section's agents are the offline ones
    assert "OpenAIAgent" not in section and "AnthropicAgent" not in section
