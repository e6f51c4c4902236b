"""The commands the quickstart's own markdown gives work where the notebook is: in a clone
(``notebooks/``) and in the folder ``dial-notebook notebooks`` copies it into after a pip
install. Each command's file is named relative to the folder that holds the notebook, and the
markdown says which folder that is in both cases and which extra brings the tool."""

from __future__ import annotations

import json
import re
from pathlib import Path

from dial_notebook import cli

ROOT = Path(__file__).resolve().parents[2]
QUICKSTART = ROOT / "notebooks" / "quickstart.ipynb"


def markdown() -> str:
    cells = json.loads(QUICKSTART.read_text(encoding="utf-8"))["cells"]
    return "\n\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")


def test_the_voila_command_names_a_file_there_in_a_clone_and_after_a_pip_install(tmp_path,
                                                                                  capsys):
    text = markdown()
    commands = re.findall(r"`(voila [^`]+)`", text)
    assert commands, "the quickstart says how to open it as an app"
    copied = tmp_path / "dial-notebooks"
    assert cli.main(["notebooks", str(copied)]) == 0
    capsys.readouterr()
    for command in commands:
        name = command.split()[-1]
        for folder in (ROOT / "notebooks", copied):  # where the notebook is, either way
            assert (folder / name).is_file(), f"{command!r} in {folder}"
    assert "`dial-notebook notebooks`" in text and "`notebooks/`" in text
    assert 'pip install "dial-notebook[voila]"' in text
