"""dial_notebook.evaluation: scenario files and their errors, saved reports, frames, HTML,
and comparing reports."""

from __future__ import annotations

import html
import json
import re
import sys
from pathlib import Path
from typing import Any, ClassVar

import pytest

from dial_notebook.agents import ScriptedAgent
from dial_notebook.evaluation import (
    Comparison,
    Expectation,
    Report,
    Scenario,
    ScenarioResult,
    compare,
    evaluate,
    load_scenarios,
)

from .test_evaluation import GOOD, SLOPPY, TITLE, add, scripted, suggest, todo_domain

SCENARIOS = [
    {"name": "add", "say": ["add milk"], "expect": {"actions": ["add-todo"],
                                                    "payloads": {"add-todo": TITLE}}},
    {"name": "chat", "say": ["hello", "bye"]},
]


# -- loading --------------------------------------------------------------------------------


def test_scenarios_load_from_json_and_yaml_files(tmp_path: Path):
    as_json = tmp_path / "s.json"
    as_json.write_text(json.dumps(SCENARIOS), encoding="utf-8")
    as_yaml = tmp_path / "s.yaml"
    as_yaml.write_text("""
- name: add
  say: [add milk]
  expect:
    actions: [add-todo]
    payloads:
      add-todo: {type: object, required: [title], additionalProperties: false,
                 properties: {title: {type: string, minLength: 1}}}
- name: chat
  say: [hello, bye]
""", encoding="utf-8")
    from_json, from_yaml = load_scenarios(as_json), load_scenarios(str(as_yaml))
    assert from_json == from_yaml == load_scenarios(SCENARIOS)
    assert from_json[0] == Scenario("add", ("add milk",), Expectation(
        actions=("add-todo",), payloads={"add-todo": TITLE}))
    assert from_json[1].say == ("hello", "bye") and from_json[1].expect is None
    assert load_scenarios([Scenario.from_dict(d) for d in SCENARIOS]) == from_json
    assert [Scenario.from_dict(s.to_dict()) for s in from_json] == from_json


@pytest.mark.parametrize(("data", "message"), [
    ([{"name": "a", "say": ["x"], "sya": 1}], r"scenario 0 \('a'\): unknown key 'sya'"),
    ([{"name": "a"}], r"scenario 0 \('a'\): missing say"),
    ([{"say": ["x"]}], r"scenario 0: missing name"),
    ([{"name": "", "say": ["x"]}], r"scenario 0: name must be non-empty"),
    ([{"name": 3, "say": ["x"]}], r"scenario 0: name must be non-empty text, not 3"),
    ([{"name": "a", "say": []}], r"scenario 0 \('a'\): say must hold at least one message"),
    ([{"name": "a", "say": [1]}], r"scenario 0 \('a'\): say must hold text, not 1"),
    ([{"name": "a", "say": {"x": 1}}], r"say must be a list of messages"),
    (["a"], r"scenario 0: must be a mapping"),
    ([{"name": "a", "say": ["x"], "expect": {"action": ["b"]}}],
     r"scenario 0 \('a'\): expect: unknown key 'action'"),
    ([{"name": "a", "say": ["x"], "expect": {"actions": "b"}}],
     r"expect: actions must be a list of action names"),
    ([{"name": "a", "say": ["x"], "expect": {"status": "done"}}], r"expect: status must be one"),
    ([{"name": "a", "say": ["x"], "expect": {"max_turns": 0}}], r"expect: max_turns must be"),
    ([{"name": "a", "say": ["x"], "expect": {"max_turns": True}}], r"max_turns must be"),
    ([{"name": "a", "say": ["x"], "expect": {"actions": ["b"], "not_actions": ["b"]}}],
     r"'b' is in both"),
    ([{"name": "a", "say": ["x"], "expect": {"payloads": {"b": {"type": "nope"}}}}],
     r"scenario 0 \('a'\): expect: payloads.b is not a valid JSON Schema"),
    ([{"name": "a", "say": ["x"], "expect": {"payloads": {"b": 3}}}],
     r"payloads.b must be a JSON Schema"),
    ([{"name": "a", "say": ["x"], "expect": []}], r"expect: must be a mapping"),
    ([{"name": "a", "say": ["x"]}, {"name": "a", "say": ["y"]}],
     r"scenario 1: the name 'a' is used twice"),
    ([], r"there are no scenarios"),
    ({"name": "a"}, r"expected a list of scenarios or a file path"),
])
def test_bad_scenarios_are_refused_naming_the_scenario_and_field(data, message):
    with pytest.raises(ValueError, match=message):
        load_scenarios(data)


