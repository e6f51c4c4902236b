"""README.md keeps its promises: the two commands first, CI running the test command, and the
examples running as written."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()
BLOCKS = re.findall(r"```(\w+)\n(.*?)```", README, re.DOTALL)


def test_the_readme_opens_with_the_demo_and_test_commands():
    lang, first = BLOCKS[0]
    assert lang == "bash"
    lines = [ln.split("#")[0].strip() for ln in first.strip().splitlines()]
    assert lines == ["./scripts/dev demo", "./scripts/dev test"]
    assert README.index("```bash") < README.index("\n## ")


def test_ci_runs_the_readmes_test_command():
    assert "./scripts/dev test" in (ROOT / ".ci" / "run").read_text()


def test_the_demo_command_opens_the_quickstart_notebook_itself_not_the_launcher():
    script = (ROOT / "scripts" / "dev").read_text()
    # measured: --ServerApp.default_url does not change the URL jupyter lab prints; this does
    # served from its working copy of notebooks/ (tests/unit/test_dev_demo.py)
    assert "--ServerApp.root_dir=.demo" in script
    assert "--LabApp.default_url=/lab/tree/quickstart.ipynb" in script
    assert (ROOT / "notebooks" / "quickstart.ipynb").is_file()


def test_every_notebook_link_and_image_exists():
    for target in re.findall(r"\]\(([^)#]+)\)", README):
        if not target.startswith("http"):
            assert (ROOT / target).exists(), target


def test_the_conversation_example_runs_and_shows_what_it_says():
    block = next(code for lang, code in BLOCKS if lang == "python" and "say_sync" in code)
    namespace: dict = {}
    exec(block, namespace)
    result = namespace["result"]
    assert (result.status, [o["status"] for o in result.outcomes]) == ("idle", ["done"])


def test_the_language_example_runs():
    block = next(code for lang, code in BLOCKS if lang == "python" and "outcome_reply(" in code)
    namespace: dict = {}
    exec(block, namespace)
    assert namespace["suggest"].payload.value == {"text": "buy milk"}


def test_the_pip_install_line_installs_what_the_notebooks_draw_with():
    """The README's one install line for pip users brings every library the notebooks need:
    the EDA notebook's plot cards are Vega-Lite charts drawn by vl-convert-python."""
    import tomllib

    readme = (ROOT / "README.md").read_text()
    extras = re.search(r'^pip install "dial-notebook\[([\w,]+)\]"', readme, re.M).group(1)
    optional = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]
    installed = {re.split(r"[<>=\[ ]", requirement)[0]
                 for extra in extras.split(",") for requirement in optional[extra]}
    assert {"jupyterlab", "pandas", "vl-convert-python"} <= installed, installed
