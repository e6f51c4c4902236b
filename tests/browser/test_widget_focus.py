"""Where focus goes after a decision, and a card after a refused edit, in headless Chromium with
the keyboard alone (widget.js on a blank page with a model double, as test_widget_review.py;
issue 27, items 6, 7 and 9): after Accept, Save, Dismiss, Dismiss with a reason, an answered
question and "Save rule and accept", focus is on the message box, never on <body>, and the
next Tab stays in the widget; after a refused edit, typing `abc` and Save leaves one error,
"Enter a whole number.", and "What it will do" is about the refused payload."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from . import _harness
from ._harness import OUTPUT, mount_widget, open_notebook, write_notebook

pytestmark = pytest.mark.browser

SCHEMA = {"type": "object", "required": ["id"],
          "properties": {"id": {"type": "integer", "minimum": 1, "title": "Todo"},
                         "title": {"type": "string"}}}
PAYLOAD = {"id": 3, "title": "buy milk"}
CARD = {"type": "suggestion", "id": "s1", "action": "complete-todo", "text": "Done?",
        "payload": PAYLOAD, "preview": "Complete todo 3", "destructive": False, "mutates": True,
        "allowable": True,
        "dry_run": {"ok": True, "summary": "Completes todo 3.", "effect": {"completes": 3}}}
PENDING = {"kind": "decide", "token": "d1", "id": "s1", "action": "complete-todo",
           "payload": PAYLOAD, "issue": None, "errors": [], "edits_left": 3}
REFUSED = {**PENDING, "token": "d2", "payload": {"id": 0, "title": "buy milk"},
           "issue": {"text": "id must be at least 1", "code": "invalid-payload", "field": "id"},
           "errors": [{"field": "id", "message": "id must be at least 1"}], "edits_left": 2}
ASK = {"type": "ask", "text": "Which list?", "response_type": "choice",
       "options": [{"value": "home", "label": "Home"}, {"value": "work", "label": "Work"}]}

ACTIVE = """() => {
    const a = document.activeElement;
    if (!a || a === document.body) return 'body';
    return a.getAttribute('data-dial-action') || a.getAttribute('data-dial-field')
        || a.getAttribute('data-dial-option') || a.tagName.toLowerCase();
}"""
IN_WIDGET = "() => Boolean(document.activeElement && document.activeElement.closest('[data-dial-root]'))"


def mounted(context, **state):
    """The widget on a blank page; ``window.handlers`` holds its listeners (for emit)."""
    hook = "const handlers = {};"
    assert hook in _harness.MOUNT, "the harness's mount changed: update this hook"
    original = _harness.MOUNT
    _harness.MOUNT = original.replace(hook, hook + " window.handlers = handlers;")
    try:
        return mount_widget(context, {"schemas": {"complete-todo": SCHEMA}, "rules": [], **state})
    finally:
        _harness.MOUNT = original


def emit(page, message: dict) -> None:
    page.evaluate("m => (window.handlers['msg:custom'] || []).forEach((f) => f(m))", message)


def tab_to(page, target: str, most: int = 40) -> None:
    """Press Tab until the focused element is ``target`` (its data-dial-action, field or option)."""
    for _ in range(most):
        page.keyboard.press("Tab")
        if page.evaluate(ACTIVE) == target:
            return
    raise AssertionError(f"Tab never reached {target}")


def focus_stays(page) -> None:
    """Focus is on the message box, and the next Tab is still in the widget."""
    expect(page.locator("[data-dial-field=say]")).to_be_focused()
    page.keyboard.press("Tab")
    assert page.evaluate(IN_WIDGET), page.evaluate(ACTIVE)


@pytest.mark.parametrize("action", ["accept", "dismiss"])
def test_after_accept_or_dismiss_focus_goes_to_the_message_box(browser_context, action):
    page = mounted(browser_context, transcript=[CARD], pending=PENDING)
    tab_to(page, action)
    page.keyboard.press("Enter")
    assert page.evaluate("() => window.sent.at(-1).decision") == action
    focus_stays(page)
    page.close()


def test_after_save_focus_goes_to_the_message_box(browser_context):
    page = mounted(browser_context, transcript=[CARD], pending=PENDING)
    tab_to(page, "edit")
    page.keyboard.press("Enter")
    page.keyboard.press("Control+A")
    page.keyboard.type("4")
    tab_to(page, "save-edit")
    page.keyboard.press("Enter")
    assert page.evaluate("() => window.sent.at(-1)") == {
        "type": "decide", "token": "d1", "decision": "edit", "payload": {"id": 4, "title": "buy milk"}}
    focus_stays(page)
    page.close()


def test_after_dismiss_with_a_reason_focus_goes_to_the_message_box(browser_context):
    page = mounted(browser_context, transcript=[CARD], pending=PENDING)
    tab_to(page, "dismiss-reason")
    page.keyboard.press("Enter")
    page.keyboard.type("not now")
    page.keyboard.press("Enter")
    assert page.evaluate("() => window.sent.at(-1)") == {
        "type": "decide", "token": "d1", "decision": "dismiss", "reason": "not now"}
    focus_stays(page)
    page.close()


def test_after_an_answered_question_focus_goes_to_the_message_box(browser_context):
    pending = {"kind": "answer", "token": "a1", "index": 0, "response_type": "choice",
               "options": [{**o, "default": False, "disabled": False} for o in ASK["options"]]}
    page = mounted(browser_context, transcript=[ASK], pending=pending)
    tab_to(page, "work")
    page.keyboard.press("Enter")
    assert page.evaluate("() => window.sent.at(-1)") == {"type": "answer", "token": "a1",
                                                          "value": "work"}
    focus_stays(page)
    page.close()


def test_after_save_rule_and_accept_focus_goes_to_the_message_box(browser_context):
    page = mounted(browser_context, transcript=[CARD], pending=PENDING)
    tab_to(page, "allow-rule")
    page.keyboard.press("Enter")
    page.wait_for_function("() => window.sent.some((m) => m.type === 'rule-draft')")
    schema = page.evaluate("() => window.sent.find((m) => m.type === 'rule-draft').schema")
    emit(page, {"type": "rule-draft", "token": "d1", "schema": schema, "error": None,
                "matches": [], "total": 0, "card": True})
    tab_to(page, "save-rule")
    page.keyboard.press("Enter")
    assert page.evaluate("() => window.sent.at(-1).type") == "allow"
    emit(page, {"type": "allow", "token": "d1", "rule": "r1", "error": None, "card": True})
    focus_stays(page)
    page.close()


def test_after_a_refused_edit_abc_and_save_show_one_error_and_the_refused_payloads_effect(
        browser_context):
    page = mounted(browser_context, transcript=[CARD], pending=PENDING)
    tab_to(page, "edit")
    page.keyboard.press("Enter")
    page.keyboard.press("Control+A")
    page.keyboard.type("0")
    tab_to(page, "save-edit")
    page.keyboard.press("Enter")
    page.evaluate("p => window.model.set('pending', p)", REFUSED)  # the kernel refuses it
    card = page.locator("[data-dial-suggestion=s1]")
    field = card.locator("[data-dial-path=id] input")
    expect(field).to_be_focused()  # the refused field
    expect(card.locator("[data-dial-refusal]")).to_contain_text("id must be at least 1")
    # what it will do: asked again of the refused payload, never the proposal's as its own
    page.wait_for_function("() => window.sent.some((m) => m.type === 'dry-run' && m.token === 'd2')")
    assert page.evaluate("() => window.sent.find((m) => m.type === 'dry-run' && m.token === 'd2')") == {
        "type": "dry-run", "token": "d2", "payload": REFUSED["payload"]}
    emit(page, {"type": "dry-run", "token": "d2", "payload": REFUSED["payload"],
                "result": {"ok": False, "error": "there is no todo 0"}})
    expect(card.locator("[data-dial-dry-run]")).to_contain_text(
        "Effect unavailable: there is no todo 0")
    expect(card.locator("text=As proposed: your edit was not checked")).to_have_count(0)
    page.keyboard.press("Control+A")
    page.keyboard.type("abc")
    tab_to(page, "save-edit")
    page.keyboard.press("Enter")
    errors = card.locator("[data-dial-refusal], .dial-field-error, .dial-local-error")
    expect(errors).to_have_count(1)
    expect(errors).to_have_text("Enter a whole number.")
    expect(field).to_be_focused()
    expect(field).to_have_attribute("aria-invalid", "true")
    card.screenshot(path=str(OUTPUT / "focus-refused-abc.png"))
    page.close()


def test_the_card_waiting_after_a_restart_is_shown_once_above_the_line(browser_context):
    def card(before: int, after: int) -> dict:
        return {**CARD, "dry_run": {"ok": True, "summary": f"{before} → {after} rows"}}

    resumed = {"type": "resumed", "session": "todo.json", "saved_at": "", "waiting": True}
    page = mounted(browser_context, transcript=[card(49, 1), resumed, card(200, 4)],
                   pending=PENDING)
    cards = page.locator("[data-dial-suggestion]")
    expect(cards).to_have_count(1)
    expect(cards).to_have_attribute("data-dial-status", "pending")
    expect(cards.locator("[data-dial-dry-run]")).to_contain_text("200 → 4 rows")
    line = page.locator("[data-dial-resumed]")
    expect(line).to_contain_text("what was waiting for you is back, above.")
    assert page.evaluate("""() => {
        const card = document.querySelector('[data-dial-suggestion]');
        const line = document.querySelector('[data-dial-resumed]');
        return Boolean(card.compareDocumentPosition(line) & Node.DOCUMENT_POSITION_FOLLOWING);
    }""")
    page.close()


LAB_CELL = """\
from dial_notebook.widget import ChatWidget
chat = ChatWidget(agent=RuleAgent(), domain=notes_domain(), title="Notes assistant")
chat"""


def test_in_jupyterlab_focus_stays_in_the_widget_after_each_decision(jupyter, browser_context):
    """The real Conversation in JupyterLab 4, keyboard alone: Accept, Dismiss with a reason and an
    answered question each leave focus on the message box, and the next Tab is in the widget
    (before: <body>, and the next Tab started at the top of JupyterLab)."""
    name = write_notebook(jupyter["root"], "chat_focus.ipynb", LAB_CELL)
    lab = open_notebook(browser_context, jupyter["base"], name, app="lab")
    page, say = lab.page, lab.root.locator("[data-dial-field=say]")
    try:
        say.focus()
        page.keyboard.type("add kiwi")
        page.keyboard.press("Enter")
        card = lab.card("add-kiwi")
        expect(card).to_have_attribute("data-dial-status", "pending")
        for _ in range(6):  # back from the message box to the card's Accept
            page.keyboard.press("Shift+Tab")
            if page.evaluate(ACTIVE) == "accept":
                break
        page.keyboard.press("Enter")
        expect(card).to_have_attribute("data-dial-status", "done")
        expect(say).to_be_focused()
        page.keyboard.press("Tab")
        assert page.evaluate(IN_WIDGET), page.evaluate(ACTIVE)

        say.focus()
        page.keyboard.type("add figs")
        page.keyboard.press("Enter")
        card = lab.card("add-figs")
        expect(card).to_have_attribute("data-dial-status", "pending")
        for _ in range(8):
            page.keyboard.press("Shift+Tab")
            if page.evaluate(ACTIVE) == "dismiss-reason":
                break
        page.keyboard.press("Enter")
        page.keyboard.type("not today")
        page.keyboard.press("Enter")
        expect(card).to_have_attribute("data-dial-status", "dismissed")
        expect(say).to_be_focused()

        page.keyboard.type("ask")
        page.keyboard.press("Enter")
        choice = lab.root.locator("[data-dial-ask]", has_text="Which list").last
        expect(choice).to_have_attribute("data-dial-status", "pending")
        for _ in range(8):
            page.keyboard.press("Shift+Tab")
            if page.evaluate(ACTIVE) == "work":
                break
        page.keyboard.press("Enter")
        expect(choice).to_have_attribute("data-dial-status", "answered")
        assert page.evaluate(IN_WIDGET), page.evaluate(ACTIVE)
        lab.shot("focus-after-decisions")
    finally:
        page.close()
