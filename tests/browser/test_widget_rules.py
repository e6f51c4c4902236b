"""Rules and comments in JupyterLab 4, in headless Chromium, with the real kernel, runtime and
offline DemoAgent: a rule made on a card (a pattern on one field, for the notebook) accepts the
next matching proposal without a click, a proposal it does not match still asks, the panel
revokes it; a comment on a field and a refused schema; what the agent received each time."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from ._harness import NotebookPage, open_notebook, write_notebook

pytestmark = pytest.mark.browser

CELL = """\
from dial_notebook import ChatWidget, DemoAgent, NotesDomain
notes = NotesDomain(["call the plumber"])
chat = ChatWidget(agent=DemoAgent(notes), domain=notes, title="Rules")
chat"""


@pytest.fixture(scope="module")
def lab(jupyter, browser_context) -> NotebookPage:
    name = write_notebook(jupyter["root"], "rules_lab.ipynb", CELL)
    notebook = open_notebook(browser_context, jupyter["base"], name, app="lab")
    notebook.app = "rules"
    yield notebook
    notebook.page.close()


def waiting(nb: NotebookPage, words: str):
    """Say ``words``; the card they bring, waiting for the person."""
    nb.say(words)
    return nb.pending_card()


def last_sent(nb: NotebookPage, containing: str) -> str:
    return nb.kernel_value(f"[e['message'] for e in chat.transcript if e['type'] == 'sent' "
                           f"and {containing!r} in e['message']][-1]")


def test_a_pattern_rule_for_the_notebook_accepts_what_it_matches_and_nothing_else(lab):
    card = waiting(lab, "add a note: call the bank")
    card.locator("[data-dial-action=allow-rule]").click()
    editor = card.locator("[data-dial-rule-editor]")
    editor.locator('[data-dial-action=rule-field-pattern][data-dial-field="/text"]').click()
    pattern = editor.locator('[data-dial-rule-pattern="/text"]')
    expect(pattern).to_have_value("^call the bank$")
    pattern.fill("^call ")
    editor.locator("[data-dial-action=rule-scope-notebook]").check()
    expect(editor.locator("[data-dial-rule-check]")).to_have_attribute("data-dial-rule-check",
                                                                       "ok")
    lab.shot("editor-pattern", card)
    editor.locator("[data-dial-action=save-rule]").click()
    expect(card).to_have_attribute("data-dial-status", "done")
    expect(card.locator("[data-dial-by-rule]")).to_contain_text("Accepted by rule r1")

    lab.say("add a note: call the vet")
    vet = lab.root.locator("[data-dial-suggestion]", has_text="call the vet").last
    expect(vet).to_have_attribute("data-dial-status", "done")
    expect(vet.locator("[data-dial-by-rule]")).to_be_visible()
    # what the agent heard: a plain accept, as the runtime document writes it
    assert ('"action":"add-note","status":"done","result":{"id":3,"text":"call the vet"}}'
            in last_sent(lab, "call the vet"))

    bread = waiting(lab, "add a note: buy bread")  # the rule does not match: it asks
    expect(bread.locator("[data-dial-action=accept]")).to_be_visible()
    bread.locator("[data-dial-action=comment]").click()
    comments = bread.locator("[data-dial-comments]")
    comments.locator("[data-dial-comment-field]").first.select_option("/text")
    comments.locator("[data-dial-comment-text]").first.fill("Say which bread.")
    lab.shot("comment", bread)
    bread.locator("[data-dial-action=accept]").click()
    expect(bread).to_have_attribute("data-dial-status", "done")
    expect(bread.locator("[data-dial-outcome-comments]")).to_contain_text("/text: Say which bread.")
    expect(bread.locator(".dial-card-ack")).to_contain_text("On text you said: 'Say which bread.'")
    assert ('"result":{"id":4,"text":"buy bread"},"comments":[{"field":"/text",'
            '"text":"Say which bread."}]}') in last_sent(lab, "buy bread")
    assert lab.kernel_value("[(r.id, r.scope, r.fired) for r in chat.rules]") == (
        "[('r1', 'notebook', 2)]")


def test_the_panel_revokes_the_rule_and_the_next_proposal_asks_again(lab):
    toggle = lab.root.locator("[data-dial-action=rules]")
    toggle.click()
    panel = lab.root.locator("[data-dial-rules]")
    rule = panel.locator('[data-dial-rule-id="r1"]')
    expect(rule.locator("[data-dial-rule-scope]")).to_contain_text("this notebook")
    expect(rule).to_contain_text('"pattern": "^call "')
    lab.set_theme("JupyterLab Dark")
    lab.shot("panel-dark", panel)
    lab.set_theme("JupyterLab Light")
    rule.locator("[data-dial-action=revoke]").click()
    expect(panel.locator("[data-dial-rules-empty]")).to_be_visible()
    card = waiting(lab, "add a note: call the vet again")
    # the old card's line says the rule is gone
    vet = lab.root.locator("[data-dial-suggestion]", has_text="call the vet").first
    expect(vet.locator("[data-dial-by-rule]")).to_contain_text("(revoked)")
    card.locator("[data-dial-action=dismiss]").click()
    expect(card).to_have_attribute("data-dial-status", "dismissed")


def test_a_schema_that_cannot_be_a_rule_is_said_and_cannot_be_saved(lab):
    card = waiting(lab, "add a note: call the bank again")
    card.locator("[data-dial-action=allow-rule]").click()
    editor = card.locator("[data-dial-rule-editor]")
    editor.locator("[data-dial-action=rule-schema]").click()
    schema = editor.locator("[data-dial-rule-schema]")
    schema.fill('{"type": ')  # not JSON: said here, nothing sent
    expect(editor.locator("[data-dial-rule-json-error]")).to_be_visible()
    expect(editor.locator("[data-dial-action=save-rule]")).to_be_disabled()
    schema.fill('{"type": "strin"}')  # JSON, but not a schema: the kernel says why
    expect(editor.locator("[data-dial-rule-check]")).to_have_attribute("data-dial-rule-check",
                                                                       "error")
    expect(editor).to_contain_text("Not a valid rule: invalid schema at type")
    expect(editor.locator("[data-dial-action=save-rule]")).to_be_disabled()
    lab.shot("editor-invalid", card)
    editor.locator("[data-dial-action=cancel-rule]").click()
    expect(editor).to_have_count(0)
    card.locator("[data-dial-action=dismiss]").click()
    expect(card).to_have_attribute("data-dial-status", "dismissed")
    assert lab.kernel_value("len(chat.rules)") == "0"
