"""The quickstart's "what the agent received" cell numbers every message of the conversation:
each ``say`` counts its turns from 1 (the runtime's ``turn``), so numbering by turn alone
showed "turn 1" over nearly every message (issue 27)."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from types import SimpleNamespace

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "quickstart.ipynb"


def transcript_cell() -> str:
    cells = json.loads(NOTEBOOK.read_text())["cells"]
    [source] = ["".join(c["source"]) for c in cells
                if c["cell_type"] == "code" and '"sent"' in "".join(c["source"])]
    return source


def test_each_message_the_agent_received_has_a_number_of_its_own():
    sent = [(1, "add a note: buy milk"), (2, "<dial>…done…</dial>"), (1, "list notes"),
            (1, "remove note 1")]
    transcript = []
    for turn, message in sent:
        transcript += [{"type": "sent", "turn": turn, "message": message},
                       {"type": "reply", "turn": turn, "text": "…"}]
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(transcript_cell(), {"chat": SimpleNamespace(transcript=transcript)})
    headings = [line for line in printed.getvalue().splitlines() if line.startswith("──")]
    assert len(headings) == 4 and len(set(headings)) == 4, headings
    assert headings[0].startswith("── message 1") and headings[3].startswith("── message 4")
    assert "turn 2" in headings[1]  # the second turn of the first request, still said
    for _, message in sent:
        assert message in printed.getvalue()
