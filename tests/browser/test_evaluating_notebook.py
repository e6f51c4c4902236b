"""The evaluating notebook in JupyterLab, as a person runs it: Run All; each evaluation's bar
counts its twelve scenarios and ends green (every one passed) or amber (some failed); the
careful report's table and the sloppy report's bars of refusals by field are drawn; a
scenario's name opens its verdict, its proposals with the domain's code, field and hint, and
its conversation, read-only; the comparison lines the two agents up. Then the section "Learn
from what the person decided", as its markdown says: a recorded day (accepted, edited with a
comment, dismissed with a reason) printed as a readable scenario; the careful agent's replay
agrees on every decision and the sloppy one's disagreements are listed by kind, each replay
with its bar; compare() lines the two up; the scenario shared with drop= keeps no prose."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from playwright.sync_api import expect

from ._harness import NotebookPage, open_notebook, wait_for_every_cell

pytestmark = pytest.mark.browser

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "evaluating-a-domain.ipynb"
BARS = ".dial-evaluation-progress"


@pytest.fixture(scope="module")
def evaluating(jupyter, browser_context) -> NotebookPage:
    shutil.copy(NOTEBOOK, jupyter["root"] / "evaluating.ipynb")
    errors: list[str] = []
    notebook = open_notebook(browser_context, jupyter["base"], "evaluating.ipynb", app="lab",
                             ready=BARS)
    notebook.page.on("pageerror", lambda error: errors.append(str(error)))
    notebook.app = "evaluating"
    notebook.errors = errors
    wait_for_every_cell(notebook.page)
    yield notebook
    notebook.page.close()


def output_of(nb: NotebookPage, text: str):
    """The output area of the cell whose source contains ``text``."""
    cell = nb.page.locator(".jp-CodeCell").filter(
        has=nb.page.locator(".jp-InputArea", has_text=text))
    return cell.locator(".jp-OutputArea").first


def test_each_evaluation_s_bar_counts_its_scenarios_and_ends_in_its_colour(evaluating):
    bars = evaluating.page.locator(BARS)
    expect(bars).to_have_count(4)  # the two evaluations', then the two replays' (below)
    careful, sloppy = bars.nth(0), bars.nth(1)
    expect(careful).to_contain_text("12 scenarios · 12 passed · 0 failed · ")
    expect(sloppy).to_contain_text("12 scenarios · 5 passed · 7 failed · ")
    expect(careful.locator(".progress-bar")).to_have_class("progress-bar progress-bar-success")
    expect(sloppy.locator(".progress-bar")).to_have_class("progress-bar progress-bar-warning")
    # full: the bar's width is the whole track
    width = careful.locator(".progress-bar").evaluate("(b) => b.style.width")
    assert width == "100%"
    careful.scroll_into_view_if_needed()
    evaluating.shot("progress", output_of(evaluating, "careful = await evaluate"))


def test_the_careful_report_is_a_table_with_every_scenario_passed(evaluating):
    report = output_of(evaluating, "careful = await evaluate")
    rows = report.locator("table").first.locator("tbody tr")
    expect(rows).to_have_count(12)
    assert rows.locator("td:nth-child(6)").all_inner_texts() == ["✓"] * 12


def test_a_scenario_s_name_opens_its_proposals_and_conversation_read_only(evaluating):
    report = output_of(evaluating, "sloppy = await evaluate")
    details = report.locator("details").filter(
        has=evaluating.page.locator("summary", has_text="add buy milk — failed"))
    conversation = details.locator(":scope > .dial-static")
    expect(conversation).to_be_hidden()
    details.locator(":scope > summary").click()
    expect(conversation).to_be_visible()
    expect(details).to_contain_text("expected at most 2 turns; it took 3")
    refused = details.locator("table tbody tr").first
    expect(refused).to_contain_text("invalid")
    expect(refused).to_contain_text("priorty")
    expect(conversation).to_contain_text("add todo: buy milk")
    # read-only: the static copy has no buttons, no fields
    assert conversation.locator("button, input, textarea").count() == 0
    details.scroll_into_view_if_needed()
    evaluating.shot("drill-down", details)


def test_a_name_in_the_table_opens_its_conversation_below(evaluating):
    report = output_of(evaluating, "sloppy = await evaluate")
    details = report.locator("details").filter(
        has=evaluating.page.locator("summary", has_text="add call Sam — "))
    summary = details.locator(":scope > summary")
    conversation = details.locator(":scope > .dial-static")
    expect(conversation).to_be_hidden()
    link = report.locator("table").first.get_by_role(
        "link", name="add call Sam", exact=True)
    link.evaluate("(a) => a.scrollIntoView({block: 'end'})")  # the list is out of view
    expect(summary).not_to_be_in_viewport()
    link.click()
    expect(summary).to_be_in_viewport()
    expect(conversation).to_be_visible()  # opened by the click, no script
    assert details.evaluate("(d) => d.open")
    expect(evaluating.page.locator(".jp-NotebookPanel")).to_be_visible()  # still the notebook
    evaluating.shot("name-opens", details)
    summary.click()  # and its own name closes it again
    expect(conversation).to_be_hidden()


def test_the_sloppy_report_draws_refusals_by_field(evaluating):
    report = output_of(evaluating, "sloppy = await evaluate")
    expect(report).to_contain_text("add-todo: 10 refused, by field")
    drawn = report.locator("span[style*='border-radius:2px']")
    expect(drawn).to_have_count(3)
    widths = [int(w.rstrip("px")) for w in drawn.evaluate_all(
        "(spans) => spans.map((s) => s.style.width)")]
    assert widths[0] == 160 and widths[0] > widths[1] >= widths[2]  # priorty's 8 first
    drawn.first.scroll_into_view_if_needed()
    evaluating.shot("refusals", report.locator(
        "div:has(> p > strong:text-is('Refusals by field'))"))


def test_the_comparison_lines_the_two_agents_up_and_nothing_errs(evaluating):
    compared = output_of(evaluating, "comparison = compare(")
    expect(compared).to_contain_text("careful")
    expect(compared).to_contain_text("sloppy")
    expect(compared.locator("table").first).to_be_visible()
    assert evaluating.page.locator(".jp-OutputArea-output[data-mime-type*='error']").count() == 0
    assert evaluating.errors == []


def printed_by(nb: NotebookPage, text: str) -> str:
    """What the cell whose source contains ``text`` printed, line by line as shown."""
    printed = output_of(nb, text).locator(".jp-RenderedText[data-mime-type*='stdout']")
    expect(printed.first).to_be_visible()
    return "\n".join(text.rstrip("\n") for text in printed.all_text_contents())


def test_the_recorded_day_becomes_a_scenario_a_person_can_read(evaluating):
    day = printed_by(evaluating, "day = Conversation(")
    assert [line.split("→")[1].strip() for line in day.splitlines()] == [
        "[('add-todo', 'done')]", "[('add-todo', 'done')]", "[('add-todo', 'dismissed')]",
        "[('list-todos', 'done')]"]
    scenario = printed_by(evaluating, "learned = Scenario.from_session(")
    assert scenario.startswith("- name: todo-day\n  say:\n  - 'add todo: buy milk'\n")
    assert "  - list todos\n" in scenario
    kinds = [line.strip() for line in scenario.splitlines() if "- kind:" in line]
    assert kinds == ["- kind: accepted", "- kind: corrected", "- kind: dismissed"]
    corrected = scenario.split("- kind: corrected")[1].split("- kind: dismissed")[0]
    assert "priority: high" in corrected.split("original:")[0]  # what the person made it
    assert "priority: low" in corrected.split("original:")[1]   # what the agent proposed
    assert "field: /priority" in corrected and "text: He is waiting for it." in corrected
    assert scenario.rstrip().endswith("reason: done already")
    output_of(evaluating, "learned = Scenario.from_session(").scroll_into_view_if_needed()
    evaluating.shot("learned-scenario", output_of(evaluating, "learned = Scenario.from_session("))


def test_the_careful_replay_agrees_on_every_decision_under_a_green_bar(evaluating):
    output = output_of(evaluating, "careful_day = await replay_decisions(")
    bar = output.locator(BARS)
    expect(bar).to_contain_text("1 scenario · 1 passed · 0 failed · ")
    expect(bar.locator(".progress-bar")).to_have_class("progress-bar progress-bar-success")
    assert printed_by(evaluating, "careful_day = await replay_decisions(").splitlines() == [
        "1 scenario: 1 passed, 0 failed",
        "agrees with the person on 3 of 3 decisions (1 still needs the edit, 1 proposed again)"]


def test_the_sloppy_replay_fails_and_its_disagreements_are_listed_by_kind(evaluating):
    output = output_of(evaluating, "sloppy_day = await replay_decisions(")
    bar = output.locator(BARS)
    expect(bar).to_contain_text("1 scenario · 0 passed · 1 failed · ")
    expect(bar.locator(".progress-bar")).to_have_class("progress-bar progress-bar-warning")
    lines = printed_by(evaluating, "sloppy_day = await replay_decisions(").splitlines()
    assert lines[:2] == ["1 scenario: 0 passed, 1 failed",
                         "agrees with the person on 1 of 3 decisions (2 missed, 3 new)"]
    assert lines[2].startswith("  FAILED todo-day (idle): the person accepted a proposal of "
                               "add-todo; nothing like it was proposed;")
    assert lines[3:6] == ["", "missed add-todo  what the person accepted",
                          "missed add-todo  what the person corrected"]
    new = lines[6:]
    assert len(new) == 3 and all(line.startswith("new    add-todo  todo-") for line in new)
    assert all(line.endswith(": {'title': 'Example title', 'priority': 'low', "
                             "'due': '2030-01-15'}") for line in new)
    output.scroll_into_view_if_needed()
    evaluating.shot("sloppy-replay", output)


def test_compare_lines_the_replays_up_with_each_agent_s_agreement(evaluating):
    compared = output_of(evaluating, "compare(careful_day, sloppy_day")
    row = compared.locator("table tbody tr")
    expect(row).to_have_count(1)
    assert [c.strip()[:1] for c in row.locator("td").all_text_contents()] == ["t", "✓", "✗"]
    expect(row.locator("td").first).to_have_text("todo-day")
    said = compared.locator("p").all_text_contents()
    assert said == [
        "careful: agrees with the person on 3 of 3 decisions "
        "(1 still needs the edit, 1 proposed again)",
        "sloppy: agrees with the person on 1 of 3 decisions (2 missed, 3 new)"]
    compared.scroll_into_view_if_needed()
    evaluating.shot("replays-compared", compared)


def test_the_shared_scenario_keeps_no_prose_and_no_dropped_field(evaluating):
    decisions = printed_by(evaluating, "shared = Scenario.from_session(").splitlines()
    assert [d.split("'kind': ")[1].split("'")[1] for d in decisions] == [
        "accepted", "corrected", "dismissed"]
    assert all(d.endswith("'dropped': ['due']}") for d in decisions)
    assert not any("reason" in d or "comments" in d or "2030" in d for d in decisions)
    result = output_of(evaluating, "shared = Scenario.from_session(")
    expect(result.locator(".jp-OutputArea-output").last).to_have_text("(False, False)")
    assert evaluating.page.locator(".jp-OutputArea-output[data-mime-type*='error']").count() == 0
    assert evaluating.errors == []
