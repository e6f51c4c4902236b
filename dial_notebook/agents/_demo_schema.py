"""SchemaDemoAgent: an offline agent for any ``SchemaDomain``, to click through a domain being
prototyped — no model, no key. Its payloads are made from the actions' JSON Schemas
(``_schema_payloads.py``) and checked with the domain's own ``validate`` before they are sent.

What it understands (case and punctuation do not matter):

    help · what can you do · hi           the actions, one line each, and these requests
    add-todo · add todo · add a todo      the action named, or the one its words fit best
                                          (name words count double description words; a tie
                                          is a question): a valid payload from its schema
    add todo: buy milk                    the same, the words in its first text field
    add-todo {"title": "x"}               exactly that payload (the domain judges it)
    invalid add-todo · break add-todo     a payload broken on purpose (the next way each time:
    invalid add-todo typo                 typo, missing, type, enum, format, short, long, low,
                                          high, pattern, const, few, many, extra — or the way
                                          named), refused by the domain before the person
                                          sees a card
    all · invalid all                     one valid (or broken) proposal of each action
    thanks                                "You're welcome. What next?"
    anything else                         what it can do, and the actions

The words that name an action exactly are always that action (an action called "all" or
"break-glass" is proposed, not taken for a request).

How it answers each outcome (it says only what the outcome says):

    done        what ran and what it returned (or that it returned nothing); "with your edit"
    failed      the error, its field and hint
    invalid     a broken one: what the domain said, then a valid payload for the same action
                (with how to see the edit form refuse the same mistake); a valid one: what
                the domain said and why it may have changed; the person's own payload: what
                the domain said
    dismissed   "OK, I left that out: …"      handed-off: open in its own panel

    >>> from dial_notebook.domains import SchemaDomain
    >>> todo = SchemaDomain("todo")
    >>> @todo.action(schema={"type": "object", "required": ["title"],
    ...                      "properties": {"title": {"type": "string"}}})
    ... def add_todo(payload):
    ...     return {"added": payload["title"]}
    >>> print(SchemaDemoAgent(todo).send("add todo: buy milk"))
    <dial version="0.1" actor="agent">
      <dial-suggest id="todo-1" action="add-todo">add-todo with your words as title: {"title": "buy milk"}
        <dial-payload type="application/json">{"title": "buy milk"}</dial-payload>
      </dial-suggest>
    </dial>
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from .._json_kind import json_kind
from ..dial import Element, Inform
from . import _saved
from ._demo import DemoAgent
from ._demo_base import Arg, Brain, Elements, Then, ack
from ._schema_payloads import KIND_WORDS, Broken, Made, PayloadMaker

_HELP = re.compile(r"^(?:help|\?+|what can you do|what do you do|what can i (?:say|do|type)|"
                   r"commands|usage|hi|hello|hey|start)(?:\s+(?:me|please|there|agent))?"
                   r"[\s?!.]*$", re.IGNORECASE)
_GREETING = re.compile(r"^(?:hi|hello|hey)\b", re.IGNORECASE)
_BREAK = re.compile(r"^(?:please\s+)?(?:invalid|break|broken)\b\s*(?P<rest>.*)$",
                    re.IGNORECASE | re.DOTALL)
_ALL = {"all", "everything", "each", "one of each", "every action", "all actions",
        "each action", "all of them", "try all", "try everything"}
_STOP = {"a", "an", "the", "please", "me", "my", "some", "to", "of", "for", "i", "want",
         "would", "like", "can", "you", "could", "let", "us", "lets", "let's", "with", "and",
         "in", "on", "it", "this", "that", "do", "propose", "try", "one", "new", "is", "are",
         "be", "by", "from", "as", "at", "or", "its", "it's", "so", "now"}
#: Longest result or payload quoted in a reply.
MAX_QUOTE = 300


@dataclass
class _Proposal:
    """What one of its suggestions was meant to be, for when the outcome comes back."""

    action: str
    payload: Any
    kind: str  # "valid" | "broken" | "yours"
    preview: str
    what: str = ""  # a broken one: the change, in words
    retried: bool = False  # a valid one already proposed again after a refusal


class SchemaBrain(Brain):
    """Proposes payloads made from the schemas of any domain's actions (module table)."""

    kind = "schema"
    continuations: ClassVar[dict[str, tuple[Arg, ...]]] = {
        "_chosen_request": ((str, type(None)), (str, type(None))),
        "_chosen_broken": ((str, type(None)),)}

    def __init__(self, domain: Any) -> None:
        super().__init__(domain)
        name = re.sub(r"[^A-Za-z0-9]+", "-", str(getattr(domain, "name", "") or "")).strip("-")
        self.prefix = name.lower() or "demo"
        self.maker = PayloadMaker(domain)
        self.proposals: dict[str, _Proposal] = {}
        self._breaks: dict[str, int] = {}

    # -- saving ---------------------------------------------------------------------------

    state_keys = (*Brain.state_keys, "proposals", "breaks")

    def state(self) -> dict[str, Any]:
        """``Brain.state()``, ``proposals`` (each id it gave: ``{"action", "payload",
        "kind", "preview", "what", "retried"}``) and ``breaks`` (per action, how many
        broken payloads it made: the next one breaks it the next way)."""
        proposals = {sid: {"action": p.action, "payload": _saved.plain(p.payload),
                           "kind": p.kind, "preview": p.preview, "what": p.what,
                           "retried": p.retried} for sid, p in self.proposals.items()}
        return {**super().state(), "proposals": proposals, "breaks": dict(self._breaks)}

    def read_state(self, saved: _saved.Saved) -> dict[str, Any]:
        names = {"action", "payload", "kind", "preview", "what", "retried"}

        def proposal(value: Any, where: str) -> _Proposal:
            if not isinstance(value, dict):
                saved.fail(f"{where} must be an object, not {json_kind(value)}")
            _saved.keys(saved, value, where, names, names)
            if value["kind"] not in ("valid", "broken", "yours"):
                saved.fail(f"{where}.kind must be 'valid', 'broken' or 'yours'")
            return _Proposal(
                str(_saved.string(saved, value["action"], f"{where}.action", most=1000)),
                _saved.json_value(saved, value["payload"], f"{where}.payload"),
                str(value["kind"]),
                str(_saved.string(saved, value["preview"], f"{where}.preview")),
                str(_saved.string(saved, value["what"], f"{where}.what")),
                _saved.flag(saved, value["retried"], f"{where}.retried"))

        return {**super().read_state(saved), "proposals": saved.mapping("proposals", proposal),
                "breaks": saved.mapping("breaks", lambda value, where: _saved.count(
                    saved, value, where))}

    def load_state(self, state: dict[str, Any]) -> None:
        super().load_state(state)
        self.proposals = dict(state["proposals"])
        self._breaks = dict(state["breaks"])

    # -- the domain -----------------------------------------------------------------------

    def actions(self) -> list[dict[str, Any]]:
        """Each action as name, description, mutates, destructive, handoff."""
        describe = getattr(self.domain, "describe", None)
        if callable(describe):
            return [dict(a) for a in describe()]
        listed = []
        for name, spec in (getattr(self.domain, "actions", None) or {}).items():
            def read(key: str, default: Any, spec: Any = spec) -> Any:
                return spec.get(key, default) if isinstance(spec, Mapping) else getattr(
                    spec, key, default)
            listed.append({"name": name, "description": read("description", "") or "",
                           "mutates": read("mutates", True) is not False,
                           "destructive": bool(read("destructive", False)),
                           "handoff": bool(read("handoff", False))})
        return listed

    def _names(self) -> list[str]:
        return [str(a["name"]) for a in self.actions()]

    def _preview(self, action: str, payload: Any) -> str:
        try:
            return str(self.domain.preview(action, payload)) or action
        except Exception:  # a preview that fails still leaves the action's name
            return action

    # -- help -----------------------------------------------------------------------------

    def help(self, opening: str = "") -> Elements:
        actions = self.actions()
        domain = str(getattr(self.domain, "name", "") or "this domain")
        lines = [f"{opening} " if opening else ""]
        lines[0] += (f"I'm the offline demo agent for the domain '{domain}': I make payloads "
                     "from each action's JSON Schema and check them with the domain before "
                     "I propose them (no model, no key).")
        if not actions:
            lines.append("This domain has no actions yet: add one with @domain.action(...).")
            return [Inform(text="\n".join(lines))]
        lines.append("Its actions:")
        for action in actions:
            lines.append(f"• {action['name']}{_line(action.get('description'))}{_kind(action)}")
        first = next((a["name"] for a in actions if a.get("mutates", True)
                      and not a.get("handoff")), actions[0]["name"])
        words = " ".join(re.split(r"[-_.:]+", first))
        lines += [
            "Say:",
            f"• {first} (or words from it: {words}) — a valid payload made from its schema",
        ]
        texty = [(a["name"], self.maker.text_field(a["name"])) for a in actions]
        texty = [(name, key) for name, key in texty if key]
        if texty:
            name, key = next(((n, k) for n, k in texty if n == first), texty[0])
            lines.append(f"• {' '.join(re.split(r'[-_.:]+', name))}: some text — the same, "
                         f"with your text as its {key}")
        lines += [
            f'• {first} {{"…": "…"}} — exactly the payload you write',
            f"• invalid {first} (or: break {first}) — a payload broken on purpose, to see the "
            "domain refuse it before you see a card",
            "• all — one valid proposal of each action · invalid all — a broken one of each",
        ]
        return [Inform(text="\n".join(lines))]

    # -- requests -------------------------------------------------------------------------

    def respond(self, words: str) -> Elements:
        text = words.strip()
        if not text:
            return []
        plain = _plain(text)
        if not self._names():
            return self.help()
        names_an_action = _normal(text) in {_normal(n) for n in self._names()}
        if _HELP.match(plain) and not names_an_action:
            return self.help("Hello!" if _GREETING.match(plain) else "")
        broken = _BREAK.match(plain)
        if broken and not names_an_action:
            return self._broken_request(broken.group("rest"))
        if plain.lower() in _ALL and not names_an_action:
            return self._all()
        head, payload_text, free = _split(text)
        found = self._match(head)
        if not found:
            return self.help("I didn't catch that.")
        if len(found) > 1:
            return [self._which(found, Then("_chosen_request", (payload_text, free)))]
        return self._request(found[0], payload_text, free)

    def _request(self, action: str, payload_text: str | None, free: str | None) -> Elements:
        if payload_text is not None:
            return self._yours(action, payload_text)
        return self._valid(action, free)

    def _which(self, names: list[str], then: Then) -> Element:
        return self.ask("Which action did you mean?", [(n, n) for n in names], then)

    def _chosen_request(self, chosen: str, payload_text: str | None,
                        free: str | None) -> Elements:
        """The answer to ``_which``: the action meant."""
        if chosen not in self._names():  # only a restored question could offer another
            return self.respond(chosen)
        return self._request(chosen, payload_text, free)

    def _chosen_broken(self, chosen: str, kind: str | None) -> Elements:
        """The answer to "which action should I break?"."""
        if chosen not in self._names():
            return self.respond(chosen)
        return self._broken(chosen, kind)

    def _match(self, words: str) -> list[str]:
        """The actions ``words`` name: exactly, inside them, or by the most words in common
        (those of the name count double those of the description)."""
        names = self._names()
        said = _normal(words)
        if not said:
            return []
        exact = [n for n in names if _normal(n) == said]
        if exact:
            return exact
        inside = [n for n in names if re.search(rf"\b{re.escape(_normal(n))}\b", said)]
        if inside:
            longest = max(len(_normal(n)) for n in inside)
            return [n for n in inside if len(_normal(n)) == longest]
        tokens = _tokens(said)
        scores: dict[str, int] = {}
        for action in self.actions():
            name = str(action["name"])
            score = 2 * len(tokens & _tokens(_normal(name)))
            score += len(tokens & _tokens(str(action.get("description") or "").lower()))
            if score:
                scores[name] = score
        if not scores:
            return []
        best = max(scores.values())
        return [n for n in names if scores.get(n) == best]

    def _valid(self, action: str, free: str | None = None) -> Elements:
        made = self.maker.valid(action, free)
        out: Elements = []
        if made.payload is None:
            return [Inform(text=self._cannot(action, made))]
        if free is not None and made.text_field is None:
            out.append(Inform(text=f"{action} has no free-text field for '{free}': here is a "
                                   "payload made from its schema."))
        elif free is not None and made.text_refused is not None:
            out.append(Inform(text=f"The domain refused '{free}' as {made.text_field}: "
                                   f"{_said(made.text_refused)}. Here is a payload made from "
                                   "its schema instead."))
        return [*out, self._propose(made, _origin(made, free))]

    def _propose(self, made: Made, text: str) -> Element:
        payload = made.payload
        return self._suggest(made.action, payload, f"{text}: {_quote(payload)}", "valid")

    def _suggest(self, action: str, payload: Any, text: str, kind: str, what: str = "",
                 retried: bool = False) -> Element:
        element = self.suggest(action, payload, text)
        self.proposals[str(element.id)] = _Proposal(
            action, payload, kind, self._preview(action, payload), what, retried)
        return element

    def _cannot(self, action: str, made: Made) -> str:
        why = made.why or {}
        if why.get("code") == "not-generated" or made.candidate is None:
            return (f"I couldn't make a payload for {action} that fits its schema: "
                    f"{why.get('hint')}. Write one yourself: {action} {{…}}")
        return (f"I couldn't make a payload for {action} that the domain accepts: I tried "
                f"{_quote(made.candidate)}, and it said {_said(why)}. Write one yourself, "
                f"e.g. {action} {_quote(made.candidate)} changed to what the domain expects.")

    def _yours(self, action: str, payload_text: str) -> Elements:
        try:
            payload = json.loads(payload_text)
        except ValueError as error:
            return [Inform(text=f"I couldn't read that as JSON ({error}). Write it like: "
                                f'{action} {{"field": "value"}}')]
        return [self._suggest(action, payload, f"Your payload for {action}, exactly as you "
                                               f"wrote it: {_quote(payload)}", "yours")]

    def _broken_request(self, rest: str) -> Elements:
        rest = rest.strip()
        if not rest:
            return [self.ask("Which action should I break?", [(n, n) for n in self._names()],
                             Then("_chosen_broken", (None,)))]
        if _plain(rest).lower() in _ALL:
            return self._broken_all()
        found = self._match(rest)
        if not found:
            return [Inform(text=f"Which action should I break? The actions are: "
                                f"{', '.join(self._names())}. Say e.g. 'invalid "
                                f"{self._names()[0]}'.")]
        kind = next((KIND_WORDS[t] for t in re.findall(r"[a-z]+", rest.lower())
                     if t in KIND_WORDS and len(found) == 1
                     and t not in _tokens(_normal(found[0]))), None)
        if len(found) > 1:
            return [self._which(found, Then("_chosen_broken", (kind,)))]
        return self._broken(found[0], kind)

    def _broken(self, action: str, kind: str | None) -> Elements:
        ways = list(self.maker.ways_to_break(action))
        if not ways:
            return [Inform(text=f"I can't break the payload of {action} in a way its schema "
                                "refuses: it accepts what I would change (no required "
                                "fields, types or limits to break).")]
        kinds = [w.kind for w in ways]
        if kind is not None and kind not in kinds:
            return [Inform(text=f"I can't break {action} that way ({kind}). The ways I can: "
                                f"{', '.join(kinds)}.")]
        if kind is None:
            count = self._breaks.get(action, 0)
            self._breaks[action] = count + 1
            chosen = ways[count % len(ways)]
        else:
            chosen = ways[kinds.index(kind)]
        others = [k for k in kinds if k != chosen.kind]
        more = (f" (Other ways to break it: {', '.join(others)} — say e.g. 'invalid {action} "
                f"{others[0]}'.)") if others else ""
        return [Inform(text=f"On purpose, a broken {action}: {chosen.what}. The domain will "
                            "refuse it before you see a card, and tell me why." + more),
                self._broken_suggest(chosen)]

    def _broken_suggest(self, broken: Broken) -> Element:
        return self._suggest(broken.action, broken.payload,
                             f"A broken {broken.action} ({broken.what}): {_quote(broken.payload)}",
                             "broken", broken.what)

    def _all(self) -> Elements:
        names = self._names()
        out: Elements = [Inform(text=f"One proposal of each of the {len(names)} actions, each "
                                     "payload made from its schema:")]
        for name in names:
            made = self.maker.valid(name)
            out.append(self._propose(made, _origin(made, None)) if made.payload is not None
                       else Inform(text=self._cannot(name, made)))
        return out

    def _broken_all(self) -> Elements:
        chosen: list[Broken] = []
        unbreakable = []
        for name in self._names():
            found = self.maker.broken(name)
            if found is None:
                unbreakable.append(name)
            else:
                chosen.append(found)
        lines = [f"On purpose, a broken payload for each action ({len(chosen)}): the domain "
                 "will refuse each before you see a card, and tell me why."]
        lines += [f"• {b.action}: {b.what}" for b in chosen]
        if unbreakable:
            lines.append(f"Nothing to break in {', '.join(unbreakable)}: its schema accepts "
                         "what I would change.")
        return [Inform(text="\n".join(lines)), *(self._broken_suggest(b) for b in chosen)]

    # -- reactions ------------------------------------------------------------------------

    def _proposal(self, outcome: dict[str, Any]) -> _Proposal | None:
        return self.proposals.get(str(outcome.get("id")))

    def on_done(self, outcome: dict[str, Any]) -> Elements:
        proposal = self._proposal(outcome)
        action = str(outcome.get("action") or "")
        returned = _returned(outcome)
        if outcome.get("edited"):
            return [ack(outcome, f"Done, with your edit: {action}.{returned}")]
        if proposal is not None and proposal.kind == "broken":
            return [ack(outcome, f"{action} ran: the domain accepted the payload I had broken "
                                 f"on purpose ({proposal.what}), though it refused it when I "
                                 f"checked it a moment before.{returned}")]
        what = proposal.preview if proposal is not None else action
        return [ack(outcome, f"Done: {_unstop(what)}.{returned}")]

    def on_failed(self, outcome: dict[str, Any]) -> Elements:
        proposal = self._proposal(outcome)
        action = str(outcome.get("action") or "")
        what = proposal.preview if proposal is not None and not outcome.get("edited") else action
        error = str(outcome.get("error") or "it failed")
        details = []
        if outcome.get("field"):
            details.append(f"field {outcome['field']}")
        if outcome.get("hint") and outcome.get("hint") != error:
            details.append(str(outcome["hint"]))
        if outcome.get("code"):
            details.append(f"code {outcome['code']}")
        more = f" ({'; '.join(details)})" if details else ""
        edited = " (your edited version)" if outcome.get("edited") else ""
        return [ack(outcome, f"{_unstop(what)}{edited} failed: {_unstop(error)}{more}.")]

    def on_invalid(self, outcome: dict[str, Any]) -> Elements:
        proposal = self._proposal(outcome)
        action = str(outcome.get("action") or "")
        said = _said(outcome)
        if proposal is None:
            return [Inform(text=f"A proposal for {action} was refused before it reached you: "
                                f"{said}.")]
        if proposal.kind == "broken":
            opening = (f"As expected, the domain refused my broken {action} ({proposal.what}) "
                       f"before it reached you. It said: {said}.")
            return self._correct(action, proposal, opening)
        if proposal.kind == "yours":
            return [Inform(text=f"The domain refused your payload for {action} before it "
                                f"reached a card. It said: {said}. Fix it and send it again, "
                                f"or say '{action}' for a valid one.")]
        if outcome.get("code") == "time-budget":
            return [Inform(text=f"The domain ran out of time checking my {action}: {said}.")]
        now = self.maker.validate(action, proposal.payload)
        if now.get("ok"):
            return [Inform(text=f"The card for {action} ended invalid: {said}. The payload I "
                                "proposed still passes the domain's check, so what it refused "
                                "was your edited version (a card ends invalid after three "
                                f"refused edits). Say '{action}' for a fresh card.")]
        opening = (f"The domain refused my {action}: {said}. It passed the domain's check "
                   "when I made it, so something in the domain changed.")
        if proposal.retried:
            return [Inform(text=f"{opening} I'll stop proposing it; say '{action}' to try "
                                "again.")]
        made = self.maker.valid(action)
        if made.payload is None:
            return [Inform(text=f"{opening} {self._cannot(action, made)}")]
        element = self._suggest(action, made.payload, f"A new {action}: "
                                f"{_quote(made.payload)}", "valid", retried=True)
        return [Inform(text=f"{opening} Here is a new one."), element]

    def _correct(self, action: str, proposal: _Proposal, opening: str) -> Elements:
        made = self.maker.valid(action)
        if made.payload is None:
            return [Inform(text=f"{opening} {self._cannot(action, made)}")]
        where = "open the JSON tab, " if _has_form(self.maker.schema(action)) else ""
        text = (f"A valid {action} instead: {_quote(made.payload)}. To see the edit form "
                f"refuse the same mistake from you: click Edit, {where}change the payload "
                f"the same way ({proposal.what}) and click Save.")
        return [Inform(text=opening), self._suggest(action, made.payload, text, "valid")]

    def on_dismissed(self, outcome: dict[str, Any]) -> Elements:
        proposal = self._proposal(outcome)
        what = proposal.preview if proposal is not None else str(outcome.get("action") or "")
        return [ack(outcome, f"OK, I left that out: {_unstop(what)}.")]

    def on_handed_off(self, outcome: dict[str, Any]) -> Elements:
        proposal = self._proposal(outcome)
        what = proposal.preview if proposal is not None else str(outcome.get("action") or "")
        return [ack(outcome, f"{_unstop(what)}: passed to you in its own panel."
                             f"{_returned(outcome)}")]


