"""The conversation as static HTML: readable where the live widget is not (a notebook reopened
without a kernel, ``jupyter nbconvert --to html``, a static viewer) and as a one-file export.

    conversation_html(transcript, pending=...) ──▶ an HTML fragment for a notebook's text/html
                                                   output: <div class="dial-static"> with its
                                                   own <style>, every rule scoped under it
    export_document(transcript, pending=...)   ──▶ a whole document around that fragment
    write_document(path, text)                 ──▶ written atomically (ChatWidget.export_html)

It draws what the live widget draws (js/src: items.js, log.js, cards.js, ask.js, inform.js;
the look of widget.css, light and dark): the person's words, the agent's informs by their render
hint, cards with their preview, the agent's words, payload and outcome, execute blocks with every
command whole, asks with their options and answer, context, hand-offs, notices; and, collapsed
under each turn, the exact text the agent received and replied. Read-only: no buttons, no script.

Everything in a transcript but the shape of its events comes from an untrusted agent. So: every
string is escaped (``html.escape(..., quote=True)``); attributes carry only escaped values or
names made here; there is no script, no event-handler attribute, no link; an image is shown only
as a ``data:image/(png|jpeg|gif|webp);base64`` URL whose data is well-formed base64 of such an
image (any other URL becomes a short note: nothing is fetched); hidden characters in commands are
shown by name as the widget shows them (``dial_notebook.dial.reveal``), and so are direction
controls in any other text but the exact wire text (whose hidden characters are named above
it); each part is bounded, and what is clipped says so.
"""

from __future__ import annotations

import base64
import binascii
import html
import json
import math
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from dial_notebook._files import write_atomically
from dial_notebook.dial._unicode import HIDDEN, hidden_characters

__all__ = ["conversation_html", "export_document", "write_document"]

#: Characters of one text shown (prose, a preview, an answer …); the rest is clipped, said so.
TEXT_CHARS = 20_000
#: Characters of one JSON block (a payload, a result) and of each wire text (sent, reply).
JSON_CHARS = 20_000
#: Characters of one command: shown whole up to this (a longer one says how much is not shown).
COMMAND_CHARS = 200_000
#: Rows and columns of a table; items of a list or card list; images of one inform or result.
TABLE_ROWS = 300
TABLE_COLUMNS = 60
CARD_ITEMS = 100
MEDIA_ITEMS = 20
#: Characters of one inline image (its data: URL), and of all of them in one rendering.
IMAGE_CHARS = 4_000_000
IMAGES_CHARS = 16_000_000
#: Characters of the log in one rendering; past it, the oldest entries are left out, said so.
LOG_CHARS = 24_000_000

STATUS_LABEL = {
    "pending": "Waiting for you", "proposed": "Proposed", "done": "Done", "failed": "Failed",
    "dismissed": "Dismissed", "superseded": "Superseded", "handed-off": "Handed off",
    "invalid": "Invalid", "skipped": "Skipped", "confirmed": "Confirmed", "running": "Running",
    "undone": "Undone",
}

_IMAGE_SIGNATURES = (
    ("png", b"\x89PNG\r\n\x1a\n"), ("jpeg", b"\xff\xd8\xff"), ("gif", b"GIF87a"),
    ("gif", b"GIF89a"),
)
_DATA_IMAGE = re.compile(r"data:image/(png|jpeg|gif|webp);base64,", re.IGNORECASE)
_BASE64 = re.compile(r"[A-Za-z0-9+/]*={0,2}")
_NAME = re.compile(r"[^a-z0-9-]+")
_DIRECTION = re.compile("[\u202a-\u202e\u2066-\u2069]")


# ---- the two public renderings ------------------------------------------------------------------

def conversation_html(entries: Iterable[Any], *, title: str = "",
                      pending: Mapping[str, Any] | None = None) -> str:
    """The conversation as an HTML fragment: one ``<div class="dial-static">`` holding a scoped
    ``<style>`` and the conversation, read-only; no script, no link, nothing fetched.

    ``entries`` is a ChatWidget's ``transcript`` (the runtime's events and the widget's own
    entries); ``pending`` its ``pending`` trait (a card or question waiting for the person).

        >>> fragment = conversation_html([{"type": "person", "text": "hi <b>"}], title="Notes")
        >>> fragment.startswith('<div class="dial-static"')
        True
        >>> "hi &lt;b&gt;" in fragment and "<script" not in fragment
        True
    """
    listed = list(entries) if not isinstance(entries, list) else entries
    budget = _Budget()
    items = _items(listed, pending if isinstance(pending, Mapping) else {})
    drawn = [_draw(item, budget) for item in items]
    kept, size = len(drawn), 0
    for index in range(len(drawn) - 1, -1, -1):
        size += len(drawn[index])
        if size > LOG_CHARS:
            kept = len(drawn) - index - 1
            break
    left_out = len(drawn) - kept
    log = "".join(drawn[left_out:])
    if left_out:
        log = (f'<div class="dial-note dial-left-out">{left_out:,} earlier entries are not '
               "shown: this copy is over its size limit.</div>" + log)
    context = _context_panel(listed)
    shown_title = _text(str(title), 400) if title else "DIAL conversation"
    return (
        f'<div class="dial-static" data-dial-static="" data-dial-events="{len(listed)}">'
        f"<style>{STATIC_CSS}</style>"
        '<div class="dial-header"><span class="dial-logo" aria-hidden="true">◆</span>'
        f'<span class="dial-title">{shown_title}</span>'
        '<span class="dial-static-note">read-only copy</span></div>'
        f"{context}"
        f'<div class="dial-log" role="log" aria-label="Conversation">{log}</div>'
        "</div>"
    )


def export_document(entries: Iterable[Any], *, title: str = "",
                    pending: Mapping[str, Any] | None = None) -> str:
    """The conversation as one self-contained HTML document (the fragment of
    ``conversation_html`` in a page of its own): it loads nothing and needs no script.

        >>> page = export_document([{"type": "person", "text": "hi"}], title="Notes")
        >>> page.startswith("<!DOCTYPE html>") and '<meta charset="utf-8">' in page
        True
    """
    heading = _e(str(title)[:400]) if title else "DIAL conversation"
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="color-scheme" content="light dark">\n'
        # nothing is loaded, whatever the fragment holds: no script, no network, no frame
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'\">\n"
        '<meta name="referrer" content="no-referrer">\n'
        f"<title>{heading}</title>\n<style>{PAGE_CSS}</style>\n</head>\n<body>\n"
        f"<main>{conversation_html(entries, title=title, pending=pending)}</main>\n"
        "</body>\n</html>\n"
    )


def write_document(path: str | os.PathLike[str], text: str) -> Path:
    """Write ``text`` to ``path`` as UTF-8, atomically: a temporary file in the same folder,
    then ``os.replace`` (a reader never sees half a file; a failed write leaves the old one).

        write_document("conversation.html", export_document(chat.transcript))
    """
    return write_atomically(path, text)


# ---- the transcript as display items (js/src/items.js: itemsOf) --------------------------------

@dataclass
class _Item:
    kind: str
    event: Mapping[str, Any]
    index: int = -1
    outcome: Mapping[str, Any] | None = None
    steps: dict[str, Mapping[str, Any]] = field(default_factory=dict)
    acks: list[Mapping[str, Any]] = field(default_factory=list)
    answer: str | None = None
    pending: Mapping[str, Any] | None = None
    status: str = ""
    retry: bool = False
    #: A done card's later outcome 'undone' (Undo took it back; the done result stays shown).
    undone: Mapping[str, Any] | None = None


@dataclass
class _Budget:
    images: int = IMAGES_CHARS


def _items(transcript: list[Any], pending: Mapping[str, Any]) -> list[_Item]:
    """Cards get their outcome, steps and acknowledgements; answers join their question; each
    turn ends with what the agent received and replied (a 'wire' item)."""
    items: list[_Item] = []
    cards: dict[str, _Item] = {}
    asks: dict[Any, _Item] = {}
    wire: _Item | None = None
    resumed_at = -1  # the latest "carried on from …" line

    def end_turn() -> None:
        nonlocal wire
        if wire is not None:
            items.append(wire)
            wire = None

    for index, event in enumerate(transcript):
        if not isinstance(event, Mapping):
            items.append(_Item("unknown", {"type": type(event).__name__}, index))
            continue
        kind = event.get("type")
        if kind == "person":
            ask = asks.get(event.get("answer_to")) if _hashable(event.get("answer_to")) else None
            if ask is not None and ask.answer is None:
                ask.answer = _string(event.get("text"))
            else:
                end_turn()
                items.append(_Item("person", event, index))
        elif kind == "inform":
            of = event.get("of")
            card = (cards.get(str(of)) if event.get("act") == "acknowledge" and of is not None
                    else None)
            if card is not None:
                card.acks.append(event)
            else:
                items.append(_Item("inform", event, index))
        elif kind == "ask":
            item = _Item("ask", event, index)
            asks[index] = item
            items.append(item)
        elif kind == "suggestion":
            # after a restart the waiting card is offered again (its dry run made anew): it is
            # the card above "what was waiting for you is back, above", shown once, as now
            earlier = cards.get(str(event.get("id")))
            if (earlier is not None and earlier.index < resumed_at and earlier.outcome is None
                    and not earlier.steps and earlier.event.get("kind") == event.get("kind")):
                earlier.event = event
                continue
            item = _Item("suggestion", event, index)
            cards[str(event.get("id"))] = item
            items.append(item)
        elif kind == "outcome":
            block_id = event.get("block")
            block = cards.get(str(block_id)) if block_id is not None else None
            card = cards.get(str(event.get("id")))
            if block is not None and block.event.get("kind") == "execute":
                block.steps[str(event.get("id"))] = event
            elif card is not None and card.outcome is None and not card.steps:
                card.outcome = event
            elif (card is not None and event.get("status") == "undone" and card.undone is None
                  and card.outcome is not None and card.outcome.get("status") == "done"):
                card.undone = event
            elif event.get("status") != "skipped":
                items.append(_Item("status", event, index))
            # a skipped proposal without a card of its own: its 'skipped' note says why
        elif kind in ("delegate", "declare", "phatic"):
            items.append(_Item(str(kind), event, index))
        elif kind == "no-reply":
            items.append(_Item("no-reply", event, index))
            if wire is not None:
                wire.outcome = event
            end_turn()
        elif kind in ("turn-limit", "error", "stopped", "resumed", "undo-failed"):
            resumed_at = index if kind == "resumed" else resumed_at
            items.append(_Item("status", event, index))
        elif kind == "sent":
            end_turn()
            wire = _Item("wire", event, index)
        elif kind == "reply":
            if wire is None:
                wire = _Item("wire", {"type": "sent", "turn": event.get("turn")}, index)
            wire.outcome = event
        else:
            items.append(_Item("unknown", event, index))
    end_turn()

    decide = pending if pending.get("kind") == "decide" else None
    answer = pending if pending.get("kind") == "answer" else None
    for item in items:
        if item.kind == "suggestion":
            mine = (decide is not None and str(decide.get("id")) == str(item.event.get("id"))
                    and cards.get(str(decide.get("id"))) is item)
            item.pending = decide if mine else None
            item.status = ("undone" if item.undone is not None
                           else str(item.outcome.get("status")) if item.outcome is not None
                           else "pending" if mine
                           else _block_status(item) if item.event.get("kind") == "execute"
                           else "proposed")
        elif item.kind == "ask":
            item.pending = (answer if answer is not None and answer.get("index") == item.index
                            else None)
    return items


