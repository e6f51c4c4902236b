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

The notebook's copy is saved in the notebook, so it is kept near the size of the conversation's
session file: a chart by its ``copy``, one pixel per CSS pixel (matplotlib's inline default; the
live widget and an export show the sharp image), the wire under the latest
``NOTEBOOK_WIRE_TURNS`` turns, and the latest ``NOTEBOOK_LOG_CHARS`` of the log; each bound says
what it left out and that ``chat.export_html()`` shows it.

What is shown is the one description every renderer follows (``_items.py``: the transcript as
display items, which js/src/items.js makes too, held to it by a test), in the words of the one
file every renderer reads (``wordings.json``, through ``_wordings.py``); how it looks is here,
one module per job:

    _static.py           this: the fragment, the document, the atomic write
    _static_live.py      a live conversation's copy, drawn as it grows (each item's HTML kept)
    _static_log.py       each item as HTML (person, inform, status lines, hand-offs, the wire)
    _static_cards.py     cards (steps, outcome, comments) and questions
    _static_values.py    results, tables, card lists, images and charts
    _static_markdown.py  markdown-lite
    _static_text.py      escaping, bounds, clipping, values as text
    _static_css.py       the look

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

import os
from collections.abc import Collection, Iterable, Mapping
from pathlib import Path
from typing import Any

from dial_notebook._files import write_atomically

from ._items import transcript_items
from ._static_css import PAGE_CSS, STATIC_CSS
from ._static_log import context_panel, draw
from ._static_text import JSON_CHARS, NOTEBOOK_WIRE_CHARS, NOTEBOOK_WIRE_TURNS, esc, text_html
from ._static_values import Budget
from ._wordings import STATUS_LABEL

__all__ = ["PAGE_CSS", "STATIC_CSS", "STATUS_LABEL", "conversation_html", "export_document",
           "page_fragment", "write_document"]

#: Characters of the log in one rendering; past it, the oldest entries are left out, said so.
LOG_CHARS = 24_000_000
#: The notebook's copy keeps the latest entries within this many characters (a 2,000-event
#: analysis session is about 2.3 MB): it is published whole on each update, and the page parses
#: it whole, so its cost stays that of a bounded copy however long the conversation grows. The
#: widget's state, the session file and ``chat.export_html()`` (``LOG_CHARS``) hold them all.
NOTEBOOK_LOG_CHARS = 4_000_000


def wire_left_out_note(count: int) -> str:
    """The note that the ``count`` earliest turns' wire is not shown ('' when none)."""
    if count <= 0:
        return ""
    turns = "turn" if count == 1 else f"{count:,} earlier turns"
    return (f'<div class="dial-note dial-wire-left-out">What the agent received and replied is '
            f"shown under the latest {NOTEBOOK_WIRE_TURNS} turns; for the "
            f"{'earlier ' if count == 1 else ''}{turns}, chat.export_html() shows it.</div>")


def left_out_note(count: int, log_chars: int) -> str:
    """The note in the place of the ``count`` oldest entries a copy left out."""
    where = (" (chat.export_html() writes them all)" if log_chars < LOG_CHARS else "")
    return (f'<div class="dial-note dial-left-out">{count:,} earlier entries are not shown: '
            f"this copy keeps the latest within its size limit{where}.</div>")


# ---- the two public renderings ------------------------------------------------------------------

