"""The EDA assistant notebook as a new user meets it in JupyterLab: Run All, then every request
its markdown lists, in the chat, with real clicks.

- Run All leaves ``sales`` as it was loaded (the unattended section works on its own copy);
- the chat shows its latest entries when it comes into view, and after a message typed there;
- ``describe sales`` shows its table on the card, numbers rounded, scrolling inside its box
  with the first column in view, and not repeated as a JSON blob;
- ``plot price against size`` shows the chart: the image really loads (``naturalWidth > 0``);
- the filter, the new column and the group-by change the notebook's frames once accepted;
- the undo hint names a variable that exists.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from playwright.sync_api import expect

from ._harness import NotebookPage, open_notebook, wait_for_every_cell

pytestmark = pytest.mark.browser

EDA = Path(__file__).resolve().parents[2] / "notebooks" / "eda-assistant.ipynb"


@pytest.fixture(scope="module")
def eda(jupyter, browser_context) -> NotebookPage:
    shutil.copy(EDA, jupyter["root"] / "eda-assistant.ipynb")
    notebook = open_notebook(browser_context, jupyter["base"], "eda-assistant.ipynb", app="lab")
    notebook.app = "eda"
    wait_for_every_cell(notebook.page)
    yield notebook
    notebook.page.close()


def done_card(nb: NotebookPage, action: str):
    card = nb.root.locator(f"[data-dial-suggestion]:has(.dial-action-name:text-is('{action}'))").last
    expect(card).to_have_attribute("data-dial-status", "done", timeout=15000)
    return card


def pending_card(nb: NotebookPage, action: str):
    card = nb.root.locator(f"[data-dial-suggestion]:has(.dial-action-name:text-is('{action}'))").last
    expect(card).to_have_attribute("data-dial-status", "pending", timeout=15000)
    return nb.card(card.get_attribute("data-dial-suggestion"))


def test_run_all_leaves_sales_as_it_was_loaded(eda):
    assert eda.kernel_value("(sales.shape, 'revenue' in sales.columns)") == "((200, 6), False)"


LOG_END = """() => { const log = document.querySelector('[data-dial-root] .dial-log');
    return log.scrollHeight - log.scrollTop - log.clientHeight; }"""


def test_the_chat_shows_its_latest_when_it_comes_into_view_and_after_a_message(eda):
    """Run All says to the chat while its cell is off screen: scrolled into view, the chat
    shows its latest entries; a message typed there brings it, and the reply, into view."""
    eda.page.set_viewport_size({"width": 1280, "height": 1000})
    eda.page.locator(".jp-Cell").last.scroll_into_view_if_needed()  # the chat off screen
    eda.page.wait_for_timeout(1500)
    eda.root.scroll_into_view_if_needed()
    eda.page.wait_for_function(f"({LOG_END}) () < 40", timeout=5000)
    people = eda.root.locator(".dial-person").count()
    eda.say("list the data frames")
    expect(eda.root.locator(".dial-person")).to_have_count(people + 1)
    eda.page.wait_for_timeout(1500)  # the reply drawn, its entries at their real size
    assert eda.page.evaluate(LOG_END) < 40
    eda.shot("log-follows", eda.root)


def test_describe_shows_a_readable_table_that_fits_its_card(eda):
    card = done_card(eda, "describe")  # the notebook's own chat.say("describe sales")
    table = card.locator("[data-dial-result] table")
    expect(table).to_be_visible()
    expect(card.locator(".dial-outcome")).not_to_contain_text('{"')  # no JSON blob
    cells = table.locator("td.dial-num").all_inner_texts()
    assert cells and all(len(text) <= 12 for text in cells)  # rounded, not 17 digits
    wrap = card.locator("[data-dial-result] .dial-table-wrap")
    fits = wrap.evaluate("""w => {
        const card = w.closest('[data-dial-suggestion]').getBoundingClientRect();
        const box = w.getBoundingClientRect();
        const first = w.querySelector('tbody td');
        return {inside: box.right <= card.right + 1 && box.left >= card.left - 1,
                scrolls: w.scrollWidth > w.clientWidth,
                sticky: getComputedStyle(first).position};
    }""")
    assert fits["inside"] and fits["sticky"] == "sticky"
    eda.shot("describe", card)
    if fits["scrolls"]:
        wrap.evaluate("w => { w.scrollLeft = w.scrollWidth; }")
        eda.page.wait_for_timeout(200)
        first = wrap.locator("tbody td").first
        box, cell = wrap.bounding_box(), first.bounding_box()
        assert cell["x"] >= box["x"] - 1  # the row names stay in view
        eda.shot("describe-scrolled", card)


def test_the_chart_is_the_domains_own_image_and_it_loads(eda):
    eda.say("plot price against size")
    card = done_card(eda, "plot")
    image = card.locator("[data-dial-result] img")
    expect(image).to_be_visible()
    eda.page.wait_for_function("img => img.complete && img.naturalWidth > 0",
                               arg=image.element_handle())
    expect(card).not_to_contain_text("base64")
    broken = eda.root.locator("img").evaluate_all(
        "imgs => imgs.filter((i) => i.complete && i.naturalWidth === 0).length")
    assert broken == 0
    eda.shot("chart", card)


def test_a_card_says_what_it_will_do_follows_the_edit_and_undo_takes_it_back(eda):
    """Review before it runs: the filter card's dry run (rows before → after) and its pandas
    code before Accept; an edit changes both; Undo on the done card turns it undone and the
    DataFrame in the kernel is back."""
    eda.page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    eda.say("filter sales where region is south")
    card = pending_card(eda, "filter-rows")
    rows = card.locator("[data-dial-dry-run-rows]")
    expect(rows).to_contain_text("200 → 49 rows")
    card.locator("[data-dial-toggle=code]").first.click()
    expect(card.locator("[data-dial-code]").first).to_contain_text(
        'sales = sales[sales["region"] == "South"]')
    card.locator("[data-dial-action=copy-code]").first.click()
    expect(card.locator("[data-dial-action=copy-code]").first).to_have_text("Copied")
    assert eda.page.evaluate("() => navigator.clipboard.readText()") == (
        'sales = sales[sales["region"] == "South"]')
    eda.shot("review-pending", card)
    card.locator("[data-dial-action=edit]").click()
    card.locator('[data-dial-path="where[0].value"] .dial-input').fill("North")
    edited = card.locator("[data-dial-dry-run-edit]")
    expect(edited).to_be_visible(timeout=10000)
    expect(card.locator("[data-dial-dry-run-rows]").first).to_contain_text("200 → 40 rows")
    eda.shot("review-edited", card)
    card.locator("[data-dial-action=save-edit]").click()
    expect(card).to_have_attribute("data-dial-status", "done")
    assert eda.kernel_value("sales.shape") == "(40, 6)"
    undo = card.locator("[data-dial-action=undo]")
    expect(undo).to_be_visible()
    undo.click()
    expect(card).to_have_attribute("data-dial-status", "undone", timeout=10000)
    assert eda.kernel_value("sales.shape") == "(200, 6)"
    assert eda.kernel_value("frames.code().count('sales = sales[')") == "0"
    eda.shot("review-undone", card)


def test_a_vega_lite_chart_is_drawn_as_an_image(eda):
    eda.say("plot price against units as vega-lite")
    card = done_card(eda, "plot")
    image = card.locator("[data-dial-chart=drawn] img").first
    expect(image).to_be_visible(timeout=20000)
    assert image.evaluate("i => i.complete && i.naturalWidth > 0")
    assert image.get_attribute("src").startswith("data:image/png;base64,")
    eda.shot("vega-lite", card)


def test_a_filter_accepted_really_changes_sales(eda):
    eda.say("filter sales where region is north")
    card = pending_card(eda, "filter-rows")
    card.locator("[data-dial-action=accept]").click()
    expect(card).to_have_attribute("data-dial-status", "done")
    assert eda.kernel_value("set(sales['region'])") == "{'North'}"
    expect(card.locator(".dial-card-ack")).to_contain_text("frames.undo_last()")
    assert eda.kernel_value("callable(frames.undo_last)") == "True"


def test_a_new_column_with_an_edited_expression(eda):
    eda.say("add a column revenue = price * units")
    card = pending_card(eda, "add-column")
    card.locator("[data-dial-action=edit]").click()
    expression = card.locator("[data-dial-path=expression] .dial-input")
    expect(expression).to_have_value("price * units")
    expression.fill("round(price * units, 2)")
    card.locator("[data-dial-action=save-edit]").click()
    expect(card).to_have_attribute("data-dial-status", "done")
    assert eda.kernel_value("'revenue' in sales.columns") == "True"


def test_totals_by_region_make_a_new_frame(eda):
    eda.say("total units by region")
    card = pending_card(eda, "group-aggregate")
    card.locator("[data-dial-action=accept]").click()
    expect(card).to_have_attribute("data-dial-status", "done")
    assert eda.kernel_value("type(sales_by_region).__name__") == "DataFrame"


def test_undo_in_the_chat_names_what_to_run(eda):
    eda.say("undo")
    reply = eda.root.locator("[data-dial-inform]").last
    expect(reply).to_contain_text("frames.undo_last()")
    eda.set_theme("JupyterLab Dark")
    eda.shot("dark", eda.root)
    eda.set_theme("JupyterLab Light")
