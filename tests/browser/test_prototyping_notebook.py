"""The prototyping notebook in JupyterLab, its "Click through it, offline" section followed to
the letter with real clicks: the offline SchemaDemoAgent proposes payloads made from the todo
domain's schemas, a broken one is refused before a card appears, and the edit form refuses a
person's bad edit with the domain's words."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from playwright.sync_api import expect

from ._harness import NotebookPage, open_notebook

pytestmark = pytest.mark.browser

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "prototyping-a-domain.ipynb"


@pytest.fixture(scope="module")
def proto(jupyter, browser_context) -> NotebookPage:
    shutil.copy(NOTEBOOK, jupyter["root"] / "prototyping.ipynb")
    notebook = open_notebook(browser_context, jupyter["base"], "prototyping.ipynb", app="lab")
    notebook.app = "prototyping"
    expect(notebook.root.locator("[data-dial-inform]").first).to_contain_text("add-todo")
    yield notebook
    notebook.page.close()


def latest_card(nb: NotebookPage, status: str):
    card = nb.root.locator(f"[data-dial-suggestion][data-dial-status={status}]").last
    expect(card).to_be_visible()
    return nb.card(card.get_attribute("data-dial-suggestion"))


def test_help_lists_the_actions(proto):
    helped = proto.root.locator("[data-dial-inform]").first
    expect(helped).to_contain_text("list-todos")
    expect(helped).to_contain_text("invalid add-todo")


def test_add_todo_proposes_a_payload_from_the_schema_and_accepting_runs_it(proto):
    proto.say("add todo")
    card = latest_card(proto, "pending")
    expect(card.locator(".dial-preview")).to_have_text("Add the todo 'Example title'")
    expect(card).to_contain_text('{"title": "Example title", "priority": "low", '
                                 '"due": "2030-01-15"}')
    card.locator("[data-dial-action=accept]").click()
    expect(card).to_have_attribute("data-dial-status", "done")
    expect(card).to_contain_text("Done: Add the todo 'Example title'.")
    expect(card).to_contain_text("count")
    proto.shot("add-todo", card)


def test_your_words_become_the_title(proto):
    proto.say("add todo: buy milk")
    card = latest_card(proto, "pending")
    expect(card.locator(".dial-preview")).to_have_text("Add the todo 'buy milk'")
    card.locator("[data-dial-action=accept]").click()
    expect(card).to_have_attribute("data-dial-status", "done")


def test_list_todos_runs_at_once_and_shows_the_result(proto):
    proto.say("list todos")
    card = proto.root.locator(
        "[data-dial-suggestion]:has(.dial-action-name:text-is('list-todos'))").last
    expect(card).to_have_attribute("data-dial-status", "done")
    expect(card.locator("[data-dial-action=accept]")).to_have_count(0)
    expect(card).to_contain_text("buy milk")


def test_a_broken_payload_never_becomes_a_card_and_the_agent_says_why(proto):
    before = proto.root.locator("[data-dial-suggestion]").count()
    proto.say("invalid add-todo")
    expect(proto.root.locator("[data-dial-inform]",
                              has_text="unexpected field 'priorty' (did you mean 'priority'?)")
           ).to_be_visible()
    card = latest_card(proto, "pending")  # the valid add-todo it proposes instead
    assert proto.root.locator("[data-dial-suggestion]").count() == before + 1
    proto.shot("broken-then-valid")
    # the edit form refuses the same mistake with the domain's words, the editor kept open
    card.locator("[data-dial-action=edit]").click()
    card.locator("[data-dial-view=json]").click()
    editor = card.locator("[data-dial-field=payload-json]")
    editor.fill(editor.input_value().replace('"priority"', '"priorty"'))
    card.locator("[data-dial-action=save-edit]").click()
    expect(card.locator("[data-dial-issue]")).to_contain_text(
        "unexpected field 'priorty' (did you mean 'priority'?)")
    expect(card.locator("[data-dial-field=payload-json]")).to_be_visible()
    proto.shot("edit-refused", card)
    expect(card.locator("[data-dial-issue]")).to_contain_text("tries left")  # counted down
    card.locator("[data-dial-view=form]").click()
    # the misspelt key has a row of its own in the form, its error beside it, and Remove
    typo = card.locator("[data-dial-path=priorty]")
    expect(typo).to_contain_text("priorty is not a field of this action")
    expect(typo).to_contain_text("did you mean 'priority'?")
    proto.shot("form-unknown-field", card)
    typo.locator("[data-dial-action=remove-field]").click()
    expect(card.locator("[data-dial-path=priorty]")).to_have_count(0)
    title = card.locator("[data-dial-path=title] .dial-input")
    title.fill("")
    card.locator("[data-dial-action=save-edit]").click()
    expect(card.locator("[data-dial-path=title] .dial-field-error")).to_contain_text(
        "title must not be empty")
    card.locator("[data-dial-action=cancel-edit]").click()
    card.locator("[data-dial-action=dismiss]").click()
    expect(card).to_have_attribute("data-dial-status", "dismissed")


def test_your_own_payload_is_sent_as_written_and_refused(proto):
    proto.say('add-todo {"title": "Call Sam", "due": "next week"}')
    expect(proto.root.locator("[data-dial-inform]",
                              has_text="due must be a date like 2024-01-31")).to_be_visible()


def test_all_proposes_each_action_and_a_dismissal_is_acknowledged(proto):
    proto.say("all")
    card = latest_card(proto, "pending")
    card.locator("[data-dial-action=dismiss]").click()
    expect(card).to_have_attribute("data-dial-status", "dismissed")
    expect(card.locator(".dial-card-ack")).to_contain_text(
        "OK, I left that out: Add the todo 'Example title'.")
    proto.shot("all")
