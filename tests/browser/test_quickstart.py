"""The quickstart notebook, as a new user meets it: JupyterLab, Run All, then the person's path
(send, accept, edit with a validation error then a fix, dismiss), with the DemoAgent reacting."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect

from . import _quickstart_steps as steps
from ._harness import OUTPUT, NotebookPage, open_notebook, save_with_widget_state
from .test_static_export import Offline

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


def test_run_all_shows_the_card_the_notebook_asked_for_and_accepting_adds_the_note(quickstart):
    steps.accept_the_first_card(quickstart)
    expect(quickstart.root.locator("[data-dial-suggestion][data-dial-status=done]")).to_have_count(1)


def test_an_edit_refused_by_the_schema_then_fixed_is_added_and_the_agent_notices(quickstart):
    steps.edit_refused_then_fixed(quickstart)


def test_dismissing_a_destructive_removal_is_acknowledged_with_the_next_words(quickstart):
    steps.dismiss_the_removal(quickstart)
    # "OK, I left that out." arrives with the next words, but reads as about the removal: it
    # is shown on the removal's card, not under "list notes" as if it refused that
    expect(quickstart.root.locator("[data-dial-inform]", has_text="left that out")).to_have_count(0)
    path = quickstart.shot("conversation")
    DOCS.mkdir(exist_ok=True)
    shutil.copy(path, OUTPUT / "quickstart-for-readme.png")


def test_step_5_a_rule_made_on_a_card_accepts_the_next_note_and_never_a_removal(quickstart):
    steps.make_a_rule_then_revoke_it(quickstart)
    assert quickstart.kernel_value("len(chat.rules)") == "0"


def test_step_6_a_dismissal_with_a_reason_reaches_the_agent_in_the_outcome(quickstart):
    steps.dismiss_with_a_reason(quickstart)
    sent = quickstart.kernel_value(
        "[e['message'] for e in chat.transcript if e['type'] == 'sent'][-2]")
    assert ('"action":"add-note","status":"dismissed","reason":"I have that one already"}'
            '</dial-payload>') in sent


def test_saved_and_converted_with_nbconvert_the_conversation_reads_offline(quickstart, jupyter,
                                                                           tmp_path):
    """After the conversation above: saved from JupyterLab (widget state too), converted with
    ``jupyter nbconvert --to html`` and opened with the network blocked, it shows the person's
    words, the cards and their outcomes, though the widget's own script cannot load there."""
    page = quickstart.page
    # the copy has caught up with the conversation (it is updated at most once a second)
    cards = quickstart.root.locator("[data-dial-suggestion]").count()
    expect(page.locator(".dial-static [data-dial-suggestion]")).to_have_count(cards,
                                                                              timeout=15000)
    expect(page.locator(".dial-static [data-dial-suggestion]").last).to_have_attribute(
        "data-dial-status", "done", timeout=15000)
    save_with_widget_state(page)
    jupyter_bin = Path(sys.executable).parent / "jupyter"
    run = subprocess.run([str(jupyter_bin), "nbconvert", "--to", "html", "--output", "quick",
                          "--output-dir", str(tmp_path), str(jupyter["root"] / "quickstart.ipynb")],
                         capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stderr
    offline = Offline(page.context.browser, script=True)  # a context of its own: offline
    try:
        shown = offline.open(tmp_path / "quick.html")
        static = shown.locator(".dial-static")
        expect(static).to_be_visible()
        for words in ("add a note: water the plants", "remove note 1", "list notes"):
            expect(static.locator(".dial-bubble", has_text=words).first).to_be_visible()
        for status in ("done", "dismissed"):
            expect(static.locator(f"[data-dial-suggestion][data-dial-status={status}]"
                                  ).first).to_be_visible()
        expect(static).to_contain_text("Add the note 'buy milk'")
        expect(static).to_contain_text("water the plants on the balcony")
        expect(static).to_contain_text("Accepted by rule r1")
        expect(static).to_contain_text("Reason: I have that one already")
        assert all(not url.startswith(("http://127.0.0.1", "http://localhost"))
                   for url in offline.fetched())
        static.screenshot(path=str(OUTPUT / "quickstart-nbconvert.png"))
    finally:
        offline.close()


def test_reopened_without_a_kernel_the_notebook_still_shows_the_conversation(quickstart, jupyter):
    """The notebook saved above, opened in JupyterLab with "No Kernel": no kernel runs, and the
    conversation still reads — unstyled while the notebook is not trusted
    (JupyterLab's sanitizer drops the copy's <style>), in the widget's look once it is (a
    notebook the person saved themselves is)."""
    saved = json.loads((jupyter["root"] / "quickstart.ipynb").read_text(encoding="utf-8"))
    saved["metadata"].pop("kernelspec", None)  # JupyterLab asks which kernel, if any
    saved["metadata"].pop("language_info", None)
    for trusted in (False, True):
        name = "trusted" if trusted else "untrusted"
        path = jupyter["root"] / f"no_kernel_{name}.ipynb"
        path.write_text(json.dumps(saved), encoding="utf-8")
        if trusted:  # as the server's own notary would after the person saved it
            home = jupyter["root"].parent
            env = {**os.environ, "JUPYTER_CONFIG_DIR": str(home / "config"),
                   "JUPYTER_DATA_DIR": str(home / "data"), "JUPYTER_PLATFORM_DIRS": "1",
                   "JUPYTER_RUNTIME_DIR": str(home / "runtime")}
            subprocess.run([str(Path(sys.executable).parent / "jupyter"), "trust", str(path)],
                           env=env, check=True, capture_output=True, timeout=60)
        page = quickstart.page.context.new_page()
        page.on("dialog", lambda dialog: dialog.dismiss())
        try:
            page.goto(f"{jupyter['base']}/lab/workspaces/{name}/tree/{path.name}")
            # JupyterLab asks which kernel to start for a notebook that names none: none
            dialog = page.locator(".jp-Dialog")
            dialog.get_by_role("button", name="No Kernel").click(timeout=30000)
            expect(dialog).to_have_count(0)
            shown = page.locator(".jp-OutputArea-output:visible", has_text="remove note 1")
            expect(shown.first).to_be_visible(timeout=60000)
            expect(shown.first).to_contain_text("Remove the note 'call the plumber'")
            expect(shown.first).to_contain_text("Dismissed")
            page.wait_for_timeout(1500)  # whatever renders from saved widget state has by now
            assert page.evaluate("() => !window.jupyterapp.shell.currentWidget.sessionContext"
                                 ".session?.kernel")
            bubble = page.locator(".dial-bubble:visible", has_text="remove note 1").first
            expect(bubble).to_be_visible()
            background = bubble.evaluate("el => getComputedStyle(el).backgroundColor")
            assert (background not in ("rgba(0, 0, 0, 0)", "transparent")) == trusted
            page.screenshot(path=str(OUTPUT / f"quickstart-no-kernel-{name}.png"))
        finally:
            page.close()
