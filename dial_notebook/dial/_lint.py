"""``lint``: a reply checked against DIAL v0.1, each problem explained for a learner.

Every finding has a stable ``code``, a ``severity`` (``error``: a runtime will misread or
refuse it; ``warning``: legal but probably not what was meant; ``info``: worth knowing), the
1-based ``line`` and ``column`` in the reply, and a sentence that says what is wrong and how
to write it instead.

Bounded, whatever the reply: at most MAX_FINDINGS findings are listed (the rest are counted, and
one ``more-findings`` finding says how many, without building their messages), and lint stops
after LINT_SECONDS on its clock (one ``lint-stopped`` finding says where), so a 4 MB reply of
misspelt tags is linted within about a second. The clock is a parameter: tests pass their own.

    >>> [f.code for f in lint('<dial version="0.1"><dial-inform>hi</dial-inform></dial>')]
    ['missing-actor']
"""

from __future__ import annotations

import difflib
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from lxml import etree

from ._build import decode_json, to_number
from ._elements import ELEMENT_CLASSES, ENVS, RENDER_VALUES, RESPONSE_TYPES, SIGNALS, is_json_type
from ._parse import MAX_ELEMENTS, MAX_REPLY_CHARS, _recover
from ._repair import repair
from ._scan import MAX_ENVELOPES, Span, find_envelopes, unread_from
from ._unicode import hidden_characters

COMMON_ATTRIBUTES = ("id", "observe", "yield", "addressed-to", "lang")
ROOT_ATTRIBUTES = ("version", "turn", "actor", "session")
#: Attributes of each element beyond the common ones.
OWN_ATTRIBUTES: dict[str, tuple[str, ...]] = {
    "dial-inform": ("render",),
    "dial-ask": ("response-type", "timeout"),
    "dial-suggest": ("render", "action", "multi"),
    "dial-execute": (),
    "dial-acknowledge": ("of",),
    "dial-declare": ("context-key",),
    "dial-delegate": ("to", "intent", "resume"),
    "dial-phatic": ("signal", "interval"),
}
#: Attributes of the child elements (which do not take the common set).
CHILD_ATTRIBUTES: dict[str, tuple[str, ...]] = {
    "dial-payload": ("type", "encoding", "schema"),
    "dial-option": ("value", "default", "disabled", "id"),
    "step": ("env", "id", "label", "observe", "yield"),
    "dial-context": (),
}
#: Which child elements each element may hold.
ALLOWED_CHILDREN: dict[str, tuple[str, ...]] = {
    "dial-inform": ("dial-payload",),
    "dial-ask": ("dial-option", "dial-payload"),
    "dial-suggest": ("dial-payload",),
    "dial-execute": ("step",),
    "dial-acknowledge": (),
    "dial-declare": ("dial-payload",),
    "dial-delegate": ("dial-context", "dial-payload"),
    "dial-phatic": (),
    "dial-context": ("dial-payload",),
    "dial-payload": (),
    "dial-option": (),
    "step": (),
}
_WHERE = {
    "dial-option": 'inside <dial-ask response-type="choice">',
    "step": "inside <dial-execute>",
    "dial-payload": "inside an element that carries data (inform, ask, suggest, declare, context)",
    "dial-context": "inside <dial-delegate>",
}
_BOOLEANS = ("multi", "default", "disabled", "resume")
_NUMBERS = ("timeout", "interval")
MAX_ATTRIBUTES = 64
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


class _Locator:
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


class _Stopped(Exception):
    """Raised inside the walk when lint's time is up; ``at`` is where it stopped."""

    def __init__(self, at: tuple[int, int]) -> None:
        super().__init__(at)
        self.at = at


class _Bounds:
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

    def count(self, root: Any, loc: _Locator) -> None:
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
            raise _Stopped(at())

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


def _describe(tag: str) -> str:
    return f"<{tag}>"


