"""What a new user hits in their first ten minutes, in JupyterLab 4 with a real kernel:

- keys typed into the widget stay in the widget: Shift+Enter in the chat box does not re-run
  the cell (a new widget, the conversation lost), nor do JupyterLab's command-mode keys act on
  the notebook while a widget control has the focus;
- after a kernel restart the widget says it is disconnected and disables its controls, instead
  of looking alive and dropping clicks;
- an edit refused twice says it is the last try, and a stale field error goes when the field
  is changed;
- words written while the agent is still answering follow its reply;
- a list result reads as a table on its card, not as JSON.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from ._harness import NotebookPage, open_notebook, wait_for_every_cell, write_notebook

pytestmark = pytest.mark.browser

CELL = """\
from dial_notebook.widget import ChatWidget
domain = notes_domain()
chat = ChatWidget(agent=RuleAgent(slow_seconds=3), domain=domain, title="Notes assistant")
chat"""

NOTEBOOK_STATE = """() => {
    const panel = window.jupyterapp.shell.currentWidget;
    const cells = panel.content.widgets;
    return {cells: cells.length,
            counts: cells.map((c) => c.model.type === 'code' ? c.model.executionCount : null),
            types: cells.map((c) => c.model.type)};
}"""


@pytest.fixture(scope="module")
def lab(jupyter, browser_context) -> NotebookPage:
    name = write_notebook(jupyter["root"], "first_minutes.ipynb", CELL)
    notebook = open_notebook(browser_context, jupyter["base"], name, app="lab")
    wait_for_every_cell(notebook.page)
    yield notebook
    notebook.page.close()


def mark_root(lab: NotebookPage) -> None:
    lab.root.evaluate("node => { node.dataset.testMark = 'original'; }")


def same_widget_and_notebook(lab: NotebookPage, before: dict) -> None:
    lab.page.wait_for_timeout(600)  # a re-run would have replaced the output by now
    assert lab.page.evaluate(NOTEBOOK_STATE) == before
    assert lab.page.locator("[data-dial-root][data-test-mark=original]").count() == 1


def test_keys_typed_into_the_widget_stay_in_the_widget(lab):
    mark_root(lab)
    before = lab.page.evaluate(NOTEBOOK_STATE)
    box = lab.root.locator("[data-dial-field=say]")
    box.click()
    box.type("hello a b d m")
    box.press("Shift+Enter")  # a new line in the message, not a run of the cell
    for key in ("Escape", "ArrowUp", "ArrowDown", "ArrowLeft"):
        box.press(key)
    same_widget_and_notebook(lab, before)
    assert box.input_value() == "hello a b d m\n"
    box.press("Control+Enter")  # sends, as Enter does: the widget's, not the notebook's
    expect(lab.root.locator("[data-dial-inform]", has_text="You said: hello a b d m")).to_be_visible()
    same_widget_and_notebook(lab, before)
    lab.say("add tea")
    card = lab.card("add-tea")
    card.locator("[data-dial-action=edit]").click()
    field = card.locator("[data-dial-path=text] .dial-input")
    field.click()
    for key in ("Shift+Enter", "a", "b", "d", "d", "m", "ArrowLeft"):
        field.press(key)
    same_widget_and_notebook(lab, before)
    card.locator("[data-dial-view=json]").click()
    json_box = card.locator("[data-dial-field=payload-json]")
    json_box.click()
    for key in ("Shift+Enter", "a", "d", "d", "ArrowUp"):
        json_box.press(key)
    same_widget_and_notebook(lab, before)
    json_box.press("Escape")  # the widget's own Escape: leaves the editor, nothing else
    accept = card.locator("[data-dial-action=accept]")
    accept.focus()
    for key in ("a", "b", "d", "d", "m"):  # (Enter on a button clicks it, as it should)
        lab.page.keyboard.press(key)
    same_widget_and_notebook(lab, before)
    expect(card).to_have_attribute("data-dial-status", "pending")
    card.locator("[data-dial-action=dismiss]").click()
    expect(card).to_have_attribute("data-dial-status", "dismissed")


def test_the_question_panel_keeps_its_keys_too(lab):
    before = lab.page.evaluate(NOTEBOOK_STATE)
    lab.say("ask")
    answer = lab.root.locator("[data-dial-ask][data-dial-status=pending] [data-dial-field=answer]")
    lab.root.locator("[data-dial-ask][data-dial-status=pending] [data-dial-option=home]").click()
    expect(answer).to_be_visible()
    answer.click()
    for key in ("Shift+Enter", "a", "b", "d", "d", "m"):
        answer.press(key)
    same_widget_and_notebook(lab, before)
    answer.fill("nothing")
    answer.press("Enter")


def test_an_edit_refused_twice_says_it_is_the_last_try_and_stale_errors_go(lab):
    lab.say("add juice")
    card = lab.card("add-juice")
    card.locator("[data-dial-action=edit]").click()
    field = card.locator("[data-dial-path=text] .dial-input")
    for attempt in (1, 2):
        field.fill("")
        card.locator("[data-dial-action=save-edit]").click()
        tries = card.locator("[data-dial-edits-left]")
        expect(tries).to_have_attribute("data-dial-edits-left", str(3 - attempt))
        field = card.locator("[data-dial-path=text] .dial-input")
    expect(tries).to_contain_text("Last try")
    lab.shot("edit-last-try", card)
    error = card.locator("[data-dial-path=text] .dial-field-error")
    expect(error).to_contain_text("must not be empty")
    field.type("orange juice")
    expect(error).to_have_count(0)  # about the old value: gone once the field changes
    card.locator("[data-dial-action=save-edit]").click()
    expect(card).to_have_attribute("data-dial-status", "done")


def test_words_written_while_the_agent_answers_follow_its_reply(lab):
    lab.say("slow")
    expect(lab.root.locator(".dial-thinking")).to_be_visible()
    lab.say("add cake")
    queued = lab.root.locator("[data-dial-queued] .dial-person-queued")
    expect(queued).to_contain_text("add cake")
    expect(queued).to_contain_text("Sent when the agent has finished answering")
    lab.shot("queued")
    expect(lab.card("add-cake")).to_be_visible(timeout=15000)
    expect(queued).to_have_count(0)
    order = lab.root.locator(".dial-log > .dial-log-block > *").evaluate_all(
        "nodes => nodes.map((n) => n.textContent)")
    reply = next(i for i, t in enumerate(order) if "Sorry for the wait" in t)
    words = next(i for i, t in enumerate(order) if t.strip() == "add cake")
    assert reply < words
    lab.card("add-cake").locator("[data-dial-action=dismiss]").click()


def test_a_list_result_reads_as_a_table_on_its_card(lab):
    lab.say("list")
    card = lab.card("list")
    expect(card).to_have_attribute("data-dial-status", "done")
    result = card.locator("[data-dial-result]")
    expect(result.locator("th")).to_have_text(["id", "text"])
    expect(result).to_contain_text("buy milk")
    expect(card.locator(".dial-outcome")).not_to_contain_text('"text"')  # no JSON
    lab.shot("list-result", card)


def test_after_a_kernel_restart_the_widget_says_so_and_is_disabled(lab):
    lab.page.evaluate(
        "() => window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.restart()")
    note = lab.root.locator(".dial-disconnected-note")
    expect(note).to_have_text(
        "The kernel restarted, so this conversation is no longer connected: run this cell "
        "again to carry on.", timeout=20000)
    expect(lab.root.locator("[data-dial-field=say]")).to_be_disabled()
    expect(lab.root.locator("[data-dial-action=say]")).to_be_disabled()
    lab.shot("disconnected")
