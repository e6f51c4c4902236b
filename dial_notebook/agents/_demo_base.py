"""What every demo "brain" shares: reading a runtime message, proposing, asking, reacting.

A message from the runtime is ``[outcome reply] [context] [the person's words]``
(wire-details.md). ``read_message`` splits it back: the outcomes (from the ``outcome:ID``
declares: id, action, status, result / error / code / field / hint, edited) and the words.

A brain answers with element lists: ``respond(words)`` for the person's words, ``react(outcome)``
for each outcome. It numbers its own suggestion ids (``note-1`` …) so that an ``invalid``
outcome can be matched with the payload that caused it, and keeps at most one open question
whose answer (the next words) continues what it was doing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

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

_THANKS = re.compile(r"^(?:thanks?|thank you|thx|cheers|great|perfect|nice|ok(?:ay)?|cool)\b"
                     r"[\s!.,]*(?:thanks?|thank you)?[\s!.]*$", re.IGNORECASE)
_CONTEXT = re.compile(r"^\s*<context\b[^>]*?(?:/>|>.*?</context>)\s*", re.DOTALL)

Elements = list[Element]


@dataclass
class Message:
    """A runtime message split back into its parts."""

    outcomes: list[dict[str, Any]] = field(default_factory=list)
    words: str = ""


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
    return Message(outcomes, words)


@dataclass
class Question:
    """An open question: its options, and what to do with the chosen value."""

    options: list[tuple[str, str]]
    then: Callable[[str], Elements]


class Brain:
    """The base of a demo brain for one domain."""

    #: Prefix of the suggestion ids this brain gives.
    prefix = "s"
    #: What the brain understands, for the help text.
    examples: Sequence[str] = ()

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
            then: Callable[[str], Elements]) -> Ask:
        """A choice question; the person's answer (an option's value or label) goes to
        ``then``."""
        self.question = Question(list(options), then)
        return Ask(text=text, response_type="choice",
                   options=tuple(Option(value=v, label=label) for v, label in options))

    def ask_text(self, text: str, then: Callable[[str], Elements]) -> Ask:
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
                return question.then(words.strip())
            chosen = _choose(words, question.options)
            if chosen is not None:
                return question.then(chosen)
        if _THANKS.match(words.strip()):
            return [Inform(text="You're welcome. What next?")]
        return self.respond(words)

    def respond(self, words: str) -> Elements:
        """The reply to words that answer no open question (each brain defines it)."""
        return self.help()

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
        return [ack(outcome, "OK, I left that out.")]

    def on_handed_off(self, outcome: dict[str, Any]) -> Elements:
        return [ack(outcome, "It's open in its own panel.")]


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
