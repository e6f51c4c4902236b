"""What one lint finds and what it may spend: ``Finding`` (one problem, where, how bad),
``Bounds`` (at most ``MAX_FINDINGS`` listed, at most ``LINT_SECONDS`` on its clock), and
``Locator`` (an element of one envelope's tree back to its line and column in the reply).

    >>> str(Finding(2, 5, "unknown-element", "<dial-infrom> is not a DIAL element."))
    '2:5 error [unknown-element] <dial-infrom> is not a DIAL element.'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ._parse import MAX_ELEMENTS
from ._scan import Span

#: Findings listed; past them they are counted and one ``more-findings`` says how many.
MAX_FINDINGS = 200
#: Longest one lint runs (seconds on its clock); then one ``lint-stopped`` says where.
LINT_SECONDS = 1.0


@dataclass(frozen=True)
class Finding:
    """One problem in a reply: where, how bad, and what to write instead."""

    line: int
    column: int
    code: str
    message: str
    severity: str = "error"

    def __str__(self) -> str:
        return f"{self.line}:{self.column} {self.severity} [{self.code}] {self.message}"


class Locator:
    """Maps an element of one envelope's tree back to line and column in the whole reply."""

    def __init__(self, text: str, span: Span) -> None:
        self.lines = text[span.start:span.end].split("\n")
        self.line0 = text.count("\n", 0, span.start) + 1
        self.col0 = span.start - (text.rfind("\n", 0, span.start) + 1) + 1

    def at(self, line: int, column: int) -> tuple[int, int]:
        """Reply position of a (line, column) inside the envelope's source (both 1-based)."""
        return self.line0 + line - 1, column + (self.col0 - 1 if line == 1 else 0)

    def of(self, el: Any) -> tuple[int, int]:
        line = el.sourceline or 1
        text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        col = text.find(f"<{el.tag}") + 1 or 1
        return self.at(line, col)


class Stopped(Exception):
    """Raised inside the walk when lint's time is up; ``at`` is where it stopped."""

    def __init__(self, at: tuple[int, int]) -> None:
        super().__init__(at)
        self.at = at


class Bounds:
    """What one lint may list and spend: ``cap`` findings kept (the rest only counted, their
    messages never built) and ``seconds`` on ``clock`` (read once per element checked)."""

    def __init__(self, cap: int, seconds: float, clock: Callable[[], float]) -> None:
        self.cap, self.seconds, self.clock = cap, seconds, clock
        self.deadline = clock() + seconds
        self.findings: list[Finding] = []
        self.more = 0
        self.first_more: tuple[int, int] = (1, 1)
        self.elements = 0  # of the reply's envelopes, against a runtime's MAX_ELEMENTS
        self.unread_at: tuple[int, int] = (1, 1)

    def count(self, root: Any, loc: Locator) -> None:
        """Count ``root``'s elements (in C); note where a runtime stops reading."""
        count = int(root.xpath("count(*)"))
        if self.elements <= MAX_ELEMENTS < self.elements + count:
            first = root.xpath(f"*[{MAX_ELEMENTS - self.elements + 1}]")
            self.unread_at = loc.of(first[0]) if first else loc.at(1, 1)
        self.elements += count

    def add(self, at: Callable[[], tuple[int, int]], code: str,
            message: str | Callable[[], str], severity: str = "error") -> None:
        if len(self.findings) >= self.cap:
            if not self.more:
                self.first_more = at()
            self.more += 1
            return
        line, col = at()
        text = message if isinstance(message, str) else message()
        self.findings.append(Finding(line, col, code, text, severity))

    def tick(self, at: Callable[[], tuple[int, int]]) -> None:
        if self.clock() > self.deadline:
            raise Stopped(at())

    def result(self, stopped: tuple[int, int] | None) -> list[Finding]:
        findings = list(self.findings)
        if self.elements > MAX_ELEMENTS:
            line, col = self.unread_at
            findings.append(Finding(line, col, "too-many-elements",
                                    f"This reply has {self.elements:,} elements; a runtime "
                                    f"reads the first {MAX_ELEMENTS:,} and leaves "
                                    f"{self.elements - MAX_ELEMENTS:,} unread. Propose less "
                                    "at once."))
        findings.sort(key=lambda f: (f.line, f.column))
        if self.more:
            line, col = self.first_more
            findings.append(Finding(line, col, "more-findings",
                                    f"{self.more:,} more findings are not listed (at most "
                                    f"{self.cap} are).", "info"))
        if stopped is not None:
            line, col = stopped
            findings.append(Finding(line, col, "lint-stopped",
                                    f"lint stopped after {self.seconds:g} s at line {line}; "
                                    "the rest of the reply was not checked.", "warning"))
        return findings
