"""notebooks/teaching-dial.ipynb in JupyterLab 4, in headless Chromium: run all, pick the suggest
example, send it as the agent, accept the card as the person, and read the outcome reply the
agent receives. Screenshots (light and dark) go to tests/browser/output/teaching-*.png."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from playwright.sync_api import expect

from ._harness import OUTPUT, NotebookPage, open_notebook

pytestmark = pytest.mark.browser

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "teaching-dial.ipynb"


@pytest.fixture(scope="module")
def lab(jupyter, browser_context) -> NotebookPage:
    shutil.copy(NOTEBOOK, jupyter["root"] / NOTEBOOK.name)
    notebook = open_notebook(browser_context, jupyter["base"], NOTEBOOK.name, app="lab")
    notebook.page.set_viewport_size({"width": 1280, "height": 2200})
    notebook.page.locator(".dpg-root").first.wait_for(timeout=60000)
    yield notebook
    notebook.page.close()


def shot(lab: NotebookPage, name: str, *, page: bool = False) -> None:
    """The playground (and with ``page``, the whole JupyterLab window) as teaching-NAME.png."""
    root = lab.page.locator(".dpg-root").first
    root.scroll_into_view_if_needed()
    root.screenshot(path=str(OUTPUT / f"teaching-{name}.png"))
    if page:
        lab.page.screenshot(path=str(OUTPUT / f"teaching-{name}-page.png"))


def pick(lab: NotebookPage, label: str) -> None:
    menu = lab.page.locator(".dpg-root .widget-dropdown select").first
    menu.select_option(label=label)


def test_run_all_shows_the_playground_with_clean_panels(lab):
    root = lab.page.locator(".dpg-root").first
    expect(root.locator(".dpg-editor textarea")).to_have_value(re.compile('action="add-note"'))
    expect(root.locator(".dpg-ok")).to_contain_text("No findings")
    expect(root.locator("[data-dial-root]")).to_be_visible()


def test_the_suggest_example_sent_and_accepted_shows_the_outcome_reply(lab):
    root = lab.page.locator(".dpg-root").first
    pick(lab, "inform · render=\"prose\"")
    expect(root.locator(".dpg-editor textarea")).to_have_value(
        '<dial version="0.1" actor="agent">\n'
        '  <dial-inform id="greeting" render="prose">\n'
        "    Hello! I can add, list and remove your notes.\n"
        "  </dial-inform>\n</dial>")
    pick(lab, "suggest · with its own payload")
    expect(root.locator(".dpg-tree .dpg-tag").first).to_have_text("suggest")
    shot(lab, "light")
    root.get_by_role("button", name="Send as the agent").click()
    card = root.locator('[data-dial-suggestion="sg-milk"]')
    expect(card).to_have_attribute("data-dial-status", "pending")
    expect(card.locator(".dial-preview")).to_have_text("Add the note 'buy milk'")
    card.locator("[data-dial-action=accept]").click()
    expect(card).to_have_attribute("data-dial-status", "done")
    received = root.locator("[data-dpg-received]")
    expect(received).to_contain_text('yield="sg-milk:done"')
    expect(received).to_contain_text('"status":"done"')
    shot(lab, "accepted", page=True)


def test_the_malformed_example_shows_repairs_and_the_xml_error(lab):
    root = lab.page.locator(".dpg-root").first
    pick(lab, "malformed · what LLMs really write")
    expect(root.locator(".dpg-repair")).to_have_count(3)
    findings = root.locator(".dpg-finding")
    expect(findings).to_have_count(2)
    expect(findings.nth(0)).to_contain_text("Did you mean 'dial-inform'?")
    expect(findings.nth(1)).to_contain_text("not-well-formed")
    expect(findings.nth(1)).to_contain_text("line 3, column 36")
    shot(lab, "malformed")


def test_the_playground_reads_well_in_the_dark_theme(lab):
    lab.set_theme("JupyterLab Dark")
    try:
        pick(lab, "ask · response-type=\"choice\"")
        root = lab.page.locator(".dpg-root").first
        expect(root.locator(".dpg-tree").first).to_contain_text("groceries")
        shot(lab, "dark")
    finally:
        lab.set_theme("JupyterLab Light")