class SchemaDemoAgent(DemoAgent):
    """An offline agent for any ``SchemaDomain``: it proposes payloads made from each
    action's JSON Schema — valid ones, and on request ones broken on purpose — and reacts to
    every outcome truthfully. No model, no key, no network; the same words give the same
    replies.

    Args:
        domain: the domain whose actions it proposes (its ``validate`` checks every payload
            before it is proposed).

    Say ``help`` to it for what it understands (the module's table).

        >>> from dial_notebook.domains.notes import NotesDomain
        >>> agent = SchemaDemoAgent(NotesDomain())
        >>> "invalid add-note" in agent.send("help")
        True
    """

    def _brain(self, domain: Any) -> Brain:
        return SchemaBrain(domain)

    def __repr__(self) -> str:
        return f"SchemaDemoAgent({getattr(self.domain, 'name', type(self.domain).__name__)!r})"


# -- words --------------------------------------------------------------------------------


def _plain(text: str) -> str:
    return text.strip().strip("\"'“”‘’").rstrip(".!").strip()


def _normal(text: str) -> str:
    """Lower case, ``-`` ``_`` ``.`` ``:`` as spaces, spaces collapsed."""
    return " ".join(re.sub(r"[-_.:/]+", " ", text.lower()).split()).strip(" ?!,;\"'")


