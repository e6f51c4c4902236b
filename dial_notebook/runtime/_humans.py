"""Humans that are not people — for tests, demos and unattended runs.

A surface (a terminal, the notebook widget) provides its own with the same two methods:

    decide(suggestion) -> {'accept': True} | {'dismiss': True} | {'edit': payload} | {'say': text}
    answer(ask)        -> text, or '' / None for no answer (the question stands)

Both ready-made humans answer at once (plain methods, no event loop needed) and record what they
were shown in ``seen``: ``Suggestion`` and ``PendingAsk`` objects, in order.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ._values import PendingAsk, Suggestion

Decision = dict[str, Any]

_STEP_FORMS = (
    "'accept', 'dismiss', {'edit': payload}, {'say': text} or {'answer': text}"
)


class PolicyHuman:
    """The same decision for every suggestion; every question answered with ``answer_with``."""

    def __init__(self, decision: str = "accept", *, answer_with: str | None = "") -> None:
        if decision not in ("accept", "dismiss"):
            raise ValueError(f"policy_human: {decision!r} is not 'accept' or 'dismiss'")
        self.decision = decision
        self.answer_with = answer_with
        #: What the human was shown, in order.
        self.seen: list[Suggestion | PendingAsk] = []

    def decide(self, suggestion: Suggestion) -> Decision:
        self.seen.append(suggestion)
        return {self.decision: True}

    def answer(self, ask: PendingAsk) -> str | None:
        self.seen.append(ask)
        return self.answer_with

    def __repr__(self) -> str:
        return f"policy_human({self.decision!r}, answer_with={self.answer_with!r})"


class ScriptedHuman:
    """Decisions and answers taken in order from a script; running out of steps raises."""

    def __init__(self, steps: Iterable[str | Mapping[str, Any]]) -> None:
        self.steps: list[str | Mapping[str, Any]] = list(steps)
        for step in self.steps:
            if not _is_step(step):
                raise ValueError(f"scripted_human: {step!r} is not one of {_STEP_FORMS}")
        self._next = 0
        #: What the human was shown, in order.
        self.seen: list[Suggestion | PendingAsk] = []

    @property
    def remaining(self) -> list[str | Mapping[str, Any]]:
        """The steps not taken yet."""
        return self.steps[self._next:]

    def _take(self, kind: str, shown: Suggestion | PendingAsk) -> str | Mapping[str, Any]:
        self.seen.append(shown)
        if self._next >= len(self.steps):
            raise LookupError(f"scripted_human: no scripted step left for this {kind}: {shown!r}")
        step = self.steps[self._next]
        self._next += 1
        return step

    def decide(self, suggestion: Suggestion) -> Decision:
        step = self._take("decision", suggestion)
        if step in ("accept", "dismiss"):
            return {str(step): True}
        if isinstance(step, Mapping) and ("edit" in step or "say" in step):
            return dict(step)
        raise ValueError(f"scripted_human: expected a decision for {suggestion.id}, got {step!r}")

    def answer(self, ask: PendingAsk) -> str | None:
        step = self._take("question", ask)
        if isinstance(step, Mapping) and "answer" in step:
            return step["answer"]
        raise ValueError(f"scripted_human: expected {{'answer': …}} for {ask.text!r}, "
                         f"got {step!r}")

    def __repr__(self) -> str:
        return f"scripted_human({self.steps!r})"


def _is_step(step: object) -> bool:
    if step in ("accept", "dismiss"):
        return True
    return isinstance(step, Mapping) and len(step) == 1 and next(iter(step)) in (
        "edit", "say", "answer")


def policy_human(decision: str = "accept", *, answer_with: str | None = "") -> PolicyHuman:
    """A human that always accepts (or always dismisses), for tests and unattended runs.

        >>> policy_human("dismiss").decide(None)
        {'dismiss': True}
    """
    return PolicyHuman(decision, answer_with=answer_with)


def scripted_human(steps: Iterable[str | Mapping[str, Any]]) -> ScriptedHuman:
    """A human that follows a script: decisions and answers in the order they are asked for.

        >>> human = scripted_human(["accept", {"answer": "Strengths"}])
        >>> human.decide(None)
        {'accept': True}
    """
    return ScriptedHuman(steps)
