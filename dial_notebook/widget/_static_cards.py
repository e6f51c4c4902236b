"""A card and a question in the static copy, with nothing to click (as js/src/cards.js and
js/src/ask.js draw them): a card's action, status, preview, the agent's words, an execute
block's steps (each command whole, hidden characters named), its payload, outcome and the
agent's acknowledgements; a question's options and its answer.

    >>> from ._items import transcript_items
    >>> (card,) = transcript_items([{"type": "suggestion", "id": "a", "action": "add"}], {})
    >>> 'data-dial-status="proposed"' in suggestion_html(card, Budget())
    True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dial_notebook.dial import hidden_characters

from ._items import Item, steps_of
from ._static_text import (
    CARD_ITEMS,
    COMMAND_CHARS,
    JSON_CHARS,
    as_list,
    as_string,
    class_name,
    clip,
    details_html,
    esc,
    json_block,
    result_text,
    revealed,
    summarise,
    text_html,
)
from ._static_values import Budget, result_nodes
from ._wordings import STATUS_LABEL, words


def ask_html(item: Item, _budget: Budget) -> str:
    """A question, its options (read-only) and the person's answer (js/src/ask.js)."""
    event, pending = item.event, item.pending
    kind = as_string((pending or {}).get("response_type") or event.get("response_type")) or "text"
    status = "answered" if item.answer is not None else "pending" if pending else "open"
    parts = [f'<div class="dial-ask-text">{text_html(event.get("text"))}</div>']
    options = [o for o in as_list(event.get("options")) if isinstance(o, Mapping)]
    chosen = None
    if item.answer is not None and kind != "confirm":
        chosen = next((o for o in options if as_string(o.get("value")) == item.answer), None)
    if kind == "confirm":
        parts.append('<ul class="dial-options-static" aria-label="Yes or no">'
                     + "".join(option_chip(label, chosen=(item.answer or "").lower()
                                            == label.lower())
                               for label in ("Yes", "No")) + "</ul>")
    elif options:
        parts.append('<ul class="dial-options-static" aria-label="Options">' + "".join(
            option_chip(as_string(o.get("label")) or as_string(o.get("value")),
                         value=as_string(o.get("value")), chosen=o is chosen,
                         default=bool(o.get("default")), disabled=bool(o.get("disabled")))
            for o in options[:CARD_ITEMS]) + "</ul>")
        if len(options) > CARD_ITEMS:
            parts.append(f'<div class="dial-more">+{len(options) - CARD_ITEMS:,} more</div>')
    if item.answer is not None:
        shown = (as_string(chosen.get("label")) or item.answer) if chosen is not None \
            else item.answer.capitalize() if kind == "confirm" and item.answer.lower() in (
                "yes", "no") else item.answer
        parts.append(f'<div class="dial-answered"><span class="dial-you">'
                     f'{esc(words("answered-by"))}</span>{text_html(shown)}</div>')
    elif pending:
        parts.append('<div class="dial-waiting">Waiting for the person&#x27;s answer '
                     "(answer in the live widget: this copy is read-only).</div>")
    else:
        parts.append('<div class="dial-note">Not answered.</div>')
    return (f'<section class="dial-ask dial-ask-{class_name(kind)} dial-status-{status}" '
            f'data-dial-status="{status}">{"".join(parts)}</section>')


def option_chip(label: str, *, value: str = "", chosen: bool = False, default: bool = False,
                 disabled: bool = False) -> str:
    classes = "dial-option-static" + (" dial-chosen" if chosen else "") + (
        " dial-disabled" if disabled else "")
    extra = (f' <span class="dial-choice-desc">{text_html(value, 200)}</span>'
             if value and value.lower() != label.lower() else "")
    marks = (" (default)" if default else "") + (" (unavailable)" if disabled else "")
    mark = "✓ " if chosen else ""
    return (f'<li class="{classes}">{mark}{text_html(label, 400)}{extra}'
            + (f'<span class="dial-choice-desc">{marks}</span>' if marks else "") + "</li>")


