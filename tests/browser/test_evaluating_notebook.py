"""The evaluating notebook in JupyterLab, as a person runs it: Run All; each evaluation's bar
counts its twelve scenarios and ends green (every one passed) or amber (some failed); the
careful report's table and the sloppy report's bars of refusals by field are drawn; a
scenario's name opens its verdict, its proposals with the domain's code, field and hint, and
its conversation, read-only; the comparison lines the two agents up."""

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
    expect(bars).to_have_count(2)
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