def test_bad_scenario_files_are_refused_clearly(tmp_path: Path, monkeypatch):
    cases = {"s.txt": ("[]", r"not a \.json, \.yaml or \.yml file"),
             "bad.json": ("[{", r"bad\.json: not valid JSON"),
             "bad.yaml": ("- [", r"bad\.yaml: not valid YAML"),
             "map.json": ('{"name": "a"}', r"map\.json must hold a list of scenarios, not dict")}
    for name, (text, message) in cases.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        with pytest.raises(ValueError, match=message):
            load_scenarios(tmp_path / name)
    with pytest.raises(ValueError, match=r"missing\.json: cannot be read"):
        load_scenarios(tmp_path / "missing.json")
    (tmp_path / "ok.yml").write_text("- {name: a, say: [x]}", encoding="utf-8")
    monkeypatch.setitem(sys.modules, "yaml", None)
    with pytest.raises(ImportError, match=r'pip install "dial-notebook\[yaml\]"'):
        load_scenarios(tmp_path / "ok.yml")


def test_scenarios_and_expectations_made_directly_are_checked_too():
    with pytest.raises(ValueError, match="say must hold at least one message"):
        Scenario("a", ())
    with pytest.raises(ValueError, match="expect must be an Expectation"):
        Scenario("a", ("x",), {"actions": []})  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"payloads\.b is not a valid JSON Schema"):
        Expectation(payloads={"b": {"minLength": -1}})
    assert Scenario("a", "hello").say == ("hello",)  # type: ignore[arg-type]
    assert Expectation(actions=["x"]).actions == ("x",)  # type: ignore[arg-type]


# -- saving, frames, HTML -------------------------------------------------------------------


async def sloppy_and_good() -> tuple[Report, Report]:
    scenarios = [add("add", actions=["add-todo"], payloads={"add-todo": TITLE})]
    sloppy = await evaluate(agent=scripted(SLOPPY), domain=todo_domain(), scenarios=[
        *scenarios, add("only-sloppy")])
    good = await evaluate(agent=scripted(GOOD), domain=todo_domain(), scenarios=[
        *scenarios, add("only-good")])
    return sloppy, good


async def test_a_saved_report_loads_back_the_same(tmp_path: Path):
    sloppy, _ = await sloppy_and_good()
    path = sloppy.save(tmp_path / "report.json")
    assert path == tmp_path / "report.json"
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]  # no temporary left
    again = Report.load(path)
    assert again.to_dict() == sloppy.to_dict()
    assert json.loads(path.read_text(encoding="utf-8"))["format"] == "dial-notebook-evaluation"
    assert again.actions["add-todo"].refused_by_code == {"invalid-payload": 4}
    assert repr(again) == "<Report scenarios=2 passed=1 failed=1>"


def test_a_file_that_is_not_a_saved_report_is_refused(tmp_path: Path):
    top = '"format": "dial-notebook-evaluation", "version": 1, "passed": 0, "failed": 1, '
    cases = {"a.json": "not json", "b.json": '{"format": "other"}', "c.json": "[1]",
             "d.json": '{"format": "dial-notebook-evaluation", "version": 99, "scenarios": []}',
             "e.json": "{" + top + '"actions": {}, "scenarios": [{"name": "x"}]}'}
    messages = {"a.json": r"a\.json: not valid JSON", "b.json": "not a saved evaluation report",
                "c.json": "not a saved evaluation report",
                "d.json": r"d\.json: version: unsupported report version 99",
                "e.json": r"e\.json: scenarios\[0\]: has no 'status'"}
    for name, text in cases.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        with pytest.raises(ValueError, match=messages[name]):
            Report.load(tmp_path / name)
    with pytest.raises(ValueError, match=r"not a scenario result: has no 'status'"):
        ScenarioResult.from_dict({"name": "x"})


