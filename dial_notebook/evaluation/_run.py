# Running scenarios: each in a conversation of its own, a few at once, and judging what came.
"""``evaluate`` (async) and ``evaluate_sync``: every scenario in its own ``Conversation``, at
most ``concurrency`` at once; what each came to is read from its transcript and judged
against its expectation.

    a scenario, within its bound (scenario_timeout, counted from its start):
        say each message ─ a say ends no-reply / turn-limit ─▶ the scenario ends there, failed
        judging (read the transcript, lint each reply, check each payload)
            ─▶ on a worker thread (the loop stays free), checking the bound before each reply
               and each payload: past it, the rest is skipped and the scenario ends 'timeout'
            ─▶ not back JUDGING_GRACE after the bound (one lint still going): 'timeout'

A scenario passes only when its conversation ended ``idle`` and every expectation held; one
with recorded decisions (``Scenario.from_session``) gets a verdict on each (``_verdicts``), and
fails when one was missed or a proposal was new.
"""

from __future__ import annotations

import asyncio
import dataclasses
import inspect
import os
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from .._interrupt import interrupt_wakes_loop
from .._work import TimedOut, in_thread, until_done
from ..dial import lint as lint_reply
from ..dial import parse_all
from ..runtime import Conversation, policy_human
from ._per_scenario import agent_factory, close_agent, maker, tokens_of
from ._progress import Ending, Progress, choose_view
from ._recorded import RecordedHuman
from ._report import Report, ScenarioResult
from ._scenario import Scenario, load_scenarios
from ._verdicts import MISSED, NEW, decision_verdicts

#: Seconds judging may still take past a scenario's bound (a reply's lint or a payload check
#: that had started before it) before the scenario is given up as 'timeout' unjudged.
JUDGING_GRACE = 2.0
#: The clock of a scenario's bound while it is judged (a test puts in its own).
_clock = time.monotonic
#: The lint finding that says the lint stopped at the scenario's bound.
CUT_SHORT = "lint-cut-short"


class _Bound:
    """A scenario's deadline on ``_clock`` (None: no bound)."""

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        self.deadline = None if seconds is None else _clock() + seconds
        #: Whether some judging was skipped because the bound had passed.
        self.passed = False

    def over(self) -> bool:
        """Whether the bound has passed (remembered in ``passed``)."""
        if self.deadline is not None and _clock() >= self.deadline:
            self.passed = True
        return self.passed

    def left(self) -> float | None:
        """Seconds left before the bound (None: no bound)."""
        return None if self.deadline is None else max(0.0, self.deadline - _clock())


def _positive(name: str, value: Any, *, whole: bool = False) -> None:
    kinds = int if whole else int | float
    if value is not None and (isinstance(value, bool) or not isinstance(value, kinds)
                              or not value > 0):
        raise ValueError(f"evaluate: {name} must be a positive number, not {value!r}")


def _payloads_of(text: str) -> dict[str, Any]:
    """id → payload of every suggestion in a reply (for the proposals the domain refused,
    which get no suggestion event)."""
    found: dict[str, Any] = {}
    try:
        envelopes = parse_all(text)
    except Exception:
        return found
    for envelope in envelopes:
        for element in getattr(envelope, "elements", ()):
            payload = getattr(element, "payload", None)
            if getattr(element, "tag", "") == "dial-suggest" and element.id and payload:
                found[element.id] = payload.value
    return found


