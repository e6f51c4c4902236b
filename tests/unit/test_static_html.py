"""The conversation as static HTML (dial_notebook/widget/_static.py): every kind of entry of the
contract transcript is drawn; a hostile agent's text stays inert, visible text (no script, no
handler, no link, no image but a checked data: one, nothing past its bounds); the export is a
whole document written atomically; and StaticOutput keeps the notebook's copy current with
few updates (debounced), counted with a fake ``update_display``."""

from __future__ import annotations

import asyncio
import base64
import json
import re
import zlib
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import lxml.html
import pytest

from dial_notebook.agents import ScriptedAgent
from dial_notebook.domains.notes import NotesDomain
from dial_notebook.widget import ChatWidget
from dial_notebook.widget._static import (
    STATIC_CSS,
    conversation_html,
    export_document,
    write_document,
)
from dial_notebook.widget._static_output import StaticOutput
from dial_notebook.widget._static_text import NOTEBOOK_WIRE_CHARS, NOTEBOOK_WIRE_TURNS

FIXTURE = Path(__file__).resolve().parents[2] / "js" / "test" / "fixtures" / "transcript.json"


def png(width: int = 1, height: int = 1) -> str:
    """A real PNG (a grey square), as a data: URL."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return len(data).to_bytes(4, "big") + body + zlib.crc32(body).to_bytes(4, "big")
    header = width.to_bytes(4, "big") + height.to_bytes(4, "big") + b"\x08\x00\x00\x00\x00"
    rows = b"".join(b"\x00" + b"\x80" * width for _ in range(height))
    data = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows))
            + chunk(b"IEND", b""))
    return "data:image/png;base64," + base64.b64encode(data).decode()


# ---- a hostile agent's strings, in every field of every kind of entry -------------------------

HOSTILE = [
    "<script>window.__pwned = 1</script>",
    '<img src=x onerror="window.__pwned = 2">',
    '"><svg onload="window.__pwned = 3"></svg>',
    "</style><script>window.__pwned = 4</script>",
    '</details></div></article><iframe srcdoc="<script>parent.__pwned = 5</script>"></iframe>',
    "<a href=\"javascript:window.__pwned = 6\">click me</a>",
    "' onmouseover='window.__pwned = 7' x='",
    "<details open ontoggle=\"window.__pwned = 8\">",
    "<!-- --><style>body{display:none}</style>",
    '<base href="https://evil.example/">'
    '<meta http-equiv="refresh" content="0;url=https://evil.example">',
    "rm -rf ~/\u202e gpj.exe",  # a direction override inside a command
]
BAD_IMAGES = [
    "javascript:window.__pwned = 9",
    " JaVaScRiPt:window.__pwned = 10",
    "java\tscript:window.__pwned = 11",
    "data:text/html,<script>window.__pwned = 12</script>",
    "data:image/svg+xml;base64," + base64.b64encode(
        b'<svg xmlns="http://www.w3.org/2000/svg" onload="window.__pwned=13"/>').decode(),
    "data:image/png;base64," + base64.b64encode(b"<svg onload=alert(1)>").decode(),  # not a PNG
    "data:image/png;base64,AAA",  # not well-formed base64
    'data:image/png;base64,iVBORw0KGgo=" onerror="window.__pwned=14',
    "https://evil.example/track.png?secret=1",
    "//evil.example/x.png",
    "file:///etc/passwd",
]
HUGE = "y" * 3_000_000


def hostile_transcript() -> list[Any]:
    """A conversation whose every agent-made field is hostile (and a few shapes nobody sends)."""
    h = HOSTILE
    steps = [{"id": f"s{i}", "env": "shell", "label": text, "command": text}
             for i, text in enumerate(h)]
    entries: list[Any] = [
        {"type": "person", "text": "show me everything " + h[0]},
        {"type": "sent", "turn": 1, "message": "\n".join(h)},
        {"type": "reply", "turn": 1, "text": "\n".join(h)},
        *({"type": "inform", "text": text, "act": "inform"} for text in h),
        {"type": "inform", "text": h[1], "render": "code", "payload": h[3]},
        {"type": "inform", "text": h[2], "render": "table",
         "payload": [{text: text for text in h[:4]}]},
        {"type": "inform", "text": h[4], "render": "card-list",
         "payload": [{"title": h[0], "url": "javascript:window.__pwned=15", "note": h[1]},
                     {"title": "site", "url": "https://evil.example/" + h[5]}]},
        {"type": "inform", "text": h[5], "render": "media",
         "payload": [{"src": src, "alt": h[6]} for src in BAD_IMAGES]},
        {"type": "inform", "text": h[6], "render": "chart", "payload": {"png": h[1], "alt": h[2]}},
        {"type": "inform", "text": h[7], "render": "markdown",
         "payload": "# " + h[0] + "\n\n- **" + h[1] + "**\n- `" + h[3] + "`\n\n```\n" + h[4]},
        {"type": "inform", "text": h[8], "render": h[2], "payload": {h[0]: h[1]}},
        {"type": "inform", "text": h[9], "act": "acknowledge", "of": h[2]},
        {"type": "inform", "text": h[0], "act": "skipped", "element": h[1], "id": h[2]},
        {"type": "inform", "text": h[3], "act": "addressed-elsewhere", "addressed_to": h[4]},
        {"type": "declare", "id": h[0], "key": h[1], "value": {h[2]: h[3]}},
        {"type": "phatic", "signal": h[4]},
        {"type": "ask", "id": h[0], "text": h[1], "response_type": "choice",
         "options": [{"value": text, "label": text, "default": False, "disabled": False}
                     for text in h]},
        {"type": "person", "text": h[2], "answer_to": "ASK"},
        {"type": "ask", "id": "q", "text": h[5], "response_type": h[6], "options": []},
        {"type": "suggestion", "id": h[6], "action": h[7], "text": h[8], "payload": {h[0]: h[1]},
         "preview": h[2], "destructive": True, "mutates": True},
        {"type": "outcome", "id": h[6], "action": h[7], "status": "failed", "preview": h[3],
         "error": h[4], "hint": h[5], "code": h[6], "field": h[7]},
        {"type": "suggestion", "id": "ok", "action": "plot", "text": h[0], "payload": {},
         "preview": h[1], "destructive": False, "mutates": False},
        {"type": "outcome", "id": "ok", "action": "plot", "status": "done", "preview": h[1],
         "result": {"frame": h[2], "media": [{"src": png(), "alt": h[3]},
                                             *({"src": src} for src in BAD_IMAGES)]}},
        {"type": "suggestion", "id": "huge", "action": "add-note", "text": HUGE,
         "payload": {"text": HUGE}, "preview": HUGE, "destructive": False, "mutates": True},
        {"type": "outcome", "id": "huge", "action": "add-note", "status": "done", "preview": HUGE,
         "result": {"rows": [{"a": HUGE}] * 3}},
        {"type": "suggestion", "id": "blk", "action": "execute", "kind": "execute", "text": h[9],
         "payload": {"steps": steps}, "preview": h[10], "destructive": True, "mutates": True},
        *({"type": "outcome", "id": f"s{i}", "action": "execute:shell", "status": status,
           "preview": h[i], "block": "blk", "command": h[i], "error": h[i], "hint": h[i],
           "result": {"stdout": h[i], "stderr": h[i]}}
          for i, status in zip(range(len(h)), ["done", "failed"] * len(h), strict=False)),
        {"type": "outcome", "id": h[8], "action": h[9], "status": h[2], "preview": h[0],
         "hint": h[1]},
        {"type": "delegate", "id": h[0], "to": h[1], "intent": h[2], "text": h[3],
         "context": {h[4]: h[5]}, "resume": False, "registered": False},
        {"type": "no-reply", "turn": 2, "error": h[6]},
        {"type": "turn-limit", "turns": h[7]},
        {"type": "error", "error": h[8]},
        {"type": "stopped", "partial": h[9]},
        {"type": h[0], "text": h[1]},  # a kind nobody knows
        {"type": "person"},  # a person entry without its text
        [h[0]], h[1], None, 42,  # not even events
    ]
    asked = next(i for i, e in enumerate(entries) if isinstance(e, dict) and e["type"] == "ask")
    for entry in entries:
        if isinstance(entry, dict) and entry.get("answer_to") == "ASK":
            entry["answer_to"] = asked
    return entries


# ---- what a parse of the output finds -------------------------------------------------------

class Tags(HTMLParser):
    """Every start tag and its attributes, as a browser's tokenizer sees them."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, list[tuple[str, str | None]]]] = []
        self.text: list[str] = []
        self._in_style = False
        self.styles: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, attrs))
        self._in_style = tag == "style"

    def handle_endtag(self, tag: str) -> None:
        self._in_style = False

    def handle_data(self, data: str) -> None:
        (self.styles if self._in_style else self.text).append(data)