@pytest.mark.stall_watchdog  # hostile: nothing may hold the loop (tests/conftest.py)
@pytest.mark.parametrize(("key", "value", "said"), [
    ("turns", "2", "turns: must be a whole number, not '2'"),
    ("turns", -1, "turns: must be ≥ 0, not -1"),
    ("seconds", True, "must be a number, not a boolean"),
    ("passed", "yes", "must be true or false, not 'yes'"),
    ("tokens", [1], "must be an object or null, not a list"),
    ("error", 3, "must be text or null, not 3"),
    ("reasons", ["ok", 1], "reasons[1]: must be text, not 1"),
    ("proposals", {"a": 1}, "must be a list, not an object"),
    ("transcript", [1], "transcript[0]: must be an object, not 1"),
    ("lint", None, "must be a list, not null"),
    ("proposals", [{"id": "s1", "action": "a", "payload": None, "status": "done",
                    "errors": "bad"}], "proposals[0].errors: must be a list, not 'bad'"),
])
async def test_a_tampered_report_is_refused_naming_the_scenario_and_field(
        tmp_path: Path, key: str, value: Any, said: str):
    report = await evaluate(agent=scripted(GOOD), domain=todo_domain(), scenarios=[add()])
    data = report.to_dict()
    data["scenarios"][0][key] = value
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ValueError, match=f"tampered\\.json: scenarios\\[0\\]\\.{key}") as raised:
        Report.load(path)
    assert said in str(raised.value)
    data["scenarios"][0] = report.to_dict()["scenarios"][0]
    path.write_text(json.dumps(data), encoding="utf-8")
    assert "<table>" in Report.load(path)._repr_html_()


async def test_to_frame_has_one_row_per_scenario_and_names_the_extra_without_pandas(
        monkeypatch):
    sloppy, good = await sloppy_and_good()
    frame = sloppy.to_frame()
    assert list(frame.columns) == ["name", "status", "turns", "proposals", "refused", "passed",
                                   "seconds", "tokens"]
    assert frame.to_dict("records")[0] | {"seconds": 0} == {
        "name": "add", "status": "idle", "turns": 4, "proposals": 3, "refused": 2,
        "passed": False, "seconds": 0, "tokens": None}
    both = compare(sloppy, good, names=["sloppy", "good"]).to_frame()
    assert both.loc["add", ("sloppy", "refused")] == 2
    assert both.loc["add", ("good", "passed")]
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match=r'pip install "dial-notebook\[data\]"'):
        sloppy.to_frame()
    with pytest.raises(ImportError, match=r'pip install "dial-notebook\[data\]"'):
        compare(sloppy).to_frame()


HOSTILE = "<img src=x onerror=alert(1)>"


@pytest.mark.stall_watchdog  # hostile: nothing may hold the loop (tests/conftest.py)
async def test_html_escapes_every_string_from_scenarios_and_agents():
    hostile_reply = f'<dial version="0.1" actor="agent"><dial-inform>{HOSTILE}</dial-inform>'
    report = await evaluate(agent=scripted(["<b>", hostile_reply]), domain=todo_domain(),
                            scenarios=[add(HOSTILE, actions=[HOSTILE])])
    for page in (report._repr_html_(), compare(report, names=[HOSTILE])._repr_html_()):
        assert "<img" not in page and "<b>" not in page
        assert "&lt;img src=x onerror=alert(1)&gt;" in page
    assert "<table>" in report._repr_html_()


# -- compare --------------------------------------------------------------------------------


