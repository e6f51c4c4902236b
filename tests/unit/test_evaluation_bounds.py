"""dial_notebook.evaluation inside its bounds: a scenario passes only when its conversation
ended idle; judging it (lint, payload checks) runs off the event loop within the scenario's
time bound, so a hostile reply cannot hold the kernel; and its files (scenario files, saved
reports) are data: bounded, every field checked, errors naming the file and the field."""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any, ClassVar

import pytest

from dial_notebook.agents import ScriptedAgent
from dial_notebook.dial import lint
from dial_notebook.evaluation import Report, _run, evaluate, load_scenarios
from dial_notebook.evaluation._scenario import MAX_SCENARIO_BYTES
from tests.stall_watchdog import watch_loop

from .test_evaluation import DONE, GOOD, add, scripted, suggest, todo_domain

# -- a scenario passes only when it ended idle (5a) ---------------------------------------


async def test_a_scenario_whose_agent_never_answers_fails_with_no_reply():
    report = await evaluate(agent=scripted([ScriptedAgent.HANG]), domain=todo_domain(),
                            timeout=0.05, scenarios=[{"name": "mute", "say": ["hello"]}])
    [result] = report.scenarios
    assert (result.status, result.passed) == ("no-reply", False)
    assert result.reasons == ["the agent did not reply (no-reply): The agent didn't reply "
                              "within 0.05s"]
    assert report.failed == 1


async def test_an_earlier_say_without_a_reply_fails_the_scenario_and_ends_it():
    agent = ScriptedAgent([ScriptedAgent.HANG, DONE])
    report = await evaluate(agent=lambda: agent, domain=todo_domain(), timeout=0.05,
                            scenarios=[{"name": "two", "say": ["first", "second"]}])
    [result] = report.scenarios
    assert (result.status, result.passed) == ("no-reply", False)
    assert len(agent.received) == 1  # the second say was not said
    assert result.reasons[0].startswith("the agent did not reply (no-reply)")


@pytest.mark.parametrize("expect", [None, {"max_turns": 5}, {"actions": ["add-todo"]}])
async def test_a_turn_limit_fails_whatever_the_expectations(expect: Any):
    looping = [suggest("add-todo", {"title": f"t{n}"}, f"s{n}") for n in range(5)]
    report = await evaluate(agent=scripted(looping), domain=todo_domain(), max_turns=2,
                            scenarios=[{"name": "loop", "say": ["go"], "expect": expect}])
    [result] = report.scenarios
    assert (result.status, result.passed) == ("turn-limit", False)
    assert result.reasons[0] == "the conversation did not end: it reached the turn limit (2)"


@pytest.mark.parametrize("status", ["no-reply", "turn-limit"])
def test_expecting_an_ending_that_can_never_pass_is_refused_when_loaded(status: str):
    with pytest.raises(ValueError, match=f"scenario 0 \\('a'\\): expect: status '{status}' "
                                         "can never pass"):
        load_scenarios([{"name": "a", "say": ["x"], "expect": {"status": status}}])


async def test_an_idle_scenario_still_passes_and_an_agent_error_fails():
    report = await evaluate(agent=lambda: ScriptedAgent([*GOOD, ValueError("down")]),
                            domain=todo_domain(), concurrency=1,
                            scenarios=[add("fine"), {"name": "broken", "say": ["a", "b"]}])
    assert (report["fine"].status, report["fine"].passed) == ("idle", True)
    assert (report["broken"].status, report["broken"].passed) == ("error", False)


# -- judging runs off the loop, inside the scenario's bound (4c) ---------------------------


async def test_linting_a_reply_runs_off_the_event_loop(monkeypatch):
    """The lint waits until the loop has ticked: on the loop it could never see a tick."""
    ticks = 0
    linting = threading.Event()

    def lint_that_needs_the_loop(text: str) -> list[Any]:
        linting.set()
        seen = ticks
        for _ in range(500):  # up to 5 s, then it says the loop was held
            if ticks > seen + 2:
                return lint(text)
            threading.Event().wait(0.01)
        raise AssertionError("the loop did not run while a reply was linted")

    async def tick() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.001)
            ticks += 1

    monkeypatch.setattr(_run, "lint_reply", lint_that_needs_the_loop)
    ticking = asyncio.create_task(tick())
    try:
        report = await evaluate(agent=scripted(GOOD), domain=todo_domain(), scenarios=[add()])
    finally:
        ticking.cancel()
    assert linting.is_set()
    assert (report["add"].status, report["add"].passed) == ("idle", True)