def tags_of(document: str) -> Tags:
    parser = Tags()
    parser.feed(document)
    parser.close()
    return parser


SAFE_IMAGE = re.compile(r"data:image/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+=*\Z")
FORBIDDEN_TAGS = {"script", "iframe", "object", "embed", "svg", "math", "a", "link", "meta",
                  "base", "form", "input", "button", "textarea", "select", "frame", "video",
                  "audio", "source", "template", "noscript"}


def assert_inert(fragment: str, *, document: bool = False) -> Tags:
    parsed = tags_of(fragment)
    names = [tag for tag, _ in parsed.tags]
    forbidden = FORBIDDEN_TAGS - ({"meta"} if document else set())
    assert not forbidden & set(names), forbidden & set(names)
    assert names.count("style") == (2 if document else 1)
    for tag, attrs in parsed.tags:
        for name, value in attrs:
            assert not name.startswith("on"), (tag, name, value)
            assert name not in ("href", "srcset", "style", "action", "formaction", "srcdoc",
                                "xlink:href", "background", "poster"), (tag, name)
            if name == "src":
                assert tag == "img" and SAFE_IMAGE.match(value or ""), value
    # lxml (libxml2's HTML parser) agrees: one style element, holding only our CSS
    tree = lxml.html.fromstring(fragment)
    assert not tree.xpath("//script | //iframe | //svg | //a | //*[@onerror] | //*[@onload]")
    styles = tree.xpath("//style")
    assert styles[-1].text == STATIC_CSS
    return parsed


