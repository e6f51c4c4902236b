"""Issue 32: the report says what changed against recorded decisions — per verdict, within the
recorded human's tolerance, a new agent's corrections now right, a saved report read back
checked — and says nothing new for scenarios without decisions."""

from __future__ import annotations

import json

import pytest

from dial_notebook.agents import ScriptedAgent
from dial_notebook.evaluation import Expectation, Report, Scenario, evaluate, recorded_human
from dial_notebook.evaluation._verdicts import decision_verdicts

from .runtime_doubles import NotesDomain, dial, suggest

DECISIONS = [
    {"kind": "accepted", "action": "add-note", "payload": {"text": "milk", "at": 1}},
    {"kind": "corrected", "action": "add-note", "payload": {"text": "oat"},
     "original": {"text": "oats"}},
    {"kind": "dismissed", "action": "remove-note", "payload": {"index": 0}, "reason": "no"},
]
SCENARIO = Scenario("day", ("go",), Expectation(decisions=DECISIONS))


def agent(*proposals: tuple[str, dict]) -> ScriptedAgent:
    """One reply with the proposals, then empty replies."""
    body = "".join(suggest(a, p, id=f"s{n}", via="payload")
                   for n, (a, p) in enumerate(proposals, 1))
    return ScriptedAgent([dial(body)] + [dial()] * 5)


async def run(*proposals: tuple[str, dict], **human: object) -> Report:
    return await evaluate(agent=lambda: agent(*proposals), domain=NotesDomain,
                          scenarios=[SCENARIO], human=recorded_human(SCENARIO, **human))


async def test_a_better_agent_gets_its_correction_right_and_leaves_the_dismissed_alone():
    report = await run(("add-note", {"at": 1.0, "text": "milk"}), ("add-note", {"text": "oat"}))
    assert [v["verdict"] for v in report["day"].decisions] == [
        "accepted again", "now right", "not proposed again"]
    assert report.summary() == ("1 scenario: 1 passed, 0 failed\n"
                                "agrees with the person on 3 of 3 decisions")


async def test_a_worse_agent_misses_and_proposes_what_the_person_never_saw():
    report = await run(("add-note", {"text": "milk", "at": 2}), ("remove-note", {"index": 0}))
    result = report["day"]
    assert [v["verdict"] for v in result.decisions] == [
        "missed", "missed", "proposed again", "new"]
    assert result.decisions[-1]["payload"] == {"text": "milk", "at": 2}
    assert report.summary().splitlines()[1] == (
        "agrees with the person on 1 of 3 decisions (1 proposed again; 2 missed, 1 new)")
    assert not result.passed and any("nothing like it was proposed" in r
                                     for r in result.reasons)
    assert {k: len(v) for k, v in report.disagreements().items()} == {"missed": 2, "new": 1}


async def test_the_recorded_humans_tolerance_is_the_reports_too():
    report = await run(("add-note", {"text": "milk", "at": 2}),
                       tolerance={"add-note": {"required": ["text"],
                                               "properties": {"text": {"const": "milk"}}}})
    assert report["day"].decisions[0]["verdict"] == "accepted again"


def test_a_repeat_of_a_met_decision_is_neither_counted_nor_new():
    events = []
    for sid in ("a", "b"):
        events += [{"type": "suggestion", "id": sid, "action": "add-note",
                    "payload": {"text": "oat"}},
                   {"type": "outcome", "id": sid, "action": "add-note", "status": "done"}]
    verdicts = decision_verdicts(DECISIONS[1:2], events)
    assert [(v["verdict"], v["id"]) for v in verdicts] == [("now right", "a")]


async def test_a_saved_report_with_verdicts_reads_back_and_a_forged_verdict_is_refused(
        tmp_path):
    report = await run(("add-note", {"text": "oats"}))
    path = report.save(tmp_path / "r.json")
    assert Report.load(path)["day"].decisions == report["day"].decisions
    data = json.loads(path.read_text())
    data["scenarios"][0]["decisions"][0]["agrees"] = "yes"
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match=r"decisions\[0\]\.agrees"):
        Report.load(path)


async def test_a_scenario_without_decisions_reports_as_before():
    plain = Scenario("plain", ("go",), Expectation(actions=("add-note",)))
    report = await evaluate(agent=lambda: agent(("add-note", {"text": "x"})),
                            domain=NotesDomain, scenarios=[plain])
    assert report.summary() == "1 scenario: 1 passed, 0 failed"
    assert report.decisions is None and "decisions" not in report["plain"].to_dict()
    assert "agrees with the person" not in report._repr_html_()
