# How a report looks in a notebook: a summary table, bars of refusals by field, and each
# scenario's conversation, read-only, behind a disclosure. Plain HTML with inline styles: no
# script, nothing fetched; every string that came from an agent or a scenario is escaped.
# Each name in the table links to its disclosure below (``#dial-report-<token>-<n>``: a token
# new to each drawing, so two reports in one notebook never share a target, and the scenario's
# index, so no name is ever part of an id). The target is an ``<a name>`` at the top of the
# disclosure's content, not an element with an id: JupyterLab handles a click on a link to an id
# itself (it scrolls to it, and a closed disclosure stays closed: measured), but leaves a link to
# a name to the browser, whose navigation to a target inside a closed <details> opens it (the
# HTML standard's "ancestor details revealing"; measured in Chromium): a click opens it, no
# script. Its scroll margin keeps the summary in view above it.
"""The HTML of ``Report._repr_html_`` and ``ScenarioResult._repr_html_``.

    >>> from dial_notebook.evaluation._report import ActionStats
    >>> stats = ActionStats(invalid=3, refused_by_field={"<b>due</b>": 2, "title": 1})
    >>> page = refusal_bars({"add-todo": stats})
    >>> "&lt;b&gt;due&lt;/b&gt;" in page and "<b>due" not in page
    True
"""

from __future__ import annotations

import html
import secrets
from collections.abc import Iterable, Mapping
from typing import Any

from .. import _surface

#: Bars are drawn for at most this many fields of an action (the most refused first).
MAX_BARS = 12
BAR = ("display:inline-block;height:0.8em;background:#c0392b;border-radius:2px;"
       "vertical-align:middle;margin-right:6px")

#: The head of a column of sentences, aligned as they are (a notebook right-aligns tables).
LEFT_HEAD = "<th style='text-align:left'>{}</th>"


def cell(value: Any) -> str:
    """``value`` as escaped HTML text ('—' for None)."""
    return "—" if value is None else html.escape(str(value))


def anchors() -> str:
    """A new prefix for the ids of one drawing of a report (letters, digits and dashes).

        >>> anchors().startswith("dial-report-") and anchors() != anchors()
        True
    """
    return f"dial-report-{secrets.token_hex(4)}"


def _target(prefix: str, index: int) -> str:
    return f"{prefix}-{index}"


def summary_table(rows: Iterable[Mapping[str, Any]], reasons: Iterable[list[str]],
                  prefix: str | None = None) -> str:
    """One row per scenario: name, status, turns, proposals, refused, passed, reasons. With
    ``prefix`` (``anchors()``), each name links to its conversation in ``drill_down``."""
    head = "".join(f"<th>{h}</th>" for h in ("scenario", "status", "turns", "proposals",
                                              "refused", "passed")) + LEFT_HEAD.format("reasons")

    def name(index: int, row: Mapping[str, Any]) -> str:
        if prefix is None:
            return cell(row["name"])
        return f'<a href="#{_target(prefix, index)}">{cell(row["name"])}</a>'

    body = "".join(
        f"<tr><td>{name(index, row)}</td><td>{cell(row['status'])}</td>"
        f"<td>{cell(row['turns'])}</td><td>{cell(row['proposals'])}</td>"
        f"<td>{cell(row['refused'])}</td><td>{'✓' if row['passed'] else '✗'}</td>"
        f"<td style='text-align:left'>{cell('; '.join(why))}</td></tr>"
        for index, (row, why) in enumerate(zip(rows, reasons, strict=True)))
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def refusal_bars(actions: Mapping[str, Any]) -> str:
    """For each action the domain refused, a bar per field it named, as long as its count."""
    parts: list[str] = []
    for action, stats in actions.items():
        fields = sorted(stats.refused_by_field.items(), key=lambda item: (-item[1], item[0]))
        if not fields:
            continue
        most = fields[0][1]
        lines = "".join(
            f"<div><span style='display:inline-block;min-width:10em'>{cell(name)}</span>"
            f"<span style='{BAR};width:{max(4, round(160 * count / most))}px'></span>"
            f"{count}</div>"
            for name, count in fields[:MAX_BARS])
        more = (f"<div>… {len(fields) - MAX_BARS} more fields</div>"
                if len(fields) > MAX_BARS else "")
        parts.append(f"<div style='margin:0.4em 0'><strong>{cell(action)}</strong>: "
                     f"{stats.invalid} refused, by field{lines}{more}</div>")
    if not parts:
        return ""
    return "<div><p><strong>Refusals by field</strong></p>" + "".join(parts) + "</div>"