def visible(fragment: str) -> str:
    return "".join(tags_of(fragment).text)


# ---- every entry of the contract transcript -----------------------------------------------------

@pytest.fixture(scope="module")
def fixture() -> list[dict[str, Any]]:
    return json.loads(FIXTURE.read_text(encoding="utf-8"))


def test_every_entry_kind_of_the_contract_transcript_is_drawn(fixture):
    fragment = conversation_html(fixture, title="Notes")
    tree = lxml.html.fromstring(fragment)
    text = tree.text_content()
    kinds = {event["type"] for event in fixture}
    assert kinds >= {"person", "sent", "reply", "inform", "ask", "suggestion", "outcome",
                     "declare", "delegate", "phatic", "no-reply", "turn-limit", "error",
                     "stopped"}
    assert not tree.find_class("dial-unknown")  # every kind is known
    # the person's words, each in a bubble (an answer joins its question instead)
    bubbles = [b.text_content() for b in tree.find_class("dial-bubble")]
    assert bubbles == [e["text"] for e in fixture if e["type"] == "person"
                       and e.get("answer_to") is None]
    # informs, by their render hint
    for words in ("Here you go.", "A plain inform.", "Rows:", 'print("hi")', "For billing only.",
                  "Over to billing.", "Skipped an inform", "4,000,001 characters"):
        assert words in text
    assert tree.xpath("//table[@class='dial-table']//td[text()='1.23457']")
    # cards: their action, preview and status; the outcome of each
    cards = {c.get("data-dial-suggestion"): c for c in tree.find_class("dial-card")}
    assert {k: c.get("data-dial-status") for k, c in cards.items()} == {
        "add": "undone", "rm": "dismissed", "ls": "done", "poll": "handed-off", "op": "done",
        "skipme": "superseded", "sg-1": "done", "sg-2": "done", "keep": "done",
        "again": "done"}
    # what the person said, and the rule that accepted a proposal without asking
    assert "Accepted by rule r1" in cards["again"].text_content()
    assert "Reason: I still need it." in cards["rm"].text_content()
    assert "Whole proposal: Ask before removing." in cards["rm"].text_content()
    assert "/text: Say which tea." in cards["add"].text_content()
    assert cards["add"].find_class("dial-action-name")[0].text_content() == "add-note"
    assert "Add the note 'green tea'" in cards["add"].text_content()  # what ran, edited
    assert "(edited)" in cards["add"].text_content()
    assert "Undone" in cards["add"].text_content()  # taken back; what ran still shown
    assert any("Undo of keep did not happen" in line.text_content()
               for line in tree.find_class("dial-status-line"))
    assert "OK, I left that out." in cards["rm"].find_class("dial-card-ack")[0].text_content()
    assert "Destructive" in cards["rm"].text_content()
    assert "buy milk" in cards["ls"].text_content() and "green tea" in cards["ls"].text_content()
    assert "Handed off" in cards["poll"].text_content()
    assert "Superseded" in cards["skipme"].text_content()
    # the execute block: every step whole, each one's outcome, the hidden character named
    steps = cards["op"].find_class("dial-step")
    assert [s.get("data-dial-status") for s in steps] == ["done", "done"]
    commands = [c.text_content() for c in cards["op"].find_class("dial-command")]
    assert commands == ["1 + 1", 'print("safe") #⟨U+2067⟩']
    assert "Hidden characters (U+2067)" in cards["op"].text_content()
    assert "\u2067" not in "".join(commands) + cards["op"].text_content()
    # outcomes without a card, and the notices
    lines = [line.text_content() for line in tree.find_class("dial-status-line")]
    assert any(line.startswith("fly: Invalid") and "no action 'fly'" in line for line in lines)
    assert any(line.startswith("delegate: Failed") for line in lines)
    assert "Stopped after 2 turns (turn limit)." in lines
    assert "Error: ConnectionError: the agent is unreachable" in lines
    assert "Stopped." in lines
    assert any(line.startswith("Carried on from ") for line in lines) == any(
        e["type"] == "resumed" for e in fixture)
    assert "The agent did not reply." in tree.find_class("dial-no-reply")[0].text_content()
    # asks, their options and answers
    asks = tree.find_class("dial-ask")
    assert [a.get("data-dial-status") for a in asks] == ["answered", "answered"]
    assert "You: Work" in asks[0].text_content() and "Home" in asks[0].text_content()
    assert "You: Yes" in asks[1].text_content()
    # the context the agent declared, a hand-off, a phatic signal
    assert "mood" in tree.find_class("dial-context")[0].text_content()
    assert "Hand-off to billing (refund)" in tree.find_class("dial-delegate")[0].text_content()
    assert "Agent signal: typing" in text
    # under each turn, collapsed: exactly what the agent received, and its reply (the start
    # of each, in a notebook's copy: test_static_wire.py; of the latest turns only:
    # test_static_saved_size.py)
    wires = tree.find_class("dial-wire")
    assert all(w.tag == "details" and w.get("open") is None for w in wires)
    received = [w.find_class("dial-wire-text")[0].text_content() for w in wires]
    latest = [e for e in fixture if e["type"] == "sent"][-NOTEBOOK_WIRE_TURNS:]
    messages = [e["message"] for e in latest]
    assert len(received) == len(messages)
    for shown, message in zip(received, messages, strict=True):
        assert shown == message if len(message) <= NOTEBOOK_WIRE_CHARS else (
            shown.startswith(message[:NOTEBOOK_WIRE_CHARS]) and "more characters" in shown)
    replied = [w.find_class("dial-wire-text")[1].text_content() for w in wires
               if len(w.find_class("dial-wire-text")) > 1]
    exact = [e["text"] for e in fixture if e["type"] == "reply" and e["turn"] in {
        s["turn"] for s in latest} and len(e["text"]) <= NOTEBOOK_WIRE_CHARS]
    assert set(exact) <= set(replied)  # exactly as it came, hidden characters and all …
    assert "Holds hidden characters: U+2067" in text  # … which are named above it
    # the 4 MB reply, of which the transcript keeps the beginning, says so
    assert "the reply was 4,000,001 characters long" in text
    assert len(fragment) < 300_000
    assert_inert(fragment)


