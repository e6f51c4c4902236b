"""Each item of the conversation as static HTML (as js/src/log.js: nodeFor draws it): the
person's words, informs by their render hint, hand-offs, status lines, the notes of a turn
without a reply, and, collapsed under each turn, the exact text the agent received and replied;
cards and questions come from ``_static_cards.py``.

    draw(item, budget) ──▶ one item's HTML; a shape nobody foresaw is one line, never a crash

    >>> from ._items import transcript_items
    >>> (item,) = transcript_items([{"type": "person", "text": "hi <b>"}], {})
    >>> draw(item, Budget())
    '<div class="dial-person"><div class="dial-bubble">hi &lt;b&gt;</div></div>'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dial_notebook.dial import hidden_characters

from ._items import Item, context_of
from ._static_cards import ask_html, suggestion_html
from ._static_markdown import markdown_html
from ._static_text import (
    CARD_ITEMS,
    JSON_CHARS,
    as_string,
    class_name,
    clip,
    details_html,
    esc,
    js_string,
    json_block,
    json_text,
    summarise,
    text_html,
    text_only,
)
from ._static_values import (
    Budget,
    card_list_html,
    chart_html,
    drawn_chart_html,
    images_html,
    table_html,
)
from ._wordings import STATUS_LABEL, words


def draw(item: Item, budget: Budget) -> str:
    try:
        drawer = _DRAWERS.get(item.kind, _unknown)
        return drawer(item, budget)
    except Exception as error:  # a shape nobody foresaw: one line, never a crash
        return (f'<div class="dial-note dial-unknown">An entry could not be shown here '
                f"({esc(type(error).__name__)}).</div>")


def _person(item: Item, _budget: Budget) -> str:
    return (f'<div class="dial-person"><div class="dial-bubble">'
            f"{text_html(item.event.get('text'))}</div></div>")


def _inform(item: Item, budget: Budget) -> str:
    event = item.event
    act = event.get("act")
    if act == "skipped":
        return (f'<div class="dial-note dial-skipped">'
                f"{text_html(event.get('text') or 'Skipped.')}</div>")
    if act == "addressed-elsewhere":
        to = as_string(event.get("addressed_to")) or "someone else"
        return ('<div class="dial-elsewhere">'
                f'<div class="dial-note">For {text_html(to, 200)} — not acted on here:</div>'
                f'<div class="dial-elsewhere-text">{text_html(event.get("text"))}</div></div>')
    render = as_string(event.get("render")) or "prose"
    classes = "dial-inform" + (" dial-ack" if act == "acknowledge" else "")
    if act == "unread":
        classes += " dial-unread"
    return (f'<div class="{classes}" data-dial-render="{esc(render[:40])}">'
            f"{_inform_body(event, render, budget)}</div>")


def _inform_body(event: Mapping[str, Any], render: str, budget: Budget) -> str:
    """An inform's body by its render hint (js/src/inform.js: informBody)."""
    text = event.get("text") if isinstance(event.get("text"), str) else ""
    has_payload = event.get("payload") is not None
    payload = event.get("payload")
    prose = f'<div class="dial-prose">{text_html(text)}</div>' if text else ""
    if render == "prose":
        return prose or (json_block(payload) if has_payload else "")
    if render in ("code", "diagram"):
        code = (payload if isinstance(payload, str) else json_text(payload)) if has_payload \
            else text
        return ((prose if has_payload and text else "")
                + f'<pre class="dial-code"><code>{text_html(code, JSON_CHARS)}</code></pre>')
    if render == "markdown":
        source = payload if isinstance(payload, str) else text
        return (f'<div class="dial-markdown">{markdown_html(source)}</div>'
                + (json_block(payload) if has_payload and not isinstance(payload, str)
                   else ""))
    if render == "table":
        table = table_html(payload) if has_payload else None
        return prose + (table if table is not None else
                        json_block(payload) if has_payload else "")
    if render == "card-list":
        cards = card_list_html(payload) if has_payload else None
        return prose + (cards if cards is not None else
                        json_block(payload) if has_payload else "")
    if render == "media":
        source = payload if has_payload else text
        images = source if isinstance(source, list) else [source]
        return ((prose if has_payload else "")
                + images_html(images, budget))
    if render == "chart":
        chart = event.get("chart")
        return prose + (drawn_chart_html(chart, payload, budget) if isinstance(chart, Mapping)
                        else chart_html(payload, text, has_payload, budget))
    return prose + (json_block(payload) if has_payload else "")