def _block_status(item: _Item) -> str:
    """An execute block's status from its steps' outcomes (js/src/items.js: blockStatus)."""
    steps = _steps_of(item.event)
    if not item.steps:
        return "confirmed" if item.event.get("confirmed") else "proposed"
    if len(item.steps) < len(steps):
        return "running"
    return "done" if all(o.get("status") == "done" for o in item.steps.values()) else "failed"


def _hashable(value: Any) -> bool:
    return value is None or isinstance(value, int | str | float | bool)


# ---- items as HTML (js/src/log.js: nodeFor) ----------------------------------------------------

def _draw(item: _Item, budget: _Budget) -> str:
    try:
        drawer = _DRAWERS.get(item.kind, _unknown)
        return drawer(item, budget)
    except Exception as error:  # a shape nobody foresaw: one line, never a crash
        return (f'<div class="dial-note dial-unknown">An entry could not be shown here '
                f"({_e(type(error).__name__)}).</div>")


def _person(item: _Item, _budget: _Budget) -> str:
    return (f'<div class="dial-person"><div class="dial-bubble">'
            f"{_text(item.event.get('text'))}</div></div>")


def _inform(item: _Item, budget: _Budget) -> str:
    event = item.event
    act = event.get("act")
    if act == "skipped":
        return (f'<div class="dial-note dial-skipped">'
                f"{_text(event.get('text') or 'Skipped.')}</div>")
    if act == "addressed-elsewhere":
        to = _string(event.get("addressed_to")) or "someone else"
        return ('<div class="dial-elsewhere">'
                f'<div class="dial-note">For {_text(to, 200)} — not acted on here:</div>'
                f'<div class="dial-elsewhere-text">{_text(event.get("text"))}</div></div>')
    render = _string(event.get("render")) or "prose"
    classes = "dial-inform" + (" dial-ack" if act == "acknowledge" else "")
    if act == "unread":
        classes += " dial-unread"
    return (f'<div class="{classes}" data-dial-render="{_e(render[:40])}">'
            f"{_inform_body(event, render, budget)}</div>")


def _inform_body(event: Mapping[str, Any], render: str, budget: _Budget) -> str:
    """An inform's body by its render hint (js/src/inform.js: informBody)."""
    text = event.get("text") if isinstance(event.get("text"), str) else ""
    has_payload = event.get("payload") is not None
    payload = event.get("payload")
    prose = f'<div class="dial-prose">{_text(text)}</div>' if text else ""
    if render == "prose":
        return prose or (_json_block(payload) if has_payload else "")
    if render in ("code", "diagram"):
        code = (payload if isinstance(payload, str) else _json_text(payload)) if has_payload \
            else text
        return ((prose if has_payload and text else "")
                + f'<pre class="dial-code"><code>{_text(code, JSON_CHARS)}</code></pre>')
    if render == "markdown":
        source = payload if isinstance(payload, str) else text
        return (f'<div class="dial-markdown">{_markdown(source)}</div>'
                + (_json_block(payload) if has_payload and not isinstance(payload, str)
                   else ""))
    if render == "table":
        table = _table(payload) if has_payload else None
        return prose + (table if table is not None else
                        _json_block(payload) if has_payload else "")
    if render == "card-list":
        cards = _card_list(payload) if has_payload else None
        return prose + (cards if cards is not None else
                        _json_block(payload) if has_payload else "")
    if render == "media":
        source = payload if has_payload else text
        images = source if isinstance(source, list) else [source]
        return ((prose if has_payload else "")
                + _images(images, budget))
    if render == "chart":
        chart = event.get("chart")
        return prose + (_drawn_chart(chart, payload, budget) if isinstance(chart, Mapping)
                        else _chart(payload, text, has_payload, budget))
    return prose + (_json_block(payload) if has_payload else "")


def _drawn_chart(chart: Mapping[str, Any] | None, spec: Any, budget: _Budget) -> str:
    """A Vega-Lite chart as the kernel drew it (``_vegalite.py``): the PNG at its size, or why
    it was not drawn with the spec collapsed (js/src/inform.js: chartOf)."""
    if chart is not None and isinstance(chart.get("src"), str):
        size = tuple(min(int(n), 4000) if isinstance(n, int | float) and not isinstance(
            n, bool) and n > 0 else None for n in (chart.get("width"), chart.get("height")))
        return _image({"src": chart["src"], "alt": _string(chart.get("alt")) or "A chart"},
                      budget, size=size, chart=True)
    why = (_string(chart.get("error")) if chart is not None else "") or \
        "Vega-Lite chart (not drawn here)"
    return (f'<div class="dial-note dial-chart-error">{_text(why, 2000)}</div>'
            + _details("Vega-Lite specification", _json_block(spec), "dial-chart-spec"))


def _chart(payload: Any, text: str, has_payload: bool, budget: _Budget) -> str:
    if isinstance(payload, str) and payload.startswith("data:image/"):
        return _image(payload, budget)
    if isinstance(payload, Mapping) and isinstance(payload.get("png"), str):
        return _image({"src": f"data:image/png;base64,{payload['png']}",
                       "alt": payload.get("alt") or text or "chart"}, budget)
    if isinstance(payload, Mapping) and (payload.get("mark") is not None
                                         or "vega" in _string(payload.get("$schema"))):
        return ('<div class="dial-note">Vega-Lite chart (shown as its specification)</div>'
                + _json_block(payload))
    return _json_block(payload) if has_payload else ""


def _ask(item: _Item, _budget: _Budget) -> str:
    """A question, its options (read-only) and the person's answer (js/src/ask.js)."""
    event, pending = item.event, item.pending
    kind = _string((pending or {}).get("response_type") or event.get("response_type")) or "text"
    status = "answered" if item.answer is not None else "pending" if pending else "open"
    parts = [f'<div class="dial-ask-text">{_text(event.get("text"))}</div>']
    options = [o for o in _list(event.get("options")) if isinstance(o, Mapping)]
    chosen = None
    if item.answer is not None and kind != "confirm":
        chosen = next((o for o in options if _string(o.get("value")) == item.answer), None)
    if kind == "confirm":
        parts.append('<ul class="dial-options-static" aria-label="Yes or no">'
                     + "".join(_option_chip(label, chosen=(item.answer or "").lower()
                                            == label.lower())
                               for label in ("Yes", "No")) + "</ul>")
    elif options:
        parts.append('<ul class="dial-options-static" aria-label="Options">' + "".join(
            _option_chip(_string(o.get("label")) or _string(o.get("value")),
                         value=_string(o.get("value")), chosen=o is chosen,
                         default=bool(o.get("default")), disabled=bool(o.get("disabled")))
            for o in options[:CARD_ITEMS]) + "</ul>")
        if len(options) > CARD_ITEMS:
            parts.append(f'<div class="dial-more">+{len(options) - CARD_ITEMS:,} more</div>')
    if item.answer is not None:
        shown = (_string(chosen.get("label")) or item.answer) if chosen is not None \
            else item.answer.capitalize() if kind == "confirm" and item.answer.lower() in (
                "yes", "no") else item.answer
        parts.append(f'<div class="dial-answered"><span class="dial-you">You: </span>'
                     f"{_text(shown)}</div>")
    elif pending:
        parts.append('<div class="dial-waiting">Waiting for the person&#x27;s answer '
                     "(answer in the live widget: this copy is read-only).</div>")
    else:
        parts.append('<div class="dial-note">Not answered.</div>')
    return (f'<section class="dial-ask dial-ask-{_name(kind)} dial-status-{status}" '
            f'data-dial-status="{status}">{"".join(parts)}</section>')


