"""An accepted card whose action takes time (a SchemaDomain action that sleeps 3 s in a
thread), in JupyterLab, in headless Chromium: from the click until its outcome the card says
Running… (never "Proposed"), its buttons gone or disabled, Stop offered (the run is
stoppable); then Done, said once each to a screen reader. A page reloaded while a card runs
shows it Running… again (the kernel says which runs go when the page comes back)."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from ._harness import NotebookPage, open_notebook, save_and_reload, write_notebook

pytestmark = pytest.mark.browser

WIDGET_CELL = """\
import asyncio, time
from dial_notebook.domains import SchemaDomain
from dial_notebook.widget import ChatWidget

slow = SchemaDomain("slow")

hold = None  # an asyncio.Event: the run waits for it (else it takes 3 s)

@slow.action(schema={"type": "object"}, mutates=True, preview="Copy the files")
async def copy_files(payload):
    if hold is not None:
        await hold.wait()
    else:
        await asyncio.to_thread(time.sleep, 3)  # slow work, off the kernel's loop
    return {"copied": 3}

slow.stoppable = lambda action: action == "copy-files"

class SlowAgent:
    def __init__(self):
        self.turns = 0

    async def send(self, message):
        self.turns += 1
        if self.turns % 2:  # the person's request (the next message tells the outcome)
            return _dial(f'<dial-suggest id="copy{self.turns}" action="copy-files">Copy them?'
                         + _payload({}) + '</dial-suggest>')
        return _dial('<dial-inform>Copied.</dial-inform>')

chat = ChatWidget(agent=SlowAgent(), domain=slow, title="Slow copy")
chat"""


@pytest.fixture(scope="module")
def lab(jupyter, browser_context) -> NotebookPage:
    name = write_notebook(jupyter["root"], "chat_running.ipynb", WIDGET_CELL)
    notebook = open_notebook(browser_context, jupyter["base"], name)
    yield notebook
    notebook.page.close()


def test_an_accepted_slow_card_says_running_until_it_is_done(lab):
    lab.say("copy the files")
    card = lab.card("copy1")
    expect(card).to_have_attribute("data-dial-status", "pending")
    clicked = time.monotonic()
    card.locator("[data-dial-action=accept]").click()
    expect(card).to_have_attribute("data-dial-status", "running", timeout=1000)
    expect(card.locator(".dial-chip")).to_have_text("Running")
    expect(card.locator(".dial-run-progress-text")).to_have_text("Running…")
    expect(card.locator("[data-dial-action=stop-run]")).to_be_visible()
    expect(card.locator("[data-dial-action=accept]")).to_have_count(0)
    lab.shot("card-running", card)
    seen = []
    while time.monotonic() - clicked < 2.5:  # all along the run: never back to "Proposed"
        seen.append(card.get_attribute("data-dial-status"))
        lab.page.wait_for_timeout(100)
    assert set(seen) == {"running"}, seen
    expect(card).to_have_attribute("data-dial-status", "done", timeout=15000)
    assert time.monotonic() - clicked >= 3  # the run took its 3 s
    expect(card.locator("[data-dial-run-progress]")).to_have_count(0)
    expect(card.locator(".dial-outcome-done")).to_contain_text("Done")
    said = lab.root.locator("[data-dial-announcer]").inner_text()
    assert said.count("Suggestion: Copy the files: Running") == 1, said
    assert said.count("Suggestion: Copy the files: Done") == 1, said
    lab.shot("card-done-after-running", card)


def test_a_page_reloaded_while_a_card_runs_says_running_until_it_is_done(lab):
    lab.kernel_value("[globals().__setitem__('hold', asyncio.Event()), 'held'][1]")
    lab.say("copy the files again")
    card = lab.pending_card()
    sid = card.get_attribute("data-dial-suggestion")
    card.locator("[data-dial-action=accept]").click()
    expect(card).to_have_attribute("data-dial-status", "running", timeout=2000)
    page = lab.page
    save_and_reload(page)
    card = page.locator(f"[data-dial-root] [data-dial-suggestion='{sid}']").first
    expect(card).to_have_attribute("data-dial-status", "running", timeout=30000)
    expect(card.locator(".dial-run-progress-text")).to_have_text("Running…")
    expect(card.locator("[data-dial-action=stop-run]")).to_be_visible()
    lab.kernel_value("hold.set()")
    expect(card).to_have_attribute("data-dial-status", "done", timeout=15000)