def test_a_card_or_question_waiting_shows_as_waiting_and_cannot_be_answered_here(fixture):
    suggestion = {"type": "suggestion", "id": "add", "action": "add-note", "text": "Add it?",
                  "payload": {"text": "tea"}, "preview": "Add the note 'tea'",
                  "destructive": False, "mutates": True}
    pending = {"kind": "decide", "token": "d3", "id": "add", "action": "add-note",
               "payload": {"text": ""}, "edits_left": 1,
               "issue": {"text": "text must not be empty", "code": "invalid-payload",
                         "field": "text"},
               "errors": [{"field": "text", "message": "text must not be empty"}]}
    tree = lxml.html.fromstring(conversation_html([suggestion], pending=pending))
    (card,) = tree.find_class("dial-card")
    assert card.get("data-dial-status") == "pending"
    assert "Waiting for you" in card.find_class("dial-chip")[0].text_content()
    assert "Waiting for the person's decision" in card.text_content()
    assert "The edit was refused: text must not be empty" in card.text_content()
    assert "1 try left" in card.text_content()
    assert "Payload as edited" in card.text_content()
    assert not tree.xpath("//button | //input | //textarea | //form")

    ask = {"type": "ask", "id": "which", "text": "Which list?", "response_type": "choice",
           "options": [{"value": "home", "label": "Home", "default": True, "disabled": False},
                       {"value": "work", "label": "Work", "default": False, "disabled": True}]}
    waiting = {"kind": "answer", "token": "a1", "index": 1, "response_type": "choice",
               "options": ask["options"]}
    tree = lxml.html.fromstring(conversation_html([{"type": "person", "text": "ask"}, ask],
                                                  pending=waiting))
    (shown,) = tree.find_class("dial-ask")
    assert shown.get("data-dial-status") == "pending"
    assert "Waiting for the person's answer" in shown.text_content()
    assert [o.text_content() for o in shown.find_class("dial-option-static")] == [
        "Home (default)", "Work (unavailable)"]
    assert not tree.xpath("//button | //input")
    # the same question with nothing pending is simply not answered
    tree = lxml.html.fromstring(conversation_html([ask], pending={}))
    assert "Not answered." in tree.text_content()


