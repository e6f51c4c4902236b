"""The EDA-at-scale notebook as a person meets it in JupyterLab: Run All, then its markdown
followed to the letter, in the chat, with real clicks, on 30 million rows of Parquet.

- Run All makes the data set and leaves the chat's ``sales`` as the files are (the unattended
  section works on a domain of its own): the kept-code cell says no change was kept;
- ``describe sales`` (the notebook's own) shows its table, with the note that its quartiles
  are the engine's estimates;
- the filter card says what it will do, counted by the engine, and its Ibis code, before
  Accept; accepted, the chat's ``sales`` is the North only;
- the new column with an edited expression, the chart of the engine's group-by, the totals by
  region, and Undo on their card;
- the kept-code cell, run again, shows the steps accepted and not the one undone.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from playwright.sync_api import expect

from ._harness import NotebookPage, open_notebook, wait_for_every_cell

pytestmark = pytest.mark.browser

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "eda-at-scale.ipynb"
#: How long Run All may take here (making 30 million rows, describing them, the batch run).
RUN_ALL_MS = 180_000
#: How long a card may take to change (a query on 30 million rows, on a loaded machine).
CARD_MS = 30_000
#: The cell that prints the chat's kept code.
KEPT_CODE = "await task\nprint(tables.code())"


@pytest.fixture(scope="module")
def scale(jupyter, browser_context) -> NotebookPage:
    shutil.copy(NOTEBOOK, jupyter["root"] / NOTEBOOK.name)
    notebook = open_notebook(browser_context, jupyter["base"], NOTEBOOK.name, app="lab")
    notebook.app = "eda-at-scale"
    wait_for_every_cell(notebook.page, timeout=RUN_ALL_MS)
    yield notebook
    notebook.page.close()


def _cards(nb: NotebookPage, action: str):
    return nb.root.locator(f"[data-dial-suggestion]:has(.dial-action-name:text-is('{action}'))")


def _card(nb: NotebookPage, action: str, status: str, *, number: int = 0):
    """The ``number``-th card of ``action`` (from 0), once it has ``status``."""
    card = _cards(nb, action).nth(number)
    expect(card).to_have_attribute("data-dial-status", status, timeout=CARD_MS)
    return nb.card(card.get_attribute("data-dial-suggestion"))


def _shot(nb: NotebookPage, name: str, target) -> None:
    target.scroll_into_view_if_needed()
    nb.page.wait_for_timeout(300)  # painted once scrolled to
    nb.shot(name, target)


def _kept_code_cell(nb: NotebookPage):
    return nb.page.locator(".jp-CodeCell").filter(has_text="print(tables.code())")


def _run_kept_code_cell(nb: NotebookPage) -> None:
    nb.page.evaluate("""(source) => {
        const nb = window.jupyterapp.shell.currentWidget.content;
        nb.activeCellIndex = nb.widgets.findIndex(
            (c) => c.model.sharedModel.getSource() === source);
        window.jupyterapp.commands.execute('notebook:run-cell');
    }""", KEPT_CODE)


def test_run_all_makes_the_data_and_leaves_the_chats_sales_as_the_files_are(scale):
    printed = scale.page.locator(".jp-OutputArea-output").filter(has_text="rows · ").first
    expect(printed).to_contain_text("30,000,000 rows · ")
    expect(printed).to_contain_text("GB as a pandas DataFrame")
    expect(_kept_code_cell(scale)).to_contain_text("# (no changes were kept)")
    assert scale.kernel_value("list(tables.tables())") == "['sales']"
    assert scale.kernel_value("practice.code().count('# ')") != "0"  # the batch kept its own


def test_describe_shows_the_engines_table_and_says_its_quartiles_are_estimates(scale):
    card = _card(scale, "describe", "done")  # the notebook's own chat.say("describe sales")
    table = card.locator("[data-dial-result] table")
    expect(table).to_be_visible()
    expect(card).to_contain_text("30000000")  # the count of each column, by the engine
    expect(card).to_contain_text("estimates")
    _shot(scale, "describe", card)


def test_the_filter_card_says_what_it_will_do_and_accepted_changes_sales(scale):
    scale.say("filter sales where region is north")
    card = _card(scale, "filter-rows", "pending")
    expect(card.locator("[data-dial-dry-run-rows]")).to_contain_text(
        "30,000,000 → 7,501,584 rows", timeout=CARD_MS)
    card.locator("[data-dial-toggle=code]").first.click()
    expect(card.locator("[data-dial-code]").first).to_contain_text(
        'sales = sales.filter(sales["region"] == "North")')
    _shot(scale, "filter-pending", card)
    card.locator("[data-dial-action=accept]").click()
    expect(card).to_have_attribute("data-dial-status", "done", timeout=CARD_MS)
    assert scale.kernel_value(
        "sorted(set(tables.to_pandas('sales', limit=1000)['region']))") == "['North']"


def test_a_new_column_with_an_edited_expression(scale):
    scale.say("add a column revenue = price * units")
    card = _card(scale, "add-column", "pending")
    card.locator("[data-dial-action=edit]").click()
    expression = card.locator("[data-dial-path=expression] .dial-input")
    expect(expression).to_have_value("price * units")
    expression.fill("round(price * units, 2)")
    card.locator("[data-dial-action=save-edit]").click()
    expect(card).to_have_attribute("data-dial-status", "done", timeout=CARD_MS)
    assert scale.kernel_value("tables.table('sales').columns[-1]") == "revenue"


def test_the_chart_is_drawn_from_the_engines_group_by(scale):
    before = _cards(scale, "plot").count()  # the notebook's own vega-lite chart
    assert before == 1
    scale.say("plot price against size")
    card = _card(scale, "plot", "done", number=before)
    expect(card).to_contain_text("price")
    expect(card).to_contain_text("size")
    image = card.locator("[data-dial-result] img").first
    expect(image).to_be_visible(timeout=CARD_MS)
    scale.page.wait_for_function("img => img.complete && img.naturalWidth > 0",
                                 arg=image.element_handle())
    _shot(scale, "chart", card)


def test_totals_by_region_make_a_new_table_and_undo_takes_it_back(scale):
    scale.say("total units by region")
    card = _card(scale, "group-aggregate", "pending")
    card.locator("[data-dial-action=accept]").click()
    expect(card).to_have_attribute("data-dial-status", "done", timeout=CARD_MS)
    assert scale.kernel_value("sorted(tables.tables())") == "['sales', 'sales_by_region']"
    scale.say("undo")
    expect(scale.root.locator("[data-dial-inform]").last).to_contain_text("undo_last()")
    card.locator("[data-dial-action=undo]").click()
    expect(card).to_have_attribute("data-dial-status", "undone", timeout=CARD_MS)
    assert scale.kernel_value("sorted(tables.tables())") == "['sales']"
    _shot(scale, "undone", card)


def test_the_kept_code_cell_run_again_shows_the_steps_kept(scale):
    _run_kept_code_cell(scale)
    output = _kept_code_cell(scale).locator(".jp-OutputArea-output")
    expect(output).to_contain_text("# 1. Keep the rows of sales where region == 'North'",
                                   timeout=CARD_MS)
    expect(output).to_contain_text('sales = sales.filter(sales["region"] == "North")')
    expect(output).to_contain_text('"revenue": (sales["price"] * sales["units"]).round(2)')
    expect(output).not_to_contain_text("sales_by_region")  # undone: not kept
    expect(output).not_to_contain_text("no changes were kept")
    _shot(scale, "kept-code", _kept_code_cell(scale))
