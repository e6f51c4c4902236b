"""The checks of one DIAL envelope's elements, for ``lint``: attributes, children, payloads,
asks, execute steps, ids and observe/yield, each problem a finding with a sentence that says
what to write instead.

    >>> from dial_notebook.dial import lint
    >>> [f.code for f in lint('<dial version="0.1" actor="a"><dial-ask response-type="choice"/></dial>')]
    ['choice-without-options']
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from ._build import decode_json, to_number
from ._elements import ELEMENT_CLASSES, ENVS, RENDER_VALUES, RESPONSE_TYPES, SIGNALS, is_json_type
from ._lint_bounds import Bounds, Locator
from ._lint_rules import (
    ALLOWED_CHILDREN,
    BOOLEANS,
    CHILD_ATTRIBUTES,
    COMMON_ATTRIBUTES,
    MAX_ATTRIBUTES,
    NUMBERS,
    OWN_ATTRIBUTES,
    ROOT_ATTRIBUTES,
    WHERE,
)
from ._unicode import hidden_characters


def _describe(tag: str) -> str:
    return f"<{tag}>"


class Linter:
    """Checks the elements of one envelope, adding each problem to ``bounds`` where
    ``locator`` places it; ``suggest(name, known)`` is the "Did you mean" of a misspelt name
    (called only for the findings listed)."""

    def __init__(self, locator: Locator, bounds: Bounds,
                 suggest: Callable[[str, tuple[str, ...] | list[str]], str]) -> None:
        self.loc = locator
        self.bounds = bounds
        self.suggest = suggest

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
                         f"DIAL v0.1; a runtime ignores it.{self.suggest(name, allowed)}",
                         "warning")
        for name in BOOLEANS:
            v = el.get(name)
            if v is not None and name in allowed and v.strip().lower() not in ("true", "false"):
                self.add(el, "invalid-boolean",
                         f"'{name}' on {_describe(el.tag)} must be \"true\" or \"false\", "
                         f"not \"{v[:40]}\".")
        for name in NUMBERS:
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
                     f"not know; use one of: {listed}.{self.suggest(v, values)}", severity)

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
        if tag in WHERE:
            self.add(child, "misplaced-element",
                     f"{_describe(tag)} does not belong in {_describe(parent.tag)}; it is used "
                     f"only {WHERE[tag]}.")
        elif tag in ELEMENT_CLASSES:
            self.add(child, "nested-element",
                     f"{_describe(tag)} is inside {_describe(parent.tag)}; DIAL elements stand "
                     "directly inside <dial>, side by side. Move it out.")
        else:
            self.add(child, "unknown-element",
                     lambda: f"{_describe(tag)} is not a DIAL element and will be ignored."
                     f"{self.suggest(tag, list(ALLOWED_CHILDREN))}")
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
                if el.tag in WHERE:
                    self.add(el, "misplaced-element",
                             f"{_describe(el.tag)} cannot stand directly in <dial>; it is used "
                             f"only {WHERE[el.tag]}.")
                else:
                    self.add(el, "unknown-element",
                             lambda el=el: f"{_describe(el.tag)} is not a DIAL v0.1 element "
                             f"and will be ignored.{self.suggest(el.tag, list(ELEMENT_CLASSES))}")
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