def test_the_card_waiting_after_a_restart_is_shown_once_above_the_line_with_its_dry_run():
    # issue 27: the stale copy stood above "what was waiting for you is back, above", marked
    # Proposed (49 → 1 row), and the live card (200 → 4) below it
    def card(before: int, after: int) -> dict[str, Any]:
        return {"type": "suggestion", "id": "sg-2", "action": "group-aggregate",
                "payload": {"frame": "sales"}, "preview": "Group sales",
                "dry_run": {"ok": True, "summary": f"sales → t: {before} → {after} rows"}}

    resumed = {"type": "resumed", "session": "eda.json", "saved_at": "", "waiting": True}
    pending = {"kind": "decide", "token": "d1", "id": "sg-2", "action": "group-aggregate",
               "payload": {"frame": "sales"}, "issue": None, "errors": [], "edits_left": 3}
    html = conversation_html([card(49, 1), resumed, card(200, 4)], pending=pending)
    tree = lxml.html.fromstring(html)
    (shown,) = tree.find_class("dial-card")
    assert shown.get("data-dial-status") == "pending"
    assert "49 → 1" not in html  # (the static copy shows no dry run; the old one is gone)
    assert html.index("dial-card") < html.index("is back, above")


# ---- a hostile agent ------------------------------------------------------------------------

def test_a_hostile_agents_text_is_shown_as_text_and_nothing_in_it_runs_or_loads():
    fragment = conversation_html(hostile_transcript(), title=HOSTILE[3],
                                 pending={"kind": "decide", "id": HOSTILE[6], "token": "d1",
                                          "issue": {"text": HOSTILE[0]},
                                          "errors": [{"field": HOSTILE[1],
                                                      "message": HOSTILE[2]}]})
    parsed = assert_inert(fragment)
    text = "".join(parsed.text)
    for words in HOSTILE[:10]:
        assert words in text  # visible, as written
    # the one image shown is the real PNG; every other one is a note, nothing fetched
    images = [dict(attrs)["src"] for tag, attrs in parsed.tags if tag == "img"]
    assert images == [png()]
    assert text.count("Image not shown") >= 2 * len(BAD_IMAGES) - 4
    assert "Image from evil.example" in text and "not shown: this copy loads nothing" in text
    # a direction override is shown by name, never as the character (but in the exact wire)
    tree = lxml.html.fromstring(fragment)
    assert "rm -rf ~/⟨U+202E⟩ gpj.exe" in text
    for wire in tree.find_class("dial-wire"):
        assert "Holds hidden characters: U+202E" in wire.text_content()
        wire.drop_tree()
    assert "\u202e" not in tree.text_content()
    # an attribute built from agent text holds exactly that text, and nothing more
    tree = lxml.html.fromstring(fragment)
    card = tree.xpath("//article[@data-dial-status='failed']")[0]
    assert card.get("data-dial-suggestion") == HOSTILE[6]
    assert card.get("onmouseover") is None
    # the huge payload is clipped, and says so; the whole stays bounded
    assert "more characters not shown" in text
    assert len(fragment) < 1_500_000
    # shapes nobody sends are small generic lines
    assert len(tree.find_class("dial-unknown")) >= 4


def test_the_style_of_the_fragment_cannot_restyle_the_notebook_around_it():
    """Every rule is scoped under .dial-static (or under JupyterLab's dark-theme body)."""
    css = re.sub(r"/\*.*?\*/", "", STATIC_CSS, flags=re.S)
    selectors: list[str] = []
    depth, prelude = 0, ""
    for char in css:
        if char == "{":
            if not prelude.strip().startswith("@"):
                selectors.extend(s.strip() for s in prelude.split(","))
            depth += 1
            prelude = ""
        elif char == "}":
            depth -= 1
            prelude = ""
        elif char == ";" and depth:
            prelude = ""
        else:
            prelude += char
    assert selectors
    scoped = re.compile(r'(body\[data-jp-theme-light="(true|false)"\] )?\.dial-static\b')
    assert all(scoped.match(s) for s in selectors), [s for s in selectors if not scoped.match(s)]
    assert "@media (prefers-color-scheme: dark)" in STATIC_CSS
    assert 'body[data-jp-theme-light="false"] .dial-static' in STATIC_CSS
    assert "url(" not in STATIC_CSS and "@import" not in STATIC_CSS


@pytest.mark.parametrize("src, shown", [
    (png(), True),
    ("data:image/gif;base64,R0lGODlhAQABAAAAACw=", True),
    ("DATA:IMAGE/PNG;BASE64," + png().split(",")[1], True),
    ("data:image/jpeg;base64," + png().split(",")[1], True),  # a PNG called a JPEG: drawn as PNG
    *((src, False) for src in BAD_IMAGES),
])
def test_only_a_well_formed_inline_raster_image_becomes_an_img(src, shown):
    fragment = conversation_html([{"type": "inform", "text": "", "render": "media",
                                   "payload": {"src": src, "alt": "a chart"}}])
    parsed = assert_inert(fragment)
    images = [dict(a)["src"] for t, a in parsed.tags if t == "img"]
    assert bool(images) is shown
    if shown:
        assert images[0].startswith("data:image/png" if "iVBOR" in src else "data:image/gif")


