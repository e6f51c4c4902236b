"""The playground's read-only panels as HTML: the parsed reply, the lint findings, and the
message the agent receives. Pure functions of text, so they are tested without a widget.

Every piece of the learner's text passes through ``html.escape`` before it is put in the
markup: what they type is shown, never interpreted. A text too long for a panel is cut at the
end of a line, and the panel says how many lines and characters it left out (``clip``). Every
option is shown the same way, value first and then the text the person reads; a confirm's
Yes / No too. Suggests and execute blocks say how their outcome comes back (by id). Colours
and fonts are JupyterLab's theme variables (_playground_style.py), so the panels follow the
light and dark themes.

    >>> "&lt;dial-infrom&gt;" in lint_html('<dial version="0.1" actor="agent"><dial-infrom/></dial>')
    True
"""

from __future__ import annotations

import dataclasses
import json
from html import escape
from typing import Any

from ..dial import (
    Element,
    Envelope,
    Payload,
    extract_prose,
    find_envelopes,
    lint,
    parse,
    parse_all,
    repair,
    reveal,
)

#: What the runtime does with each element, for a learner.
RUNTIME_ROLE = {
    "inform": "shown to the person as a message; no turn follows",
    "acknowledge": "shown to the person as a message; no turn follows",
    "ask": "shown as a question; the person's answer goes back on the next turn",
    "suggest": "validated by the domain, then shown as a card the person decides on",
    "declare": "after a suggest without payload: that suggest's payload; else a fact in the "
               "session's context (the chat's Context panel)",
    "execute": "shown as a card marked Runs code that lists every command; nothing runs until "
               "the person accepts that card (a confirm answered yes is no approval); each "
               "step's outcome goes back to the agent",
    "delegate": "handed to the actor named by 'to'; with none registered, the agent is told "
                "it was not delegated",
    "phatic": "a channel signal: typing and thinking show an indicator; nothing else",
}

#: Why each kind of repair was needed, and how to write it right.
REPAIR_WHY = {
    "escaped-ampersand": "In XML '&' starts an entity such as &lt;. A bare '&' (as in a "
                         "shell's &&) breaks the parse; write &amp;.",
    "escaped-less-than": "In XML '<' starts a tag. A '<' that opens no DIAL tag (a comparison, "
                         "a redirect) breaks the parse; write &lt;. A misspelt <dial-…> "
                         "tag stays a tag: the runtime ignores it and lint names it.",
    "closed-tag": "Every element must be closed. The parser closed it where the enclosing "
                  "element ends, so everything up to there became part of it.",
    "dropped-closing-tag": "A closing tag closed nothing that was open, so it was dropped.",
    "control-characters": "XML cannot carry NUL or most control characters; they were removed.",
    "recovered": "Even after repair the XML could not be read strictly: lxml recovered what "
                 "it could and the text may differ from what was written.",
    "too-large": "The reply is over the size a runtime reads.",
    "too-many-elements": "A runtime reads a reply's first 1,000 elements; the rest are "
                         "counted and said unread, and none of them is proposed.",
    "too-many-envelopes": "A runtime reads a reply's first 100 envelopes; the rest of the "
                          "reply is said unread.",
}

_SEVERITY_WHY = {
    "error": "a runtime will misread or refuse this",
    "warning": "legal, but probably not what you meant",
    "info": "worth knowing",
}
# Python field names → DIAL attribute names
_ATTRIBUTE = {"yields": "yield", "addressed_to": "addressed-to",
              "response_type": "response-type", "context_key": "context-key"}
_NOT_ATTRIBUTES = {"text", "payload", "line", "options", "steps", "context"}
#: Characters of a text a panel shows before it cuts (at a line's end, saying what is left).
_MAX_SHOWN = 2000
#: The same for "What the agent receives", whose point is to be read whole.
_MAX_RECEIVED = 20_000


def _attributes(element: Any) -> list[tuple[str, str]]:
    """The attributes an element carries that differ from the schema's defaults."""
    shown = []
    for f in dataclasses.fields(element):
        if f.name in _NOT_ATTRIBUTES:
            continue
        value = getattr(element, f.name)
        if value == f.default or value is None or value == ():
            continue
        if isinstance(value, tuple):
            value = " ".join(map(str, value))
        elif isinstance(value, bool):
            value = str(value).lower()
        shown.append((_ATTRIBUTE.get(f.name, f.name.replace("_", "-")), str(value)))
    return shown


def _attr_html(pairs: list[tuple[str, str]]) -> str:
    return " ".join(f'<span class="dpg-attr"><b>{escape(k)}</b>="{escape(v)}"</span>'
                    for k, v in pairs)


