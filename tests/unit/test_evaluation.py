"""dial_notebook.evaluation: scenarios run, judged, counted, saved, compared."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from typing import Any

import pytest

from dial_notebook.agents import ScriptedAgent
from dial_notebook.domains import SchemaDomain
from dial_notebook.domains._validation import VALIDATION_BUDGET
from dial_notebook.evaluation import (
    ActionStats,
    Report,
    evaluate,
    evaluate_sync,
)
from dial_notebook.runtime import scripted_human

TITLE = {"type": "object", "required": ["title"], "additionalProperties": False,
         "properties": {"title": {"type": "string", "minLength": 1}}}


def todo_domain() -> SchemaDomain:
    todo = SchemaDomain("todo")

    @todo.action(schema=TITLE)
    def add_todo(payload: dict[str, Any]) -> dict[str, Any]:
        return {"id": 1, "title": payload["title"]}

    @todo.action(schema={"type": "object"}, mutates=False)
    def list_todos(payload: dict[str, Any]) -> list[str]:
        return []

    return todo


def suggest(action: str, payload: Any, sid: str) -> str:
    return (f'<dial version="0.1" actor="agent"><dial-suggest id="{sid}" action="{action}">'
            f'Shall I?<dial-payload type="application/json">{json.dumps(payload)}'
            f"</dial-payload></dial-suggest></dial>")


DONE = '<dial version="0.1" actor="agent"><dial-inform>Done.</dial-inform></dial>'
GOOD = [suggest("add-todo", {"title": "milk"}, "s1"), DONE]
SLOPPY = [suggest("add-todo", {"title": 3}, "s1"), suggest("add-todo", {"name": "x"}, "s2"),
          suggest("add-todo", {"title": "milk"}, "s3"), DONE]


def scripted(replies: list[Any]) -> Any:
    return lambda: ScriptedAgent(list(replies))


def add(name: str = "add", **expect: Any) -> dict[str, Any]:
    return {"name": name, "say": ["add milk"], "expect": expect or None}


# -- expectations ---------------------------------------------------------------------------


async def test_a_scenario_that_meets_every_kind_of_expectation_passes():
    report = await evaluate(agent=scripted(GOOD), domain=todo_domain(), scenarios=[add(
        actions=["add-todo"], not_actions=["list-todos"], status="idle", max_turns=2,
        payloads={"add-todo": TITLE})])
    [result] = report.scenarios
    assert (result.status, result.turns, result.passed, result.reasons) == (
        "idle", 2, True, [])
    assert result.proposals == [{"id": "s1", "action": "add-todo", "payload": {"title": "milk"},
                                 "status": "done", "errors": []}]
    assert [o["status"] for o in result.outcomes] == ["done"]
    assert result.tokens is None and result.seconds > 0
    assert result.transcript[0] == {"type": "sent", "turn": 1, "message": "add milk"}
    assert (report.passed, report.failed) == (1, 0)


@pytest.mark.parametrize(("expect", "reason"), [
    ({"actions": ["list-todos"]},
     "expected list-todos to be proposed; it was not (proposed: add-todo)"),
    ({"not_actions": ["add-todo"]}, "expected add-todo not to be proposed; it was proposed "
                                    "1 time"),
    ({"max_turns": 1}, "expected at most 1 turns; it took 2"),
    ({"payloads": {"add-todo": {"type": "object", "required": ["due"]}}},
     "the payload of add-todo (s1) does not match the expected schema: due is required"),
])
async def test_each_kind_of_expectation_fails_for_its_own_reason(expect, reason):
    report = await evaluate(agent=scripted(GOOD), domain=todo_domain(),
                            scenarios=[add(**expect)])
    [result] = report.scenarios
    assert result.passed is False
    assert result.reasons == [reason]
    assert "FAILED add (idle): " + reason in report.summary()


async def test_nothing_proposed_is_named_in_the_reason_and_no_expect_passes():
    report = await evaluate(agent=scripted([DONE, DONE]), domain=todo_domain(), scenarios=[
        add("wants", actions=["add-todo"]), {"name": "free", "say": ["hi"]}])
    assert report["wants"].reasons == [
        "expected add-todo to be proposed; it was not (proposed: nothing)"]
    assert report["free"].passed is True
    assert report["free"].lint == []  # the replies are well-formed


async def test_turns_add_up_over_says_and_lint_findings_carry_their_turn():
    replies = ["just words", DONE]
    report = await evaluate(agent=scripted(replies), domain=todo_domain(), scenarios=[
        {"name": "two", "say": ["hi", "again"], "expect": {"max_turns": 2, "status": "idle"}}])
    [result] = report.scenarios
    assert (result.turns, result.passed) == (2, True)
    assert [(f["turn"], f["code"], f["severity"]) for f in result.lint] == [
        (1, "no-envelope", "warning")]
    assert result.lint[0]["message"]


# -- per-action counts ----------------------------------------------------------------------


def recount(report: Report) -> dict[str, dict[str, Any]]:
    """The per-action counts made again, straight from the transcripts' outcome events."""
    counts: dict[str, dict[str, Any]] = {}
    for result in report.scenarios:
        for event in result.transcript:
            if event["type"] != "outcome":
                continue
            entry = counts.setdefault(event["action"], {
                "proposed": 0, "invalid": 0, "done": 0, "failed": 0, "dismissed": 0,
                "refused_by_code": Counter(), "refused_by_field": Counter()})
            entry["proposed"] += 1
            if event["status"] in ("invalid", "done", "failed", "dismissed"):
                entry[event["status"]] += 1
            if event["status"] == "invalid":
                entry["refused_by_code"][event.get("code") or "(none)"] += 1
                entry["refused_by_field"][event.get("field") or "(none)"] += 1
    for entry in counts.values():  # the person accepted what ran
        entry["accepted"] = entry["done"] + entry["failed"]
    return {action: {k: dict(v) if isinstance(v, Counter) else v for k, v in entry.items()}
            for action, entry in counts.items()}