def _option_chip(label: str, *, value: str = "", chosen: bool = False, default: bool = False,
                 disabled: bool = False) -> str:
    classes = "dial-option-static" + (" dial-chosen" if chosen else "") + (
        " dial-disabled" if disabled else "")
    extra = (f' <span class="dial-choice-desc">{_text(value, 200)}</span>'
             if value and value.lower() != label.lower() else "")
    marks = (" (default)" if default else "") + (" (unavailable)" if disabled else "")
    mark = "✓ " if chosen else ""
    return (f'<li class="{classes}">{mark}{_text(label, 400)}{extra}'
            + (f'<span class="dial-choice-desc">{marks}</span>' if marks else "") + "</li>")


def _suggestion(item: _Item, budget: _Budget) -> str:
    """A card: action, status, preview, the agent's words, steps, payload, outcome, acks
    (js/src/cards.js: suggestionCard), with nothing to click."""
    event, outcome, status = item.event, item.outcome, item.status
    destructive = bool(event.get("destructive"))
    execute = event.get("kind") == "execute"
    ran_edited = outcome is not None and outcome.get("edited") and outcome.get("preview")
    preview = _string(outcome.get("preview") if ran_edited and outcome is not None
                      else event.get("preview") or event.get("action"))
    proposed = _e(_clip(event.get("preview"), 400))
    edited = (f'<span class="dial-edited-mark" title="Proposed: {proposed}"> (edited)</span>'
              if ran_edited else "")
    badge = ""
    if destructive:
        badge = ('<span class="dial-badge dial-badge-danger">'
                 + ("⚠ Runs code" if execute else "⚠ Destructive") + "</span>")
    parts = [
        '<div class="dial-card-head">'
        f'<span class="dial-action-name">{_text(event.get("action"), 200)}</span>{badge}'
        f'<span class="dial-chip dial-chip-{_name(status)}">'
        f"{_e(STATUS_LABEL.get(status, status))}</span></div>",
        f'<div class="dial-preview">{_text(preview)}{edited}</div>',
    ]
    words = _string(event.get("text")).strip()
    if words and words != preview.strip():
        parts.append(f'<div class="dial-agent-text">{_text(event.get("text"))}</div>')
    if execute:
        parts.append(_step_list(item))
        if event.get("confirmed") and item.pending:
            parts.append('<div class="dial-note">The person answered yes above. That was not '
                         "approval to run code: the commands wait for Accept.</div>")
    if item.pending:
        parts.append(_waiting_part(item))
    elif outcome is not None:
        parts.append(_outcome_line(outcome, edited_shown=bool(ran_edited), budget=budget))
    for ack in item.acks:
        parts.append('<div class="dial-card-ack"><span class="dial-card-ack-who">Agent: </span>'
                     f"{_text(ack.get('text'))}</div>")
    if not execute and event.get("payload") is not None:
        parts.append(_details("Payload", _json_block(event.get("payload")), "dial-payload"))
    classes = f"dial-card dial-status-{_name(status)}" + (" dial-destructive" if destructive
                                                          else "")
    return (f'<article class="{classes}" data-dial-suggestion="{_e(_clip(event.get("id"), 200))}" '
            f'data-dial-status="{_e(status)}">{"".join(parts)}</article>')


def _waiting_part(item: _Item) -> str:
    pending = item.pending or {}
    parts = ['<div class="dial-waiting">Waiting for the person&#x27;s decision (decide in the '
             "live widget: this copy is read-only).</div>"]
    issue = pending.get("issue")
    if isinstance(issue, Mapping) and issue.get("text"):
        errors = [e for e in _list(pending.get("errors")) if isinstance(e, Mapping)][:CARD_ITEMS]
        listed = "".join(f"<li><code>{_text(e.get('field'), 200)}</code> — "
                         f"{_text(e.get('message'), 1000)}</li>" for e in errors)
        parts.append(f'<div class="dial-issue">The edit was refused: {_text(issue.get("text"))}'
                     + (f"<ul>{listed}</ul>" if listed else "") + "</div>")
    left = pending.get("edits_left")
    if isinstance(left, int) and not isinstance(left, bool):
        parts.append(f'<div class="dial-note">{left} {"try" if left == 1 else "tries"} '
                     "left to edit.</div>")
    if "payload" in pending and pending.get("payload") != item.event.get("payload"):
        parts.append(_details("Payload as edited", _json_block(pending.get("payload")),
                              "dial-payload"))
    return "".join(parts)


def _step_list(item: _Item) -> str:
    """An execute block's steps: each command whole, hidden characters named, each outcome."""
    steps = [s for s in _steps_of(item.event) if isinstance(s, Mapping)]
    rows = []
    for step in steps:
        outcome = item.steps.get(str(step.get("id")))
        status = _string(outcome.get("status")) if outcome is not None else ""
        command = (outcome.get("command") if outcome is not None
                   and isinstance(outcome.get("command"), str) else _string(step.get("command")))
        hidden = hidden_characters(command[:COMMAND_CHARS])
        lines = command.count("\n") + 1
        label = _string(step.get("label"))
        head = (f'<span class="dial-env">{_text(step.get("env"), 100)}</span>'
                + (f'<span class="dial-step-label">{_revealed(label, 1000)}</span>'
                   if label else "")
                + (f'<span class="dial-step-lines">{lines:,} lines</span>' if lines > 1 else "")
                + (f'<span class="dial-chip dial-chip-{_name(status)}">'
                   f"{_e(STATUS_LABEL.get(status, status))}</span>" if status else ""))
        row = [f'<div class="dial-step-head">{head}</div>']
        if hidden:
            row.append('<div class="dial-suspicious" role="note">⚠ Hidden characters '
                       f"({_e(', '.join(hidden[:20]))}): what this command looks like is not "
                       "what it runs. They are shown below by name.</div>")
        row.append(f'<pre class="dial-command" dir="ltr">{_revealed(command, COMMAND_CHARS)}</pre>')
        if outcome is not None and outcome.get("edited"):
            row.append('<span class="dial-edited">(edited)</span>')
        if outcome is not None:
            row.append(_step_outcome(outcome))
        classes = ("dial-step" + (f" dial-step-{_name(status)}" if status else "")
                   + (" dial-step-suspicious" if hidden else ""))
        rows.append(f'<li class="{classes}" data-dial-step="{_e(_clip(step.get("id"), 200))}" '
                    f'data-dial-status="{_e(status or "waiting")}">{"".join(row)}</li>')
    count = len(steps)
    noun = "step" if count == 1 else "steps"
    return (f'<div class="dial-step-count">{count} {noun}, each command shown whole:</div>'
            f'<ol class="dial-steps">{"".join(rows)}</ol>')


def _step_outcome(outcome: Mapping[str, Any]) -> str:
    status = _string(outcome.get("status"))
    result = outcome.get("result")
    parts = []
    if status == "done" and isinstance(result, Mapping):
        for key in ("stdout", "value", "stderr", "body"):
            if isinstance(result.get(key), str) and result.get(key):
                parts.append(f'<pre class="dial-output dial-output-{key}">'
                             f"{_text(result[key], JSON_CHARS)}</pre>")
        if not parts and _result_text(result):
            parts.append(f"<span>{_e(_result_text(result))}</span>")
    elif status == "done":
        if _result_text(result):
            parts.append(f"<span>{_e(_result_text(result))}</span>")
    else:
        error, hint = outcome.get("error"), outcome.get("hint")
        parts.append(f"<span>{_e(_summarise(error or hint or '', 1000))}</span>")
        if error and hint:
            parts.append(f'<div class="dial-hint">{_e(_summarise(hint, 1000))}</div>')
    return f'<div class="dial-step-outcome dial-outcome-{_name(status)}">{"".join(parts)}</div>'


def _outcome_line(outcome: Mapping[str, Any], *, edited_shown: bool, budget: _Budget) -> str:
    """A card's outcome: Done with its result, Failed with error and hint, … (cards.js)."""
    status = _string(outcome.get("status"))
    error, hint = outcome.get("error"), outcome.get("hint")
    parts: list[str] = []
    if status == "done":
        parts.append("<strong>Done</strong>")
        body = _result_nodes(outcome.get("result"), budget)
        if len(body) == 1 and body[0].startswith('<span class="dial-result">'):
            parts.append(body[0])
        elif body:
            parts.append(f'<div class="dial-result-body">{"".join(body)}</div>')
    elif status == "failed":
        parts.append(f"<strong>Failed</strong><span> — {_e(_summarise(error or 'error', 2000))}"
                     "</span>")
        if hint:
            parts.append(f'<div class="dial-hint">Hint: {_e(_summarise(hint, 2000))}</div>')
    elif status == "dismissed":
        parts.append("<strong>Dismissed</strong>")
    elif status == "superseded":
        parts.append("<strong>Superseded</strong><span> — the person moved on without "
                     "deciding</span>")
    elif status == "handed-off":
        parts.append("<strong>Handed off</strong><span> — continued in its own panel</span>")
    else:
        parts.append(f"<strong>{_e(STATUS_LABEL.get(status, status))}</strong>")
        if hint or error:
            parts.append(f"<span> — {_e(_summarise(hint or error, 2000))}</span>")
    if outcome.get("edited") and not edited_shown:
        parts.append('<span class="dial-edited"> (edited)</span>')
    parts.extend(_said_about(outcome))
    return f'<div class="dial-outcome dial-outcome-{_name(status)}">{"".join(parts)}</div>'


