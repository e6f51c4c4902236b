"""``./scripts/dev demo`` serves a working copy of the notebooks (``.demo/``, git-ignored),
never the tracked ``notebooks/``: running the demo leaves the repository as committed (issue
27: it wrote outputs into five tracked notebooks, which a wheel built from the checkout then
shipped)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def demo_block() -> str:
    script = (ROOT / "scripts" / "dev").read_text()
    return script[script.index("  demo)"):script.index("  app)")]


def load_demo_copy():
    spec = importlib.util.spec_from_file_location("demo_copy", ROOT / "scripts" / "demo_copy.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_demo_serves_a_git_ignored_working_copy_not_the_tracked_notebooks():
    [root] = re.findall(r"--ServerApp\.root_dir=(\S+)", demo_block())
    assert root.rstrip("/") not in ("notebooks", "./notebooks", str(ROOT / "notebooks"))
    assert f"scripts/demo_copy.py notebooks {root}" in demo_block()  # made before it starts
    ignored = (ROOT / ".gitignore").read_text().splitlines()
    assert f"{root.rstrip('/')}/" in ignored


def test_the_copy_is_made_refreshed_where_untouched_and_kept_where_the_person_changed_it(
        tmp_path, capsys):
    copy = load_demo_copy().copy_notebooks
    source, target = tmp_path / "notebooks", tmp_path / ".demo"
    source.mkdir()
    (source / "quickstart.ipynb").write_text("v1")
    (source / "eda-assistant.ipynb").write_text("v1")
    (source / "notes.txt").write_text("not a notebook")

    copy(source, target)
    assert sorted(p.name for p in target.iterdir() if not p.name.startswith(".")) == [
        "eda-assistant.ipynb", "quickstart.ipynb"]
    assert (target / "quickstart.ipynb").read_text() == "v1"

    (target / "eda-assistant.ipynb").write_text("v1 with the person's outputs")
    capsys.readouterr()
    copy(source, target)  # nothing newer: theirs kept, nothing to say
    assert (target / "eda-assistant.ipynb").read_text() == "v1 with the person's outputs"
    assert capsys.readouterr().out == ""
    (source / "quickstart.ipynb").write_text("v2")
    (source / "eda-assistant.ipynb").write_text("v2")
    capsys.readouterr()
    copy(source, target)
    assert (target / "quickstart.ipynb").read_text() == "v2"  # untouched: refreshed
    assert (target / "eda-assistant.ipynb").read_text() == "v1 with the person's outputs"
    said = capsys.readouterr().out
    assert "eda-assistant.ipynb" in said and "kept" in said  # and how to take the new one

    (target / "quickstart.ipynb").unlink()  # deleted: copied again
    copy(source, target)
    assert (target / "quickstart.ipynb").read_text() == "v2"
    assert (source / "eda-assistant.ipynb").read_text() == "v2"  # the source is only read
