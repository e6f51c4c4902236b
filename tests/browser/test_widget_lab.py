"""A person's whole path through the ChatWidget in JupyterLab 4, in headless Chromium: the real
Conversation, the scripted agent and the notes domain of tests/widget_scenario.py."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from ._harness import NotebookPage, open_notebook, write_notebook

pytestmark = pytest.mark.browser

WIDGET_CELL = """\
from dial_notebook.widget import ChatWidget
domain = notes_domain()
chat = ChatWidget(agent=RuleAgent(slow_seconds=4), domain=domain, timeout=1.5,
                  title="Notes assistant")
chat"""


@pytest.fixture(scope="module")
def lab(jupyter, browser_context) -> NotebookPage:
    name = write_notebook(jupyter["root"], "chat_lab.ipynb", WIDGET_CELL)
    notebook = open_notebook(browser_context, jupyter["base"], name, app="lab")
    yield notebook
    notebook.page.close()


def test_accept_runs_the_action_and_the_card_shows_done(lab):
    lab.say("add milk")
    card = lab.card("add-milk")
    expect(card).to_have_attribute("data-dial-status", "pending")
    expect(card.locator(".dial-preview")).to_have_text("Add the note 'milk'")
    lab.shot("card-pending", card)
    card.locator("[data-dial-action=accept]").click()
    expect(card).to_have_attribute("data-dial-status", "done")
    expect(card.locator(".dial-outcome")).to_contain_text("Done")
    lab.shot("card-done", card)


def test_an_invalid_edit_shows_the_field_error_and_a_fix_is_done(lab):
    lab.say("add eggs")
    card = lab.card("add-eggs")
    card.locator("[data-dial-action=edit]").click()
    text = card.locator("[data-dial-path=text] .dial-input")
    expect(text).to_have_value("eggs")
    expect(text).to_be_focused()
    text.fill("")
    card.locator("[data-dial-action=save-edit]").click()
    expect(card.locator("[data-dial-issue]")).to_be_visible()
    expect(card.locator("[data-dial-path=text] .dial-field-error")).to_contain_text("must not be empty")
    expect(card).to_have_attribute("data-dial-status", "pending")
    lab.shot("edit-refused", card)
    card.locator("[data-dial-path=text] .dial-input").fill("eggs, a dozen")
    card.locator("[data-dial-action=save-edit]").click()
    expect(card).to_have_attribute("data-dial-status", "done")
    # the headline is what ran, marked edited (once: the outcome line does not repeat it)
    expect(card.locator(".dial-preview")).to_have_text("Add the note 'eggs, a dozen' (edited)")
    expect(card.locator(".dial-outcome")).not_to_contain_text("(edited)")


def test_invalid_json_in_the_raw_view_is_a_message_not_a_crash(lab):
    lab.say("add tea")
    card = lab.card("add-tea")
    card.locator("[data-dial-action=edit]").click()
    card.locator("[data-dial-view=json]").click()
    raw = card.locator("[data-dial-field=payload-json]")
    raw.fill('{"text": "green tea", ')
    card.locator("[data-dial-action=save-edit]").click()
    expect(card.locator(".dial-json-error")).to_contain_text("not valid JSON")
    lab.shot("edit-bad-json", card)
    raw.fill('{"text": "green tea"}')
    card.locator("[data-dial-action=save-edit]").click()
    expect(card).to_have_attribute("data-dial-status", "done")


def test_dismiss_ends_a_destructive_card_dismissed(lab):
    lab.say("remove 2")
    card = lab.card("remove-2")
    expect(card.locator(".dial-preview")).to_have_text("Remove the note 'call Sam'")
    expect(card.locator(".dial-badge-danger")).to_be_visible()
    lab.shot("card-destructive", card)
    card.locator("[data-dial-action=dismiss]").click()
    expect(card).to_have_attribute("data-dial-status", "dismissed")


def test_typing_instead_of_deciding_supersedes_the_card(lab):
    lab.say("add bread")
    card = lab.card("add-bread")
    expect(card).to_have_attribute("data-dial-status", "pending")
    lab.say("never mind")
    expect(card).to_have_attribute("data-dial-status", "superseded")
    expect(lab.root.locator(".dial-inform").last).to_contain_text("You said: never mind")


def test_a_choice_and_a_text_question_are_answered(lab):
    lab.say("ask")
    choice = lab.root.locator("[data-dial-ask]", has_text="Which list").last
    expect(choice).to_have_attribute("data-dial-status", "pending")
    expect(choice.locator("[data-dial-option=home]")).to_have_attribute("aria-pressed", "true")
    expect(choice.locator("[data-dial-option=archive]")).to_be_disabled()
    lab.shot("ask-choice", choice)
    choice.locator("[data-dial-option=work]").click()
    expect(choice).to_have_attribute("data-dial-status", "answered")
    text = lab.root.locator("[data-dial-ask]", has_text="Anything I should know").last
    answer = text.locator("[data-dial-field=answer]")
    answer.press("Enter")  # empty: the question stands
    expect(text.locator(".dial-local-error")).to_contain_text("Type an answer")
    expect(text).to_have_attribute("data-dial-status", "pending")
    answer.fill("it is for the weekend")
    answer.press("Enter")
    expect(text).to_have_attribute("data-dial-status", "answered")
    expect(lab.root.locator(".dial-inform").last).to_contain_text("it is for the weekend")


def test_read_only_and_hand_off_suggestions_show_their_outcome_at_once(lab):
    lab.say("list")
    listed = lab.card("list")
    expect(listed).to_have_attribute("data-dial-status", "done")
    expect(listed.locator(".dial-outcome")).to_contain_text("buy milk")
    expect(listed.locator("[data-dial-action]")).to_have_count(0)
    lab.say("poll")
    expect(lab.card("poll")).to_have_attribute("data-dial-status", "handed-off")


def test_no_reply_shows_a_retry_that_sends_the_words_again(lab):
    lab.say("slow")
    expect(lab.root.locator(".dial-thinking")).to_be_visible()
    lab.shot("thinking", lab.root.locator(".dial-thinking"))
    retry = lab.root.locator(".dial-no-reply [data-dial-action=retry]")
    expect(retry).to_be_visible(timeout=15000)
    lab.shot("no-reply", lab.root.locator(".dial-no-reply"))
    retry.click()
    expect(lab.root.locator(".dial-inform").last).to_contain_text("here now")
    expect(retry).to_have_count(0)


def test_render_hints_show_a_capped_table_code_cards_and_an_image(lab):
    lab.say("show")
    table = lab.root.locator("[data-dial-render=table]").last
    expect(table.locator("tbody tr")).to_have_count(300)
    expect(table.locator(".dial-more")).to_have_text("+20 more rows")
    expect(lab.root.locator("[data-dial-render=code] code").last).to_contain_text('print("hello")')
    expect(lab.root.locator("[data-dial-render=card-list] .dial-mini-card")).to_have_count(2)
    expect(lab.root.locator("[data-dial-render=media] img").last).to_have_attribute("alt", "dot")
    lab.shot("render-hints", lab.root.locator("[data-dial-render=card-list]").last)


def test_agent_text_full_of_xss_vectors_runs_no_script(lab):
    lab.say("xss")
    card = lab.card("xss")
    expect(card).to_have_attribute("data-dial-status", "pending")
    lab.page.wait_for_timeout(500)
    assert lab.page.evaluate("() => window.__xss") is None
    root = lab.root
    assert root.locator("img[onerror], svg, iframe, details, script").count() == 0
    assert root.locator("a[href^='javascript'], img[src^='javascript']").count() == 0
    expect(root.locator(".dial-inform", has_text="<img src=x onerror").first).to_be_visible()
    expect(root.locator(".dial-blocked").first).to_contain_text("not shown")
    lab.shot("xss", root)
    card.locator("[data-dial-action=dismiss]").click()
    expect(card).to_have_attribute("data-dial-status", "dismissed")
    ask = root.locator("[data-dial-ask]").last
    expect(ask).to_have_attribute("data-dial-status", "pending")
    expect(ask).to_contain_text("<img src=x onerror")
    ask.locator("[data-dial-option]").click()
    expect(ask).to_have_attribute("data-dial-status", "answered")
    assert root.locator("img[onerror], svg, iframe, details, script").count() == 0
    assert lab.page.evaluate("() => window.__xss") is None


def test_the_cards_follow_the_dark_theme(lab):
    lab.say("add coffee")
    card = lab.card("add-coffee")
    expect(card).to_have_attribute("data-dial-status", "pending")
    light = card.evaluate("n => getComputedStyle(n).backgroundColor")
    lab.set_theme("JupyterLab Dark")
    try:
        dark = card.evaluate("n => getComputedStyle(n).backgroundColor")
        assert dark != light
        lab.shot("dark", lab.root)
    finally:
        lab.set_theme("JupyterLab Light")
    card.locator("[data-dial-action=accept]").click()
    expect(card).to_have_attribute("data-dial-status", "done")


def test_a_card_is_decided_by_keyboard_with_a_visible_focus(lab):
    lab.say("add kiwi")
    card = lab.card("add-kiwi")
    expect(card).to_have_attribute("data-dial-status", "pending")
    lab.root.locator("[data-dial-field=say]").focus()
    # backwards from the message box: the card's controls, last to first
    for action in ("allow-rule", "comment", "dismiss-reason", "dismiss", "edit"):
        lab.page.keyboard.press("Shift+Tab")
        expect(card.locator(f"[data-dial-action={action}]")).to_be_focused()
    lab.page.keyboard.press("Shift+Tab")
    accept = card.locator("[data-dial-action=accept]")
    expect(accept).to_be_focused()
    assert accept.evaluate("n => getComputedStyle(n).outlineStyle") == "solid"
    assert accept.get_attribute("aria-label") == "Accept: Add the note 'kiwi'"
    lab.shot("keyboard-focus", card)
    lab.page.keyboard.press("Enter")
    expect(card).to_have_attribute("data-dial-status", "done")


def test_a_reloaded_page_shows_the_same_pending_card_still_answerable(lab):
    lab.say("add jam")
    expect(lab.card("add-jam")).to_have_attribute("data-dial-status", "pending")
    lab.page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
    lab.page.wait_for_function(
        "() => !window.jupyterapp.shell.currentWidget.context.model.dirty", timeout=15000)
    lab.page.reload()
    lab.page.wait_for_function(
        "() => window.jupyterapp && window.jupyterapp.shell.currentWidget"
        " && window.jupyterapp.shell.currentWidget.sessionContext.session"
        " && window.jupyterapp.shell.currentWidget.sessionContext.session.kernel"
        "    .connectionStatus === 'connected'", timeout=60000)
    card = lab.card("add-jam")
    expect(card).to_have_attribute("data-dial-status", "pending", timeout=30000)
    expect(lab.card("add-milk")).to_have_attribute("data-dial-status", "done")
    card.locator("[data-dial-action=accept]").click()
    expect(card).to_have_attribute("data-dial-status", "done")
    lab.shot("overview", lab.root)