def test_big_parts_are_bounded_and_say_what_they_left_out():
    rows = [{"n": n, "text": f"row {n}"} for n in range(10_000)]
    command = "echo " + "x" * 300_000
    entries = [
        {"type": "inform", "text": "Rows", "render": "table", "payload": rows},
        {"type": "inform", "text": "z" * 50_000},
        {"type": "suggestion", "id": "b", "action": "execute", "kind": "execute", "text": "",
         "preview": "Run 1 step", "destructive": True, "mutates": True,
         "payload": {"steps": [{"id": "s", "env": "shell", "command": command}]}},
        {"type": "suggestion", "id": "p", "action": "take", "text": "", "preview": "Take",
         "destructive": False, "mutates": True, "payload": {f"k{n}": n for n in range(100_000)}},
    ]
    fragment = conversation_html(entries)
    text = visible(fragment)
    assert "+9,700 more rows" in text
    assert "30,000 more characters not shown" in text
    assert "100,005 more characters not shown: this copy does not hold the whole command" in text
    assert len(fragment) < 400_000


def test_the_oldest_entries_give_way_when_the_whole_is_over_its_limit(monkeypatch):
    from dial_notebook.widget import _static

    monkeypatch.setattr(_static, "NOTEBOOK_LOG_CHARS", 2_000)
    fragment = conversation_html([{"type": "person", "text": f"words {n}"} for n in range(100)])
    text = visible(fragment)
    assert "words 99" in text and "words 0" not in text
    assert re.search(r"\d+ earlier entries are not shown", text)


def test_odd_shapes_are_drawn_as_best_can_be_and_never_raise():
    odd = [
        {"type": "suggestion", "id": None, "action": None, "payload": {"steps": "no"},
         "kind": "execute"},
        {"type": "outcome", "id": None, "status": None, "block": ["x"]},
        {"type": "ask", "options": "none", "response_type": None},
        {"type": "person", "text": 5, "answer_to": [1]},
        {"type": "inform", "render": None, "payload": {"png": 3}},
        {"type": "inform", "render": "table", "payload": {"data": "x"}},
        {"type": "inform", "render": "chart", "payload": {"mark": "bar", "data": {}}},
        {"type": "reply", "turn": None, "text": None},
        {"type": "declare", "key": 3, "value": float("nan")},
        {"type": "outcome", "id": "z", "status": "done", "result": float("inf")},
    ]
    nested: Any = []
    for _ in range(5_000):
        nested = [nested]
    odd.append({"type": "inform", "render": "raw", "text": "deep", "payload": nested})
    assert_inert(conversation_html(odd, pending={"kind": "decide", "id": None}))
    assert_inert(conversation_html(iter(odd), title="", pending=None))  # type: ignore[arg-type]


# ---- the export -------------------------------------------------------------------------------

def test_export_document_is_a_whole_page_that_loads_nothing(fixture):
    page = export_document(fixture, title="Notes <b>")
    assert page.startswith("<!DOCTYPE html>\n<html lang=\"en\">")
    assert page.rstrip().endswith("</html>")
    tree = lxml.html.document_fromstring(page)
    assert tree.find("head/meta").get("charset") == "utf-8"
    metas = {m.get("name") or m.get("http-equiv"): m.get("content")
             for m in tree.iter("meta") if m.get("charset") is None}
    assert metas["viewport"] == "width=device-width, initial-scale=1"
    assert "default-src 'none'" in metas["Content-Security-Policy"]
    assert tree.findtext("head/title") == "Notes <b>"
    assert tree.find_class("dial-static")
    assert not tree.xpath("//script | //link | //*[@href] | //iframe")
    assert_inert(page, document=True)


def test_write_document_replaces_the_file_atomically(tmp_path, monkeypatch):
    target = tmp_path / "conversation.html"
    target.write_text("old", encoding="utf-8")
    assert write_document(target, "new — ✓") == target
    assert target.read_text(encoding="utf-8") == "new — ✓"
    assert [p.name for p in tmp_path.iterdir()] == ["conversation.html"]

    import os

    def fail(*_args: Any) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(OSError, match="disk full"):
        write_document(target, "newer")
    assert target.read_text(encoding="utf-8") == "new — ✓"  # the old file stands
    assert [p.name for p in tmp_path.iterdir()] == ["conversation.html"]  # no temp file left


def test_a_new_export_can_be_read_by_others(tmp_path):
    target = write_document(tmp_path / "fresh.html", "<p>hi</p>")
    assert target.stat().st_mode & 0o644 == 0o644


# ---- the notebook output beside the widget ----------------------------------------------------

