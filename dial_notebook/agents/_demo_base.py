"""What every demo "brain" shares: reading a runtime message, proposing, asking, reacting.

A message from the runtime is ``[outcome reply] [context] [the person's words]``
(wire-details.md). ``read_message`` splits it back: the outcomes (from the ``outcome:ID``
declares: id, action, status, result / error / code / field / hint, edited) and the words.

A brain answers with element lists: ``respond(words)`` for the person's words, ``react(outcome)``
for each outcome. It numbers its own suggestion ids (``note-1`` …) so that an ``invalid``
outcome can be matched with the payload that caused it, and keeps at most one open question
whose answer (the next words) continues what it was doing.

What a brain keeps between turns is plain data, so that it can be saved (``state()``) and
restored (``load_state()``, which checks it): the ids it gave and what each proposed, its
count, and the open question, whose continuation is a ``Then`` (one of the brain's
``continuations``, by name, with plain arguments) rather than a closure.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from .._json_kind import json_kind
from ..dial import (
    Acknowledge,
    Ask,
    Declare,
    Element,
    Inform,
    Option,
    Payload,
    Suggest,
    extract_prose,
    parse,
)
from ..runtime import NOT_FROM_THE_USER
from . import _saved

_THANKS = re.compile(r"^(?:thanks?|thank you|thx|cheers|great|perfect|nice|ok(?:ay)?|cool)\b"
                     r"[\s!.,]*(?:thanks?|thank you)?[\s!.]*$", re.IGNORECASE)
_CONTEXT = re.compile(r"^\s*<context\b[^>]*?(?:/>|>.*?</context>)\s*", re.DOTALL)

Elements = list[Element]


@dataclass
class Message:
    """A runtime message split back into its parts."""

    outcomes: list[dict[str, Any]] = field(default_factory=list)
    words: str = ""
    #: Lines not from the person (a chart not drawn: runtime/_told_later.py), not read as words.
    notes: list[str] = field(default_factory=list)


def read_message(message: str) -> Message:
    """The outcomes and the person's words in ``message``.

        >>> read_message('<context notes="0"/>\\n\\nadd a note: milk').words
        'add a note: milk'
    """
    envelope = parse(message)
    outcomes: list[dict[str, Any]] = []
    if envelope is not None:
        for env in envelope.all():
            for element in env.elements:
                key = element.context_key if isinstance(element, Declare) else None
                if key and key.startswith("outcome:") and element.payload is not None:
                    value = element.payload.value
                    if isinstance(value, dict):
                        outcomes.append({"id": key.removeprefix("outcome:"), **value})
        message = extract_prose(message)
    words = _CONTEXT.sub("", message, count=1).strip()
    parts = words.split("\n\n")
    notes = [part for part in parts if part.startswith(NOT_FROM_THE_USER)]
    if notes:
        words = "\n\n".join(part for part in parts if part not in notes).strip()
    return Message(outcomes, words, notes)


def noted(notes: list[str]) -> Elements:
    """What the demo says to lines not from the person (a chart not drawn): each, owned.

        >>> noted(["Not from the user: the chart of sg-1 (plot) was not drawn, so the user "
        ...        "does not see it — too big."])[0].text
        'Sorry: the chart of sg-1 (plot) was not drawn after all — too big.'
    """
    said: Elements = []
    for note in notes:
        text = note.removeprefix(NOT_FROM_THE_USER).replace(
            " was not drawn, so the user does not see it", " was not drawn after all")
        said.append(Inform(text=f"Sorry: {_clipped(text, 300)}"))
    return said


@dataclass(frozen=True)
class Then:
    """What to do with the answer to a question: the brain's method ``name``, called with the
    answer and then ``args`` (text, or None), so that the question can be saved. ``name``
    must be one of the brain's ``continuations``.

        >>> Then("_add")
        Then(name='_add', args=())
    """

    name: str
    args: tuple[str | None, ...] = ()


@dataclass
class Question:
    """An open question: its options, and what to do with the chosen value (a ``Then``; a
    plain callable works too, but such a question is not saved)."""

    options: list[tuple[str, str]]
    then: Then | Callable[[str], Elements]


#: The type of each argument of a continuation (``str``; ``(str, type(None))``: or None).
Arg = type | tuple[type, ...]


class Brain:
    """The base of a demo brain for one domain."""

    #: Prefix of the suggestion ids this brain gives.
    prefix = "s"
    #: What the brain understands, for the help text.
    examples: Sequence[str] = ()
    #: Its name in a saved agent's kind (``"demo-notes"`` …).
    kind = "any"
    #: The methods a ``Then`` may name, each with the types of its arguments after the answer
    #: (a restored question may name no other).
    continuations: ClassVar[dict[str, tuple[Arg, ...]]] = {}

    def __init__(self, domain: Any) -> None:
        self.domain = domain
        self.proposed: dict[str, tuple[str, dict[str, Any]]] = {}
        self.question: Question | None = None
        self._count = 0

    # -- building replies -----------------------------------------------------------------

    def suggest(self, action: str, payload: dict[str, Any], text: str) -> Suggest:
        """A suggestion with the next id, remembered for when its outcome comes back."""
        self._count += 1
        sid = f"{self.prefix}-{self._count}"
        self.proposed[sid] = (action, payload)
        return Suggest(text=text, id=sid, action=action, payload=Payload.of(payload))

    def ask(self, text: str, options: Sequence[tuple[str, str]],
            then: Then | Callable[[str], Elements]) -> Ask:
        """A choice question; the person's answer (an option's value or label) goes to
        ``then``."""
        self.question = Question(list(options), then)
        return Ask(text=text, response_type="choice",
                   options=tuple(Option(value=v, label=label) for v, label in options))

    def ask_text(self, text: str, then: Then | Callable[[str], Elements]) -> Ask:
        """A free-text question; the answer goes to ``then``."""
        self.question = Question([], then)
        return Ask(text=text, response_type="text")

    def help(self, opening: str = "") -> Elements:
        """An inform saying what this demo agent understands."""
        lines = "\n".join(f"• {example}" for example in self.examples)
        text = (f"{opening} " if opening else "") + (
            "I'm the offline demo agent: I understand a few plain requests, such as\n" + lines)
        return [Inform(text=text)]

    # -- answering ------------------------------------------------------------------------

    def answer(self, words: str) -> Elements:
        """The reply to the person's words: the open question's continuation, or
        ``respond``."""
        question, self.question = self.question, None
        if question is not None:
            if not question.options:
                return self._continue(question.then, words.strip())
            chosen = _choose(words, question.options)
            if chosen is not None:
                return self._continue(question.then, chosen)
        if _THANKS.match(words.strip()):
            return [Inform(text="You're welcome. What next?")]
        return self.respond(words)

    def respond(self, words: str) -> Elements:
        """The reply to words that answer no open question (each brain defines it)."""
        return self.help()

    def _continue(self, then: Then | Callable[[str], Elements], answer: str) -> Elements:
        if isinstance(then, Then):
            if then.name not in self.continuations:  # never anything a file names
                return self.respond(answer)
            method: Callable[..., Elements] = getattr(self, then.name)
            return method(answer, *then.args)
        return then(answer)

    # -- saving ---------------------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """What the brain keeps between turns, as plain JSON (a new copy):
        ``count``, ``proposed`` (each id it gave: ``{"action", "payload"}``) and ``question``
        (``{"options": [[value, label], …], "then": {"name", "args"}}``, or None; a question
        whose continuation is a plain callable is saved as None). A subclass adds its own."""
        question = None
        if self.question is not None and isinstance(self.question.then, Then):
            question = {"options": [[str(v), str(label)] for v, label in self.question.options],
                        "then": {"name": self.question.then.name,
                                 "args": [_saved.plain(a) for a in self.question.then.args]}}
        return {"count": self._count,
                "proposed": {sid: {"action": action, "payload": _saved.plain(payload)}
                             for sid, (action, payload) in self.proposed.items()},
                "question": question}

    #: The keys of ``state()`` (a subclass adds its own).
    state_keys: ClassVar[tuple[str, ...]] = ("count", "proposed", "question")

    def read_state(self, saved: _saved.Saved) -> dict[str, Any]:
        """Check a saved ``state()`` (in ``saved``) and return what ``load_state`` takes;
        raises ``ValueError`` naming what is wrong. A subclass reads its own keys too."""
        def proposal(value: Any, where: str) -> tuple[str, Any]:
            if not isinstance(value, dict):
                saved.fail(f"{where} must be an object with action and payload, not "
                           f"{json_kind(value)}")
            _saved.keys(saved, value, where, {"action", "payload"}, {"action", "payload"})
            action = _saved.string(saved, value["action"], f"{where}.action", most=1000)
            return str(action), _saved.json_value(saved, value["payload"], f"{where}.payload")

        return {"count": saved.count("count"),
                "proposed": saved.mapping("proposed", proposal),
                "question": self._read_question(saved, saved.data["question"])}

    def _read_question(self, saved: _saved.Saved, value: Any) -> Question | None:
        if value is None:
            return None
        where = "question"
        if not isinstance(value, dict):
            saved.fail(f"{where} must be an object or null, not {json_kind(value)}")
        _saved.keys(saved, value, where, {"options", "then"}, {"options", "then"})
        options = []
        listed = _saved.sized_list(saved, value["options"], f"{where}.options")
        for index, pair in enumerate(listed):
            inner = f"{where}.options[{index}]"
            if not (isinstance(pair, list) and len(pair) == 2):
                saved.fail(f"{inner} must be a list of a value and a label")
            options.append((str(_saved.string(saved, pair[0], f"{inner}[0]")),
                            str(_saved.string(saved, pair[1], f"{inner}[1]"))))
        then = value["then"]
        if not isinstance(then, dict):
            saved.fail(f"{where}.then must be an object with name and args, not "
                       f"{json_kind(then)}")
        _saved.keys(saved, then, f"{where}.then", {"name", "args"}, {"name", "args"})
        name = then["name"]
        if not isinstance(name, str) or name not in self.continuations:
            shown = repr(name[:40]) if isinstance(name, str) else json_kind(name)
            known = ", ".join(sorted(self.continuations)) or "none"
            saved.fail(f"{where}.then.name {shown} is not a way this agent continues "
                       f"(known: {known})")
        types = self.continuations[name]
        args = _saved.sized_list(saved, then["args"], f"{where}.then.args", len(types) + 1)
        if len(args) != len(types):
            saved.fail(f"{where}.then.args must hold {len(types)} value"
                       f"{'' if len(types) == 1 else 's'} for {name}, not {len(args)}")
        for index, (arg, kind) in enumerate(zip(args, types, strict=True)):
            if isinstance(arg, bool) or not isinstance(arg, kind):
                saved.fail(f"{where}.then.args[{index}] has the wrong type for {name} "
                           f"({json_kind(arg)})")
            if isinstance(arg, str):
                _saved.string(saved, arg, f"{where}.then.args[{index}]")
        return Question(options, Then(name, tuple(args)))

    def load_state(self, state: dict[str, Any]) -> None:
        """Take what ``read_state`` returned (checked: nothing here can fail)."""
        self._count = state["count"]
        self.proposed = dict(state["proposed"])
        self.question = state["question"]

    def react(self, outcome: dict[str, Any]) -> Elements:
        """What to say about one outcome; a status without a reaction here says nothing."""
        status = outcome.get("status")
        handler = getattr(self, f"on_{str(status).replace('-', '_')}", None)
        return handler(outcome) if handler is not None else []

    def on_failed(self, outcome: dict[str, Any]) -> Elements:
        error = outcome.get("error") or "it failed"
        hint = outcome.get("hint")
        advice = f" {_sentence(hint)}" if hint and hint != error else ""
        return [ack(outcome, f"That didn't work: {error}.{advice} Want me to try something "
                             "else? Tell me what you'd like.")]

    def on_invalid(self, outcome: dict[str, Any]) -> Elements:
        hint = outcome.get("hint") or "the payload was refused"
        return [Inform(text=f"My proposal for {outcome.get('action')} was refused before "
                            f"you saw it: {hint}. Could you say it another way?")]

    def on_dismissed(self, outcome: dict[str, Any]) -> Elements:
        return [ack(outcome, "OK, I left that out." + heard(outcome))]

    def on_handed_off(self, outcome: dict[str, Any]) -> Elements:
        return [ack(outcome, "It's open in its own panel.")]


def heard(outcome: dict[str, Any]) -> str:
    """What the demo says back of the person's reason and comments ('' when there are none):
    a real model is told to read them (the system prompt); the demo shows that it got them.

        >>> heard({"reason": "we have one", "comments": [{"field": "/text", "text": "short"}]})
        " I'll keep in mind why: 'we have one'. On text you said: 'short'."
    """
    said = ""
    reason = outcome.get("reason")
    if isinstance(reason, str) and reason.strip():
        said += f" I'll keep in mind why: '{_clipped(reason)}'."
    for comment in (outcome.get("comments") or [])[:3]:
        if not isinstance(comment, dict) or not isinstance(comment.get("text"), str):
            continue
        field = str(comment.get("field") or "").lstrip("/").replace("/", ".")
        where = f"On {field} you said" if field else "You said"
        said += f" {where}: '{_clipped(comment['text'])}'."
    return said


def _clipped(text: str, limit: int = 120) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 1].rstrip() + "…"


def ack(outcome: dict[str, Any], text: str) -> Acknowledge:
    """An acknowledge of the outcome's suggestion."""
    return Acknowledge(text=text, of=str(outcome.get("id") or "") or None)


def _choose(words: str, options: list[tuple[str, str]]) -> str | None:
    said = words.strip().strip(".!").lower()
    for value, label in options:
        if said in (value.lower(), label.lower()):
            return value
    for value, label in options:  # "the second one about milk": a label inside the words
        if label and label.lower() in said:
            return value
    inside = [value for value, label in options if said and said in label.lower()]
    return inside[0] if len(inside) == 1 else None  # "call sam" for "2. call Sam"


def _sentence(text: str) -> str:
    text = text.strip()
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."