async def test_per_action_counts_equal_the_outcomes_in_the_transcripts():
    def failing_domain() -> SchemaDomain:
        domain = todo_domain()

        @domain.action(schema={"type": "object"})
        def remove_todo(payload: dict[str, Any]) -> None:
            raise RuntimeError("no such todo")

        return domain

    scenarios = [
        {"name": "sloppy", "say": ["add milk"]},
        {"name": "fails", "say": ["remove it"]},
        {"name": "dismissed", "say": ["add milk"]},
    ]
    scripts = {"sloppy": SLOPPY,
               "fails": [suggest("remove-todo", {}, "r1"), DONE],
               "dismissed": [suggest("add-todo", {"title": "x"}, "d1")]}
    order = iter(["sloppy", "fails", "dismissed"])
    humans = iter([scripted_human(["accept"]), scripted_human(["accept"]),
                   scripted_human(["dismiss"])])
    report = await evaluate(agent=lambda: ScriptedAgent(scripts[next(order)]),
                            domain=failing_domain, human=lambda: next(humans),
                            scenarios=scenarios, concurrency=1)
    assert [r.status for r in report.scenarios] == ["idle", "idle", "idle"]
    assert {a: s.to_dict() for a, s in report.actions.items()} == recount(report)
    assert report.actions["add-todo"] == ActionStats(
        proposed=4, invalid=2, done=1, failed=0, dismissed=1,
        refused_by_code={"invalid-payload": 2}, refused_by_field={"title": 1, "name": 1})
    assert report.actions["remove-todo"].failed == 1
    assert (report.actions["add-todo"].accepted, report.actions["remove-todo"].accepted) == (1, 1)
    [failed] = report["fails"].proposals
    assert failed["error"] == "no such todo"