def suggestion_html(item: Item, budget: Budget) -> str:
    """A card: action, status, preview, the agent's words, steps, payload, outcome, acks
    (js/src/cards.js: suggestionCard), with nothing to click."""
    event, outcome, status = item.event, item.outcome, item.status
    destructive = bool(event.get("destructive"))
    execute = event.get("kind") == "execute"
    ran_edited = outcome is not None and outcome.get("edited") and outcome.get("preview")
    preview = as_string(outcome.get("preview") if ran_edited and outcome is not None
                      else event.get("preview") or event.get("action"))
    proposed = esc(clip(event.get("preview"), 400))
    edited = (f'<span class="dial-edited-mark" title="Proposed: {proposed}"> '
              f'{esc(words("edited"))}</span>' if ran_edited else "")
    badge = ""
    if destructive:
        badge = ('<span class="dial-badge dial-badge-danger">'
                 + ("⚠ Runs code" if execute else "⚠ Destructive") + "</span>")
    parts = [
        '<div class="dial-card-head">'
        f'<span class="dial-action-name">{text_html(event.get("action"), 200)}</span>{badge}'
        f'<span class="dial-chip dial-chip-{class_name(status)}">'
        f"{esc(STATUS_LABEL.get(status, status))}</span></div>",
        f'<div class="dial-preview">{text_html(preview)}{edited}</div>',
    ]
    said = as_string(event.get("text")).strip()
    if said and said != preview.strip():
        parts.append(f'<div class="dial-agent-text">{text_html(event.get("text"))}</div>')
    if execute:
        parts.append(step_list(item))
        if event.get("confirmed") and item.pending:
            parts.append('<div class="dial-note">The person answered yes above. That was not '
                         "approval to run code: the commands wait for Accept.</div>")
    if item.pending:
        parts.append(waiting_part(item))
    elif outcome is not None:
        parts.append(outcome_line(outcome, edited_shown=bool(ran_edited), budget=budget))
    for ack in item.acks:
        parts.append('<div class="dial-card-ack"><span class="dial-card-ack-who">Agent: </span>'
                     f"{text_html(ack.get('text'))}</div>")
    if not execute and event.get("payload") is not None:
        parts.append(details_html("Payload", json_block(event.get("payload")), "dial-payload"))
    classes = f"dial-card dial-status-{class_name(status)}" + (" dial-destructive" if destructive
                                                          else "")
    return (f'<article class="{classes}" data-dial-suggestion="{esc(clip(event.get("id"), 200))}" '
            f'data-dial-status="{esc(status)}">{"".join(parts)}</article>')


def waiting_part(item: Item) -> str:
    pending = item.pending or {}
    parts = ['<div class="dial-waiting">Waiting for the person&#x27;s decision (decide in the '
             "live widget: this copy is read-only).</div>"]
    issue = pending.get("issue")
    if isinstance(issue, Mapping) and issue.get("text"):
        errors = [e for e in as_list(pending.get("errors")) if isinstance(e, Mapping)][:CARD_ITEMS]
        listed = "".join(f"<li><code>{text_html(e.get('field'), 200)}</code> — "
                         f"{text_html(e.get('message'), 1000)}</li>" for e in errors)
        parts.append(f'<div class="dial-issue">The edit was refused: {text_html(issue.get("text"))}'
                     + (f"<ul>{listed}</ul>" if listed else "") + "</div>")
    left = pending.get("edits_left")
    if isinstance(left, int) and not isinstance(left, bool):
        parts.append(f'<div class="dial-note">{left} {"try" if left == 1 else "tries"} '
                     "left to edit.</div>")
    if "payload" in pending and pending.get("payload") != item.event.get("payload"):
        parts.append(details_html("Payload as edited", json_block(pending.get("payload")),
                              "dial-payload"))
    return "".join(parts)


def step_list(item: Item) -> str:
    """An execute block's steps: each command whole, hidden characters named, each outcome."""
    steps = [s for s in steps_of(item.event) if isinstance(s, Mapping)]
    rows = []
    for step in steps:
        outcome = item.steps.get(str(step.get("id")))
        status = as_string(outcome.get("status")) if outcome is not None else ""
        command = (outcome.get("command") if outcome is not None
                   and isinstance(outcome.get("command"), str) else as_string(step.get("command")))
        hidden = hidden_characters(command[:COMMAND_CHARS])
        lines = command.count("\n") + 1
        label = as_string(step.get("label"))
        head = (f'<span class="dial-env">{text_html(step.get("env"), 100)}</span>'
                + (f'<span class="dial-step-label">{revealed(label, 1000)}</span>'
                   if label else "")
                + (f'<span class="dial-step-lines">{lines:,} lines</span>' if lines > 1 else "")
                + (f'<span class="dial-chip dial-chip-{class_name(status)}">'
                   f"{esc(STATUS_LABEL.get(status, status))}</span>" if status else ""))
        row = [f'<div class="dial-step-head">{head}</div>']
        if hidden:
            note = words("hidden-characters", names=", ".join(hidden[:20]))
            row.append(f'<div class="dial-suspicious" role="note">{esc(note)}</div>')
        row.append(f'<pre class="dial-command" dir="ltr">{revealed(command, COMMAND_CHARS)}</pre>')
        if outcome is not None and outcome.get("edited"):
            row.append(f'<span class="dial-edited">{esc(words("edited"))}</span>')
        if outcome is not None:
            row.append(step_outcome(outcome))
        classes = ("dial-step" + (f" dial-step-{class_name(status)}" if status else "")
                   + (" dial-step-suspicious" if hidden else ""))
        rows.append(f'<li class="{classes}" data-dial-step="{esc(clip(step.get("id"), 200))}" '
                    f'data-dial-status="{esc(status or "waiting")}">{"".join(row)}</li>')
    count = len(steps)
    noun = "step" if count == 1 else "steps"
    said = words("steps", count=str(count), noun=noun)
    return (f'<div class="dial-step-count">{esc(said)}</div>'
            f'<ol class="dial-steps">{"".join(rows)}</ol>')