def _said_about(outcome: Mapping[str, Any]) -> list[str]:
    """The rule that accepted the proposal, a dismissal's reason, the person's comments."""
    parts = []
    if isinstance(outcome.get("rule"), str):
        parts.append(f'<div class="dial-by-rule">Accepted by rule {_e(outcome["rule"])}</div>')
    if isinstance(outcome.get("reason"), str) and outcome["reason"]:
        parts.append(f'<div class="dial-reason">Reason: {_text(outcome["reason"])}</div>')
    comments = [c for c in _list(outcome.get("comments")) if isinstance(c, Mapping)]
    if comments:
        rows = "".join(
            f'<li><span class="dial-comment-field">'
            f'{_e(_string(c.get("field")) or "Whole proposal")}</span>: '
            f'{_text(c.get("text"))}</li>' for c in comments[:20])
        parts.append(f'<div class="dial-comments">Your comments<ul>{rows}</ul></div>')
    return parts


def _status(item: _Item, _budget: _Budget) -> str:
    """An outcome without a card, the turn limit, a stopped say, a resumed session, or an
    error (log.js: statusNode)."""
    event = item.event
    kind = event.get("type")
    if kind == "outcome":
        status = _string(event.get("status"))
        bits = [f"{_string(event.get('action')) or 'action'}: {STATUS_LABEL.get(status, status)}"]
        if status == "done" and event.get("result") is not None:
            bits.append(_summarise(event.get("result"), 240))
        for key in ("error", "hint"):
            if event.get(key):
                bits.append(_summarise(event.get(key), 400))
        return (f'<div class="dial-status-line dial-outcome-{_name(status)}" '
                f'data-dial-outcome="{_e(_clip(event.get("id"), 200))}">'
                f"{_e(' — '.join(bits))}</div>")
    if kind == "undo-failed":
        line = (f"Undo of {_string(event.get('id'))} did not happen: "
                f"{_string(event.get('error'))}")
        return f'<div class="dial-status-line dial-error">{_text(line, 2000)}</div>'
    if kind == "stopped":
        line = '<div class="dial-status-line dial-stopped">Stopped.</div>'
        partial = event.get("partial")
        if not isinstance(partial, str) or not partial:
            return line
        return ('<div class="dial-stopped-reply"><div class="dial-inform dial-partial">'
                f'<div class="dial-prose">{_text(partial)}</div></div>{line}</div>')
    if kind == "resumed":
        saved_at = _string(event.get("saved_at"))
        saved = (f" (saved {saved_at.replace('T', ' ').replace('+00:00', ' UTC')})"
                 if saved_at else "")
        waiting = (": what was waiting for the person is back, above." if event.get("waiting")
                   else ".")
        line = f"Carried on from {_string(event.get('session'))}{saved}{waiting}"
        if event.get("read_only") is True:  # a file the person did not make: shown only
            line = (f"Opened read-only from {_string(event.get('session'))}{saved}: a file "
                    "the person did not make; nothing in it ran until they trusted it.")
        return f'<div class="dial-status-line dial-resumed">{_text(line, 2000)}</div>'
    if kind == "turn-limit":
        return (f'<div class="dial-status-line dial-warn">Stopped after '
                f"{_e(_js(event.get('turns')))} turns (turn limit).</div>")
    return (f'<div class="dial-status-line dial-error">Error: '
            f"{_e(_summarise(event.get('error'), 2000))}</div>")


def _no_reply(item: _Item, _budget: _Budget) -> str:
    return ('<div class="dial-no-reply"><span>The agent did not reply. </span>'
            f'<span class="dial-hint">{_e(_summarise(item.event.get("error") or "", 400))}'
            "</span></div>")


def _delegate(item: _Item, _budget: _Budget) -> str:
    event = item.event
    to = _string(event.get("to")) or "another actor"
    intent = f" ({_string(event.get('intent'))})" if event.get("intent") else ""
    note = f"Hand-off to {to}{intent}" + (
        "" if event.get("registered") else " — nobody here takes it over; the agent was told.")
    parts = [f'<div class="dial-note">{_text(note, 600)}</div>']
    if event.get("text"):
        parts.append(f'<div class="dial-delegate-text">{_text(event.get("text"))}</div>')
    if event.get("context") is not None:
        parts.append(_details("Context", _json_block(event.get("context")), "dial-payload"))
    return f'<div class="dial-delegate">{"".join(parts)}</div>'


def _declare(item: _Item, _budget: _Budget) -> str:
    event = item.event
    return (f'<div class="dial-signal dial-declare">Declared <code>{_text(event.get("key"), 200)}'
            f"</code>: {_e(_summarise(event.get('value'), 240))}</div>")


def _phatic(item: _Item, _budget: _Budget) -> str:
    signal = _string(item.event.get("signal")) or "signal"
    return f'<div class="dial-signal dial-phatic">Agent signal: {_text(signal, 100)}</div>'


def _wire(item: _Item, _budget: _Budget) -> str:
    """Under each turn, collapsed: the exact text the agent received, and its reply."""
    sent, reply = item.event, item.outcome
    turn = _js(sent.get("turn")) if sent.get("turn") is not None else "?"
    parts = []
    if isinstance(sent.get("message"), str):
        parts.append('<div class="dial-wire-label">Sent to the agent</div>'
                     + _wire_text(sent["message"]))
    if reply is not None and reply.get("type") == "reply":
        note = ""
        if reply.get("truncated"):
            chars = reply.get("chars")
            size = f"{chars:,}" if isinstance(chars, int) else _js(chars)
            note = f" (its first part: the reply was {_e(size)} characters long)"
        parts.append(f'<div class="dial-wire-label">The agent&#x27;s reply{note}</div>'
                     + _wire_text(_string(reply.get("text"))))
    elif reply is not None:
        parts.append('<div class="dial-wire-label">No reply</div>')
    return _details(f"Turn {turn}: what the agent received and replied", "".join(parts),
                    "dial-wire")


def _wire_text(text: str) -> str:
    """The text exactly (escaped); hidden characters in it are named above it, not replaced."""
    hidden = hidden_characters(text[:JSON_CHARS])
    note = (f'<div class="dial-wire-hidden">Holds hidden characters: {_e(", ".join(hidden[:20]))}'
            "</div>" if hidden else "")
    return f'{note}<pre class="dial-wire-text">{_text(text, JSON_CHARS, exact=True)}</pre>'


def _unknown(item: _Item, _budget: _Budget) -> str:
    event = item.event
    kind = _string(event.get("type")) or "?"
    rest = {k: v for k, v in event.items() if k != "type"} if isinstance(event, Mapping) else {}
    return (f'<div class="dial-note dial-unknown" data-dial-type="{_e(_clip(kind, 60))}">'
            f"{_text(kind, 60)}: {_e(_summarise(rest, 240))}</div>")


_DRAWERS = {
    "person": _person, "inform": _inform, "ask": _ask, "suggestion": _suggestion,
    "status": _status, "no-reply": _no_reply, "delegate": _delegate, "declare": _declare,
    "phatic": _phatic, "wire": _wire, "unknown": _unknown,
}


def _context_panel(transcript: list[Any]) -> str:
    """What the agent declared, by key, a later declare winning (items.js: contextOf)."""
    context: dict[str, Any] = {}
    for event in transcript:
        if isinstance(event, Mapping) and event.get("type") == "declare" \
                and isinstance(event.get("key"), str):
            context.pop(event["key"], None)
            context[event["key"]] = event.get("value")
    if not context:
        return ""
    rows = "".join(f'<dt class="dial-mono">{_text(key, 200)}</dt>'
                   f"<dd>{_e(_summarise(value, 240))}</dd>"
                   for key, value in list(context.items())[:CARD_ITEMS])
    return _details(f"Context ({len(context)})", f'<dl class="dial-context-list">{rows}</dl>',
                    "dial-context")


# ---- results, tables, images (js/src/items.js: resultShape; inform.js) -------------------------

def _result_nodes(result: Any, budget: _Budget) -> list[str]:
    """An action's result on its card: its image, table or list, readable."""
    if result is None or result == "":
        return []
    if not isinstance(result, Mapping | list):
        return [f'<span class="dial-result"> — {_text(_js(result), 2000)}</span>']
    if isinstance(result, list):
        return _list_nodes(result, "", "")
    scalars = [(k, v) for k, v in result.items() if not isinstance(v, Mapping | list)]
    caption = ", ".join(f"{k}: {_js(v)}" for k, v in scalars)

    def captioned(text: str) -> list[str]:
        return [f'<div class="dial-result-caption">{_text(text, 2000)}</div>'] if text else []

    spec = result.get("vega_lite")
    if isinstance(spec, Mapping):
        chart = result.get("chart")
        return [_drawn_chart(chart if isinstance(chart, Mapping) else None, spec, budget)]
    media = result.get("media")
    if isinstance(media, list) and media:
        return [*captioned(caption), _images(media, budget)]
    table = result.get("table")
    if isinstance(table, Mapping) and isinstance(table.get("columns"), list) \
            and isinstance(table.get("rows"), list):
        total = table.get("total_rows")
        note = (f"The first {len(table['rows'])} of {_js(total)} rows"
                if isinstance(total, int | float) and not isinstance(total, bool)
                and total > len(table["rows"]) else "")
        drawn = _table({"columns": table["columns"], "data": table["rows"]})
        return [*captioned(" · ".join(p for p in (caption, note) if p)), drawn or ""]
    lists = [(k, v) for k, v in result.items() if isinstance(v, list)]
    if len(lists) == 1 and len(result) - len(scalars) == 1:
        name, items = lists[0]
        plain = all(not isinstance(i, Mapping | list) for i in items)
        inline = ", ".join(_js(i) for i in items) if plain else ""
        if plain and len(inline) <= 200:
            text = ", ".join(p for p in (caption, f"{name}: {inline}") if p)
            return [f'<span class="dial-result"> — {_text(text, 2000)}</span>']
        return _list_nodes(items, _humanise(name), caption)
    if len(scalars) == len(result):
        return [f'<span class="dial-result"> — {_e(_result_text(result))}</span>']
    return [f'<span class="dial-result"> — {_e(_summarise(result, 240))}</span>']