def _lines(text: str) -> int:
    """How many lines ``text`` has (a final newline ends a line; it starts none)."""
    return text.count("\n") + (0 if not text or text.endswith("\n") else 1)


def clip(text: str, limit: int = _MAX_SHOWN) -> tuple[str, str]:
    """``text`` as a panel shows it, and a note saying what was left out ('' when nothing).

    Longer than ``limit`` characters, it is cut at the end of its last whole line within the
    limit; only a first line longer than the limit is cut inside it.

        >>> clip("one\\ntwo\\nthree", limit=8)
        ('one\\ntwo', '… 1 more line not shown (5 characters)')
    """
    if len(text) <= limit:
        return text, ""
    end = text.rfind("\n", 0, limit + 1)
    if end > 0:
        rest = text[end + 1:]
        lines = _lines(rest)
        return text[:end], (f"… {lines:,} more line{'s' if lines != 1 else ''} not shown "
                            f"({len(rest):,} characters)")
    shown, rest = text[:limit], text[limit:]
    newline = rest.find("\n")
    more = _lines(rest[newline + 1:]) if newline >= 0 else 0
    lines = f" and {more:,} more line{'s' if more != 1 else ''}" if more else ""
    return shown, f"… the rest of this line{lines} not shown ({len(rest):,} characters)"


def _pre(text: str, *, limit: int = _MAX_SHOWN, attributes: str = "") -> str:
    """``text`` escaped in a ``<pre>``, cut at a line's end with a note when it is too long."""
    shown, note = clip(text, limit)
    cut = (f'<div class="dpg-muted dpg-clipped" data-dpg-clipped="">{escape(note)}</div>'
           if note else "")
    return f"<pre{attributes}>{escape(shown)}</pre>{cut}"


def _payload_html(payload: Payload) -> str:
    if payload.error is not None:
        body = (f'<span class="dpg-badge dpg-error">invalid JSON</span>{escape(payload.error)}'
                f"{_pre(payload.raw)}")
    elif payload.is_json:
        body = _pre(json.dumps(payload.value, indent=2, ensure_ascii=False))
    else:
        body = _pre(str(payload.value))
    return (f'<div><span class="dpg-tag">payload</span> '
            f'<span class="dpg-muted">type={escape(payload.type)}</span>{body}</div>')


#: The answers a confirm offers the person, whatever options the agent wrote: (value, label).
CONFIRM_OPTIONS = (("yes", "Yes"), ("no", "No"))


def _option_html(pairs: list[tuple[str, str]], label: str, note: str = "") -> str:
    """One option, the same way for every ask: its attributes as written (value first), then
    the text the person reads."""
    note_html = f' <span class="dpg-badge dpg-warning">{escape(note)}</span>' if note else ""
    return (f'<li data-dpg-option=""><span class="dpg-tag">option</span> {_attr_html(pairs)} '
            '<span class="dpg-muted">shown as</span> '
            f'<span class="dpg-label">“{escape(label)}”</span>{note_html}</li>')


def _options_html(element: Element) -> list[str]:
    """The options of an ask as the person gets them, each shown by value and label."""
    options = getattr(element, "options", ())
    kind = getattr(element, "response_type", None)
    if kind == "confirm":
        parts = ['<li class="dpg-role dpg-note">a confirm is always Yes / No: the person '
                 "clicks a label, the agent receives its value</li>"]
        parts += [_option_html([("value", value)], label) for value, label in CONFIRM_OPTIONS]
        ignored = "ignored: a confirm is always Yes / No"
    elif options:
        parts = ['<li class="dpg-role dpg-note">the person clicks a label; the agent receives '
                 "its value</li>"] if kind == "choice" else []
        ignored = "" if kind == "choice" else "ignored: only a choice offers options"
    else:
        return []
    for option in options:
        pairs = [("value", option.value)]
        pairs += [(name, "true") for name in ("default", "disabled") if getattr(option, name)]
        pairs += [("id", option.id)] if option.id else []
        label = option.label or option.value  # what the chat shows for an option without text
        parts.append(_option_html(pairs, label, ignored))
    return parts


def _children_html(element: Element) -> str:
    parts = _options_html(element)
    for step in getattr(element, "steps", ()):
        pairs = [(k, v) for k, v in (("env", step.env), ("id", step.id), ("label", step.label),
                                     ("observe", step.observe),
                                     ("yield", " ".join(step.yields))) if v]
        parts.append(f'<li><span class="dpg-tag">step</span> {_attr_html(pairs)}'
                     f"{_pre(reveal(step.command))}</li>")
    context = getattr(element, "context", None)
    if context is not None:
        inner = _payload_html(context.payload) if context.payload else escape(context.text)
        parts.append(f'<li><span class="dpg-tag">context</span>{inner}</li>')
    return f'<ul class="dpg-tree">{"".join(parts)}</ul>' if parts else ""


