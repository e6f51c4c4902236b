"""The notebooks as Voilà apps (``voila DIR``, nothing configured): no code shows, the chat
works as in JupyterLab (send, accept, edit refused then fixed, dismiss) and the notebook's own
live views follow it; in the EDA app, an accepted filter really changes ``sales``."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from playwright.sync_api import expect

from . import _quickstart_steps as steps
from ._harness import OUTPUT, NotebookPage, write_notebook

pytestmark = pytest.mark.browser

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"


def open_app(voila, browser_context, name: str) -> NotebookPage:
    shutil.copy(NOTEBOOKS / name, voila["root"] / name)
    page = browser_context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{voila['base']}/voila/render/{name}")
    app = NotebookPage(page, "voila-" + name.removesuffix(".ipynb"))
    app.root.wait_for(timeout=90000)
    app.errors = errors
    return app


def notes_of(app: NotebookPage):
    """The quickstart's live list of notes (an ipywidgets.HTML the notebook redraws)."""
    return app.page.locator(".widget-html", has_text="Notes")


@pytest.fixture(scope="module")
def quickstart(voila, browser_context) -> NotebookPage:
    app = open_app(voila, browser_context, "quickstart.ipynb")
    yield app
    app.page.close()


def test_the_quickstart_app_shows_its_text_and_chat_and_no_code(quickstart):
    page = quickstart.page
    expect(page.get_by_role("heading", name="dial-notebook quickstart")).to_be_visible()
    expect(quickstart.root.locator(".dial-title")).to_have_text("Notes assistant")
    # Voilà shows outputs only: the cells' code is not on the page
    assert "NotesDomain([" not in page.locator("body").inner_text()
    expect(notes_of(quickstart)).to_contain_text("note 1: call the plumber")


def test_in_voila_a_card_is_accepted_and_the_live_notes_follow(quickstart):
    steps.accept_the_first_card(quickstart)
    expect(notes_of(quickstart).locator("li")).to_have_text([
        "note 1: call the plumber", "note 2: book the dentist", "note 3: buy milk"])


def test_in_voila_an_edit_refused_by_the_schema_then_fixed_is_added(quickstart):
    steps.edit_refused_then_fixed(quickstart)
    expect(notes_of(quickstart).locator("li").last).to_have_text(
        "note 4: water the plants on the balcony")


def test_in_voila_a_dismissed_removal_removes_nothing(quickstart):
    steps.dismiss_the_removal(quickstart)
    notes = notes_of(quickstart)
    expect(notes.locator("li")).to_have_count(4)
    expect(notes.locator("li").first).to_have_text("note 1: call the plumber")
    quickstart.page.screenshot(path=str(OUTPUT / "voila-quickstart-app.png"))
    notes.screenshot(path=str(OUTPUT / "voila-quickstart-notes.png"))
    assert quickstart.errors == []


def test_a_note_written_as_html_is_shown_as_text_in_the_live_view(quickstart):
    """A note's text is words from the agent (or typed): the notebook's view escapes it."""
    attack = "<img src=x onerror=\"window.__pwned=1\"><b>bold</b>"
    quickstart.say(f"add a note: {attack}")
    card = quickstart.pending_card()
    card.locator("[data-dial-action=accept]").click()
    expect(card).to_have_attribute("data-dial-status", "done")
    notes = notes_of(quickstart)
    expect(notes.locator("li").last).to_have_text(f"note 5: {attack}")
    expect(notes.locator("img, li b")).to_have_count(0)
    assert quickstart.page.evaluate("() => window.__pwned") is None


def test_the_eda_app_filters_sales_for_real(voila, browser_context):
    app = open_app(voila, browser_context, "eda-assistant.ipynb")
    try:
        now = app.page.locator(".widget-html", has_text="rows ×")
        expect(now).to_contain_text("200 rows × 6 columns")
        # the notebook's own say() cells ran: the description, then the chart
        expect(app.root.locator("[data-dial-suggestion][data-dial-status=done]")).to_have_count(
            2, timeout=60000)
        app.say("filter sales where region is north")
        card = app.pending_card()
        expect(card).to_contain_text("200 → 40 rows")
        card.locator("[data-dial-action=accept]").click()
        expect(card).to_have_attribute("data-dial-status", "done")
        expect(now).to_contain_text("40 rows × 6 columns")
        expect(now.locator("td", has_text="North").first).to_be_visible()
        expect(now.locator("td", has_text="South")).to_have_count(0)
        app.page.screenshot(path=str(OUTPUT / "voila-eda-app.png"))
        now.screenshot(path=str(OUTPUT / "voila-eda-sales-now.png"))
        assert app.errors == []
    finally:
        app.page.close()


def test_in_voila_the_static_copy_after_the_live_widget_is_hidden(voila, browser_context):
    """The conversation is shown once: the copy (for readers without a kernel) is the output
    right after the widget's, and chat.css hides it while the widget shows a conversation
    (Voilà puts the widget at its own depth in the output: chat.css looks a few levels down)."""
    name = write_notebook(voila["root"], "copy_hidden.ipynb", (
        "from dial_notebook.widget import ChatWidget\n"
        "chat = ChatWidget(agent=RuleAgent(), domain=notes_domain(), title='Earlier',\n"
        "                  transcript=[{'type': 'person', 'text': 'hello from before'}])\n"
        "chat"))
    page = browser_context.new_page()
    page.goto(f"{voila['base']}/voila/render/{name}")
    try:
        expect(page.locator("[data-dial-root] .dial-log")).to_contain_text("hello from before",
                                                                           timeout=90000)
        copy = page.locator(".jp-OutputArea-child:has(> .jp-OutputArea-output > .dial-static)")
        expect(copy).to_have_count(1)
        expect(copy.locator(".dial-static")).to_have_attribute("data-dial-events", "1")
        expect(copy).to_be_hidden()
    finally:
        page.close()