def _tokens(text: str) -> set[str]:
    words = re.findall(r"[a-z0-9]+", text.lower())
    return {_stem(w) for w in words if w not in _STOP}


def _stem(word: str) -> str:
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        return word[:-1]
    return word


def _split(text: str) -> tuple[str, str | None, str | None]:
    """The request's words, a JSON payload after them (from the first ``{``), or free text
    after a colon."""
    brace = text.find("{")
    colon = text.find(":")
    if brace >= 0 and (colon < 0 or brace < colon or not text[:brace].strip(" :")
                       or text[colon + 1:brace].strip() == ""):
        return text[:brace].strip().rstrip(":").strip(), text[brace:].strip(), None
    if colon >= 0:
        free = text[colon + 1:].strip().strip("\"'“”‘’")
        return text[:colon].strip(), None, free or None
    return text, None, None


def _origin(made: Made, free: str | None) -> str:
    """Where a valid payload came from, for the card."""
    action = made.action
    if free is not None and made.text_field and made.text_refused is None:
        text = f"{action} with your words as {made.text_field}"
    elif made.source == "example":
        text = f"{action} from its schema's examples"
    elif made.source == "default":
        text = f"{action} from its schema's default"
    elif made.source == "required":
        text = f"A valid {action} with its required fields only"
    else:
        text = f"A valid {action}, made from its schema"
    if made.source == "required" and made.full_refusal is not None:
        text += f" (with every field, the domain refused it: {_said(made.full_refusal)})"
    return text