def _own_yields(element: Element) -> str:
    yields = " ".join(getattr(element, "yields", ()))
    return (f' Its own yield="{yields}" is not sent back: those events fire inside this reply, '
            "for elements that wait for them with observe.") if yields else ""


def outcome_note(element: Element) -> str:
    """How what becomes of a suggest or an execute block comes back to the agent ('' for the
    other elements): named by the element's id (or a step's), never by its own yields."""
    if element.kind == "suggest":
        name = element.id or "sg-N"
        named = ("is its id" if element.id else
                 "stands for the id the runtime gives it, as it has none (sg-1, sg-2 …)")
        return (f'Its outcome comes back as <dial-acknowledge of="{name}" '
                f'yield="{name}:STATUS">: {name} {named}, STATUS what became of it (done, '
                f"dismissed, invalid …).{_own_yields(element)}")
    if element.kind == "execute":
        block = element.id or "ex-N"
        steps = [step.id or f"{block}.{n}" for n, step in enumerate(element.steps, 1)]
        named = ", ".join(f'of="{step}"' for step in steps)
        return (f"Accepted, it comes back as one outcome per step, named by the step's id "
                f'({named}) with yield="ID:done" (or :failed, :skipped); dismissed, as one '
                f'for the block: of="{block}" yield="{block}:dismissed".{_own_yields(element)}')
    return ""


def element_html(element: Element) -> str:
    """One element as a tree node: kind, attributes, text, payload, children, its role."""
    text = _pre(element.text) if element.text else ""
    payload = _payload_html(element.payload) if element.payload is not None else ""
    role = RUNTIME_ROLE.get(element.kind, "")
    outcome = outcome_note(element)
    outcome_html = (f'<div class="dpg-role dpg-outcome" data-dpg-outcome="">'
                    f"{escape(outcome)}</div>") if outcome else ""
    return (f'<li><span class="dpg-tag">{escape(element.kind)}</span> '
            f"{_attr_html(_attributes(element))}"
            f'<div class="dpg-role">runtime: {escape(role)}</div>{outcome_html}'
            f"{text}{payload}{_children_html(element)}</li>")


def _repairs_html(envelope: Envelope, source: str) -> str:
    if not envelope.repairs:
        return ""
    items = "".join(
        f'<div class="dpg-repair"><b>{escape(r.kind)}</b>: {escape(r.message)}<br>'
        f'<span class="dpg-muted">{escape(REPAIR_WHY.get(r.kind, ""))}</span></div>'
        for r in envelope.repairs)
    fixed, _ = repair(source)
    return (f"<h4>The parser repaired this reply</h4>{items}"
            "<details><summary>What the parser read after repair</summary>"
            f"{_pre(fixed)}</details>")


def envelope_html(text: str) -> str:
    """The parsed reply as HTML: prose, then each envelope's attributes, repairs and elements."""
    envelopes = parse_all(text)
    if not envelopes:
        return ('<p><span class="dpg-badge dpg-warning">no envelope</span> There is no '
                "&lt;dial&gt; envelope, so the runtime shows all of this as plain text.</p>")
    parts = []
    prose = extract_prose(text)
    if prose:
        parts.append(f'<p class="dpg-muted">Prose outside the envelope (shown as a message):</p>'
                     f"{_pre(prose)}")
    sources = _envelope_sources(text, len(envelopes))
    for envelope, source in zip(envelopes, sources, strict=True):
        root = [(k, str(v)) for k, v in (("version", envelope.version), ("actor", envelope.actor),
                                         ("turn", envelope.turn), ("session", envelope.session))
                if v is not None]
        damaged = '<span class="dpg-badge dpg-error">damaged</span>' if envelope.damaged else ""
        ignored = (f'<p>Not DIAL, ignored: <code>{escape(", ".join(envelope.ignored))}</code></p>'
                   if envelope.ignored else "")
        count = len(envelope.elements)
        elements = "".join(element_html(e) for e in envelope.elements)
        parts.append(
            f'<div>{damaged}<span class="dpg-tag">dial</span> {_attr_html(root)} '
            f'<span class="dpg-muted">· {count} element{"s" if count != 1 else ""}</span></div>'
            f"{_repairs_html(envelope, source)}{ignored}"
            f'<ul class="dpg-tree">{elements}</ul>')
    return "".join(parts)


def _envelope_sources(text: str, count: int) -> list[str]:
    """The source of each envelope ``parse_all`` read (for showing what repair made of it)."""
    spans = find_envelopes(text)
    sources = [text[s.start:s.end] for s in spans][:count]
    return sources + [""] * (count - len(sources))


