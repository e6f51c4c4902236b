"""The one gate for running: the only code that calls a domain's ``run`` or an execute step's
executor, and only with a decision record (an ``Approval``) for exactly that.

    who decided                                  the record, made only here
    the person, on that card, in this kernel ─▶ by_person(card, decision, runs)   (person_decides)
    a rule the person made or trusted        ─▶ by_rule(state, spec, sid, …)      (asks the rules)
    the domain: the action is read-only or
      a hand-off (they run unasked, by spec) ─▶ by_domain(state, sid, action, …)  (reads the spec)

    start_action(state, approval, sid, action, payload) ─▶ the domain's run started (_work.py)
    start_step(state, approval, block_id, step)         ─▶ the step's executor called
        both: what the run says of its progress (``report_progress``, _progress.py) is a
        transient 'progress' notice {id, action, progress, total, message}, paced; a run
        whose action is stoppable (the spec's ``stoppable``, _ports.py) is marked so, and
        Stop cancels it (_work.py)
        refused (``NotApproved``) without a record, with a record for another id, action or
        payload (the one approved is the one that runs, by identity), for a step not on the
        approved card, or a second time (a record runs its action once, each step once)

An ``Approval`` cannot be made outside this module (its constructor wants a private key),
and an answer to a question never makes one. A unit test reads every module of the package
and checks that nothing else calls a domain's ``run``, ``start_run`` or an executor.

    >>> Approval(object(), "sg-1", "add-note", "person", {})
    Traceback (most recent call last):
    ...
    TypeError: an Approval is made by the decision paths of _run_gate only
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from .._progress import RunProgress, reporting_to
from ..dial import Step
from ._ports import ActionSpec, call
from ._rules import eligible
from ._state import State
from ._values import Suggestion
from ._work import in_thread, stoppable

_KEY = object()  # only this module holds it: only this module makes records


class NotApproved(PermissionError):
    """An attempt to run what nobody decided should run (a bug, never a person's doing)."""


class Approval:
    """A decision record: ``by`` ('person' | 'rule' | 'domain') decided that ``id``'s
    ``action`` runs with ``payload`` (an execute block's: its steps); ``rule`` names the rule
    that accepted it, if one did."""

    __slots__ = ("_used", "action", "by", "id", "payload", "rule")
    id: str
    action: str
    by: str
    payload: Any
    rule: str | None
    _used: set[int]

    def __init__(self, key: object, sid: str, action: str, by: str, payload: Any,
                 rule: str | None = None) -> None:
        if key is not _KEY:
            raise TypeError("an Approval is made by the decision paths of _run_gate only")
        for name, value in (("id", sid), ("action", action), ("by", by), ("payload", payload),
                            ("rule", rule), ("_used", set())):  # _used: 0 the action, N step N
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a decision record cannot be changed")

    def __repr__(self) -> str:
        return f"<Approval {self.id} {self.action} by {self.by}>"


def by_person(card: Suggestion, decision: Mapping[str, Any], runs: Any,
              rule: str | None = None) -> Approval:
    """The person accepted (or edited and accepted) ``card`` — what ``human.decide`` returned
    for it, just now — so ``runs`` (its payload, or the edited one) may run."""
    if not isinstance(decision, Mapping) or decision.get("dismiss") or "say" in decision or not (
            decision.get("accept") or "edit" in decision):
        raise NotApproved(f"{card.id}: {decision!r} is not an accept or an edit")
    return Approval(_KEY, card.id, card.action, "person", runs, rule)


def by_rule(state: State, spec: ActionSpec, sid: str, action: str,
            payload: Any) -> Approval | None:
    """The record of the person's rule that accepts ``payload`` (it is asked now), or None:
    no rule does, the action may not be accepted by rules, or the conversation has none."""
    if state.rules is None or not eligible(spec):
        return None
    rule = state.rules.match(action, payload)
    return None if rule is None else Approval(_KEY, sid, action, "rule", payload, rule)


def by_domain(state: State, sid: str, action: str, payload: Any) -> Approval | None:
    """The record of an action the domain declares read-only or a hand-off (they run without
    asking), or None for any other."""
    spec = state.domain.spec(action)
    if spec is None or (spec.mutates and not spec.handoff):
        return None
    return Approval(_KEY, sid, action, "domain", payload)


def _admit(approval: Any, sid: str, action: str, what: str) -> Approval:
    if type(approval) is not Approval:
        raise NotApproved(f"{sid}: nobody decided that {what} runs (no decision record)")
    if approval.id != sid or approval.action != action:
        raise NotApproved(f"{sid}: the decision record is for {approval.id} "
                          f"({approval.action}), not this")
    return approval


def start_action(state: State, approval: Approval, sid: str, action: str,
                 payload: Any) -> asyncio.Future[Any]:
    """The domain's run of ``action`` started, as ``approval`` decided (see the header)."""
    record = _admit(approval, sid, action, f"'{action}'")
    if record.payload is not payload:
        raise NotApproved(f"{sid}: the payload to run is not the one that was decided")
    if record.by == "domain" and by_domain(state, sid, action, payload) is None:
        raise NotApproved(f"{sid}: '{action}' is no longer read-only or a hand-off")
    if 0 in record._used:
        raise NotApproved(f"{sid}: it ran already; a decision runs its action once")
    record._used.add(0)
    progress = RunProgress(_notice(state, sid, action))
    with reporting_to(progress):
        running = state.domain.start_run(action, payload)
    running.add_done_callback(lambda _: progress.close())
    return stoppable(running) if state.domain.stoppable(action) else running


def start_step(state: State, approval: Approval, block_id: str, step: Step,
               sid: str | None = None) -> Awaitable[Any]:
    """The executor of ``step`` (one of the approved block's) called: a blocking one (an
    ``in_thread`` executor such as http) on a worker thread, its future returned; any other
    called here, its awaitable returned. Raises the executors' refusal when none serves the
    step's env. ``sid``: the step's outcome id, which its progress notices carry."""
    record = _admit(approval, block_id, "execute", "this block")
    if record.by != "person":
        raise NotApproved(f"{block_id}: only the person approves an execute block")
    index = next((n for n, s in enumerate(record.payload) if s is step), None)
    if index is None:
        raise NotApproved(f"{block_id}: that step is not one the person approved")
    if index + 1 in record._used:
        raise NotApproved(f"{block_id}: step {index + 1} ran already")
    record._used.add(index + 1)
    executor = state.executors.get(step.env)
    if executor is None:
        raise state.executors.missing(step.env)
    progress = RunProgress(_notice(state, sid or block_id, f"execute:{step.env}"))
    if getattr(executor, "in_thread", False):
        with reporting_to(progress):
            running = in_thread(contextvars.copy_context().run, executor, step)
        running.add_done_callback(lambda _: progress.close())
        return running
    return _reporting(progress, call(executor, step))


async def _reporting(progress: RunProgress, work: Awaitable[Any]) -> Any:
    """``work`` awaited with its reports going to ``progress``."""
    try:
        with reporting_to(progress):
            return await work
    finally:
        progress.close()


def _notice(state: State, sid: str, action: str) -> Callable[[Any, Any, Any], None]:
    """What becomes of a run's progress: a transient 'progress' notice for the surface
    (never kept in the transcript; a streamed reply's progress has a turn, a run's an id)."""
    def notice(progress: Any, total: Any, message: Any) -> None:
        state.events.transient({"type": "progress", "id": sid, "action": action,
                                "progress": progress, "total": total, "message": message})
    return notice
