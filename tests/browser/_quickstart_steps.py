"""The quickstart's steps as a person clicks them, one function a step, for every host that
serves it (JupyterLab, Voilà, marimo): each host's tests call these, then check what is
particular to the host. ``chat`` is a ``NotebookPage`` whose widget shows the quickstart."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect


def accept_the_first_card(chat: Any) -> Any:
    """Step 1: the card the notebook's ``chat.say`` asked for, accepted; the agent answers on
    the card (its acknowledgement is shown with the card it is about)."""
    card = chat.pending_card()
    expect(card.locator(".dial-preview")).to_have_text("Add the note 'buy milk'")
    chat.shot("card", card)
    card.locator("[data-dial-action=accept]").click()
    expect(card).to_have_attribute("data-dial-status", "done")
    expect(card.locator(".dial-card-ack")).to_contain_text("You now have 3 notes")
    return card


def edit_refused_then_fixed(chat: Any) -> Any:
    """Step 2: an edit the action's schema refuses (the text emptied), then a valid one."""
    chat.say("add a note: water the plants")
    card = chat.pending_card()
    expect(card.locator(".dial-preview")).to_have_text("Add the note 'water the plants'")
    card.locator("[data-dial-action=edit]").click()
    field = card.locator("[data-dial-path=text] .dial-input")
    field.fill("")
    card.locator("[data-dial-action=save-edit]").click()
    expect(card.locator("[data-dial-path=text] .dial-field-error")).to_contain_text(
        "must not be empty")
    expect(card).to_have_attribute("data-dial-status", "pending")
    chat.shot("edit-refused", card)
    field.fill("water the plants on the balcony")
    card.locator("[data-dial-action=save-edit]").click()
    expect(card).to_have_attribute("data-dial-status", "done")
    expect(card.locator(".dial-card-ack")).to_contain_text("edited")
    return card


def dismiss_the_removal(chat: Any) -> Any:
    """Step 3: a destructive removal, dismissed; the agent hears it with the next words."""
    chat.say("remove note 1")
    card = chat.pending_card()
    expect(card.locator(".dial-preview")).to_contain_text("call the plumber")
    expect(card.locator(".dial-badge-danger")).to_be_visible()
    card.locator("[data-dial-action=dismiss]").click()
    expect(card).to_have_attribute("data-dial-status", "dismissed")
    chat.say("list notes")
    expect(card.locator(".dial-card-ack")).to_contain_text("left that out")
    return card


def make_a_rule_then_revoke_it(chat: Any) -> Any:
    """Step 5: a rule drafted on a card accepts the next note with no click, never a removal;
    the rules panel shows it, and it is revoked there. Returns the panel."""
    chat.say("add a note: call mum")
    card = chat.pending_card()
    card.locator("[data-dial-action=allow-rule]").click()
    editor = card.locator("[data-dial-rule-editor]")
    expect(editor).to_contain_text("Always allow add-note like this")
    editor.locator('[data-dial-action=rule-field-any][data-dial-field="/text"]').click()
    expect(editor.locator("[data-dial-rule-check]")).to_have_attribute("data-dial-rule-check",
                                                                       "ok")
    chat.shot("rule-editor", card)
    editor.locator("[data-dial-action=save-rule]").click()
    expect(card).to_have_attribute("data-dial-status", "done")
    expect(card.locator("[data-dial-by-rule]")).to_contain_text("Accepted by rule r1")
    chat.say("add a note: pay rent")
    rent = chat.root.locator("[data-dial-suggestion]", has_text="pay rent").last
    expect(rent).to_have_attribute("data-dial-status", "done")  # not a click in between
    expect(rent.locator("[data-dial-by-rule]")).to_contain_text("Accepted by rule r1")
    expect(rent.locator("[data-dial-action=accept]")).to_have_count(0)
    chat.shot("rule-accepted", rent)
    chat.say("remove note 1")
    removal = chat.pending_card()
    expect(removal.locator(".dial-badge-danger")).to_be_visible()
    expect(removal.locator("[data-dial-action=allow-rule]")).to_have_count(0)
    removal.locator("[data-dial-action=dismiss]").click()
    expect(removal).to_have_attribute("data-dial-status", "dismissed")
    toggle = chat.root.locator("[data-dial-action=rules]")
    expect(toggle).to_have_text("Rules (1)")
    toggle.click()
    panel = chat.root.locator("[data-dial-rules]")
    rule = panel.locator('[data-dial-rule-id="r1"]')
    expect(rule.locator("[data-dial-rule-fired]")).to_contain_text("accepted 2 proposals")
    expect(rule.locator("[data-dial-rule-scope]")).to_contain_text("this conversation")
    chat.shot("rules-panel", panel)
    rule.locator("[data-dial-action=revoke]").click()
    expect(panel.locator("[data-dial-rules-empty]")).to_be_visible()
    return panel


def dismiss_with_a_reason(chat: Any) -> Any:
    """Step 6: a dismissal with a reason; the agent answers it with the next words."""
    chat.say("add a note: call mum")
    card = chat.pending_card()  # asks again: the rule was revoked
    card.locator("[data-dial-action=dismiss-reason]").click()
    card.locator("[data-dial-reason]").fill("I have that one already")
    card.locator("[data-dial-action=dismiss-confirm]").click()
    expect(card).to_have_attribute("data-dial-status", "dismissed")
    expect(card.locator("[data-dial-outcome-reason]")).to_contain_text("I have that one already")
    chat.say("list notes")
    expect(card.locator(".dial-card-ack")).to_contain_text(
        "I'll keep in mind why: 'I have that one already'")
    chat.shot("dismissed-with-reason", card)
    return card
