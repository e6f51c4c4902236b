"""``lint``: a reply checked against DIAL v0.1, each problem explained for a learner.

Every finding has a stable ``code``, a ``severity`` (``error``: a runtime will misread or
refuse it; ``warning``: legal but probably not what was meant; ``info``: worth knowing), the
1-based ``line`` and ``column`` in the reply, and a sentence that says what is wrong and how
to write it instead.

Bounded, whatever the reply: at most MAX_FINDINGS findings are listed (the rest are counted, and
one ``more-findings`` finding says how many, without building their messages), and lint stops
after LINT_SECONDS on its clock (one ``lint-stopped`` finding says where), so a 4 MB reply of
misspelt tags is linted within about a second. The clock is a parameter: tests pass their own.

The checks of each element are ``_lint_elements``'s (by the tables of ``_lint_rules``), the
findings and the bounds ``_lint_bounds``'s; here the reply is cut into envelopes and parsed.

    >>> [f.code for f in lint('<dial version="0.1"><dial-inform>hi</dial-inform></dial>')]
    ['missing-actor']
"""

from __future__ import annotations

import difflib
import time
from collections.abc import Callable

from lxml import etree

from ._lint_bounds import LINT_SECONDS, MAX_FINDINGS, Bounds, Finding, Locator, Stopped
from ._lint_elements import Linter
from ._parse import MAX_REPLY_CHARS, _recover
from ._repair import repair
from ._scan import MAX_ENVELOPES, Span, find_envelopes, unread_from

__all__ = ["LINT_SECONDS", "MAX_FINDINGS", "Finding", "lint"]


def _suggest_name(name: str, known: tuple[str, ...] | list[str]) -> str:
    """`` Did you mean 'x'?`` for a misspelt name, or ``''``."""
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return f" Did you mean '{close[0]}'?" if close else ""


def _syntax_findings(source: str, loc: Locator) -> list[Finding]:
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
    try:
        etree.fromstring(source.encode("utf-8", "replace"), parser)
    except etree.XMLSyntaxError as exc:
        line, col = exc.position if exc.position else (1, 1)
        rl, rc = loc.at(max(line, 1), max(col, 1))
        msg = (exc.msg or "not well-formed").split(", line ")[0]
        return [Finding(rl, rc, "not-well-formed",
                        f"This is not well-formed XML ({msg}). A stray '&' must be written "
                        "&amp; and a '<' that opens no tag &lt;; every tag must be closed.")]
    return []


def lint(text: str, *, max_findings: int = MAX_FINDINGS, seconds: float = LINT_SECONDS,
         clock: Callable[[], float] = time.monotonic) -> list[Finding]:
    """Every problem in an agent's reply, in reply order: at most ``max_findings`` of them
    (then one ``more-findings`` saying how many more), and within ``seconds`` on ``clock``
    (then one ``lint-stopped`` saying where it stopped).

    Args:
        text: the reply as the agent wrote it (prose around the envelope is fine).
        max_findings: findings listed; the rest are counted.
        seconds: longest lint runs, read on ``clock`` (``time.monotonic`` by default).

        >>> [f.code for f in lint('<dial actor="a"><dial-infrom/><dial-infrom/></dial>',
        ...                       max_findings=1)]
        ['missing-version', 'more-findings']
    """
    if not isinstance(text, str):
        raise TypeError(f"lint() takes a str, not {type(text).__name__}")
    if len(text) > MAX_REPLY_CHARS:
        return [Finding(1, 1, "too-large",
                        f"The reply is {len(text):,} characters, over the {MAX_REPLY_CHARS:,} "
                        "a runtime reads.")]
    spans = find_envelopes(text)
    if not spans:
        return [Finding(1, 1, "no-envelope",
                        "There is no <dial> envelope in this reply, so a runtime shows all of it "
                        "as plain text and nothing can be proposed or asked.", "warning")]
    bounds = Bounds(max_findings, seconds, clock)
    rest = unread_from(text, spans)
    if rest is not None:
        line = text.count("\n", 0, rest) + 1
        bounds.add(lambda: (line, rest - text.rfind("\n", 0, rest)), "too-many-envelopes",
                   f"This reply has more than {MAX_ENVELOPES} envelopes; a runtime reads the "
                   f"first {MAX_ENVELOPES} and leaves the rest of the reply "
                   f"({len(text) - rest:,} characters) unread. One envelope per reply is "
                   "clearer.")
    try:
        _lint_envelopes(text, spans, bounds)
    except Stopped as stopped:
        return bounds.result(stopped.at)
    return bounds.result(None)


def _lint_envelopes(text: str, spans: list[Span], bounds: Bounds) -> None:
    if len(spans) > 1:
        second = Locator(text, spans[1])
        bounds.add(lambda: second.at(1, 1), "several-envelopes",
                   f"This reply has {len(spans)} envelopes; a runtime handles them in order, "
                   "but one envelope per reply is clearer.", "info")
    for span in spans:
        loc = Locator(text, span)
        bounds.tick(lambda loc=loc: loc.at(1, 1))
        source = text[span.start:span.end]
        if not span.closed:
            bounds.add(lambda loc=loc: loc.at(1, 1), "unclosed-envelope",
                       "The <dial> envelope is never closed; end it with </dial>.")
        syntax = _syntax_findings(source, loc) if span.closed else []
        for finding in syntax:
            bounds.add(lambda f=finding: (f.line, f.column), finding.code, finding.message,
                       finding.severity)
        parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
        fixed, _ = repair(source) if (syntax or not span.closed) else (source, [])
        try:
            root = etree.fromstring(fixed.encode("utf-8", "replace"), parser)
        except (etree.XMLSyntaxError, ValueError):
            root = _recover(fixed)
        if root is None or root.tag != "dial":
            continue
        bounds.count(root, loc)
        Linter(loc, bounds, _suggest_name).envelope(root)