class Published:
    """A fake IPython display: what was displayed and updated, by display id."""

    def __init__(self) -> None:
        self.displayed: list[dict[str, str]] = []
        self.updated: list[dict[str, str]] = []
        self.ids: set[str] = set()

    def display(self, bundle: dict[str, str], *, raw: bool, display_id: str) -> None:
        assert raw
        self.ids.add(display_id)
        self.displayed.append(bundle)

    def update_display(self, bundle: dict[str, str], *, raw: bool, display_id: str) -> None:
        assert raw and display_id in self.ids
        self.updated.append(bundle)


def static_output(html: Any, *, interval: float = 1.0) -> tuple[StaticOutput, Published]:
    fake = Published()
    return StaticOutput(html, interval=interval, display=fake.display,
                        update_display=fake.update_display), fake


def test_without_ipython_the_static_output_does_nothing():
    static = StaticOutput(lambda: "<p>x</p>")
    static.show()
    static.changed()
    static.flush()
    assert not static.shown and static.updates == 0


def test_without_a_loop_each_change_updates_at_once_and_an_unchanged_copy_is_not_resent():
    state = {"n": 0}
    static, fake = static_output(lambda: f"<p>{state['n']}</p>")
    static.changed()  # not shown yet: nothing to update
    static.show()
    assert fake.displayed == [{"text/html": "<p>0</p>",
                               "text/plain": "(a static copy of the conversation)"}]
    for n in range(1, 6):
        state["n"] = n
        static.changed()
    static.changed()  # nothing new
    assert [b["text/html"] for b in fake.updated] == [f"<p>{n}</p>" for n in range(1, 6)]
    assert static.updates == 5


def test_on_a_loop_a_burst_of_changes_is_one_update():
    async def main() -> tuple[int, str]:
        state = {"n": 0}
        static, fake = static_output(lambda: f"<p>{state['n']}</p>", interval=0.05)
        static.show()
        for n in range(1, 501):
            state["n"] = n
            static.changed()
        assert fake.updated == []  # none yet: the update waits for the loop
        await asyncio.sleep(0.2)
        return len(fake.updated), fake.updated[-1]["text/html"]

    assert asyncio.run(main()) == (1, "<p>500</p>")


def test_changes_that_keep_coming_update_at_most_once_an_interval_then_once_more():
    async def main() -> tuple[int, str, float]:
        state = {"n": 0}
        static, fake = static_output(lambda: f"<p>{state['n']}</p>", interval=0.1)
        static.show()
        loop = asyncio.get_running_loop()
        start = loop.time()
        for _ in range(200):  # a change every 5 ms (or more, on a busy machine): 200 changes
            state["n"] += 1
            static.changed()
            await asyncio.sleep(0.005)
        flowing = loop.time() - start  # at least a second
        await asyncio.sleep(0.3)  # the trailing update (due first: at most 0.1 s from now)
        return len(fake.updated), fake.updated[-1]["text/html"], flowing

    updates, last, flowing = asyncio.run(main())
    assert 3 <= updates <= flowing / 0.1 + 2, updates
    assert int(last[3:-4]) == 200  # the last update shows the last change


def test_flush_updates_now_and_cancels_the_update_due():
    async def main() -> list[str]:
        state = {"n": 0}
        static, fake = static_output(lambda: f"<p>{state['n']}</p>", interval=5.0)
        static.show()
        state["n"] = 1
        static.changed()
        static.flush()
        await asyncio.sleep(0.05)
        return [b["text/html"] for b in fake.updated]

    assert asyncio.run(main()) == ["<p>1</p>"]


def test_a_change_made_on_another_threads_loop_is_updated_on_the_loop_that_showed_the_copy():
    """A worker thread's own loop may end before a debounced update is due: the change hops
    onto the kernel's loop (the one show() ran on), where the update is made."""
    import threading

    async def main() -> tuple[list[str], set[str]]:
        state = {"n": 0}
        threads: set[str] = set()
        static, fake = static_output(lambda: f"<p>{state['n']}</p>", interval=0.05)
        static.show()
        original = fake.update_display

        def update(bundle: dict[str, str], **options: Any) -> None:
            threads.add(threading.current_thread().name)
            original(bundle, **options)

        static._update_display = update

        async def worker() -> None:
            for _ in range(20):
                state["n"] += 1
                static.changed()
            # this loop ends now, before any update would have been due on it

        thread = threading.Thread(target=lambda: asyncio.run(worker()), name="worker")
        thread.start()
        thread.join()
        await asyncio.sleep(0.2)
        return [b["text/html"] for b in fake.updated], threads

    updated, threads = asyncio.run(main())
    assert updated[-1] == "<p>20</p>" and len(updated) <= 2
    assert threads == {threading.main_thread().name}