def conversation(result: Any) -> str:
    """One scenario's conversation, drawn read-only as the widget's static copy draws it (the
    surface lends its drawing: dial_notebook/_surface.py)."""
    return _surface.drawings().conversation_html(result.transcript, title=result.name)


def _proposals(result: Any) -> str:
    """Every proposal with its outcome, and for a refused one the domain's code, field and
    hint."""
    if not result.proposals:
        return ""
    rows = []
    for proposal in result.proposals:
        errors = proposal.get("errors") or []
        why = "; ".join(f"{e.get('code') or '—'} at {e.get('field') or '—'}: "
                        f"{e.get('hint') or '—'}" for e in errors) or proposal.get("error")
        rows.append(f"<tr><td>{cell(proposal.get('id'))}</td><td>{cell(proposal.get('action'))}"
                    f"</td><td>{cell(proposal.get('status'))}</td>"
                    f"<td style='text-align:left'>{cell(why) if why else ''}</td></tr>")
    head = ("".join(f"<th>{h}</th>" for h in ("proposal", "action", "outcome"))
            + LEFT_HEAD.format("refused because"))
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def _lint(result: Any) -> str:
    """The lint findings on the agent's replies, by turn."""
    if not result.lint:
        return ""
    items = "".join(f"<li>turn {cell(f.get('turn'))}, {cell(f.get('severity'))} "
                    f"<code>{cell(f.get('code'))}</code>: {cell(f.get('message'))}</li>"
                    for f in result.lint)
    return f"<p>Lint on the replies:</p><ul>{items}</ul>"


def verdict(result: Any) -> str:
    """A scenario's status, turns, time and tokens, pass or fail with its reasons, its
    proposals with their outcomes and the lint findings on its replies."""
    mark = "passed" if result.passed else "failed"
    why = "".join(f"<li>{cell(reason)}</li>" for reason in result.reasons)
    tokens = (result.tokens or {}).get("total")
    used = f" · {cell(tokens)} tokens" if tokens is not None else ""
    return (f"<p><strong>{cell(result.name)}</strong>: {mark} · {cell(result.status)} · "
            f"{result.turns} turns · {len(result.proposals)} proposals, {result.refused} "
            f"refused · {result.seconds:.2f} s{used}</p>" + (f"<ul>{why}</ul>" if why else "")
            + _proposals(result) + _lint(result))


def drill_down(results: Iterable[Any], prefix: str | None = None) -> str:
    """Each scenario's verdict and conversation behind a disclosure (no script needed). The
    renderer's style sheet (scoped to ``.dial-static``) is kept once, not once a scenario.
    With ``prefix``, each disclosure's content starts with the target its name in
    ``summary_table`` links to (an ``<a name>``: following the link opens the disclosure)."""
    style = f"<style>{_surface.drawings().style}</style>"

    def target(index: int) -> str:  # in the content: the browser opens it to reach it
        return "" if prefix is None else (f'<a name="{_target(prefix, index)}" '
                                           f'style="scroll-margin-top:4em"></a>')

    items = []
    for index, result in enumerate(results):
        drawn = conversation(result)
        items.append(
            f"<details><summary>{cell(result.name)} — {'passed' if result.passed else 'failed'}"
            f"</summary>{target(index)}{verdict(result)}"
            f"{drawn if index == 0 else drawn.replace(style, '', 1)}</details>")
    return f"<div><p><strong>Conversations</strong></p>{''.join(items)}</div>" if items else ""