async def test_a_refused_proposal_has_its_errors_with_code_field_and_hint():
    report = await evaluate(agent=scripted(SLOPPY), domain=todo_domain(),
                            scenarios=[add(payloads={"add-todo": TITLE})])
    [result] = report.scenarios
    first, second, third = result.proposals
    assert (first["status"], first["payload"]) == ("invalid", {"title": 3})
    assert first["errors"] == [{"code": "invalid-payload", "field": "title",
                                "hint": "title must be a string, not 3"}]
    assert second["payload"] == {"name": "x"} and second["errors"][0]["code"] == (
        "invalid-payload")
    assert third["status"] == "done" and result.refused == 2
    assert len(result.reasons) == 2  # the two broken payloads miss the expected schema
    assert result.reasons[0].startswith("the payload of add-todo (s1) does not match")


# -- isolation, concurrency, cancelling ----------------------------------------------------


class Boom(Exception):
    pass


async def test_a_raising_and_a_hanging_scenario_are_isolated_from_the_others():
    scripts = {"ok-1": GOOD, "boom": [Boom("the transport broke")],
               "hang": [ScriptedAgent.HANG], "ok-2": GOOD}
    names = iter(scripts)
    report = await evaluate(agent=lambda: ScriptedAgent(scripts[next(names)]),
                            domain=todo_domain(), scenario_timeout=2.0, concurrency=1,
                            scenarios=[add(name, actions=["add-todo"]) for name in scripts])
    statuses = {r.name: (r.status, r.passed) for r in report.scenarios}
    assert statuses == {"ok-1": ("idle", True), "boom": ("error", False),
                        "hang": ("timeout", False), "ok-2": ("idle", True)}
    assert report["boom"].error == "Boom: the transport broke"
    assert report["boom"].reasons == ["the scenario raised Boom: the transport broke"]
    assert report["hang"].reasons == ["the scenario did not finish in time (over 2s)"]
    assert report["hang"].transcript[0]["type"] == "sent"
    assert [r.name for r in report.scenarios] == list(scripts)


class Counting:
    """An agent whose sends take a moment, recording how many are in flight at once."""

    in_flight = 0
    most = 0

    async def send(self, message: str) -> str:
        Counting.in_flight += 1
        Counting.most = max(Counting.most, Counting.in_flight)
        try:
            await asyncio.sleep(0.01)
        finally:
            Counting.in_flight -= 1
        return DONE


@pytest.mark.parametrize("concurrency", [1, 3])
async def test_concurrency_is_honoured(concurrency):
    Counting.in_flight = Counting.most = 0
    report = await evaluate(agent=Counting, domain=todo_domain(), concurrency=concurrency,
                            scenarios=[{"name": f"s{i}", "say": ["hi"]} for i in range(9)])
    assert report.passed == 9
    assert Counting.most == concurrency


async def test_cancelling_evaluate_cancels_every_running_conversation():
    started: list[asyncio.Task[Any]] = []
    cancelled: list[str] = []

    class Slow:
        async def send(self, message: str) -> str:
            started.append(asyncio.current_task())  # type: ignore[arg-type]
            try:
                await asyncio.sleep(30)
            except asyncio.CancelledError:
                cancelled.append(message)
                raise
            return DONE

    before = asyncio.all_tasks()
    task = asyncio.create_task(evaluate(agent=Slow, domain=todo_domain(), concurrency=3,
                                        scenarios=[{"name": f"s{i}", "say": [f"m{i}"]}
                                                   for i in range(5)]))
    while len(started) < 3:
        await asyncio.sleep(0.01)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert sorted(cancelled) == ["m0", "m1", "m2"]
    assert all(t.done() for t in started)
    assert asyncio.all_tasks() - before == set()


def test_evaluate_sync_runs_without_a_loop_and_refuses_inside_one():
    report = evaluate_sync(agent=scripted(GOOD), domain=todo_domain(), scenarios=[add()])
    assert report.passed == 1

    async def inside() -> None:
        with pytest.raises(RuntimeError, match=r"await evaluate\(\.\.\.\)"):
            evaluate_sync(agent=scripted(GOOD), domain=todo_domain(), scenarios=[add()])

    asyncio.run(inside())