def _said(verdict: Mapping[str, Any]) -> str:
    """What the domain said: its hint, the field and the code."""
    hint = str(verdict.get("hint") or "the payload was refused")
    parts = []
    field = verdict.get("field")
    if field and not re.search(rf"(?<![\w-]){re.escape(str(field))}(?![\w-])", hint):
        parts.append(f"field {field}")
    if verdict.get("code"):
        parts.append(f"code {verdict['code']}")
    return f"“{hint}”" + (f" ({', '.join(parts)})" if parts else "")


#: Longest result quoted in a reply; a longer one is on its card, and the reply says so.
MAX_RESULT_QUOTE = 80


def _returned(outcome: Mapping[str, Any]) -> str:
    if "result" not in outcome:
        return " It returned nothing."
    text = json.dumps(outcome["result"], ensure_ascii=False, default=str)
    if len(text) > MAX_RESULT_QUOTE:
        return " What it returned is on its card."
    return f" It returned {text}."


def _quote(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= MAX_QUOTE else text[:MAX_QUOTE - 1] + "…"


def _line(description: Any) -> str:
    text = " ".join(str(description or "").split("\n", 1)[0].split())
    if not text:
        return ""
    return " — " + (text if len(text) <= 100 else text[:99] + "…")


def _kind(action: Mapping[str, Any]) -> str:
    if action.get("handoff"):
        return " (hand-off: opens in its own panel)"
    if not action.get("mutates", True):
        return " (read-only: runs at once)"
    return " (destructive)" if action.get("destructive") else ""


def _unstop(text: str) -> str:
    return text.rstrip(" .")


def _has_form(schema: Any) -> bool:
    """Whether the widget's editor offers a form (and a JSON tab) for this schema: an object
    schema with properties (after a local ``$ref``), as the front end decides."""
    root = schema
    for _ in range(20):
        ref = root.get("$ref") if isinstance(root, dict) else None
        if not (isinstance(ref, str) and ref.startswith("#/")):
            break
        target: Any = schema
        for part in ref[2:].split("/"):
            target = target.get(part) if isinstance(target, dict) else None
        root = target
    if not isinstance(root, dict):
        return False
    kind = root.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), kind[0] if kind else None)
    if kind is None and "enum" not in root and isinstance(root.get("properties"), dict):
        kind = "object"
    return kind == "object" and isinstance(root.get("properties"), dict)