async def test_compare_lines_a_sloppy_agent_up_against_a_good_one():
    sloppy, good = await sloppy_and_good()
    both = compare(sloppy, good, names=["sloppy", "good"])
    assert isinstance(both, Comparison)
    assert both.scenarios["add"] == {
        "sloppy": {"status": "idle", "passed": False, "turns": 4, "refused": 2},
        "good": {"status": "idle", "passed": True, "turns": 2, "refused": 0}}
    assert both.scenarios["only-sloppy"]["good"] is None
    assert both.scenarios["only-good"]["sloppy"] is None
    assert list(both.scenarios) == ["add", "only-sloppy", "only-good"]
    assert both.actions["add-todo"]["sloppy"]["invalid"] == 4
    assert both.actions["add-todo"]["good"]["invalid"] == 0
    data = both.to_dict()
    assert data["reports"] == ["sloppy", "good"] and data["passed"] == {"sloppy": 1, "good": 2}
    json.dumps(data)
    assert compare(sloppy, good).names == ["report 1", "report 2"]
    assert repr(both) == "<Comparison reports=['sloppy', 'good'] scenarios=3>"


async def test_compare_refuses_what_it_cannot_line_up():
    sloppy, good = await sloppy_and_good()
    with pytest.raises(ValueError, match="at least one report"):
        compare()
    with pytest.raises(TypeError, match="Report objects"):
        compare(sloppy, {"scenarios": []})  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="one name per report"):
        compare(sloppy, good, names=["one"])
    with pytest.raises(ValueError, match="distinct"):
        compare(sloppy, good, names=["x", "x"])


async def test_compare_with_the_offline_schema_agent_asked_for_good_and_broken_payloads():
    from dial_notebook.agents import SchemaDemoAgent

    domain = todo_domain()
    expect = {"actions": ["add-todo"], "payloads": {"add-todo": TITLE}}
    good = await evaluate(agent=lambda: SchemaDemoAgent(domain), domain=domain, scenarios=[
        {"name": "add", "say": ["add todo: buy milk"], "expect": expect}])
    broken = await evaluate(agent=lambda: SchemaDemoAgent(domain), domain=domain, scenarios=[
        {"name": "add", "say": ["invalid add-todo"], "expect": expect}])
    assert good["add"].passed and good.actions["add-todo"].done == 1
    assert good.actions["add-todo"].invalid == 0
    assert broken["add"].passed is False
    assert broken.actions["add-todo"].invalid >= 1
    assert sum(broken.actions["add-todo"].refused_by_code.values()) == (
        broken.actions["add-todo"].invalid)
    assert any("does not match the expected schema" in r for r in broken["add"].reasons)
    both = compare(good, broken, names=["good", "broken"])
    assert both.scenarios["add"]["good"]["refused"] == 0
    assert both.scenarios["add"]["broken"]["refused"] >= 1


# -- the report in a notebook ---------------------------------------------------------------

@pytest.mark.stall_watchdog  # hostile: nothing may hold the loop (tests/conftest.py)
async def test_the_report_draws_refusals_by_field_as_bars_with_the_field_names_escaped():
    hostile_field = suggest("add-todo", {"title": "milk", HOSTILE: 1}, "s1")
    report = await evaluate(agent=scripted([hostile_field, *SLOPPY]), domain=todo_domain(),
                            scenarios=[add()])
    page = report._repr_html_()
    assert "Refusals by field" in page
    stats = report.actions["add-todo"]
    # the domain names an unusual key in brackets
    assert stats.invalid == 3 and stats.refused_by_field[f"['{HOSTILE}']"] == 1
    bars = page[page.index("Refusals by field"):page.index("Conversations")]
    assert bars.count("border-radius:2px") == len(stats.refused_by_field)  # a bar a field
    assert "&lt;img src=x onerror=alert(1)&gt;" in bars and "<img" not in page