def _suggest_name(name: str, known: tuple[str, ...] | list[str]) -> str:
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return f" Did you mean '{close[0]}'?" if close else ""


class _Linter:
    def __init__(self, locator: _Locator, bounds: _Bounds) -> None:
        self.loc = locator
        self.bounds = bounds

    def add(self, el: Any, code: str, message: str | Callable[[], str],
            severity: str = "error") -> None:
        """One finding at ``el``; a callable ``message`` is built only if it is listed."""
        self.bounds.add(lambda: self.loc.of(el), code, message, severity)

    def tick(self, el: Any) -> None:
        self.bounds.tick(lambda: self.loc.of(el))

    # -- attributes -------------------------------------------------------------------------
    def attributes(self, el: Any, allowed: tuple[str, ...]) -> None:
        attrib = el.attrib
        if len(attrib) > MAX_ATTRIBUTES:
            self.add(el, "too-many-attributes",
                     f"{_describe(el.tag)} has {len(attrib)} attributes; DIAL elements have at "
                     f"most a handful. The rest of its attributes were not checked.")
            return
        for name in attrib:
            if name not in allowed:
                self.add(el, "unknown-attribute",
                         lambda name=name: f"{_describe(el.tag)} has no attribute '{name}' in "
                         f"DIAL v0.1; a runtime ignores it.{_suggest_name(name, allowed)}",
                         "warning")
        for name in _BOOLEANS:
            v = el.get(name)
            if v is not None and name in allowed and v.strip().lower() not in ("true", "false"):
                self.add(el, "invalid-boolean",
                         f"'{name}' on {_describe(el.tag)} must be \"true\" or \"false\", "
                         f"not \"{v[:40]}\".")
        for name in _NUMBERS:
            v = el.get(name)
            if v is not None and name in allowed and to_number(v) is None:
                self.add(el, "invalid-number",
                         f"'{name}' on {_describe(el.tag)} must be a number of seconds, "
                         f"not \"{v[:40]}\".")

    def enum(self, el: Any, name: str, values: tuple[str, ...], severity: str = "error") -> None:
        v = el.get(name)
        if v is not None and v not in values:
            listed = ", ".join(values)
            self.add(el, f"invalid-{name}",
                     lambda: f"'{name}' on {_describe(el.tag)} is \"{v[:40]}\", which v0.1 does "
                     f"not know; use one of: {listed}.{_suggest_name(v, values)}", severity)

    def required(self, el: Any, name: str, why: str) -> None:
        if not (el.get(name) or "").strip():
            self.add(el, f"missing-{name}", f"{_describe(el.tag)} needs a '{name}' attribute: {why}")

    # -- structure ---------------------------------------------------------------------------
    def children(self, el: Any) -> Iterator[Any]:
        for child in el:
            if isinstance(child.tag, str):
                self.tick(child)
                yield child

    def check_child(self, parent: Any, child: Any) -> bool:
        tag = child.tag
        allowed = ALLOWED_CHILDREN.get(parent.tag, ())
        if tag in allowed:
            return True
        if tag in _WHERE:
            self.add(child, "misplaced-element",
                     f"{_describe(tag)} does not belong in {_describe(parent.tag)}; it is used "
                     f"only {_WHERE[tag]}.")
        elif tag in ELEMENT_CLASSES:
            self.add(child, "nested-element",
                     f"{_describe(tag)} is inside {_describe(parent.tag)}; DIAL elements stand "
                     "directly inside <dial>, side by side. Move it out.")
        else:
            self.add(child, "unknown-element",
                     lambda: f"{_describe(tag)} is not a DIAL element and will be ignored."
                     f"{_suggest_name(tag, list(ALLOWED_CHILDREN))}")
        return False

    def payload(self, el: Any) -> None:
        self.attributes(el, CHILD_ATTRIBUTES["dial-payload"])
        mime = el.get("type") or "application/json"
        if is_json_type(mime):
            _, error = decode_json("".join(el.itertext()))
            if error:
                self.add(el, "invalid-json",
                         f"The <dial-payload> is declared as {mime} but is not valid JSON. {error}"
                         " Check quotes (JSON needs double quotes) and trailing commas.")

    def ask(self, el: Any) -> None:
        rtype = el.get("response-type") or "text"
        options = [c for c in self.children(el) if c.tag == "dial-option"]
        if rtype == "choice" and not options:
            self.add(el, "choice-without-options",
                     'A <dial-ask response-type="choice"> needs <dial-option value="…"> children '
                     "for the person to choose from.")
        if options and rtype != "choice":
            self.add(el, "options-ignored",
                     f'This ask is response-type="{rtype}", so its <dial-option> children are '
                     'ignored. Use response-type="choice" to offer them.', "warning")
        defaults = [o for o in options if (o.get("default") or "").lower() == "true"]
        if len(defaults) > 1:
            self.add(el, "several-defaults",
                     "More than one <dial-option> is marked default=\"true\"; a single choice "
                     "can preselect only one.", "warning")
        seen: set[str] = set()
        for o in options:
            self.attributes(o, CHILD_ATTRIBUTES["dial-option"])
            self.required(o, "value", "it is what the answer carries when the option is chosen.")
            v = o.get("value")
            if v and v in seen:
                self.add(o, "duplicate-option", f"Two options have the value \"{v[:40]}\"; "
                         "each option needs its own value.")
            seen.add(v or "")

    def execute(self, el: Any) -> None:
        steps = [c for c in self.children(el) if c.tag == "step"]
        if not steps:
            self.add(el, "execute-without-steps",
                     "<dial-execute> has no <step> children, so there is nothing to run.")
        if (el.text or "").strip():
            self.add(el, "text-outside-steps",
                     "<dial-execute> has text outside its <step> elements; commands go inside "
                     "<step env=\"…\">, one per step.", "warning")
        ids: set[str] = set()
        yielded = {e for s in steps for e in (s.get("yield") or "").split()}
        for s in steps:
            self.attributes(s, CHILD_ATTRIBUTES["step"])
            self.enum(s, "env", ENVS, "warning")
            command = "".join(s.itertext())
            if not command.strip():
                self.add(s, "empty-step", "This <step> has no command text to run.")
            hidden = hidden_characters(command)
            if hidden:
                named = ", ".join(hidden[:5]) + (" …" if len(hidden) > 5 else "")
                self.add(s, "hidden-characters",
                         f"The command of this <step> contains characters a person cannot see "
                         f"({named}): direction controls or invisible characters make what a "
                         "card shows differ from what runs. Write the command without them.")
            sid = s.get("id")
            if sid and sid in ids:
                self.add(s, "duplicate-id", f"Two steps have the id \"{sid[:40]}\"; step ids must "
                         "be unique within their <dial-execute>.")
            ids.add(sid or "")
            obs = s.get("observe")
            if obs and obs not in yielded:
                self.add(s, "observe-never-yielded",
                         f"This step waits for '{obs[:60]}', but no step in this <dial-execute> "
                         "yields it, so it will never run.", "warning")

    def element(self, el: Any) -> None:
        tag = el.tag
        self.attributes(el, COMMON_ATTRIBUTES + OWN_ATTRIBUTES[tag])
        for child in self.children(el):
            if self.check_child(el, child):
                if child.tag == "dial-payload":
                    self.payload(child)
                elif child.tag == "dial-context":
                    self.attributes(child, CHILD_ATTRIBUTES["dial-context"])
                    for grandchild in self.children(child):
                        if self.check_child(child, grandchild):
                            self.payload(grandchild)
        if tag in ("dial-inform", "dial-suggest"):
            self.enum(el, "render", RENDER_VALUES)
        if tag == "dial-ask":
            self.enum(el, "response-type", RESPONSE_TYPES)
            self.ask(el)
        elif tag == "dial-suggest" and not (el.get("action") or "").strip():
            self.add(el, "suggest-without-action",
                     "<dial-suggest> has no 'action', so a runtime cannot know what accepting it "
                     "would do and reports it invalid.", "warning")
        elif tag == "dial-execute":
            self.execute(el)
        elif tag == "dial-declare":
            self.required(el, "context-key", "it names the fact in the shared context.")
        elif tag == "dial-delegate":
            self.required(el, "to", "it names the actor who takes over.")
        elif tag == "dial-phatic":
            self.required(el, "signal", "typing, thinking, heartbeat, presence or done-typing.")
            self.enum(el, "signal", SIGNALS)
            if (el.text or "").strip():
                self.add(el, "phatic-with-text",
                         "<dial-phatic> carries no meaning, so its text is ignored; use "
                         "<dial-inform> to say something.", "warning")

    def envelope(self, root: Any) -> None:
        if not root.get("version"):
            self.add(root, "missing-version",
                     'The <dial> envelope has no version; write <dial version="0.1" …>.')
        elif root.get("version") != "0.1":
            self.add(root, "wrong-version",
                     f"This is DIAL v0.1, but the envelope says version=\"{root.get('version')[:20]}\"; "
                     'write version="0.1".', "warning")
        if not root.get("actor"):
            self.add(root, "missing-actor",
                     'The <dial> envelope has no actor; say who speaks, e.g. actor="agent".')
        turn = root.get("turn")
        if turn is not None and not (isinstance(to_number(turn), int) and int(turn) >= 1):
            self.add(root, "invalid-number",
                     f"'turn' must be a whole number from 1, not \"{turn[:20]}\".")
        self.attributes(root, ROOT_ATTRIBUTES)
        top: list[Any] = []  # listed as they are checked: listing is work too
        ids: dict[str, Any] = {}
        yielded: set[str] = set()
        for el in self.children(root):
            top.append(el)
            if el.tag not in ELEMENT_CLASSES:
                if el.tag in _WHERE:
                    self.add(el, "misplaced-element",
                             f"{_describe(el.tag)} cannot stand directly in <dial>; it is used "
                             f"only {_WHERE[el.tag]}.")
                else:
                    self.add(el, "unknown-element",
                             lambda el=el: f"{_describe(el.tag)} is not a DIAL v0.1 element "
                             f"and will be ignored.{_suggest_name(el.tag, list(ELEMENT_CLASSES))}")
                continue
            self.element(el)
            eid = el.get("id")
            if eid:
                if eid in ids:
                    self.add(el, "duplicate-id",
                             f"The id \"{eid[:40]}\" is used twice in this envelope; ids must be "
                             "unique so that outcomes and acknowledgements can refer to one "
                             "element.")
                ids[eid] = el
            yielded.update((el.get("yield") or "").split())
        for el in top:
            self.tick(el)
            obs = el.get("observe") if el.tag in ELEMENT_CLASSES else None
            if obs and obs not in yielded:
                self.add(el, "observe-never-yielded",
                         f"{_describe(el.tag)} waits for '{obs[:60]}', but no element in this "
                         "envelope yields it, so it will never activate.", "warning")


def _syntax_findings(source: str, loc: _Locator) -> list[Finding]:
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
    bounds = _Bounds(max_findings, seconds, clock)
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
    except _Stopped as stopped:
        return bounds.result(stopped.at)
    return bounds.result(None)


def _lint_envelopes(text: str, spans: list[Span], bounds: _Bounds) -> None:
    if len(spans) > 1:
        second = _Locator(text, spans[1])
        bounds.add(lambda: second.at(1, 1), "several-envelopes",
                   f"This reply has {len(spans)} envelopes; a runtime handles them in order, "
                   "but one envelope per reply is clearer.", "info")
    for span in spans:
        loc = _Locator(text, span)
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
        _Linter(loc, bounds).envelope(root)
