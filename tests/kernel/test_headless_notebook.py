"""A notebook run headless (nbclient as papermill and ``nbconvert --execute`` run it, no front
end) whose cells await ``chat.say``: the saved notebook holds the whole conversation twice, in
the widget state (what a widget-aware viewer draws) and in the static copy (what any viewer,
and the HTML nbconvert makes, shows offline)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

pytestmark = pytest.mark.kernel

SETUP = """\
from dial_notebook.agents import ScriptedAgent
from dial_notebook.domains.notes import NotesDomain
from dial_notebook.widget import ChatWidget

def inform(text):  # upper case: the words are in the notebook's outputs, not in its source
    return ('<dial version="0.1" actor="agent"><dial-inform>' + text.upper()
            + '</dial-inform></dial>')

chat = ChatWidget(agent=ScriptedAgent([inform("First answer: alpha-kestrel."),
                                       inform("Second answer: bravo-osprey."),
                                       inform("The last words: charlie-heron.")]),
                  domain=NotesDomain([]))
"""
#: The last cell ends with the last say: the kernel stops at once.
CELLS = [SETUP, "chat", 'await chat.say("one")', 'await chat.say("two")',
         'await chat.say("three")']
#: The same, printing what the kernel holds once the last say is over.
PRINTED = [*CELLS[:-1], 'import json\nawait chat.say("three")\n'
           "print(json.dumps(chat.comm.comm_id))\nprint(json.dumps(chat.transcript))"]
WORDS = ["ALPHA-KESTREL", "BRAVO-OSPREY", "CHARLIE-HERON"]


def notebook(cells: list[str]) -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(source) for source in cells]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    return nb


def static_copies(nb: nbformat.NotebookNode) -> list[str]:
    return [output["data"]["text/html"] for cell in nb.cells for output in cell.get("outputs", [])
            if "text/html" in output.get("data", {}) and "data-dial-static" in
            output["data"]["text/html"]]


def test_a_headless_run_saves_the_whole_conversation_once_in_the_static_copy(tmp_path):
    nb = notebook(PRINTED)
    NotebookClient(nb, timeout=120, kernel_name="python3", store_widget_state=True,
                   resources={"metadata": {"path": str(tmp_path)}}).execute()
    errors = [o for c in nb.cells for o in c.get("outputs", []) if o.output_type == "error"]
    assert errors == []
    printed = "".join(o.text for o in nb.cells[-1].outputs if o.output_type == "stream")
    comm_id, transcript = (json.loads(line) for line in printed.splitlines()[:2])
    assert [e["type"] for e in transcript].count("reply") == 3
    # the widget state holds none of it: the static copy is the conversation's one copy
    saved = nb.metadata["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    assert saved[comm_id]["state"].get("transcript", []) == []
    # the static copy: the last say's words too (no update lost when the kernel stopped)
    copies = static_copies(nb)
    assert copies
    for words in WORDS:
        assert words in copies[-1], words


def test_nbconvert_execute_to_html_shows_the_conversation(tmp_path):
    path = tmp_path / "chat.ipynb"
    nbformat.write(notebook(CELLS), path)
    run = subprocess.run([str(Path(sys.executable).parent / "jupyter"), "nbconvert", "--to",
                          "html", "--execute", str(path)], capture_output=True, text=True,
                         timeout=180, cwd=tmp_path)
    assert run.returncode == 0, run.stderr[-3000:]
    page = (tmp_path / "chat.html").read_text(encoding="utf-8")
    # what the page shows, without the widget state it embeds for a widget-aware viewer
    shown = re.sub(r"<script[^>]*widget-state\+json.*?</script>", "", page, flags=re.S)
    assert "data-dial-static" in shown
    for words in WORDS:
        assert words in shown, words