async def test_tokens_come_from_the_agents_usage():
    class Metered(ScriptedAgent):
        @property
        def usage(self) -> dict[str, Any]:
            return {"turns": [], "input": 10, "output": 5, "total": 15}

    report = await evaluate(agent=lambda: Metered(GOOD), domain=todo_domain(),
                            scenarios=[add()])
    assert report.scenarios[0].tokens == {"input": 10, "output": 5, "total": 15}
    assert report.rows()[0]["tokens"] == 15


async def test_bad_arguments_to_evaluate_are_refused_clearly():
    with pytest.raises(TypeError, match=r"lambda: MyAgent\(\.\.\.\)"):
        await evaluate(agent=ScriptedAgent(GOOD), domain=todo_domain(), scenarios=[add()])
    with pytest.raises(TypeError, match="factory"):
        await evaluate(agent="agent", domain=todo_domain(), scenarios=[add()])
    with pytest.raises(ValueError, match="concurrency"):
        await evaluate(agent=scripted(GOOD), domain=todo_domain(), scenarios=[add()],
                       concurrency=0)
    with pytest.raises(ValueError, match="scenario_timeout"):
        await evaluate(agent=scripted(GOOD), domain=todo_domain(), scenarios=[add()],
                       scenario_timeout=-1)
    with pytest.raises(ValueError, match="max_turns"):
        await evaluate(agent=scripted(GOOD), domain=todo_domain(), scenarios=[add()],
                       max_turns=0)


async def test_a_domain_factory_gives_each_scenario_its_own_domain():
    made: list[SchemaDomain] = []

    def fresh() -> SchemaDomain:
        made.append(todo_domain())
        return made[-1]

    await evaluate(agent=scripted(GOOD), domain=fresh, scenarios=[add("a"), add("b")])
    assert len(made) == 2 and all(len(d.history) == 1 for d in made)
    shared = todo_domain()
    await evaluate(agent=scripted(GOOD), domain=shared, scenarios=[add("a"), add("b")])
    assert len(shared.history) == 2


async def test_an_expected_payload_schema_is_checked_within_the_time_budget(regex_searches):
    """The agent chooses the payload, the person the expected schema: a pattern that
    backtracks on the agent's text must not stall the kernel (the domain's bounded validator
    checks it, as it checks the domain's own schemas)."""
    slow = suggest("add-todo", {"title": "a" * 28 + "!"}, "s1")
    expect = {"payloads": {"add-todo": {"properties": {"title": {"pattern": "^(a+)+$"}}}}}
    report = await evaluate(agent=scripted([slow, DONE]), domain=todo_domain(),
                            scenarios=[add(**expect)])
    # every search was bounded (counted, not timed: tests/conftest.py)
    assert regex_searches and all(t is not None and 0 < t <= VALIDATION_BUDGET
                                  for t in regex_searches)
    [result] = report.scenarios
    assert result.passed is False
    assert result.reasons == ["the payload of add-todo (s1) does not match the expected "
                              "schema: title must match the pattern '^(a+)+$'"]


async def test_a_payload_nested_too_deeply_to_read_fails_its_expectation_and_stops_nothing():
    deep: Any = "x"
    for _ in range(200):
        deep = [deep]
    nested = suggest("add-todo", {"title": "milk", "extra": deep}, "s1")
    expect = {"payloads": {"add-todo": {"type": "object"}}}
    report = await evaluate(agent=scripted([nested, DONE]), domain=todo_domain(),
                            scenarios=[add(**expect), add("other")])
    first, other = report.scenarios
    assert first.passed is False
    assert first.reasons == ["the payload of add-todo (s1) could not be read, so it does not "
                             "match the expected schema"]
    assert other.status == "idle"
