"""One description of what the conversation shows (dial_notebook/widget/_items.py, and the words
in widget/wordings.json) for every renderer: the committed items fixture, which the front end's
``itemsOf`` is held to (js/test/items.test.mjs), is what ``transcript_items`` makes now; every
kind of item has a drawer in the static copy; every outcome status has a label; and the words
file is well formed for both renderers."""

from __future__ import annotations

import ast
import json
import re

from dial_notebook.dial import STATUSES
from dial_notebook.widget import _static_log
from dial_notebook.widget._items import COPY_KINDS, describe, transcript_items
from dial_notebook.widget._static import STATUS_LABEL, conversation_html
from dial_notebook.widget._wordings import WORDINGS, words

from ..contract_transcript import FIXTURE, ITEMS, item_cases

#: The kinds the widget draws in its log too (js/src/items.js: Item).
WIDGET_KINDS = {"person", "inform", "ask", "suggestion", "status", "delegate", "no-reply"}


def committed_transcript() -> list[dict]:
    return json.loads(FIXTURE.read_text(encoding="utf-8"))


def test_the_committed_items_fixture_is_what_the_items_are_now():
    committed = json.loads(ITEMS.read_text(encoding="utf-8"))
    assert committed == item_cases(committed_transcript()), \
        "run: python tests/contract_transcript.py --items"


def test_every_kind_of_item_has_a_drawer_in_the_static_copy():
    kinds: set[str] = set()
    for entries in (committed_transcript(), [3, {"type": "mystery"}]):
        kinds |= {item.kind for item in transcript_items(entries, {})}
    assert kinds == WIDGET_KINDS | COPY_KINDS  # the fixture has every kind
    assert set(_static_log._DRAWERS) == kinds


def test_an_undo_that_failed_is_on_its_card_and_in_the_copy_where_it_happened():
    entries = [{"type": "suggestion", "id": "k", "action": "add-note", "payload": {}},
               {"type": "outcome", "id": "k", "action": "add-note", "status": "done"},
               {"type": "person", "text": "later"},
               {"type": "undo-failed", "id": "k", "error": "the note is gone"},
               {"type": "undo-failed", "id": "nobody", "error": "no such card"}]
    described = describe(transcript_items(entries, {}), entries)
    assert [(d["kind"], d["key"]) for d in described] == [
        ("suggestion", "s0"), ("person", "p2"), ("undo-failed", "u3"), ("status", "u4")]
    assert described[0]["undo_failed"] == 3 and described[0]["status"] == "done"
    html = conversation_html(entries)
    assert html.index("Undo of k did not happen: the note is gone") > html.index("later")
    assert "Undo of nobody did not happen: no such card" in html


def test_a_card_checked_again_before_it_ran_is_one_card_shown_as_now():
    """A card whose frame changed since it was proposed is sent again (``stale``): the
    widget (js/src/items.js) and the static copy show it once, with its new dry run."""
    card = {"type": "suggestion", "id": "k", "action": "sort", "payload": {"frame": "sales"},
            "preview": "Sort sales", "dry_run": {"summary": "200 rows"}}
    again = {**card, "dry_run": {"summary": "150 rows"},
             "stale": {"why": "sales changed since this was proposed", "changed": ["sales"]}}
    entries = [card, {"type": "person", "text": "meanwhile"}, again]
    items = transcript_items(entries, {})
    assert [item.kind for item in items] == ["suggestion", "person"]
    assert items[0].event is again  # as it is now: its new dry run, the notice
    assert conversation_html(entries).count("Sort sales") == 1


def test_every_outcome_status_and_every_card_status_has_a_label():
    card_statuses = {"pending", "proposed", "confirmed", "running"}
    assert set(STATUSES) | card_statuses <= set(STATUS_LABEL)
    assert all(isinstance(label, str) and label for label in STATUS_LABEL.values())


def test_every_wording_is_one_text_or_one_for_each_renderer_and_fills_its_fields():
    for key, wording in WORDINGS["words"].items():
        texts = [wording] if isinstance(wording, str) else list(wording.values())
        assert isinstance(wording, str) or set(wording) == {"widget", "copy"}, key
        assert all(isinstance(text, str) and text for text in texts), key
        fields = [set(re.findall(r"\{(\w+)\}", text)) for text in texts]
        assert all(f == fields[0] for f in fields), f"{key}: both renderers fill the same fields"
        filled = words(key, **dict.fromkeys(fields[0], "{name}"))
        assert "{name}" in filled or not fields[0]  # a value is put in as it is
    assert words("superseded") == " — the person moved on without deciding"  # the copy's


def test_a_wording_changed_in_the_file_changes_the_copy(monkeypatch):
    entries = [{"type": "suggestion", "id": "a", "action": "add-note", "payload": {}},
               {"type": "turn-limit", "turns": 8}]
    monkeypatch.setitem(STATUS_LABEL, "proposed", "Suggested")
    monkeypatch.setitem(WORDINGS["words"], "turn-limit", "Gave up after {turns} turns.")
    html = conversation_html(entries)
    assert ">Suggested</span>" in html and "Gave up after 8 turns." in html


ROOT = FIXTURE.parents[3]


def code_strings(path) -> str:
    """The code of a renderer's module without its comments and docstrings: its string
    literals are what it shows."""
    source = path.read_text(encoding="utf-8")
    if path.suffix == ".js":
        source = re.sub(r"/\*.*?\*/", "", source, flags=re.DOTALL)
        return re.sub(r"(^|\s)//.*$", "", source, flags=re.MULTILINE)
    tree = ast.parse(source)
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef)
                  and node.body and isinstance(node.body[0], ast.Expr)}
    return "\n".join(node.value for node in ast.walk(tree) if isinstance(node, ast.Constant)
                     and isinstance(node.value, str) and id(node) not in docstrings)


def test_no_renderer_writes_a_shared_wording_anew():
    # the sentences of the words file (their parts between {fields}: the short ones, like
    # "another actor", say other things elsewhere too) and the labels of more than one word
    pieces = {v for v in STATUS_LABEL.values() if " " in v}
    for wording in WORDINGS["words"].values():
        for text in [wording] if isinstance(wording, str) else wording.values():
            pieces |= {p.strip(" —.:") for p in re.split(r"\{\w+\}", text)
                       if len(p.strip(" —.:")) >= 24}
    modules = [*(ROOT / "js" / "src").glob("*.js"),
               *(ROOT / "dial_notebook" / "widget").glob("_static*.py")]
    assert len(modules) > 20 and len(pieces) > 10
    written = [(module.name, piece) for module in modules for piece in pieces
               if piece in code_strings(module)]
    assert written == [], "take these from dial_notebook/widget/wordings.json"