def _list_nodes(items: list[Any], caption: str, extra: str) -> list[str]:
    objects = any(isinstance(i, Mapping) for i in items)
    if caption:
        head = f"{caption} ({len(items)})" if items else f"{caption}: none"
    else:
        head = f"{len(items)} items" if items else "none"
    head = " · ".join(p for p in (head, extra) if p)
    parts = [f'<div class="dial-result-caption">{_text(head, 2000)}</div>']
    if not items:
        return parts
    if objects:
        parts.append(_table(items) or "")
    else:
        parts.append('<ul class="dial-result-list">' + "".join(
            f"<li>{_text(_cell(i), 2000)}</li>" for i in items[:CARD_ITEMS]) + "</ul>")
        if len(items) > CARD_ITEMS:
            parts.append(f'<div class="dial-more">+{len(items) - CARD_ITEMS:,} more</div>')
    return parts


def _table(payload: Any) -> str | None:
    """A table (its first rows, then "+N more rows"), or None if ``payload`` is not one:
    pandas' split orient ``{columns, data, index?}``, a list of records, or a list of rows."""
    columns: list[str] = []
    rows: list[Any]
    if isinstance(payload, Mapping) and isinstance(payload.get("data"), list):
        columns = [_js(c) for c in _list(payload.get("columns"))]
        rows = payload["data"]
        index = payload.get("index")
        if isinstance(index, list) and len(index) == len(rows):
            columns = ["", *columns]
            rows = [[index[i], *(row if isinstance(row, list) else [row])]
                    for i, row in enumerate(rows[:TABLE_ROWS])] + rows[TABLE_ROWS:]
    elif isinstance(payload, list):
        rows = payload
        if any(isinstance(r, Mapping) for r in rows):
            seen: dict[str, None] = {}
            for row in rows[:TABLE_ROWS]:
                if isinstance(row, Mapping):
                    for key in row:
                        seen.setdefault(str(key), None)
            columns = list(seen)
            rows = [[row.get(c) for c in columns] if isinstance(row, Mapping) else [row]
                    for row in rows[:TABLE_ROWS]] + rows[TABLE_ROWS:]
    else:
        return None
    shown = rows[:TABLE_ROWS]
    width = max([len(columns), *(len(r) if isinstance(r, list) else 1 for r in shown)])
    parts = ['<div class="dial-table-wrap"><table class="dial-table">']
    if columns:
        parts.append("<thead><tr>" + "".join(f'<th scope="col">{_text(c, 200)}</th>'
                                             for c in columns[:TABLE_COLUMNS]) + "</tr></thead>")
    parts.append("<tbody>")
    for row in shown:
        cells = row if isinstance(row, list) else [row]
        parts.append("<tr>" + "".join(
            f'<td class="dial-num">{_e(_cell(v))}</td>'
            if isinstance(v, int | float) and not isinstance(v, bool)
            else f"<td>{_text(_cell(v), 2000)}</td>" for v in cells[:TABLE_COLUMNS]) + "</tr>")
    parts.append("</tbody></table></div>")
    more = len(rows) - len(shown)
    notes = []
    if more > 0:
        notes.append(f"+{more:,} more rows")
    if width > TABLE_COLUMNS:
        notes.append(f"+{width - TABLE_COLUMNS:,} more columns")
    if notes:
        parts.append(f'<div class="dial-more">{" · ".join(notes)}</div>')
    return "".join(parts)


def _card_list(payload: Any) -> str | None:
    """A card list: title and up to 8 fields per card; a URL is shown as its host, not a link."""
    items = payload if isinstance(payload, list) else payload.get("items") \
        if isinstance(payload, Mapping) and isinstance(payload.get("items"), list) else None
    if items is None:
        return None
    cards = []
    for item in items[:CARD_ITEMS]:
        if not isinstance(item, Mapping):
            cards.append(f'<li class="dial-mini-card">{_text(_cell(item), 2000)}</li>')
            continue
        title = next((item[k] for k in ("title", "name", "label", "id") if item.get(k)
                      is not None), None)
        rest = [(k, v) for k, v in item.items()
                if k not in ("title", "name", "label", "url", "image")][:8]
        fields = "".join(f"<dt>{_text(k, 200)}</dt><dd>{_text(_cell(v), 2000)}</dd>"
                         for k, v in rest)
        url = item.get("url")
        host = urlsplit(url.strip()).hostname if isinstance(url, str) and _web_url(url) else None
        cards.append('<li class="dial-mini-card">'
                     + (f'<div class="dial-mini-title">{_text(_cell(title), 400)}</div>'
                        if title is not None else "")
                     + f"<dl>{fields}</dl>"
                     + (f'<div class="dial-note">Link to {_text(host, 200)} (not followed '
                        "here)</div>" if host else "") + "</li>")
    more = len(items) - min(len(items), CARD_ITEMS)
    return (f'<ul class="dial-card-list">{"".join(cards)}</ul>'
            + (f'<div class="dial-more">+{more:,} more</div>' if more > 0 else ""))


def _images(items: list[Any], budget: _Budget) -> str:
    shown = "".join(_image(item, budget) for item in items[:MEDIA_ITEMS])
    more = len(items) - MEDIA_ITEMS
    return shown + (f'<div class="dial-more">+{more:,} more images</div>' if more > 0 else "")


def _image(item: Any, budget: _Budget, *, size: tuple[int | None, ...] = (None, None),
           chart: bool = False) -> str:
    """An image, inline only: a well-formed base64 PNG, JPEG, GIF or WebP data: URL. Anything
    else (http(s), javascript:, data:text/html, SVG …) becomes a note: nothing is fetched."""
    src = item if isinstance(item, str) else (
        (item.get("src") or item.get("url")) if isinstance(item, Mapping) else None)
    alt = _string((item.get("alt") or item.get("title")) if isinstance(item, Mapping) else "")
    if not isinstance(src, str) or not src.strip():
        return _blocked("missing URL", src)
    src = src.strip()
    if _web_url(src):
        host = urlsplit(src).hostname or "another server"
        return ('<div class="dial-remote">Image from '
                f'{_text(host, 200)}{f" ({_text(alt, 200)})" if alt else ""} — not shown: this '
                "copy loads nothing from the network.</div>")
    if _DATA_IMAGE.match(src) and (len(src) > IMAGE_CHARS or len(src) > budget.images):
        return (f'<div class="dial-blocked">Image not shown: too large for this copy '
                f"({len(src) / 1e6:.1f} MB){f' ({_text(alt, 200)})' if alt else ''}.</div>")
    kind = _inline_image(src)
    if kind is None:
        return _blocked("not an inline PNG, JPEG, GIF or WebP image", src)
    budget.images -= len(src)
    data = src[src.index(",") + 1:]
    sized = "".join(f' {name}="{n}"' for name, n in zip(("width", "height"), size,
                                                         strict=False) if n is not None)
    classes = "dial-figure dial-chart" if chart else "dial-figure"
    figure = (f'<figure class="{classes}"><img src="data:image/{kind};base64,{data}" '
              f'alt="{_e(_clip(alt, 400))}"{sized}>')
    if alt and not chart:  # a chart's alt is the inform's words, shown above it
        figure += f"<figcaption>{_text(alt, 400)}</figcaption>"
    return figure + "</figure>"


def _inline_image(src: str) -> str | None:
    """The kind of a data: image URL whose data is well-formed base64 starting as that kind of
    image does ('png', 'jpeg', 'gif', 'webp'), else None."""
    head = _DATA_IMAGE.match(src)
    if head is None:
        return None
    data = src[head.end():]
    if not data or len(data) % 4 or _BASE64.fullmatch(data) is None:
        return None
    try:
        start = base64.b64decode(data[:16], validate=True)
    except (binascii.Error, ValueError):
        return None
    if start[:4] == b"RIFF" and start[8:12] == b"WEBP":
        return "webp"
    return next((kind for kind, magic in _IMAGE_SIGNATURES if start.startswith(magic)), None)


def _web_url(text: str) -> bool:
    try:
        parts = urlsplit(text.strip())
    except ValueError:
        return False
    return parts.scheme.lower() in ("http", "https") and bool(parts.hostname)


def _blocked(why: str, src: Any) -> str:
    return (f'<div class="dial-blocked">Image not shown ({_e(why)}): '
            f"{_e(_summarise(src, 80))}</div>")


