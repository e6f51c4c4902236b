"""Humans that are not people — for tests, demos and unattended runs.

A surface (a terminal, the notebook widget) provides its own with the same two methods:

    decide(suggestion) -> {'accept': True} | {'dismiss': True} | {'edit': payload} | {'say': text}
                          an accept, edit or dismiss may add 'comments' ([{'field': '/text',
                          'text': …}]), a dismiss a 'reason': they reach the agent (_feedback.py)
    answer(ask)        -> text, or '' / None for no answer (the question stands)

Both ready-made humans answer at once (plain methods, no event loop needed) and record what they
were shown in ``seen``: ``Suggestion`` and ``PendingAsk`` objects, in order.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ._feedback import read_feedback
from ._values import PendingAsk, Suggestion

Decision = dict[str, Any]

_STEP_FORMS = (
    "'accept', 'dismiss', {'edit': payload}, {'say': text} or {'answer': text} (or "
    "{'accept': True} / {'dismiss': True}; a decision may add 'comments', a dismiss a 'reason')"
)
_DECISION_KEYS = {"accept", "dismiss", "edit", "comments", "reason", "rule"}


class PolicyHuman:
    """The same decision for every suggestion (with the same ``reason`` for a dismissal and
    the same ``comments``, when given); every question answered with ``answer_with``."""

    def __init__(self, decision: str = "accept", *, answer_with: str | None = "",
                 reason: str | None = None,
                 comments: Iterable[Mapping[str, str]] | None = None) -> None:
        if decision not in ("accept", "dismiss"):
            raise ValueError(f"policy_human: {decision!r} is not 'accept' or 'dismiss'")
        self.decision = decision
        self.answer_with = answer_with
        self._decision: Decision = {decision: True}
        if reason is not None:
            self._decision["reason"] = reason
        if comments is not None:
            self._decision["comments"] = [dict(c) for c in comments]
        try:
            read_feedback(self._decision)
        except ValueError as exc:
            raise ValueError(f"policy_human: {exc}") from None
        #: What the human was shown, in order.
        self.seen: list[Suggestion | PendingAsk] = []

    def decide(self, suggestion: Suggestion) -> Decision:
        self.seen.append(suggestion)
        return dict(self._decision)

    def answer(self, ask: PendingAsk) -> str | None:
        self.seen.append(ask)
        return self.answer_with

    def __repr__(self) -> str:
        extra = "".join(f", {key}={self._decision[key]!r}" for key in ("reason", "comments")
                        if key in self._decision)
        return f"policy_human({self.decision!r}, answer_with={self.answer_with!r}{extra})"


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
        if isinstance(step, Mapping) and "answer" not in step:
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
    if not isinstance(step, Mapping) or not step:
        return False
    if len(step) == 1 and next(iter(step)) in ("say", "answer"):
        return True
    kinds = [kind for kind in ("accept", "dismiss", "edit") if kind in step]
    if set(step) - _DECISION_KEYS or len(kinds) != 1 or (
            kinds[0] != "edit" and step[kinds[0]] is not True):
        return False
    try:
        read_feedback(step)
    except ValueError:
        return False
    return True


def policy_human(decision: str = "accept", *, answer_with: str | None = "",
                 reason: str | None = None,
                 comments: Iterable[Mapping[str, str]] | None = None) -> PolicyHuman:
    """A human that always accepts (or always dismisses), for tests and unattended runs;
    ``reason`` and ``comments`` go with every decision, and so to the agent.

        >>> policy_human("dismiss").decide(None)
        {'dismiss': True}
        >>> policy_human("dismiss", reason="not now").decide(None)
        {'dismiss': True, 'reason': 'not now'}
    """
    return PolicyHuman(decision, answer_with=answer_with, reason=reason, comments=comments)


def scripted_human(steps: Iterable[str | Mapping[str, Any]]) -> ScriptedHuman:
    """A human that follows a script: decisions and answers in the order they are asked for.
    A decision may carry comments and a dismissal a reason: ``{'dismiss': True, 'reason':
    …}``, ``{'edit': payload, 'comments': [{'field': '/text', 'text': …}]}``.

        >>> human = scripted_human(["accept", {"answer": "Strengths"}])
        >>> human.decide(None)
        {'accept': True}
    """
    return ScriptedHuman(steps)