class FakeClock:
    """A clock that moves only when the test moves it (here: each time a reply is linted)."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 100.0, step

    def __call__(self) -> float:
        return self.now


async def test_judging_stops_at_the_scenario_s_time_bound_and_the_scenario_times_out(
        monkeypatch):
    clock = FakeClock(step=4.0)
    linted: list[str] = []

    def slow_lint(text: str) -> list[Any]:
        linted.append(text)
        clock.now += clock.step  # each reply "takes" 4 s of the scenario's 10
        return []

    monkeypatch.setattr(_run, "lint_reply", slow_lint)
    monkeypatch.setattr(_run, "_clock", clock)
    replies = ["one", "two", "three", "four"]
    report = await evaluate(agent=scripted(replies), domain=todo_domain(),
                            scenario_timeout=10.0, scenarios=[
                                {"name": "chatty", "say": ["a", "b", "c", "d"]}])
    [result] = report.scenarios
    assert len(linted) == 3  # at 100, 104, 108: the fourth would start past 110
    assert (result.status, result.passed) == ("timeout", False)
    assert result.reasons == ["the scenario did not finish in time (over 10s: judging "
                              "its replies)"]
    assert result.lint[-1]["code"] == "lint-cut-short"
    assert "1 reply was not linted" in result.lint[-1]["message"]
    assert [o for o in result.transcript if o["type"] == "reply"][3]["text"] == "four"


async def test_a_2mb_reply_of_misspelt_tags_never_holds_the_loop_over_2s():
    hostile = ('<dial version="0.1" actor="agent">'
               + "<dial-infrom>x</dial-infrom>" * (2_000_000 // 28) + "</dial>")
    async with watch_loop(limit=2.0):
        report = await evaluate(agent=scripted([hostile]), domain=todo_domain(),
                                scenario_timeout=1.0,
                                scenarios=[{"name": "misspelt", "say": ["hi"]}])
    [result] = report.scenarios
    assert result.status in ("idle", "timeout")  # linted within its second, or not
    assert result.passed is (result.status == "idle")


# -- files are data: scenario files (4d) and saved reports (9) ------------------------------

BILLION_LAUGHS = """\
- name: lol
  say:
    - &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]
    - &a1 [*a0, *a0, *a0, *a0, *a0, *a0, *a0, *a0, *a0]
    - &a2 [*a1, *a1, *a1, *a1, *a1, *a1, *a1, *a1, *a1]
    - &a3 [*a2, *a2, *a2, *a2, *a2, *a2, *a2, *a2, *a2]
    - &a4 [*a3, *a3, *a3, *a3, *a3, *a3, *a3, *a3, *a3]
    - &a5 [*a4, *a4, *a4, *a4, *a4, *a4, *a4, *a4, *a4]
    - &a6 [*a5, *a5, *a5, *a5, *a5, *a5, *a5, *a5, *a5]
    - &a7 [*a6, *a6, *a6, *a6, *a6, *a6, *a6, *a6, *a6]
    - &a8 [*a7, *a7, *a7, *a7, *a7, *a7, *a7, *a7, *a7]
  expect:
    actions: [*a8]