def _status(item: Item, _budget: Budget) -> str:
    """An outcome without a card, the turn limit, a stopped say, a resumed session, or an
    error (log.js: statusNode)."""
    event = item.event
    kind = event.get("type")
    if kind == "outcome":
        status = as_string(event.get("status"))
        bits = [f"{as_string(event.get('action')) or 'action'}: {STATUS_LABEL.get(status, status)}"]
        if status == "done" and event.get("result") is not None:
            bits.append(summarise(event.get("result"), 240))
        for key in ("error", "hint"):
            if event.get(key):
                bits.append(summarise(event.get(key), 400))
        return (f'<div class="dial-status-line dial-outcome-{class_name(status)}" '
                f'data-dial-outcome="{esc(clip(event.get("id"), 200))}">'
                f"{esc(' — '.join(bits))}</div>")
    if kind == "undo-failed":
        line = words("undo-failed", id=as_string(event.get("id")),
                     error=as_string(event.get("error")))
        return f'<div class="dial-status-line dial-error">{text_html(line, 2000)}</div>'
    if kind == "stopped":
        line = f'<div class="dial-status-line dial-stopped">{esc(words("stopped"))}</div>'
        partial = event.get("partial")
        if not isinstance(partial, str) or not partial:
            return line
        return ('<div class="dial-stopped-reply"><div class="dial-inform dial-partial">'
                f'<div class="dial-prose">{text_html(partial)}</div></div>{line}</div>')
    if kind == "resumed":
        return (f'<div class="dial-status-line dial-resumed">'
                f"{text_html(_resumed_line(event), 2000)}</div>")
    if kind == "turn-limit":
        said = words("turn-limit", turns=js_string(event.get("turns")))
        return f'<div class="dial-status-line dial-warn">{esc(said)}</div>'
    said = words("error", error=summarise(event.get("error"), 2000))
    return f'<div class="dial-status-line dial-error">{esc(said)}</div>'


def _resumed_line(event: Mapping[str, Any]) -> str:
    """Where the conversation was carried on from, and when it was saved."""
    saved_at = as_string(event.get("saved_at"))
    saved = (words("saved-at", when=saved_at.replace("T", " ").replace("+00:00", " UTC"))
             if saved_at else "")
    session = as_string(event.get("session"))
    if event.get("read_only") is True:  # a file the person did not make: shown only
        return words("read-only", session=session, saved=saved)
    waiting = words("waiting-is-back") if event.get("waiting") else "."
    return words("carried-on", session=session, saved=saved, waiting=waiting)


def _no_reply(item: Item, _budget: Budget) -> str:
    return (f'<div class="dial-no-reply"><span>{esc(words("no-reply"))}</span>'
            f'<span class="dial-hint">{esc(summarise(item.event.get("error") or "", 400))}'
            "</span></div>")


def _delegate(item: Item, _budget: Budget) -> str:
    event = item.event
    to = as_string(event.get("to")) or words("another-actor")
    intent = f" ({as_string(event.get('intent'))})" if event.get("intent") else ""
    note = words("hand-off", to=to, intent=intent) + (
        "" if event.get("registered") else words("hand-off-to-nobody"))
    parts = [f'<div class="dial-note">{text_html(note, 600)}</div>']
    if event.get("text"):
        parts.append(f'<div class="dial-delegate-text">{text_html(event.get("text"))}</div>')
    if event.get("context") is not None:
        parts.append(details_html("Context", json_block(event.get("context")), "dial-payload"))
    return f'<div class="dial-delegate">{"".join(parts)}</div>'