def read_transcript(transcript: Iterable[Mapping[str, Any]], bound: _Bound | None = None
                    ) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
    """The outcomes, proposals and lint findings of a transcript. Past ``bound``, replies are
    no longer linted; a last finding (``lint-cut-short``) says how many were not."""
    outcomes: list[dict[str, Any]] = []
    proposals: list[dict[str, Any]] = []
    findings: list[dict[str, Any]] = []
    suggested: dict[str, Any] = {}
    in_reply: dict[str, Any] = {}
    unlinted = 0
    for event in transcript:
        kind = event.get("type")
        if kind == "reply":
            text = str(event.get("text", ""))
            in_reply = _payloads_of(text)
            if bound is not None and bound.over():
                unlinted += 1
                continue
            findings.extend({"turn": event.get("turn"), "code": f.code, "severity": f.severity,
                             "message": f.message, "line": f.line, "column": f.column}
                            for f in lint_reply(text))
        elif kind == "suggestion":
            suggested[str(event.get("id"))] = event.get("payload")
        elif kind == "outcome":
            outcome = {k: v for k, v in event.items() if k != "type"}
            outcomes.append(outcome)
            sid = str(outcome.get("id"))
            proposal: dict[str, Any] = {
                "id": outcome.get("id"), "action": outcome.get("action"),
                "payload": suggested.get(sid, in_reply.get(sid)),
                "status": outcome.get("status"), "errors": []}
            if outcome.get("status") == "invalid":
                proposal["errors"] = [{"code": outcome.get("code"),
                                       "field": outcome.get("field"),
                                       "hint": outcome.get("hint")}]
            elif outcome.get("status") == "failed":
                proposal["error"] = outcome.get("error")
            proposals.append(proposal)
    if unlinted:
        replies = "reply was" if unlinted == 1 else "replies were"
        findings.append({"turn": None, "code": CUT_SHORT, "severity": "info",
                         "message": f"The lint stopped at the scenario's time bound: {unlinted} "
                                    f"{replies} not linted.", "line": None, "column": None})
    return outcomes, proposals, findings


def judge(scenario: Scenario, result: ScenarioResult, bound: _Bound | None = None
          ) -> list[str]:
    """Why ``result`` fails ``scenario`` ([] passes): first how it ended when that was not
    ``idle`` (no reply, the turn limit — whatever the expectations), then one sentence per
    failed expectation. Past ``bound``, payloads are no longer checked."""
    if result.status == "error":
        return [f"the scenario raised {result.error}"]
    if result.status == "timeout":
        return [f"the scenario did not finish in time ({result.error})"]
    reasons: list[str] = []
    if result.status == "no-reply":
        reasons.append(f"the agent did not reply (no-reply): {result.error}")
    elif result.status == "turn-limit":
        reasons.append(f"the conversation did not end: {result.error}")
    elif result.status != "idle":
        reasons.append(f"the conversation ended {result.status}, not idle")
    expect = scenario.expect
    if expect is None:
        return reasons
    proposed = list(dict.fromkeys(str(p["action"]) for p in result.proposals))
    listed = ", ".join(proposed) or "nothing"
    for action in expect.actions:
        if action not in proposed:
            reasons.append(f"expected {action} to be proposed; it was not (proposed: {listed})")
    for action in expect.not_actions:
        times = sum(1 for p in result.proposals if p["action"] == action)
        if times:
            reasons.append(f"expected {action} not to be proposed; it was proposed "
                           f"{times} time{'s' if times != 1 else ''}")
    if expect.max_turns is not None and result.turns > expect.max_turns:
        reasons.append(f"expected at most {expect.max_turns} turns; it took {result.turns}")
    for verdict in result.decisions:
        if verdict["verdict"] == MISSED:
            reasons.append(f"the person {verdict['kind']} a proposal of {verdict['action']}; "
                           "nothing like it was proposed")
        elif verdict["verdict"] == NEW:
            reasons.append(f"{verdict['action']} ({verdict['id']}) was proposed as the person "
                           "never decided")
    for proposal in result.proposals:
        if proposal["action"] in expect.payloads and bound is not None and bound.over():
            break
        if proposal["action"] in expect.payloads and any(
                error.get("code") == "invalid-json" for error in proposal["errors"]):
            reasons.append(f"the payload of {proposal['action']} ({proposal['id']}) could not "
                           "be read, so it does not match the expected schema")
            continue
        errors = expect.payload_errors(str(proposal["action"]), proposal["payload"])
        if errors:
            reasons.append(f"the payload of {proposal['action']} ({proposal['id']}) does not "
                           f"match the expected schema: {errors[0]}")
    return reasons