async def test_each_scenario_s_conversation_is_behind_a_disclosure_read_only():
    report = await evaluate(agent=scripted(GOOD), domain=todo_domain(),
                            scenarios=[{"name": "add <milk>", "say": ["add <b>milk</b>"]}])
    page = report._repr_html_()
    assert page.count("<details>") == 1
    drill = page[page.index("<details>"):]
    assert "add &lt;milk&gt; — passed" in drill
    assert 'class="dial-static"' in drill  # the widget's read-only renderer
    assert "add &lt;b&gt;milk&lt;/b&gt;" in drill  # the person's words, as text
    assert "<script" not in page and "<b>milk" not in page
    single = report["add <milk>"]._repr_html_()
    assert "passed · idle · 2 turns · 1 proposals, 0 refused" in single
    assert 'class="dial-static"' in single


async def test_the_renderer_s_style_sheet_is_in_the_report_once_however_many_scenarios():
    from dial_notebook.widget._static import STATIC_CSS

    report = await evaluate(agent=scripted(GOOD), domain=todo_domain(),
                            scenarios=[add(f"add {i}") for i in range(5)])
    page = report._repr_html_()
    assert page.count("<details><summary>add ") == 5
    assert page.count(STATIC_CSS) == 1


async def test_a_scenario_s_detail_lists_its_proposals_refusals_lint_time_and_tokens():
    class Metered(ScriptedAgent):
        usage: ClassVar[dict[str, int]] = {"input": 30, "output": 12, "total": 42}

    misspelt = f'<dial version="0.1" actor="agent"><dial-infrom>{HOSTILE}</dial-infrom></dial>'
    replies = [*SLOPPY[:3], misspelt]
    report = await evaluate(agent=lambda: Metered(replies), domain=todo_domain(),
                            scenarios=[add("sloppy")])
    result = report["sloppy"]
    page = result._repr_html_()
    assert " refused · " in page and f"{result.seconds:.2f} s · 42 tokens" in page
    table = page[page.index("<th>proposal</th>"):page.index("</table>")]
    for proposal in result.proposals:
        assert f"<td>{proposal['id']}</td><td>add-todo</td><td>{proposal['status']}</td>" in table
        for error in proposal["errors"]:
            assert html.escape(f"{error['code']} at {error['field']}: {error['hint']}") in table
    assert [p["status"] for p in result.proposals] == ["invalid", "invalid", "done"]
    [finding] = [f for f in result.lint if "dial-infrom" in f["message"]]
    assert f"turn {finding['turn']}, {finding['severity']} <code>{finding['code']}</code>" in page
    assert "<img" not in page and "&lt;img src=x" in page


async def test_each_name_in_the_table_links_to_its_conversation_below():
    names = ["add <milk>", 'say "hi" & go', "x" * 300]  # hostile, and long
    report = await evaluate(agent=scripted(GOOD), domain=todo_domain(),
                            scenarios=[{"name": name, "say": ["add milk"]} for name in names])
    page = report._repr_html_()
    table = page[:page.index("</table>")]
    links = re.findall(r"<td><a href=\"#([\w-]+)\">(.*?)</a></td>", table)
    assert [text for _, text in links] == [
        "add &lt;milk&gt;", "say &quot;hi&quot; &amp; go", "x" * 300]
    targets = [target for target, _ in links]
    assert len(set(targets)) == 3  # one per scenario, made of safe characters only
    drill = page[page.index("<details>"):]
    blocks = drill.split("<details>")[1:]
    for target, block, name in zip(targets, blocks, names, strict=True):
        content = block[block.index("</summary>"):]  # a name, not an id: JupyterLab leaves
        assert content.startswith(f'</summary><a name="{target}" ')  # it to the browser,
        assert f'id="{target}"' not in page  # which opens the closed disclosure to reach it
        assert block.startswith(f"<summary>{html.escape(name)} — ")
    # a second report in the same notebook has targets of its own
    again = re.findall(r'<a href="#([\w-]+)">', report._repr_html_())
    assert not set(again) & set(targets)