def _markdown(text: str) -> str:
    """Markdown-lite (js/src/markdown.js): headings, paragraphs, lists, code fences; bold,
    code and emphasis inline; every piece escaped."""
    blocks: list[str] = []
    paragraph: list[str] = []
    listed: tuple[str, list[str]] | None = None
    code: list[str] | None = None

    def flush() -> None:
        nonlocal listed
        if paragraph:
            blocks.append(f'<p class="dial-md-p">{_inline(chr(10).join(paragraph))}</p>')
            paragraph.clear()
        if listed is not None:
            tag, entries = listed
            blocks.append(f'<{tag} class="dial-md-list">'
                          + "".join(f"<li>{_inline(e)}</li>" for e in entries) + f"</{tag}>")
            listed = None

    for line in _clip(text, TEXT_CHARS).replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        if code is not None:
            if line.lstrip().startswith("```"):
                blocks.append(f'<pre class="dial-code"><code>{_e(chr(10).join(code))}'
                              "</code></pre>")
                code = None
            else:
                code.append(line)
            continue
        if line.lstrip().startswith("```"):
            flush()
            code = []
            continue
        heading = re.match(r"\s{0,3}(#{1,6})\s+(.*)$", line)
        bullet = re.match(r"\s*[-*+]\s+(.*)$", line)
        numbered = re.match(r"\s*\d{1,4}[.)]\s+(.*)$", line)
        if not line.strip():
            flush()
        elif heading:
            flush()
            level = min(len(heading.group(1)), 3)
            blocks.append(f'<div class="dial-md-h dial-md-h{level}">'
                          f"{_inline(heading.group(2).strip())}</div>")
        elif bullet or numbered:
            tag = "ul" if bullet else "ol"
            if paragraph:
                flush()
            if listed is None or listed[0] != tag:
                flush()
                listed = (tag, [])
            listed[1].append((bullet or numbered).group(1))  # type: ignore[union-attr]
        elif listed is not None and re.match(r"\s{2,}\S", line):
            listed[1][-1] += " " + line.strip()
        else:
            if listed is not None:
                flush()
            paragraph.append(line.strip())
    flush()
    if code is not None:
        blocks.append(f'<pre class="dial-code"><code>{_e(chr(10).join(code))}</code></pre>')
    if len(text) > TEXT_CHARS:
        blocks.append(_clipped(len(text) - TEXT_CHARS))
    return "".join(blocks)


_INLINE = re.compile(r"\*\*([^*\n]+)\*\*|`([^`\n]+)`|\*([^*\n]+)\*")


def _inline(text: str) -> str:
    out, last = [], 0
    for match in _INLINE.finditer(text):
        out.append(_e(text[last:match.start()]))
        bold, code, emphasis = match.groups()
        if bold is not None:
            out.append(f"<strong>{_e(bold)}</strong>")
        elif code is not None:
            out.append(f'<code class="dial-md-code">{_e(code)}</code>')
        else:
            out.append(f"<em>{_e(emphasis)}</em>")
        last = match.end()
    out.append(_e(text[last:]))
    return "".join(out)


# ---- text: escaped, bounded, readable (js/src/text.js) -----------------------------------------

def _e(value: Any) -> str:
    """``value`` as text safe anywhere in HTML: in an element or a quoted attribute."""
    return html.escape(value if isinstance(value, str) else str(value), quote=True)


def _string(value: Any) -> str:
    return value if isinstance(value, str) else "" if value is None else _js(value)


def _clip(value: Any, limit: int) -> str:
    text = _string(value)
    return text if len(text) <= limit else text[:limit]


def _clipped(more: int) -> str:
    return f'<span class="dial-clipped">… {more:,} more characters not shown</span>'


def _text(value: Any, limit: int = TEXT_CHARS, *, exact: bool = False) -> str:
    """``value`` escaped; past ``limit`` characters, clipped with a note that says so. The
    direction controls (the "Trojan Source" characters, which make text read otherwise than it
    is) are shown by name, unless ``exact``: the wire text, whose hidden characters are named
    above it."""
    text = _string(value)
    shown, more = (text, 0) if len(text) <= limit else (text[:limit], len(text) - limit)
    body = _e(shown) if exact or _DIRECTION.search(shown) is None else _marked(shown, _DIRECTION)
    return body + (_clipped(more) if more else "")


def _revealed(text: str, limit: int) -> str:
    """``text`` escaped, with every hidden character shown by name, ⟨U+202E⟩, marked."""
    shown, more = (text, 0) if len(text) <= limit else (text[:limit], len(text) - limit)
    out = _marked(shown, HIDDEN)
    if more:
        out += (f'<span class="dial-clipped">… {more:,} more characters not shown: this '
                "copy does not hold the whole command</span>")
    return out


def _marked(text: str, pattern: Any) -> str:
    out, last = [], 0
    for match in pattern.finditer(text):
        out.append(_e(text[last:match.start()]))
        code = f"U+{ord(match.group()):04X}"
        out.append(f'<span class="dial-hidden-char" title="Invisible character {code}">'
                   f"⟨{code}⟩</span>")
        last = match.end()
    out.append(_e(text[last:]))
    return "".join(out)