def _declare(item: Item, _budget: Budget) -> str:
    event = item.event
    return ('<div class="dial-signal dial-declare">Declared '
            f'<code>{text_html(event.get("key"), 200)}</code>: '
            f"{esc(summarise(event.get('value'), 240))}</div>")


def _phatic(item: Item, _budget: Budget) -> str:
    signal = as_string(item.event.get("signal")) or "signal"
    return f'<div class="dial-signal dial-phatic">Agent signal: {text_html(signal, 100)}</div>'


def _wire(item: Item, budget: Budget) -> str:
    """Under each turn, collapsed: the exact text the agent received, and its reply (nothing
    once the budget's ``wire_turns`` are shown: the copy is drawn latest first)."""
    if budget.wire_turns is not None:
        budget.wire_turns -= 1
        if budget.wire_turns < 0:
            return ""
    sent, reply = item.event, item.outcome
    turn = js_string(sent.get("turn")) if sent.get("turn") is not None else "?"
    parts = []
    if isinstance(sent.get("message"), str):
        parts.append('<div class="dial-wire-label">Sent to the agent</div>'
                     + _wire_text(sent["message"], budget.wire))
    if reply is not None and reply.get("type") == "reply":
        note = ""
        if reply.get("truncated"):
            chars = reply.get("chars")
            size = f"{chars:,}" if isinstance(chars, int) else js_string(chars)
            note = f" (its first part: the reply was {esc(size)} characters long)"
        parts.append(f'<div class="dial-wire-label">The agent&#x27;s reply{note}</div>'
                     + _wire_text(as_string(reply.get("text")), budget.wire))
    elif reply is not None:
        parts.append('<div class="dial-wire-label">No reply</div>')
    return details_html(f"Turn {turn}: what the agent received and replied", "".join(parts),
                    "dial-wire")


def _wire_text(text: str, limit: int) -> str:
    """The text exactly (escaped) up to ``limit`` characters, the rest said; hidden characters
    in it are named above it, not replaced."""
    shown, more = (text, 0) if len(text) <= limit else (text[:limit], len(text) - limit)
    hidden = hidden_characters(shown)
    note = (f'<div class="dial-wire-hidden">Holds hidden characters: {esc(", ".join(hidden[:20]))}'
            "</div>" if hidden else "")
    rest = (f'<span class="dial-clipped">… {more:,} more characters not shown here: the '
            "session file and chat.export_html() hold the whole text</span>" if more else "")
    return f'{note}<pre class="dial-wire-text">{text_only(shown)}{rest}</pre>'


def _unknown(item: Item, _budget: Budget) -> str:
    event = item.event
    kind = as_string(event.get("type")) or "?"
    rest = {k: v for k, v in event.items() if k != "type"} if isinstance(event, Mapping) else {}
    return (f'<div class="dial-note dial-unknown" data-dial-type="{esc(clip(kind, 60))}">'
            f"{text_html(kind, 60)}: {esc(summarise(rest, 240))}</div>")


_DRAWERS = {
    "person": _person, "inform": _inform, "ask": ask_html, "suggestion": suggestion_html,
    "status": _status, "no-reply": _no_reply, "delegate": _delegate, "declare": _declare,
    "phatic": _phatic, "wire": _wire, "unknown": _unknown, "undo-failed": _status,
}


def context_panel(transcript: list[Any]) -> str:
    """What the agent declared, by key, a later declare winning (items.js: contextOf)."""
    return context_html(context_of(transcript))


def context_html(context: list[tuple[str, Any]]) -> str:
    """The context panel of ``context`` (key, value) pairs; nothing when there are none."""
    if not context:
        return ""
    rows = "".join(f'<dt class="dial-mono">{text_html(key, 200)}</dt>'
                   f"<dd>{esc(summarise(value, 240))}</dd>"
                   for key, value in context[:CARD_ITEMS])
    return details_html(f"Context ({len(context)})", f'<dl class="dial-context-list">{rows}</dl>',
                        "dial-context")