def lint_html(text: str) -> str:
    """The lint findings as HTML: where, how bad, what to write instead, the line with a caret."""
    findings = lint(text)
    if not findings:
        return '<p class="dpg-ok">✓ No findings: this is valid DIAL v0.1.</p>'
    lines = text.split("\n")
    counts = {s: sum(f.severity == s for f in findings) for s in _SEVERITY_WHY}
    summary = ", ".join(f"{n} {s}{'s' if n != 1 else ''}" for s, n in counts.items() if n)
    parts = [f"<p><b>{escape(summary)}</b></p>"]
    for f in findings:
        source = lines[f.line - 1] if 0 < f.line <= len(lines) else ""
        caret = " " * max(f.column - 1, 0) + "^"
        parts.append(
            f'<div class="dpg-finding"><span class="dpg-badge dpg-{escape(f.severity)}">'
            f"{escape(f.severity)}</span><b>line {f.line}, column {f.column}</b> "
            f'<code class="dpg-muted">{escape(f.code)}</code>'
            f"<div>{escape(f.message)}</div>"
            f'<pre class="dpg-caret">{escape(source[:200])}\n{escape(caret[:200])}</pre></div>')
    legend = " · ".join(f"<b>{s}</b>: {why}" for s, why in _SEVERITY_WHY.items())
    parts.append(f'<p class="dpg-muted" style="font-size: 13px">{legend}</p>')
    return "".join(parts)


def _outcomes_read(message: str) -> str:
    """How to read the outcome reply at the start of ``message`` ('' when there is none)."""
    if not message.startswith("<dial>"):
        return ""
    envelope = parse(message)
    elements = envelope.elements if envelope else ()
    pairs = [(e.of, e.yields[0].rpartition(":")[2]) for e in elements
             if e.kind == "acknowledge" and e.of and e.yields]
    if not pairs:
        return ""
    declared = _declared_outcomes(elements)
    here = ", ".join(f"{escape(of)} → {escape(status)}{escape(_why(declared.get(of, {})))}"
                     for of, status in pairs)
    return ('<p class="dpg-muted" data-dpg-read="">Each <code>&lt;dial-acknowledge of="ID" '
            'yield="ID:STATUS"&gt;</code> is one outcome, named by the id of your suggest or '
            "execute step (sg-N when it had none), with what became of it; the "
            "<code>&lt;dial-declare&gt;</code> after it holds the details. Your elements' own "
            f"yield events are never sent back. Here: {here}.</p>")


def _declared_outcomes(elements: Any) -> dict[str, dict[str, Any]]:
    """Each ``<dial-declare context-key="outcome:ID">``'s JSON, by ID."""
    found: dict[str, dict[str, Any]] = {}
    for e in elements:
        key = getattr(e, "context_key", None) or ""
        payload = getattr(e, "payload", None)
        if (e.kind == "declare" and key.startswith("outcome:") and payload is not None
                and payload.error is None and isinstance(payload.value, dict)):
            found[key[len("outcome:"):]] = payload.value
    return found


def _why(outcome: dict[str, Any]) -> str:
    """Why an invalid outcome was invalid, in the person's words ('' for the other statuses):
    the acknowledgement's text is the runtime's, the same for every invalid outcome ("the
    payload for X is invalid"), so an unknown action is said here to be unknown.

        >>> _why({"status": "invalid", "action": "add-notez", "code": "unknown-action"})
        ": there is no action 'add-notez' (the acknowledgement's words are the same for every invalid proposal)"
    """
    if outcome.get("status") != "invalid":
        return ""
    if outcome.get("code") == "unknown-action":
        return (f": there is no action '{outcome.get('action') or ''}' (the acknowledgement's "
                "words are the same for every invalid proposal)")
    hint = str(outcome.get("hint") or "").strip()
    return f": the payload was refused ({hint})" if hint else ": the payload was refused"


def received_html(message: str | None, turn: int | None = None) -> str:
    """The latest message the agent received, verbatim, in monospace, with how to read the
    outcome reply it starts with."""
    if message is None:
        return ('<p class="dpg-muted">Nothing sent yet. Press <b>Send as the agent</b>, then '
                "decide on the card in the chat.</p>")
    where = f"turn {turn}" if turn is not None else "latest turn"
    return (f'<p class="dpg-muted">Sent to the agent on {escape(where)}: the outcome reply (if '
            "any), then the domain's context, then the person's words.</p>"
            + _outcomes_read(message)
            + _pre(message, limit=_MAX_RECEIVED, attributes=' data-dpg-received=""'))