def _js(value: Any) -> str:
    """A scalar as JavaScript's String() writes it (true, null, 12 for 12.0)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if not math.isfinite(value):
            return "NaN" if math.isnan(value) else "Infinity" if value > 0 else "-Infinity"
        if value.is_integer() and abs(value) < 1e21:
            return str(int(value))
        return repr(value)
    if isinstance(value, int | str):
        return str(value)
    return _summarise(value, 240)


def _cell(value: Any) -> str:
    """A table cell: numbers to six significant digits, objects summarised (inform.js)."""
    if value is None:
        return ""
    if isinstance(value, float) and math.isfinite(value) and not value.is_integer():
        return _js(float(f"{value:.6g}"))
    if isinstance(value, Mapping | list):
        return _summarise(value, 120)
    return _js(value)


def _json_text(value: Any, *, indent: int | None = 2) -> str:
    try:
        return json.dumps(value, indent=indent, ensure_ascii=False, default=str,
                          separators=None if indent else (",", ":"))
    except (TypeError, ValueError, RecursionError):
        return str(value)


def _summarise(value: Any, limit: int = 240) -> str:
    """Short, readable text for any JSON value (text.js: summarise)."""
    text = "" if value is None else value if isinstance(value, str) else _json_text(
        value, indent=None)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _result_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, Mapping) and value and len(value) <= 6 and all(
            not isinstance(v, Mapping | list) for v in value.values()):
        return _summarise(", ".join(f"{k}: {_js(v)}" for k, v in value.items()))
    return _summarise(value)


def _humanise(name: str) -> str:
    text = re.sub(r"[_-]+", " ", name).strip()
    return text[:1].upper() + text[1:]


def _name(value: str) -> str:
    """A class-name part made from a status or type: lower-case letters, digits, hyphens."""
    return _NAME.sub("", value.lower())[:40] or "unknown"


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _steps_of(event: Mapping[str, Any]) -> list[Any]:
    payload = event.get("payload")
    return _list(payload.get("steps")) if isinstance(payload, Mapping) else []


def _json_block(value: Any) -> str:
    return f'<pre class="dial-code"><code>{_text(_json_text(value), JSON_CHARS)}</code></pre>'


def _details(summary: str, body: str, kind: str) -> str:
    return (f'<details class="{kind}"><summary>{_e(summary)}</summary>'
            f'<div class="dial-details-body">{body}</div></details>')


# ---- the look (js/src/widget.css), every rule scoped under .dial-static -----------------------

_LIGHT = """
  --dial-bg: var(--jp-layout-color0, #ffffff);
  --dial-surface: var(--jp-layout-color1, #ffffff);
  --dial-sunken: var(--jp-layout-color2, #eeeeee);
  --dial-fg: var(--jp-ui-font-color0, rgba(0, 0, 0, 1));
  --dial-fg-soft: var(--jp-ui-font-color1, rgba(0, 0, 0, 0.87));
  --dial-fg-muted: var(--jp-ui-font-color2, rgba(0, 0, 0, 0.54));
  --dial-border: var(--jp-border-color1, #bdbdbd);
  --dial-border-soft: var(--jp-border-color2, #e0e0e0);
  --dial-accent: var(--jp-brand-color1, #1976d2);
  --dial-accent-fg: var(--jp-ui-inverse-font-color0, #ffffff);
  --dial-danger: var(--jp-error-color1, #d32f2f);
  --dial-ok: var(--jp-success-color1, #388e3c);
  --dial-warn: var(--jp-warn-color1, #f57c00);
  color-scheme: light;"""

# JupyterLab's dark theme, for a page without its variables (an export read in dark mode)
_DARK = """
  --dial-bg: var(--jp-layout-color0, #111111);
  --dial-surface: var(--jp-layout-color1, #212121);
  --dial-sunken: var(--jp-layout-color2, #424242);
  --dial-fg: var(--jp-ui-font-color0, rgba(255, 255, 255, 1));
  --dial-fg-soft: var(--jp-ui-font-color1, rgba(255, 255, 255, 0.87));
  --dial-fg-muted: var(--jp-ui-font-color2, rgba(255, 255, 255, 0.6));
  --dial-border: var(--jp-border-color1, #616161);
  --dial-border-soft: var(--jp-border-color2, #424242);
  --dial-accent: var(--jp-brand-color1, #2196f3);
  --dial-accent-fg: #ffffff;
  --dial-danger: var(--jp-error-color1, #f44336);
  --dial-ok: var(--jp-success-color1, #4caf50);
  --dial-warn: var(--jp-warn-color1, #ff9800);
  color-scheme: dark;"""

_S = ".dial-static"

STATIC_CSS = f"""
{_S} {{{_LIGHT}
  --dial-radius: 8px;
  --dial-font: var(--jp-ui-font-family, system-ui, -apple-system, "Segoe UI", sans-serif);
  --dial-mono: var(--jp-code-font-family, ui-monospace, "SFMono-Regular", Menlo, monospace);
  box-sizing: border-box; display: flex; flex-direction: column; gap: 8px; max-width: 860px;
  margin: 0; padding: 10px 12px 12px; border: 1px solid var(--dial-border-soft);
  border-radius: 10px; background: var(--dial-bg); color: var(--dial-fg-soft);
  font-family: var(--dial-font); font-size: 13px; line-height: 1.45; text-align: left;
}}
@media (prefers-color-scheme: dark) {{ {_S} {{{_DARK} }} }}
body[data-jp-theme-light="false"] {_S} {{{_DARK} }}
body[data-jp-theme-light="true"] {_S} {{{_LIGHT} }}
{_S} *, {_S} *::before, {_S} *::after {{ box-sizing: border-box; }}
{_S} .dial-header {{ display: flex; align-items: center; gap: 6px; color: var(--dial-fg-muted);
  font-size: 12px; }}
{_S} .dial-logo {{ color: var(--dial-accent); }}
{_S} .dial-title {{ font-weight: 600; letter-spacing: 0.01em; }}
{_S} .dial-static-note {{ margin-left: auto; font-size: 11px; }}
{_S} .dial-log {{ display: flex; flex-direction: column; gap: 10px; padding: 2px 2px 4px; }}
{_S} .dial-person {{ display: flex; justify-content: flex-end; }}
{_S} .dial-bubble {{ max-width: 80%; padding: 7px 12px; border-radius: 14px 14px 4px 14px;
  background: var(--dial-accent); color: var(--dial-accent-fg); white-space: pre-wrap;
  overflow-wrap: anywhere; }}
{_S} .dial-inform {{ max-width: 92%; color: var(--dial-fg); overflow-wrap: anywhere; }}
{_S} .dial-prose, {_S} .dial-delegate-text {{ white-space: pre-wrap; }}
{_S} .dial-ack {{ color: var(--dial-fg-muted); font-style: italic; }}
{_S} .dial-note, {_S} .dial-more, {_S} .dial-hint, {_S} .dial-signal {{
  color: var(--dial-fg-muted); font-size: 12px; }}
{_S} .dial-signal {{ font-size: 11px; padding-left: 2px; overflow-wrap: anywhere; }}
{_S} .dial-signal code {{ font-family: var(--dial-mono); background: none; padding: 0; }}
{_S} .dial-clipped {{ display: inline-block; margin-left: 4px; padding: 0 6px;
  border-radius: 4px; background: var(--dial-sunken); color: var(--dial-fg-muted);
  font-family: var(--dial-font); font-size: 11px; font-style: normal; font-weight: normal; }}
{_S} pre.dial-code {{ margin: 6px 0 0; padding: 8px 10px; max-height: 420px; overflow: auto;
  border: none; border-radius: 6px; background: var(--dial-sunken); color: var(--dial-fg);
  font-family: var(--dial-mono); font-size: 12px; line-height: 1.4; white-space: pre; }}
{_S} pre.dial-code code {{ padding: 0; background: none; color: inherit; font: inherit;
  white-space: inherit; }}
{_S} .dial-mono {{ font-family: var(--dial-mono); font-size: 12px; }}
{_S} .dial-blocked, {_S} .dial-remote {{ margin-top: 6px; padding: 6px 8px;
  border: 1px dashed var(--dial-border); border-radius: 6px; color: var(--dial-fg-muted);
  font-size: 12px; overflow-wrap: anywhere; }}
{_S} .dial-figure {{ margin: 6px 0 0; }}
{_S} .dial-figure img {{ display: block; max-width: 100%; max-height: 420px;
  border-radius: 6px; margin: 0; }}
{_S} .dial-figure figcaption {{ color: var(--dial-fg-muted); font-size: 12px;
  margin-top: 2px; }}
{_S} .dial-chart img {{ max-height: none; height: auto; background: #fff; }}
{_S} .dial-table-wrap {{ margin-top: 6px; max-width: 100%; max-height: 420px; overflow: auto;
  border: 1px solid var(--dial-border-soft); border-radius: 6px; }}
{_S} table.dial-table {{ border-collapse: collapse; width: max-content; min-width: 100%;
  margin: 0; border: none; table-layout: auto; color: var(--dial-fg-soft); font-size: 12px; }}
{_S} table.dial-table thead {{ border: none; }}
{_S} table.dial-table tr, {_S} table.dial-table tbody tr {{ background: none; border: none; }}
{_S} table.dial-table th, {_S} table.dial-table td {{ padding: 4px 10px; border: none;
  border-bottom: 1px solid var(--dial-border-soft); text-align: left; vertical-align: top;
  line-height: 1.4; white-space: normal; overflow-wrap: anywhere; max-width: 40em; }}
{_S} table.dial-table th {{ position: sticky; top: 0; z-index: 2; background: var(--dial-sunken);
  color: var(--dial-fg); font-weight: 600; }}
{_S} table.dial-table td:first-child {{ position: sticky; left: 0; z-index: 1;
  background: var(--dial-surface); font-weight: 600; }}
{_S} table.dial-table th:first-child {{ left: 0; z-index: 3; }}
{_S} table.dial-table td.dial-num {{ text-align: right; font-variant-numeric: tabular-nums;
  white-space: nowrap; }}
{_S} .dial-result-body {{ margin-top: 6px; }}
{_S} .dial-result-caption {{ color: var(--dial-fg-soft); font-size: 12px; margin-bottom: 2px; }}
{_S} ul.dial-result-list {{ margin: 4px 0 0; padding-left: 20px; list-style: disc; }}
{_S} ul.dial-card-list {{ display: grid; grid-template-columns: repeat(auto-fill,
  minmax(190px, 1fr)); gap: 8px; margin: 6px 0 0; padding: 0; list-style: none; }}
{_S} .dial-mini-card {{ padding: 8px 10px; border: 1px solid var(--dial-border-soft);
  border-radius: var(--dial-radius); background: var(--dial-surface); overflow-wrap: anywhere; }}
{_S} .dial-mini-title {{ font-weight: 600; color: var(--dial-fg); margin-bottom: 4px; }}
{_S} .dial-mini-card dl {{ display: grid; grid-template-columns: auto 1fr; gap: 1px 8px;
  margin: 0; font-size: 12px; }}
{_S} .dial-mini-card dt {{ color: var(--dial-fg-muted); white-space: nowrap; }}
{_S} .dial-mini-card dd {{ margin: 0; overflow-wrap: anywhere; }}
{_S} .dial-card, {_S} .dial-ask {{ position: relative; padding: 12px 14px;
  border: 1px solid var(--dial-border-soft); border-left: 4px solid var(--dial-accent);
  border-radius: var(--dial-radius); background: var(--dial-surface);
  box-shadow: 0 1px 2px rgba(0, 0, 0, 0.06); }}
{_S} .dial-card.dial-destructive {{ border-left-color: var(--dial-danger); }}
{_S} .dial-card.dial-status-done {{ border-left-color: var(--dial-ok); }}
{_S} .dial-card.dial-status-failed, {_S} .dial-card.dial-status-invalid {{
  border-left-color: var(--dial-danger); }}
{_S} .dial-card.dial-status-dismissed, {_S} .dial-card.dial-status-superseded,
{_S} .dial-card.dial-status-skipped, {_S} .dial-card.dial-status-proposed {{
  border-left-color: var(--dial-border); }}
{_S} .dial-card.dial-status-dismissed .dial-preview,
{_S} .dial-card.dial-status-superseded .dial-preview {{ color: var(--dial-fg-muted); }}
{_S} .dial-card-head {{ display: flex; align-items: center; gap: 8px; margin-bottom: 4px; }}
{_S} .dial-action-name {{ font-family: var(--dial-mono); font-size: 11px;
  color: var(--dial-fg-muted); overflow-wrap: anywhere; }}
{_S} .dial-badge {{ padding: 1px 6px; border-radius: 4px; font-size: 11px; font-weight: 600;
  white-space: nowrap; }}
{_S} .dial-badge-danger {{ color: var(--dial-danger); border: 1px solid var(--dial-danger); }}
{_S} .dial-chip {{ margin-left: auto; padding: 1px 8px; border-radius: 999px;
  background: var(--dial-sunken); color: var(--dial-fg-muted); font-size: 11px;
  white-space: nowrap; }}
{_S} .dial-step-head .dial-chip {{ margin-left: auto; }}
{_S} .dial-chip-pending {{ background: var(--dial-accent); color: var(--dial-accent-fg); }}
{_S} .dial-chip-done {{ color: var(--dial-ok); }}
{_S} .dial-chip-failed, {_S} .dial-chip-invalid {{ color: var(--dial-danger); }}
{_S} .dial-chip-skipped {{ color: var(--dial-warn); }}
{_S} .dial-chip-running, {_S} .dial-chip-confirmed {{ color: var(--dial-accent); }}
{_S} .dial-preview {{ font-size: 16px; font-weight: 600; color: var(--dial-fg);
  line-height: 1.35; overflow-wrap: anywhere; white-space: pre-wrap; }}
{_S} .dial-agent-text {{ margin-top: 4px; color: var(--dial-fg-soft); white-space: pre-wrap;
  overflow-wrap: anywhere; }}
{_S} .dial-outcome {{ margin-top: 8px; color: var(--dial-fg-soft); overflow-wrap: anywhere; }}
{_S} .dial-outcome-done strong {{ color: var(--dial-ok); }}
{_S} .dial-outcome-failed strong, {_S} .dial-outcome-invalid strong {{
  color: var(--dial-danger); }}
{_S} .dial-outcome-dismissed strong, {_S} .dial-outcome-superseded strong {{
  color: var(--dial-fg-muted); }}
{_S} .dial-edited, {_S} .dial-edited-mark {{ color: var(--dial-fg-muted); font-size: 12px;
  font-weight: normal; }}
{_S} .dial-by-rule, {_S} .dial-reason, {_S} .dial-comments {{ color: var(--dial-fg-muted);
  font-size: 12px; margin-top: 4px; }}
{_S} .dial-comments ul {{ margin: 2px 0 0; padding-left: 18px; }}
{_S} .dial-comment-field {{ font-family: var(--dial-mono, monospace); }}
{_S} .dial-result {{ color: var(--dial-fg-muted); }}
{_S} .dial-waiting {{ margin-top: 10px; padding: 6px 10px; border-radius: 6px;
  border: 1px dashed var(--dial-accent); color: var(--dial-fg); font-size: 12px; }}
{_S} .dial-issue {{ margin-top: 8px; padding: 8px 10px; border-radius: 6px;
  border: 1px solid var(--dial-danger); color: var(--dial-fg); overflow-wrap: anywhere;
  background: color-mix(in srgb, var(--dial-danger) 8%, transparent); }}
{_S} .dial-issue ul {{ margin: 4px 0 0; padding-left: 18px; list-style: disc; }}
{_S} .dial-issue code {{ font-family: var(--dial-mono); font-size: 12px; background: none;
  padding: 0; }}
{_S} .dial-status-line {{ color: var(--dial-fg-muted); font-size: 12px; padding-left: 6px;
  border-left: 2px solid var(--dial-border-soft); overflow-wrap: anywhere; }}
{_S} .dial-status-line.dial-outcome-done {{ border-left-color: var(--dial-ok); }}
{_S} .dial-status-line.dial-outcome-failed, {_S} .dial-status-line.dial-outcome-invalid,
{_S} .dial-status-line.dial-error {{ border-left-color: var(--dial-danger); }}
{_S} .dial-status-line.dial-warn {{ border-left-color: var(--dial-warn); }}
{_S} .dial-no-reply {{ display: flex; flex-wrap: wrap; align-items: center; gap: 8px;
  padding: 8px 12px; border: 1px solid var(--dial-warn); border-radius: var(--dial-radius);
  color: var(--dial-fg); overflow-wrap: anywhere; }}
{_S} .dial-ask {{ border-left-color: var(--dial-warn); }}
{_S} .dial-ask.dial-status-answered, {_S} .dial-ask.dial-status-open {{
  border-left-color: var(--dial-border); }}
{_S} .dial-ask-text {{ font-size: 14px; font-weight: 600; color: var(--dial-fg);
  white-space: pre-wrap; overflow-wrap: anywhere; }}
{_S} ul.dial-options-static {{ display: flex; flex-wrap: wrap; gap: 6px; margin: 8px 0 0;
  padding: 0; list-style: none; }}
{_S} .dial-option-static {{ padding: 2px 10px; border: 1px solid var(--dial-border-soft);
  border-radius: 6px; background: var(--dial-bg); color: var(--dial-fg-soft); font-size: 12px;
  overflow-wrap: anywhere; }}
{_S} .dial-option-static.dial-chosen {{ border-color: var(--dial-accent);
  box-shadow: inset 0 0 0 1px var(--dial-accent); color: var(--dial-fg); font-weight: 600; }}
{_S} .dial-option-static.dial-disabled {{ opacity: 0.55; }}
{_S} .dial-choice-desc {{ color: var(--dial-fg-muted); font-weight: normal; }}
{_S} .dial-answered {{ margin-top: 6px; color: var(--dial-fg-soft); white-space: pre-wrap;
  overflow-wrap: anywhere; }}
{_S} .dial-you {{ color: var(--dial-fg-muted); }}
{_S} .dial-stopped-reply {{ display: flex; flex-direction: column; gap: 4px; }}
{_S} .dial-partial {{ color: var(--dial-fg-soft); }}
{_S} ol.dial-steps {{ list-style: none; margin: 8px 0 0; padding: 0; display: flex;
  flex-direction: column; gap: 6px; }}
{_S} .dial-step {{ border: 1px solid var(--dial-border-soft); border-radius: 6px;
  padding: 6px 8px; background: var(--dial-bg); }}
{_S} .dial-step-failed {{ border-color: var(--dial-danger); }}
{_S} .dial-step-head {{ display: flex; align-items: center; gap: 8px; font-size: 12px; }}
{_S} .dial-env {{ font-family: var(--dial-mono); font-size: 11px; padding: 0 6px;
  border-radius: 4px; background: var(--dial-sunken); color: var(--dial-fg-soft); }}
{_S} .dial-step-label {{ color: var(--dial-fg-soft); overflow-wrap: anywhere; }}
{_S} pre.dial-command, {_S} pre.dial-output {{ margin: 4px 0 0; padding: 6px 8px;
  border: none; border-radius: 4px; background: var(--dial-sunken); color: var(--dial-fg);
  font-family: var(--dial-mono); font-size: 12px; line-height: 1.4; white-space: pre-wrap;
  overflow-wrap: anywhere; }}
{_S} pre.dial-command {{ unicode-bidi: isolate; }}
{_S} pre.dial-output {{ max-height: 240px; overflow: auto; background: transparent;
  border-left: 2px solid var(--dial-border-soft); border-radius: 0; }}
{_S} .dial-step-count {{ font-size: 12px; color: var(--dial-fg-soft); margin-top: 8px; }}
{_S} .dial-step-lines {{ font-size: 11px; color: var(--dial-fg-muted); }}
{_S} .dial-step-suspicious {{ border-color: var(--dial-danger); border-width: 2px; }}
{_S} .dial-suspicious {{ color: var(--dial-danger); font-size: 12px; font-weight: 600;
  margin-top: 4px; }}
{_S} .dial-hidden-char {{ color: var(--dial-danger); border-radius: 3px; padding: 0 1px;
  background: color-mix(in srgb, var(--dial-danger) 14%, transparent); font-weight: 600; }}
{_S} .dial-step-outcome {{ font-size: 12px; margin-top: 4px; overflow-wrap: anywhere; }}
{_S} .dial-step-outcome.dial-outcome-failed, {_S} .dial-step-outcome.dial-outcome-skipped {{
  color: var(--dial-danger); }}
{_S} .dial-skipped {{ font-style: italic; }}
{_S} .dial-elsewhere, {_S} .dial-delegate {{ border-left: 2px dashed var(--dial-border);
  padding-left: 8px; color: var(--dial-fg-soft); overflow-wrap: anywhere; }}
{_S} .dial-elsewhere-text {{ white-space: pre-wrap; overflow-wrap: anywhere; }}
{_S} .dial-card-ack {{ white-space: pre-wrap; margin-top: 6px; color: var(--dial-fg-muted);
  font-style: italic; font-size: 13px; overflow-wrap: anywhere; }}
{_S} .dial-card-ack-who {{ font-style: normal; font-weight: 600; }}
{_S} .dial-unknown {{ font-family: var(--dial-mono); font-size: 11px; overflow-wrap: anywhere; }}
{_S} details {{ margin: 0; }}
{_S} details > summary {{ cursor: pointer; color: var(--dial-fg-muted); font-size: 12px;
  overflow-wrap: anywhere; }}
{_S} details > summary::marker {{ color: var(--dial-fg-muted); }}
{_S} .dial-payload {{ margin-top: 8px; }}
{_S} .dial-context {{ padding: 4px 8px; border: 1px dashed var(--dial-border-soft);
  border-radius: 6px; font-size: 12px; color: var(--dial-fg-soft); }}
{_S} dl.dial-context-list {{ display: grid; grid-template-columns: max-content 1fr;
  gap: 2px 10px; margin: 6px 0 2px; }}
{_S} dl.dial-context-list dd {{ margin: 0; overflow-wrap: anywhere; }}
{_S} .dial-wire {{ margin: -4px 0 0; padding: 0 2px; }}
{_S} .dial-wire > summary {{ font-size: 11px; }}
{_S} .dial-wire-label {{ margin-top: 6px; color: var(--dial-fg-muted); font-size: 11px;
  font-weight: 600; }}
{_S} .dial-wire-hidden {{ margin-top: 2px; color: var(--dial-danger); font-size: 11px; }}
{_S} pre.dial-wire-text {{ margin: 2px 0 0; padding: 6px 8px; max-height: 320px; overflow: auto;
  border: none; border-radius: 4px; background: var(--dial-sunken); color: var(--dial-fg-soft);
  font-family: var(--dial-mono); font-size: 11px; line-height: 1.4; white-space: pre-wrap;
  overflow-wrap: anywhere; }}
{_S} .dial-markdown {{ color: var(--dial-fg); }}
{_S} .dial-md-p {{ margin: 0 0 6px; white-space: pre-wrap; }}
{_S} .dial-md-list {{ margin: 0 0 6px; padding-left: 22px; }}
{_S} ul.dial-md-list {{ list-style: disc; }}
{_S} ol.dial-md-list {{ list-style: decimal; }}
{_S} .dial-md-h {{ margin: 2px 0 6px; font-weight: 700; color: var(--dial-fg); }}
{_S} .dial-md-h1 {{ font-size: 15px; }}
{_S} .dial-md-h2, {_S} .dial-md-h3 {{ font-size: 13.5px; }}
{_S} code.dial-md-code {{ padding: 0 4px; border-radius: 4px; background: var(--dial-sunken);
  font-family: var(--dial-mono); font-size: 12px; }}
@media print {{ {_S} pre.dial-code, {_S} pre.dial-wire-text, {_S} pre.dial-output,
  {_S} .dial-table-wrap {{ max-height: none; overflow: visible; }} }}
"""

#: The export's own page around the fragment (not scoped: it is the whole document).
PAGE_CSS = """
html { color-scheme: light dark; }
body { margin: 0; padding: 24px 16px 48px; background: #f5f6f8; }
main { max-width: 880px; margin: 0 auto; }
@media (prefers-color-scheme: dark) { body { background: #000000; } }
"""
