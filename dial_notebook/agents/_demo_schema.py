"""SchemaBrain: the brain of ``SchemaDemoAgent`` (``_demo.py``), an offline agent for any
``SchemaDomain``, to click through a domain being prototyped — no model, no key. Its payloads
are made from the actions' JSON Schemas (``_schema_payloads.py``) and checked with the domain's
own ``validate`` before they are sent. It reads the person's requests; what it remembers of
each proposal and how it answers the outcomes is its base's (``_demo_schema_outcomes.py``), the
reading and quoting of words ``_demo_schema_words.py``'s. It imports nothing of the agent.

What it understands (case and punctuation do not matter):

    help · what can you do · hi           the actions, one line each, and these requests
    add-todo · add todo · add a todo      the action named, or the one its words fit best
                                          (name words count double description words; a tie
                                          is a question): a valid payload from its schema
    add todo: buy milk                    the same, the words in its first text field
    add-todo {"title": "x"}               exactly that payload (the domain judges it)
    commit with message 'Add notes'       quoted text in the field the words before it name,
    add notes.txt · status of /tmp/repo   else the first free-text field; file-like words in
                                          the field named for files (then paths, folders);
                                          ``values`` (fixed field values) in every payload
                                          with such a field (``_demo_schema_fields.py``)
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

    >>> from dial_notebook.agents import SchemaDemoAgent
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
from typing import Any, ClassVar

from ..dial import Element, Inform
from ._demo_base import Arg, Elements, Then
from ._demo_schema_fields import Said, fields_from, fixes, read_request
from ._demo_schema_outcomes import SchemaOutcomes
from ._demo_schema_words import (
    domain_said,
    first_line,
    kind_note,
    normal,
    origin,
    plain_words,
    quote,
    split_request,
    token_set,
)
from ._schema_payloads import KIND_WORDS, Broken, Made

_HELP = re.compile(r"^(?:help|\?+|what can you do|what do you do|what can i (?:say|do|type)|"
                   r"commands|usage|hi|hello|hey|start)(?:\s+(?:me|please|there|agent))?"
                   r"[\s?!.]*$", re.IGNORECASE)
_GREETING = re.compile(r"^(?:hi|hello|hey)\b", re.IGNORECASE)
_BREAK = re.compile(r"^(?:please\s+)?(?:invalid|break|broken)\b\s*(?P<rest>.*)$",
                    re.IGNORECASE | re.DOTALL)
_ALL = {"all", "everything", "each", "one of each", "every action", "all actions",
        "each action", "all of them", "try all", "try everything"}


class SchemaBrain(SchemaOutcomes):
    """Proposes payloads made from the schemas of any domain's actions (module table)."""

    kind = "schema"
    continuations: ClassVar[dict[str, tuple[Arg, ...]]] = {
        "_chosen_request": ((str, type(None)), (str, type(None))),
        "_chosen_broken": ((str, type(None)),),
        "_chosen_words": (str,)}

    def __init__(self, domain: Any, values: Mapping[str, Any] | None = None) -> None:
        super().__init__(domain)
        #: Field values put in every payload whose schema has that field (``values=``).
        self.values: dict[str, Any] = dict(values or {})

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
            lines.append(f"• {action['name']}{first_line(action.get('description'))}{kind_note(action)}")
        first = next((a["name"] for a in actions if a.get("mutates", True)
                      and not a.get("handoff")), actions[0]["name"])
        words = " ".join(re.split(r"[-_.:]+", first))
        lines += [
            "Say:",
            f"• {first} (or words from it: {words}) — a valid payload made from its schema",
        ]
        texty = [(a["name"], self.maker.text_field(a["name"])) for a in actions]
        texty = [(name, key) for name, key in texty if key and key not in self.values]
        if texty:
            name, key = next(((n, k) for n, k in texty if n == first), texty[0])
            lines.append(f"• {' '.join(re.split(r'[-_.:]+', name))}: some text — the same, "
                         f"with your text as its {key}")
        lines += [
            f'• {first} {{"…": "…"}} — exactly the payload you write',
            "• words in quotes ('like this') go to the field named just before them, file "
            "names and paths to a field for files",
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
        plain = plain_words(text)
        if not self._names():
            return self.help()
        names_an_action = normal(text) in {normal(n) for n in self._names()}
        if _HELP.match(plain) and not names_an_action:
            return self.help("Hello!" if _GREETING.match(plain) else "")
        broken = _BREAK.match(plain)
        if broken and not names_an_action:
            return self._broken_request(broken.group("rest"))
        if plain.lower() in _ALL and not names_an_action:
            return self._all()
        head, payload_text, free = split_request(text)
        said = None if payload_text is not None else read_request(text)
        found = self._match(said[0].head if said else head)
        if not found:
            return self.help("I didn't catch that.")
        if len(found) > 1:
            then = (Then("_chosen_words", (text,)) if said and (said[0] or self.values)
                    else Then("_chosen_request", (payload_text, free)))
            return [self._which(found, then)]
        if said and (said[0] or self._fixes(found[0])):
            return self._from_words(found[0], *said)
        return self._request(found[0], payload_text, free)

    def _fixes(self, action: str) -> bool:
        return fixes(self.maker.schema(action), self.values)

    def _chosen_words(self, chosen: str, text: str) -> Elements:
        """The answer to ``_which`` for words that give field values."""
        if chosen not in self._names():
            return self.respond(chosen)
        said, free = read_request(text)
        if said or self._fixes(chosen):
            return self._from_words(chosen, said, free)
        return self._valid(chosen, free)

    def _from_words(self, action: str, said: Said, free: str | None) -> Elements:
        """A payload made from the schema, with the values the words (and ``values``) give
        its fields (``_demo_schema_fields``); what the domain refuses of them is said."""
        made = self.maker.valid(action)
        base = made.payload if isinstance(made.payload, dict) else made.candidate
        if not isinstance(base, dict):  # the schema's payload is no object: nothing to fill
            return [Inform(text=self._cannot(action, made))]
        filled = fields_from(said, self.maker.schema(action), self.values, free)
        out: Elements = []
        if filled.left:
            out.append(Inform(text=f"{action} has no field for {quote(filled.left)}: I left "
                                   "it out."))
        payload = {**base, **filled.values}
        verdict = self.maker.validate(action, payload)
        if not verdict.get("ok") and filled.yours:  # without the words, with ``values``
            out.append(Inform(text=f"The domain refused {quote(filled.values)} for {action}: "
                                   f"{domain_said(verdict)}. Here is a payload made from its "
                                   "schema instead."))
            filled = fields_from(Said(""), self.maker.schema(action), self.values)
            payload = {**base, **filled.values}
            verdict = self.maker.validate(action, payload)
        if verdict.get("ok"):
            given = [k for k in filled.values if k not in filled.yours]
            text = (f"{action} with your words as {', '.join(filled.yours)}" if filled.yours
                    else f"{action} with the {', '.join(given)} you gave me" if given
                    else origin(made, None))
            return [*out, self._suggest(action, payload, f"{text}: {quote(payload)}", "valid")]
        if made.payload is None:
            return [*out, Inform(text=self._cannot(action, made))]
        return [*out, self._propose(made, origin(made, None))]

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
        said = normal(words)
        if not said:
            return []
        exact = [n for n in names if normal(n) == said]
        if exact:
            return exact
        inside = [n for n in names if re.search(rf"\b{re.escape(normal(n))}\b", said)]
        if inside:
            longest = max(len(normal(n)) for n in inside)
            return [n for n in inside if len(normal(n)) == longest]
        tokens = token_set(said)
        scores: dict[str, int] = {}
        for action in self.actions():
            name = str(action["name"])
            score = 2 * len(tokens & token_set(normal(name)))
            score += len(tokens & token_set(str(action.get("description") or "").lower()))
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
                                   f"{domain_said(made.text_refused)}. Here is a payload made from "
                                   "its schema instead."))
        return [*out, self._propose(made, origin(made, free))]

    def _propose(self, made: Made, text: str) -> Element:
        payload = made.payload
        return self._suggest(made.action, payload, f"{text}: {quote(payload)}", "valid")

    def _yours(self, action: str, payload_text: str) -> Elements:
        try:
            payload = json.loads(payload_text)
        except ValueError as error:
            return [Inform(text=f"I couldn't read that as JSON ({error}). Write it like: "
                                f'{action} {{"field": "value"}}')]
        return [self._suggest(action, payload, f"Your payload for {action}, exactly as you "
                                               f"wrote it: {quote(payload)}", "yours")]

    def _broken_request(self, rest: str) -> Elements:
        rest = rest.strip()
        if not rest:
            return [self.ask("Which action should I break?", [(n, n) for n in self._names()],
                             Then("_chosen_broken", (None,)))]
        if plain_words(rest).lower() in _ALL:
            return self._broken_all()
        found = self._match(rest)
        if not found:
            return [Inform(text=f"Which action should I break? The actions are: "
                                f"{', '.join(self._names())}. Say e.g. 'invalid "
                                f"{self._names()[0]}'.")]
        kind = next((KIND_WORDS[t] for t in re.findall(r"[a-z]+", rest.lower())
                     if t in KIND_WORDS and len(found) == 1
                     and t not in token_set(normal(found[0]))), None)
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
                             f"A broken {broken.action} ({broken.what}): {quote(broken.payload)}",
                             "broken", broken.what)

    def _all(self) -> Elements:
        names = self._names()
        out: Elements = [Inform(text=f"One proposal of each of the {len(names)} actions, each "
                                     "payload made from its schema; their cards come one at "
                                     "a time, the next once you have decided the one before:")]
        for name in names:
            made = self.maker.valid(name)
            out.append(self._propose(made, origin(made, None)) if made.payload is not None
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