def step_outcome(outcome: Mapping[str, Any]) -> str:
    status = as_string(outcome.get("status"))
    result = outcome.get("result")
    parts = []
    if status == "done" and isinstance(result, Mapping):
        for key in ("stdout", "value", "stderr", "body"):
            if isinstance(result.get(key), str) and result.get(key):
                parts.append(f'<pre class="dial-output dial-output-{key}">'
                             f"{text_html(result[key], JSON_CHARS)}</pre>")
        if not parts and result_text(result):
            parts.append(f"<span>{esc(result_text(result))}</span>")
    elif status == "done":
        if result_text(result):
            parts.append(f"<span>{esc(result_text(result))}</span>")
    else:
        error, hint = outcome.get("error"), outcome.get("hint")
        parts.append(f"<span>{esc(summarise(error or hint or '', 1000))}</span>")
        if error and hint:
            parts.append(f'<div class="dial-hint">{esc(summarise(hint, 1000))}</div>')
    return (f'<div class="dial-step-outcome dial-outcome-{class_name(status)}">'
            f'{"".join(parts)}</div>')


def outcome_line(outcome: Mapping[str, Any], *, edited_shown: bool, budget: Budget) -> str:
    """A card's outcome: Done with its result, Failed with error and hint, … (cards.js)."""
    status = as_string(outcome.get("status"))
    error, hint = outcome.get("error"), outcome.get("hint")
    parts: list[str] = []
    label = f"<strong>{esc(STATUS_LABEL.get(status, status))}</strong>"
    if status == "done":
        parts.append(label)
        body = result_nodes(outcome.get("result"), budget)
        if len(body) == 1 and body[0].startswith('<span class="dial-result">'):
            parts.append(body[0])
        elif body:
            parts.append(f'<div class="dial-result-body">{"".join(body)}</div>')
    elif status == "failed":
        said = words("failed", error=summarise(error or "error", 2000))
        parts.append(f"{label}<span>{esc(said)}</span>")
        if hint:
            said = words("hint", hint=summarise(hint, 2000))
            parts.append(f'<div class="dial-hint">{esc(said)}</div>')
    elif status == "dismissed":  # a reason is said below it (said_about); else what it meant
        reason = outcome.get("reason")
        parts.append(label if isinstance(reason, str) and reason
                     else f"{label}<span>{esc(words('dismissed'))}</span>")
    elif status in ("superseded", "handed-off"):
        parts.append(f"{label}<span>{esc(words(status))}</span>")
    else:
        parts.append(label)
        if hint or error:
            parts.append(f"<span> — {esc(summarise(hint or error, 2000))}</span>")
    if outcome.get("edited") and not edited_shown:
        parts.append(f'<span class="dial-edited"> {esc(words("edited"))}</span>')
    parts.extend(said_about(outcome))
    return f'<div class="dial-outcome dial-outcome-{class_name(status)}">{"".join(parts)}</div>'


def said_about(outcome: Mapping[str, Any]) -> list[str]:
    """The rule that accepted the proposal, a dismissal's reason, the person's comments."""
    parts = []
    if isinstance(outcome.get("rule"), str):
        parts.append(f'<div class="dial-by-rule">Accepted by rule {esc(outcome["rule"])}</div>')
    if isinstance(outcome.get("reason"), str) and outcome["reason"]:
        parts.append(f'<div class="dial-reason">Reason: {text_html(outcome["reason"])}</div>')
    comments = [c for c in as_list(outcome.get("comments")) if isinstance(c, Mapping)]
    if comments:
        rows = "".join(
            f'<li><span class="dial-comment-field">'
            f'{esc(as_string(c.get("field")) or words("whole-proposal"))}</span>: '
            f'{text_html(c.get("text"))}</li>' for c in comments[:20])
        parts.append(f'<div class="dial-comments">{esc(words("comments"))}<ul>{rows}</ul>'
                     "</div>")
    return parts