def conversation_html(entries: Iterable[Any], *, title: str = "",
                      pending: Mapping[str, Any] | None = None,
                      wire_chars: int = NOTEBOOK_WIRE_CHARS,
                      log_chars: int | None = None, running: Collection[str] = (),
                      wire_turns: int | None = NOTEBOOK_WIRE_TURNS,
                      sharp_charts: bool = False) -> str:
    """The conversation as an HTML fragment: one ``<div class="dial-static">`` holding a scoped
    ``<style>`` and the conversation, read-only; no script, no link, nothing fetched.

    ``entries`` is a ChatWidget's ``transcript`` (the runtime's events and the widget's own
    entries); ``pending`` its ``pending`` trait (a card or question waiting for the person);
    ``wire_chars`` how much of each turn's wire text (what the agent received, its reply) is
    shown: the notebook's copy shows the start of each, an export (``JSON_CHARS``) more;
    ``log_chars`` how much of the log it keeps, the latest entries (by default the notebook's
    ``NOTEBOOK_LOG_CHARS``; an export keeps ``LOG_CHARS``), drawn latest first; ``running``
    the ids of the runs going (their cards say Running); ``wire_turns``: of how many turns,
    the latest, the wire is shown (None: all); ``sharp_charts``: a chart shown by its sharp
    image, not its one-pixel-per-CSS-pixel ``copy`` (the notebook's, saved with it).

        >>> fragment = conversation_html([{"type": "person", "text": "hi <b>"}], title="Notes")
        >>> fragment.startswith('<div class="dial-static"')
        True
        >>> "hi &lt;b&gt;" in fragment and "<script" not in fragment
        True
    """
    listed = list(entries) if not isinstance(entries, list) else entries
    limit = NOTEBOOK_LOG_CHARS if log_chars is None else log_chars
    budget = Budget(wire=wire_chars, wire_turns=wire_turns, sharp_charts=sharp_charts)
    items = transcript_items(listed, pending if isinstance(pending, Mapping) else {}, running)
    kept: list[str] = []  # the latest first: the ones left out are never drawn
    size = 0
    for item in reversed(items):
        html = draw(item, budget)
        size += len(html)
        if size > limit:
            break
        kept.append(html)
    left_out = len(items) - len(kept)
    log = "".join(reversed(kept))
    if left_out:
        log = left_out_note(left_out, limit) + log
    if wire_turns is not None:
        log = wire_left_out_note(sum(i.kind == "wire" for i in items) - wire_turns) + log
    return page_fragment(log, context_panel(listed), events=len(listed), title=title)


def page_fragment(log: str | list[str], context: str, *, events: int, title: str = "") -> str:
    """The copy's fragment around the HTML of its ``log`` (or its parts, joined here: the
    fragment is the one string made) and ``context`` panel."""
    shown_title = text_html(str(title), 400) if title else "DIAL conversation"
    return "".join([
        f'<div class="dial-static" data-dial-static="" data-dial-events="{events}">'
        f"<style>{STATIC_CSS}</style>"
        '<div class="dial-header"><span class="dial-logo" aria-hidden="true">◆</span>'
        f'<span class="dial-title">{shown_title}</span>'
        '<span class="dial-static-note">read-only copy</span></div>'
        f"{context}"
        '<div class="dial-log" role="log" aria-label="Conversation">',
        *([log] if isinstance(log, str) else log),
        "</div></div>",
    ])


def export_document(entries: Iterable[Any], *, title: str = "",
                    pending: Mapping[str, Any] | None = None) -> str:
    """The conversation as one self-contained HTML document (the fragment of
    ``conversation_html`` in a page of its own): it loads nothing and needs no script.

        >>> page = export_document([{"type": "person", "text": "hi"}], title="Notes")
        >>> page.startswith("<!DOCTYPE html>") and '<meta charset="utf-8">' in page
        True
    """
    heading = esc(str(title)[:400]) if title else "DIAL conversation"
    fragment = conversation_html(entries, title=title, pending=pending, wire_chars=JSON_CHARS,
                                 log_chars=LOG_CHARS, wire_turns=None, sharp_charts=True)
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
        f"<main>{fragment}</main>\n"
        "</body>\n</html>\n"
    )


def write_document(path: str | os.PathLike[str], text: str) -> Path:
    """Write ``text`` to ``path`` as UTF-8, atomically: a temporary file in the same folder,
    then ``os.replace`` (a reader never sees half a file; a failed write leaves the old one).

        write_document("conversation.html", export_document(chat.transcript))
    """
    return write_atomically(path, text)
