"""A conversation with ``session=`` survives a kernel restart in JupyterLab: the card that was
waiting is back after the cell runs again, the widget says the conversation carried on, and
accepting the card runs it once."""

from __future__ import annotations

import json
import os
import time
from unittest import mock

import pytest
from playwright.sync_api import expect

from dial_notebook.runtime import load_snapshot, read_session_file

from ._harness import open_notebook, write_notebook

pytestmark = pytest.mark.browser

CELL = """\
from dial_notebook.widget import ChatWidget
domain = notes_domain()
chat = ChatWidget(agent=RuleAgent(slow_seconds=3), domain=domain, title="Notes assistant",
                  session="restart-demo")
chat"""


def card_saved_then_kernel_restarted(lab, session) -> None:
    """Ask for a note, wait until its waiting card is in the session file, restart the kernel
    and wait until the widget says so."""
    lab.say("add bread")
    expect(lab.card("add-bread")).to_have_attribute("data-dial-status", "pending")
    deadline = time.monotonic() + 10
    while True:
        saved = load_snapshot(session) if session.exists() else {}
        if (saved.get("pending") or {}).get("value", {}).get("id") == "add-bread":
            break
        assert time.monotonic() < deadline, "the waiting card was never saved"
        time.sleep(0.1)
    lab.page.evaluate("() => window.jupyterapp.shell.currentWidget.sessionContext"
                      ".session.kernel.restart()")
    expect(lab.root.locator(".dial-disconnected-note")).to_be_visible(timeout=20000)


def run_all_once_idle(lab) -> None:
    """Run every cell again once the restarted kernel is idle (the same cell, a new kernel)."""
    lab.page.wait_for_function(
        "() => window.jupyterapp.shell.currentWidget.sessionContext.session.kernel"
        ".status === 'idle'", timeout=30000)
    lab.page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")


def test_a_restarted_kernel_brings_the_waiting_card_back_and_it_runs_once(jupyter,
                                                                          browser_context):
    root = jupyter["root"]
    session = root / ".dial" / "restart-demo.json"
    session.unlink(missing_ok=True)
    name = write_notebook(root, "session.ipynb", CELL)
    lab = open_notebook(browser_context, jupyter["base"], name, app="lab")
    try:
        card_saved_then_kernel_restarted(lab, session)
        run_all_once_idle(lab)
        resumed = lab.root.locator("[data-dial-resumed]")
        expect(resumed).to_contain_text("Carried on from .dial/restart-demo.json",
                                        timeout=30000)
        expect(resumed).to_contain_text("what was waiting for you is back, above.")
        card = lab.card("add-bread")
        expect(card).to_have_count(1)
        expect(card).to_have_attribute("data-dial-status", "pending")
        lab.shot("session-resumed")
        card.locator("[data-dial-action=accept]").click()
        expect(card).to_have_attribute("data-dial-status", "done", timeout=10000)
        assert lab.kernel_value("[n['text'] for n in domain.notes].count('bread')") == "1"
        lab.shot("session-resumed-accepted")
    finally:
        lab.page.close()


TRUST_CELL = """\
from dial_notebook.widget import ChatWidget
domain = notes_domain()
chat = ChatWidget(agent=RuleAgent(slow_seconds=3), domain=domain, title="Notes assistant",
                  session="trust-demo")
chat"""


def test_a_file_you_did_not_make_opens_read_only_until_trust_this_file(jupyter,
                                                                       browser_context):
    """The session file is saved, then changed outside the kernel (its signature taken off);
    after a restart the conversation shows read-only with "Trust this file", which the
    keyboard reaches and which brings the card back."""
    root = jupyter["root"]
    session = root / ".dial" / "trust-demo.json"
    session.unlink(missing_ok=True)
    name = write_notebook(root, "trust.ipynb", TRUST_CELL)
    lab = open_notebook(browser_context, jupyter["base"], name, app="lab")
    try:
        card_saved_then_kernel_restarted(lab, session)
        saved = load_snapshot(session)
        session.write_text(json.dumps(saved))  # someone else's copy: not signed by this user
        run_all_once_idle(lab)
        expect(lab.root.locator("[data-dial-read-only]")).to_contain_text(
            "Opened read-only from .dial/trust-demo.json", timeout=30000)
        notice = lab.root.locator("[data-dial-untrusted]")
        expect(notice).to_be_visible()
        expect(notice).to_contain_text("a file you did not make")
        card = lab.card("add-bread")
        expect(card).to_have_count(1)
        expect(card.locator("[data-dial-action=accept]")).to_have_count(0)  # not decidable
        lab.shot("session-read-only")
        # what is typed would only be refused: the message box and Send are off, and say why
        say = lab.root.locator("[data-dial-field=say]")
        expect(say).to_be_disabled()
        expect(lab.root.locator("[data-dial-action=say]")).to_be_disabled()
        assert "Trust this file" in (say.get_attribute("placeholder") or "")
        # the keyboard reaches the button: one Shift+Tab back from the widget's next control
        lab.page.evaluate("""() => {
            const root = document.querySelector("[data-dial-root]");
            const controls = [...root.querySelectorAll("button, textarea, input, select, a[href], [tabindex]")]
                .filter((node) => !node.disabled && node.tabIndex >= 0 && node.getClientRects().length);
            const at = controls.findIndex((node) => node.dataset.dialAction === "trust");
            controls[at + 1].focus();
        }""")
        lab.page.keyboard.press("Shift+Tab")
        focused = lab.page.evaluate("() => document.activeElement.getAttribute("
                                    "'data-dial-action')")
        assert focused == "trust"
        expect(notice.locator("[data-dial-action=trust]")).to_have_text("Trust this file")
        lab.page.keyboard.press("Enter")
        expect(notice).to_be_hidden(timeout=10000)
        expect(say).to_be_enabled()  # trusted: the person may write again
        expect(lab.root.locator("[data-dial-resumed]").last).to_contain_text(
            "Carried on from .dial/trust-demo.json")
        card.locator("[data-dial-action=accept]").click(timeout=10000)
        expect(card).to_have_attribute("data-dial-status", "done", timeout=10000)
        assert lab.kernel_value("[n['text'] for n in domain.notes].count('bread')") == "1"
        server = {"JUPYTER_DATA_DIR": str(jupyter["root"].parent / "data")}  # (_harness.py)
        with mock.patch.dict(os.environ, server):
            assert read_session_file(session)[1]  # signed by this user again (the server's)
        lab.shot("session-trusted")
    finally:
        lab.page.close()