"""


@pytest.mark.timeout(20)
def test_a_billion_laughs_yaml_scenario_file_is_refused_before_it_is_built(tmp_path):
    path = tmp_path / "laughs.yaml"
    path.write_text(BILLION_LAUGHS, encoding="utf-8")
    with pytest.raises(ValueError, match=r"laughs\.yaml: line 3: anchors and aliases"):
        load_scenarios(path)


@pytest.mark.parametrize(("name", "text", "message"), [
    ("anchor.yaml", "- &s {name: a, say: [x]}\n", r"anchor\.yaml: line 1: anchors and aliases"),
    ("deep.yaml", "- {name: a, say: [x], expect: {payloads: {b: " + "[" * 300 + "]" * 300
     + "}}}\n", r"deep\.yaml: line 1: it nests more than 256 levels deep"),
    ("deep.json", "[" * 100_000, r"deep\.json: it nests more than 256 levels deep"),
    ("date.yaml", "- {name: a, say: [2026-12-02]}\n",
     r"date\.yaml: \[0\]\.say\[0\]: is a date"),
    ("nan.json", '[{"name": "a", "say": ["x"], "expect": {"max_turns": NaN}}]',
     r"nan\.json: not valid JSON \(NaN is not a JSON number\)"),
    ("key.yaml", "- {name: a, say: [x], 3: b}\n", r"key\.yaml: \[0\]: a key is a number"),
    ("bytes.json", b'["\xff"]', r"bytes\.json: not UTF-8 text"),
    ("field.json", '[{"name": "a", "say": [1]}]',
     r"field\.json: scenario 0 \('a'\): say must hold text, not 1"),
])
def test_hostile_scenario_files_are_refused_naming_the_file_and_where(tmp_path, name, text,
                                                                     message):
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=message):
        load_scenarios(path)


def test_an_oversized_scenario_file_is_refused_unread(tmp_path):
    path = tmp_path / "big.json"
    path.write_text(json.dumps([{"name": "a", "say": ["x" * (MAX_SCENARIO_BYTES + 1)]}]),
                    encoding="utf-8")
    with pytest.raises(ValueError, match=r"big\.json: the file is .* MB; files up to"):
        load_scenarios(path)


async def saved(tmp_path) -> tuple[Report, dict[str, Any]]:
    replies = [suggest("add-todo", {"title": 3}, "s1"), "<dial><dial-infrom>x</dial-infrom>",
               suggest("add-todo", {"title": "milk"}, "s2"), DONE]
    report = await evaluate(agent=scripted(replies), domain=todo_domain(),
                            scenarios=[add(actions=["add-todo"])])
    return report, json.loads(json.dumps(report.to_dict(), default=str))


def test_a_report_of_brackets_is_refused_not_a_recursion_error(tmp_path):
    path = tmp_path / "brackets.json"
    path.write_text("[" * 100_000, encoding="utf-8")
    with pytest.raises(ValueError, match=r"Report\.load: .*brackets\.json: it nests more than"):
        Report.load(path)


async def test_a_report_whose_error_code_is_a_list_is_refused_naming_the_field(tmp_path):
    _, data = await saved(tmp_path)
    data["scenarios"][0]["proposals"][0]["errors"][0]["code"] = ["x"]
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ValueError, match=r"tampered\.json: scenarios\[0\]\.proposals\[0\]\."
                                         r"errors\[0\]\.code: must be text or null, not a list"):
        Report.load(path)


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(value, dict):
        return [path] + [leaf for k, v in value.items() for leaf in _leaves(v, (*path, k))]
    if isinstance(value, list):
        return [path] + [leaf for n, v in enumerate(value) for leaf in _leaves(v, (*path, n))]
    return [path]


WRONG = [["x"], {"k": ["x"]}, -3, None, "<img src=x onerror=alert(1)>"]


async def test_every_field_of_a_report_with_a_wrong_value_is_refused_or_shown_safely(tmp_path):
    _, data = await saved(tmp_path)
    path = tmp_path / "r.json"
    refused = shown = 0
    for where in _leaves(data):
        if not where:
            continue
        for wrong in WRONG:
            tampered = json.loads(json.dumps(data))
            holder = tampered
            for key in where[:-1]:
                holder = holder[key]
            holder[where[-1]] = wrong
            path.write_text(json.dumps(tampered), encoding="utf-8")
            try:
                loaded = Report.load(path)
            except ValueError as error:
                assert str(error).startswith(f"Report.load: {path}: "), error
                refused += 1
                continue
            page = loaded._repr_html_()  # every report that loads can be shown (each scenario too)
            assert "<img" not in page
            loaded.summary(), loaded.rows(), loaded.to_dict()
            shown += 1
    assert refused and shown


async def test_a_report_of_every_ending_saves_and_loads_back_the_same(tmp_path, monkeypatch):
    class Metered(ScriptedAgent):
        usage: ClassVar[dict[str, Any]] = {"input": 3.0, "output": "many", "total": True}

    scripts = {"idle": GOOD, "mute": [ScriptedAgent.HANG],
               "boom": [ValueError("down")], "loop": [suggest("add-todo", {"t": n}, f"s{n}")
                                                      for n in range(4)]}
    names = iter(scripts)
    report = await evaluate(agent=lambda: Metered(scripts[next(names)]), domain=todo_domain(),
                            timeout=0.05, max_turns=2, concurrency=1,
                            scenarios=[{"name": name, "say": ["go"]} for name in scripts])
    assert [r.status for r in report.scenarios] == ["idle", "no-reply", "error", "turn-limit"]
    assert report["idle"].tokens == {"input": 3, "output": None, "total": None}
    again = Report.load(report.save(tmp_path / "every.json"))
    assert again.to_dict() == json.loads(json.dumps(report.to_dict(), default=str))
