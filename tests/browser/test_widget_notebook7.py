"""The ChatWidget in Notebook 7 (same server, /notebooks/…), in headless Chromium: a card is
accepted, a number and a confirm question are answered, a file is uploaded, and a second view of
the same widget shows the same pending card, still answerable."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from ._harness import NotebookPage, open_notebook, write_notebook

pytestmark = pytest.mark.browser

WIDGET_CELL = """\
from dial_notebook.widget import ChatWidget
domain = notes_domain()
chat = ChatWidget(agent=RuleAgent(), domain=domain, title="Notes (Notebook 7)")
chat"""


@pytest.fixture(scope="module")
def nb7(jupyter, browser_context) -> NotebookPage:
    name = write_notebook(jupyter["root"], "chat_nb7.ipynb", WIDGET_CELL)
    notebook = open_notebook(browser_context, jupyter["base"], name, app="notebook7")
    yield notebook
    notebook.page.close()


def test_accept_in_notebook_7_shows_done(nb7):
    nb7.say("add milk")
    card = nb7.card("add-milk")
    card.locator("[data-dial-action=accept]").click()
    expect(card).to_have_attribute("data-dial-status", "done")
    nb7.shot("card-done", card)


def test_the_static_copy_after_the_live_widget_is_hidden(nb7):
    """The conversation is shown once: the copy (for readers without a kernel) is the output
    right after the widget's, and chat.css hides it while the widget shows a conversation."""
    nb7.say("hello")
    expect(nb7.root.locator(".dial-log > *").first).to_be_visible()
    copy = nb7.page.locator(".jp-OutputArea-child:has(> .jp-OutputArea-output > .dial-static)")
    expect(copy).to_have_count(1)
    expect(copy.locator(".dial-static")).not_to_have_attribute("data-dial-events", "0")
    expect(copy).to_be_hidden()


def test_a_number_question_refuses_text_and_takes_a_number(nb7):
    nb7.say("number")
    ask = nb7.root.locator("[data-dial-ask]").last
    answer = ask.locator("[data-dial-field=answer]")
    answer.fill("many")
    answer.press("Enter")
    expect(ask.locator(".dial-local-error")).to_contain_text("Enter a number")
    expect(ask).to_have_attribute("data-dial-status", "pending")
    answer.fill("12")
    answer.press("Enter")
    expect(ask).to_have_attribute("data-dial-status", "answered")
    expect(nb7.root.locator(".dial-inform").last).to_contain_text("You said: 12")


def test_a_confirm_question_is_answered_yes(nb7):
    nb7.say("confirm")
    ask = nb7.root.locator("[data-dial-ask]").last
    ask.locator("[data-dial-option=yes]").click()
    expect(ask).to_have_attribute("data-dial-status", "answered")
    expect(nb7.root.locator(".dial-inform").last).to_contain_text("You said: yes")


def test_a_file_question_sends_name_and_size_and_python_gets_the_content(nb7, tmp_path):
    upload = tmp_path / "groceries.csv"
    upload.write_text("item,qty\nmilk,2\n")
    nb7.say("file")
    ask = nb7.root.locator("[data-dial-ask]").last
    ask.locator("[data-dial-field=answer]").set_input_files(str(upload))
    ask.locator("[data-dial-action=answer]").click()
    expect(ask).to_have_attribute("data-dial-status", "answered")
    expect(nb7.root.locator(".dial-inform").last).to_contain_text(
        "You said: groceries.csv (16 bytes)")


def test_a_second_view_shows_the_same_pending_card_still_answerable(nb7):
    nb7.say("add honey")
    expect(nb7.card("add-honey")).to_have_attribute("data-dial-status", "pending")
    nb7.page.evaluate("""() => {
        const nb = window.jupyterapp.shell.currentWidget.content;
        const at = nb.widgets.length;
        nb.model.sharedModel.insertCell(at, {cell_type: 'code', source: 'chat'});
        nb.activeCellIndex = at;
        window.jupyterapp.commands.execute('notebook:run-cell');
    }""")
    second = nb7.page.locator("[data-dial-root]").nth(1)
    card = second.locator('[data-dial-suggestion="add-honey"]')
    expect(card).to_have_attribute("data-dial-status", "pending")
    card.locator("[data-dial-action=accept]").click()
    expect(nb7.card("add-honey")).to_have_attribute("data-dial-status", "done")
    expect(card).to_have_attribute("data-dial-status", "done")
    nb7.shot("second-view", second)