def test_a_copy_that_cannot_be_drawn_warns_once_and_never_stops_the_caller():
    calls = {"n": 0}

    def broken() -> str:
        calls["n"] += 1
        if calls["n"] > 1:
            raise ValueError("cannot draw")
        return "<p>ok</p>"

    static, fake = static_output(broken)
    static.show()
    with pytest.warns(RuntimeWarning, match="cannot draw"):
        static.changed()
    static.changed()  # warned once only
    assert fake.updated == []


def test_the_chat_widget_shows_itself_then_its_static_copy_and_keeps_it_current(monkeypatch):
    import IPython.display

    shown: list[Any] = []
    monkeypatch.setattr(IPython.display, "display", lambda obj, **kw: shown.append((obj, kw)))
    reply = ('<dial version="0.1" actor="agent"><dial-inform>Here are your notes.</dial-inform>'
             '<dial-suggest id="ls{n}" action="list-notes"><dial-payload type="application/json">'
             "{{}}</dial-payload></dial-suggest></dial>")

    async def main() -> tuple[ChatWidget, Published, int]:
        agent = ScriptedAgent([reply.format(n=n) for n in range(40)]
                              + ['<dial><dial-inform>Done.</dial-inform></dial>'] * 40)
        chat = ChatWidget(agent=agent, domain=NotesDomain(["buy milk"]), title="Notes",
                          max_turns=2)
        fake = Published()
        chat._static = StaticOutput(chat._static_html, interval=0.2, display=fake.display,
                                    update_display=fake.update_display)
        chat._ipython_display_()
        for n in range(20):
            await chat.say(f"list my notes {n}")
        await asyncio.sleep(0.4)
        return chat, fake, len(chat.transcript)

    chat, fake, events = asyncio.run(main())
    chat.close()  # displayed, it is the notebook's question provider: let the next test have it
    (widget_view, options), = shown
    assert "application/vnd.jupyter.widget-view+json" in widget_view and options["raw"] is True
    assert len(fake.displayed) == 1
    assert events > 200
    # far fewer updates than events, and the last one is the whole conversation
    assert 1 <= len(fake.updated) < events / 10
    assert fake.updated[-1]["text/html"] == conversation_html(chat.transcript, title="Notes")
    assert "list my notes 19" in fake.updated[-1]["text/html"]


def test_a_pending_change_updates_the_copy():
    chat = ChatWidget(agent=ScriptedAgent([]), domain=NotesDomain())
    fake = Published()
    chat._static = StaticOutput(chat._static_html, display=fake.display,
                                update_display=fake.update_display)
    chat._static.show()
    chat.transcript = [{"type": "ask", "id": "q", "text": "Which?", "response_type": "text",
                        "options": []}]
    chat.pending = {"kind": "answer", "token": "a1", "index": 0, "response_type": "text",
                    "options": []}
    assert "Waiting for the person" in fake.updated[-1]["text/html"]


def test_export_html_writes_the_conversation_to_one_file(tmp_path, fixture):
    chat = ChatWidget(agent=ScriptedAgent([]), domain=NotesDomain(), title="Notes")
    chat.transcript = fixture
    path = chat.export_html(tmp_path / "chat.html")
    assert path == tmp_path / "chat.html"
    page = path.read_text(encoding="utf-8")
    assert page == export_document(fixture, title="Notes", pending={})
    assert "Add the note &#x27;green tea&#x27;" in page


def test_a_plain_dismissal_says_nothing_ran_and_one_with_a_reason_gives_it():
    card = {"type": "suggestion", "id": "s1", "action": "add-note", "payload": {"text": "x"},
            "preview": "Add the note 'x'", "mutates": True}
    plain = visible(conversation_html([card, {"type": "outcome", "id": "s1",
                                              "action": "add-note", "status": "dismissed"}]))
    assert "Dismissed — nothing ran" in plain
    reasoned = visible(conversation_html([card, {"type": "outcome", "id": "s1",
                                                 "action": "add-note", "status": "dismissed",
                                                 "reason": "have it"}]))
    assert "nothing ran" not in reasoned and "Reason: have it" in reasoned


def test_a_result_that_says_itself_in_a_summary_is_read_by_it():
    from dial_notebook.widget._static_values import Budget, result_nodes

    changed = {"frame": "sales", "rows": 40, "revision": 1, "rows_before": 200,
               "columns": ["date", "region"], "summary": "sales: 200 → 40 rows"}
    assert result_nodes(changed, Budget()) == [
        '<span class="dial-result"> — sales: 200 → 40 rows</span>']
    table = {"frame": "sales", "summary": "Statistics of sales",
             "table": {"columns": ["column", "mean"], "rows": [["price", 1.5]]}}
    assert "Statistics of sales</div>" in "".join(result_nodes(table, Budget()))
