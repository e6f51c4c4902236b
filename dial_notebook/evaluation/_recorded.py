# A human that decides as the person did in a recorded session: replayed decisions.
"""``recorded_human(source, *, otherwise="dismiss", tolerance=None)``.

    decide(proposal): the recorded decision it is the same as (``_decisions.Matcher``:
    action and payload after normalisation, or within ``tolerance``), the latest first
        accepted                      ─▶ accept (with the person's comments)
        corrected, its original       ─▶ the same edit, with its comments
        corrected, what it became     ─▶ accept (it is now what the person wanted)
        dismissed                     ─▶ dismiss, with the same reason and comments
        none (or a correction whose edit was not kept: a session saved before it was)
                                      ─▶ ``otherwise``: dismiss (default) or accept; new
    answer(question): the person's answer to the same question text, else no answer (None)

Every decision is recorded in ``verdicts`` (``{id, action, payload, verdict, decision}``,
``_verdicts``' words); ``new`` counts proposals never seen.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import Any

from ._decisions import Matcher
from ._scenario import Scenario
from ._verdicts import ACCEPTED_AGAIN, NEEDS_EDIT, NEW, NOW_RIGHT, PROPOSED_AGAIN

_OTHERWISE = ("dismiss", "accept")


class RecordedHuman:
    """Decides as the recorded person did (see the module's header)."""

    def __init__(self, scenarios: Iterable[Scenario], *, otherwise: str = "dismiss",
                 tolerance: Mapping[str, Any] | None = None) -> None:
        if otherwise not in _OTHERWISE:
            raise ValueError(f"recorded_human: otherwise must be 'dismiss' or 'accept', "
                             f"not {otherwise!r}")
        self.scenarios = list(scenarios)
        self.otherwise = otherwise
        decisions = [d for s in self.scenarios if s.expect is not None
                     for d in s.expect.decisions]
        try:
            self._matcher = Matcher(decisions, tolerance)
        except ValueError as exc:
            raise ValueError(f"recorded_human: {exc}") from None
        #: The tolerance (action → JSON Schema); ``evaluate`` judges with the same.
        self.tolerance = None if tolerance is None else dict(tolerance)
        self._answers: dict[str, str] = {}
        for scenario in self.scenarios:
            self._answers.update(scenario.answers)
        #: What was decided, proposal by proposal.
        self.verdicts: list[dict[str, Any]] = []

    @property
    def new(self) -> int:
        """How many proposals matched no recorded decision."""
        return sum(1 for v in self.verdicts if v["verdict"] == NEW)

    def decide(self, suggestion: Any) -> dict[str, Any]:
        action, payload = str(suggestion.action), suggestion.payload
        found = self._matcher.find(action, payload)
        decision: dict[str, Any]
        if found is None or (found[1]["kind"] == "corrected" and found[2] == "original"
                             and "payload" not in found[1]):
            verdict, decision = NEW, {self.otherwise: True}
        else:
            recorded, form = found[1], found[2]
            if recorded["kind"] == "dismissed":
                verdict, decision = PROPOSED_AGAIN, {"dismiss": True}
                if recorded.get("reason"):
                    decision["reason"] = recorded["reason"]
            elif recorded["kind"] == "corrected" and form == "original":
                verdict, decision = NEEDS_EDIT, {"edit": recorded["payload"]}
            else:
                verdict = NOW_RIGHT if recorded["kind"] == "corrected" else ACCEPTED_AGAIN
                decision = {"accept": True}
            if recorded.get("comments"):
                decision["comments"] = [dict(c) for c in recorded["comments"]]
        self.verdicts.append({"id": getattr(suggestion, "id", None), "action": action,
                              "payload": payload, "verdict": verdict,
                              "decision": dict(decision)})
        return decision

    def answer(self, ask: Any) -> str | None:
        return self._answers.get(str(getattr(ask, "text", "")))

    def __repr__(self) -> str:
        count = sum(len(s.expect.decisions) for s in self.scenarios if s.expect is not None)
        return (f"<recorded_human decisions={count} otherwise={self.otherwise!r} "
                f"new={self.new}>")


def _scenarios(source: Any) -> list[Scenario]:
    from ._from_session import scenario_from_session

    if isinstance(source, Scenario):
        return [source]
    if isinstance(source, str | os.PathLike | Mapping):
        return [scenario_from_session(source)]
    if isinstance(source, Iterable):
        items = list(source)
        return [item if isinstance(item, Scenario) else scenario_from_session(item)
                for item in items]
    raise ValueError(f"recorded_human: expected a session file, a snapshot or scenarios, "
                     f"not {type(source).__name__}")


def recorded_human(source: Any, *, otherwise: str = "dismiss",
                   tolerance: Mapping[str, Any] | None = None) -> RecordedHuman:
    """A human that decides as the person did: ``source`` is a session file's path, a
    snapshot, a ``Scenario`` (``Scenario.from_session``) or a list of them. ``otherwise``:
    what a proposal never seen gets (``"dismiss"`` or ``"accept"``); ``tolerance``:
    action → a JSON Schema widening "the same payload" for that action.

        >>> from dial_notebook.evaluation import Expectation
        >>> seen = Scenario("s", ("add milk",), Expectation(decisions=[
        ...     {"kind": "dismissed", "action": "add", "payload": {"n": 1}, "reason": "no"}]))
        >>> class Card:
        ...     id, action, payload = "s1", "add", {"n": 1.0}
        >>> recorded_human(seen).decide(Card())
        {'dismiss': True, 'reason': 'no'}
    """
    return RecordedHuman(_scenarios(source), otherwise=otherwise, tolerance=tolerance)