async def _run_one(scenario: Scenario, make_agent: Callable[[], Any],
                   make_domain: Callable[[], Any], make_human: Callable[[], Any],
                   options: dict[str, Any], scenario_timeout: float | None,
                   tolerance: Mapping[str, Any] | None = None) -> ScenarioResult:
    started = time.perf_counter()
    bound = _Bound(scenario_timeout)
    status, turns, error = "idle", 0, None
    agent: Any = None
    conversation: Conversation | None = None
    timer = asyncio.timeout(scenario_timeout)
    try:
        async with timer:
            agent = make_agent()
            conversation = Conversation(agent=agent, domain=make_domain(),
                                        human=make_human(), **options)
            for text in scenario.say:
                said = await conversation.say(text)
                status, turns = said.status, turns + said.turns
                if status != "idle":  # the conversation did not end: the rest is not said
                    error = _why_not_idle(conversation.transcript, status, options)
                    break
    except TimeoutError as exc:
        if timer.expired():
            status, error = "timeout", f"over {scenario_timeout:g}s"
        else:
            status, error = "error", f"{type(exc).__name__}: {exc}"
    except Exception as exc:
        status, error = "error", f"{type(exc).__name__}: {exc}"
    finally:
        await close_agent(agent)
    transcript = list(conversation.transcript) if conversation is not None else []
    made = ScenarioResult(name=scenario.name, status=status, turns=turns, error=error,
                          tokens=tokens_of(agent), transcript=transcript)
    left = bound.left()
    try:  # off the loop: a reply's lint or a payload's check may take seconds
        result = await until_done(in_thread(_judged, scenario, made, bound, tolerance),
                                  None if left is None else left + JUDGING_GRACE)
    except TimedOut:
        made.status, made.error = "timeout", f"over {scenario_timeout:g}s: judging its replies"
        made.reasons, made.passed = judge(scenario, made), False
        result = made
    result.seconds = time.perf_counter() - started
    return result


def _why_not_idle(transcript: list[dict[str, Any]], status: str, options: Mapping[str, Any]
                  ) -> str:
    """What the transcript says of a say that ended ``status`` (no-reply, turn-limit)."""
    if status == "turn-limit":
        return f"it reached the turn limit ({options.get('max_turns')})"
    for event in reversed(transcript):
        if event.get("type") == status:
            return str(event.get("error") or status)
    return status


def _judged(scenario: Scenario, made: ScenarioResult, bound: _Bound,
            tolerance: Mapping[str, Any] | None = None) -> ScenarioResult:
    """A copy of ``made`` with what its transcript holds, judged (on a worker thread; ``made``
    itself is left to the loop). Judging cut short by the scenario's bound ends it
    'timeout'."""
    result = dataclasses.replace(made)
    result.outcomes, result.proposals, result.lint = read_transcript(result.transcript, bound)
    if scenario.expect is not None and scenario.expect.decisions:
        result.decisions = decision_verdicts(scenario.expect.decisions, result.transcript,
                                             tolerance)
    result.reasons = judge(scenario, result, bound)
    if bound.over() and result.status not in ("timeout", "error"):  # it ended past the bound
        result.status = "timeout"
        result.error = f"over {bound.seconds:g}s: judging its replies"
        result.reasons = judge(scenario, result)
    result.passed = not result.reasons
    return result


