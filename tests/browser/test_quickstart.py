"""The quickstart notebook, as a new user meets it: JupyterLab, Run All, then the person's path
(send, accept, edit with a validation error then a fix, dismiss), with the DemoAgent reacting."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from playwright.sync_api import expect

from ._harness import OUTPUT, NotebookPage, open_notebook

pytestmark = pytest.mark.browser

QUICKSTART = Path(__file__).resolve().parents[2] / "notebooks" / "quickstart.ipynb"
DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.fixture(scope="module")
def quickstart(jupyter, browser_context) -> NotebookPage:
    shutil.copy(QUICKSTART, jupyter["root"] / "quickstart.ipynb")
    notebook = open_notebook(browser_context, jupyter["base"], "quickstart.ipynb", app="lab")
    notebook.app = "quickstart"
    yield notebook
    notebook.page.close()


def pending_card(nb: NotebookPage):
    """The card waiting for the person, pinned by its id (its status will change)."""
    waiting = nb.root.locator("[data-dial-suggestion][data-dial-status=pending]").last
    expect(waiting).to_be_visible()
    return nb.card(waiting.get_attribute("data-dial-suggestion"))


def test_run_all_shows_the_card_the_notebook_asked_for_and_accepting_adds_the_note(quickstart):
    card = pending_card(quickstart)
    expect(card.locator(".dial-preview")).to_have_text("Add the note 'buy milk'")
    quickstart.shot("card", card)
    card.locator("[data-dial-action=accept]").click()
    expect(quickstart.root.locator("[data-dial-suggestion][data-dial-status=done]")).to_have_count(1)
    # the agent's acknowledgement is shown with the card it is about
    expect(card.locator(".dial-card-ack")).to_contain_text("You now have 3 notes")


def test_an_edit_refused_by_the_schema_then_fixed_is_added_and_the_agent_notices(quickstart):
    quickstart.say("add a note: water the plants")
    card = pending_card(quickstart)
    expect(card.locator(".dial-preview")).to_have_text("Add the note 'water the plants'")
    card.locator("[data-dial-action=edit]").click()
    field = card.locator("[data-dial-path=text] .dial-input")
    field.fill("")
    card.locator("[data-dial-action=save-edit]").click()
    expect(card.locator("[data-dial-path=text] .dial-field-error")).to_contain_text(
        "must not be empty")
    quickstart.shot("edit-refused", card)
    field.fill("water the plants on the balcony")
    card.locator("[data-dial-action=save-edit]").click()
    expect(card).to_have_attribute("data-dial-status", "done")
    expect(card.locator(".dial-card-ack")).to_contain_text("edited")


def test_dismissing_a_destructive_removal_is_acknowledged_with_the_next_words(quickstart):
    quickstart.say("remove note 1")
    card = pending_card(quickstart)
    expect(card.locator(".dial-preview")).to_contain_text("call the plumber")
    expect(card.locator(".dial-badge-danger")).to_be_visible()
    card.locator("[data-dial-action=dismiss]").click()
    expect(card).to_have_attribute("data-dial-status", "dismissed")
    quickstart.say("list notes")
    # "OK, I left that out." arrives with the next words, but reads as about the removal: it
    # is shown on the removal's card, not under "list notes" as if it refused that
    expect(card.locator(".dial-card-ack")).to_contain_text("left that out")
    expect(quickstart.root.locator("[data-dial-inform]", has_text="left that out")).to_have_count(0)
    path = quickstart.shot("conversation")
    DOCS.mkdir(exist_ok=True)
    shutil.copy(path, OUTPUT / "quickstart-for-readme.png")