async def evaluate(*, agent: Callable[[], Any], domain: Any,
                   scenarios: Iterable[Scenario | Mapping[str, Any]] | str,
                   human: Any = None, concurrency: int = 8, timeout: float | None = 60.0,
                   max_turns: int = 8, scenario_timeout: float | None = None,
                   progress: bool | None = None,
                   on_result: Callable[[ScenarioResult], Any] | None = None) -> Report:
    """Run every scenario in a conversation of its own and judge what came of it.

    Args:
        agent: a factory — a zero-argument callable making a fresh agent for each scenario
            (``lambda: MyAgent(...)``); an agent object itself is refused (``TypeError``).
        domain: a domain object, shared by every scenario, or a factory (a class, or a
            zero-argument callable without ``run`` / ``actions``) called for each one.
        scenarios: ``Scenario``s or dicts, or the path of a scenario file (``load_scenarios``).
        human: who decides the proposals; ``policy_human("accept")`` by default. An object
            with ``decide`` is shared; a factory (a callable without ``decide``) is called for
            each scenario (for a ``scripted_human``). A ``recorded_human`` decides as the
            person did; its ``tolerance`` is the one the scenarios' decisions are judged with.
        concurrency: how many scenarios run at once.
        timeout, max_turns: the ``Conversation``'s, for each say.
        scenario_timeout: seconds a whole scenario may take before it ends ``timeout``.
        progress: a bar while it runs. ``None`` (the default): in a notebook, a bar under the
            cell; in a script, nothing. ``True``: the bar, or a line per scenario on stderr
            outside a notebook. ``False``: nothing.
        on_result: called with each ``ScenarioResult`` as its scenario ends (in the order
            they end); it may be a coroutine function. What it raises stops the evaluation
            and is raised here.

    A scenario passes only when its conversation ended ``idle`` and every expectation held:
    one whose agent did not reply (``no-reply``) or that reached the turn limit
    (``turn-limit``) fails for that reason whatever its expectations, and its remaining
    messages are not said. A scenario that raises ends ``error`` and one past ``scenario_timeout``
    ends ``timeout``; none of them stops the others. Judging a scenario (lint on each reply,
    the expected payloads) runs on a worker thread, so the kernel stays free, and within
    ``scenario_timeout``: judging that would go past it is cut short and the scenario ends
    ``timeout``. Cancelling the task cancels every running scenario.

    See the package's docstring for an example (``evaluate_sync``, its twin).
    """
    make_agent = agent_factory(agent)
    make_domain = maker(domain, ("run", "actions"))
    make_human = maker(policy_human("accept") if human is None else human, ("decide",))
    tolerance = human.tolerance if isinstance(human, RecordedHuman) else None
    if on_result is not None and not callable(on_result):
        raise TypeError(f"evaluate: on_result must be a function, not {type(on_result).__name__}")
    if progress is not None and not isinstance(progress, bool):
        raise TypeError(f"evaluate: progress must be True, False or None, not {progress!r}")
    if isinstance(concurrency, bool) or not isinstance(concurrency, int) or concurrency < 1:
        raise ValueError(f"evaluate: concurrency must be a whole number ≥ 1, "
                         f"not {concurrency!r}")
    _positive("scenario_timeout", scenario_timeout)
    _positive("timeout", timeout)
    _positive("max_turns", max_turns, whole=True)
    # a file is read and checked on a worker thread: the kernel stays free meanwhile
    chosen = (await in_thread(load_scenarios, scenarios)
              if isinstance(scenarios, str | os.PathLike) else load_scenarios(scenarios))
    options = {"timeout": timeout, "max_turns": max_turns}
    gate = asyncio.Semaphore(concurrency)
    shown = Progress(len(chosen), choose_view(progress))

    async def bounded(scenario: Scenario) -> ScenarioResult:
        async with gate:
            result = await _run_one(scenario, make_agent, make_domain, make_human, options,
                                    scenario_timeout, tolerance)
        shown.add(result)
        if on_result is not None:
            try:
                told = on_result(result)
                if inspect.isawaitable(told):
                    await told
            except Exception as exc:
                raise _CallbackError from exc
        return result

    how: Ending = "failed"
    try:
        with interrupt_wakes_loop():  # the stop button cancels every scenario at once
            tasks = await _run_all(chosen, bounded)
        how = "finished"
    except asyncio.CancelledError:
        how = "cancelled"
        raise
    finally:
        shown.end(how)
    return Report(task.result() for task in tasks)


async def _run_all(chosen: list[Scenario], run: Callable[[Scenario], Any]
                   ) -> list[asyncio.Task[ScenarioResult]]:
    """Every scenario as a task of one group; what ``on_result`` raised is raised as itself."""
    try:
        async with asyncio.TaskGroup() as group:
            return [group.create_task(run(scenario)) for scenario in chosen]
    except* _CallbackError as failed:
        raise failed.exceptions[0].__cause__ from None  # type: ignore[misc]


class _CallbackError(Exception):
    """What ``on_result`` raised, carried out of the task group as its cause."""


def evaluate_sync(**arguments: Any) -> Report:
    """``evaluate`` for a script: runs it with ``asyncio.run``. Inside a running event loop
    (a notebook cell) it refuses: ``await evaluate(...)`` there instead."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(evaluate(**arguments))
    raise RuntimeError("evaluate_sync() cannot run inside a running event loop (as in a "
                       "notebook); use `await evaluate(...)` there instead")
