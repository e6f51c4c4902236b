"""The static copy after a ChatWidget while its conversation arrives from the kernel (issue 29,
js/src/arriving.js): the live view asks for the transcript once drawn; meanwhile the copy must
not be shown (a long conversation's copy would be laid out for seconds, only to be hidden when
the live log fills), yet a notebook opened without its kernel shows the copy at once."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from ._harness import open_notebook, save_with_widget_state, write_notebook

pytestmark = pytest.mark.browser

CELL = """\
import sys
sys.path.insert(0, {root!r})
from dial_notebook.widget import ChatWidget
from tests.long_conversation import long_transcript
chat = ChatWidget(agent=RuleAgent(), domain=notes_domain(), title="Arriving",
                  transcript=long_transcript(300))
chat"""

#: Each frame from the page's start: was the copy laid out (visible) while a live view beside
#: it had nothing in its log yet?
WATCH = """(() => {
    const seen = window.__copy = {shownEmpty: 0, frames: 0, shownFull: 0};
    const tick = () => {
        const copy = document.querySelector('.dial-static');
        const root = document.querySelector('[data-dial-root]');
        if (copy && root) {
            seen.frames++;
            const shown = copy.getBoundingClientRect().height > 0;
            const empty = !root.querySelector('.dial-log > *');
            if (shown && empty) seen.shownEmpty++;
            if (shown && !empty) seen.shownFull++;
        }
        requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
})();"""


def test_the_copy_is_never_shown_while_the_conversation_arrives(browser_context, jupyter):
    root = str(Path(__file__).resolve().parents[2])
    name = write_notebook(jupyter["root"], "arriving.ipynb", CELL.format(root=root))
    browser_context.add_init_script(script=WATCH)
    notebook = open_notebook(browser_context, jupyter["base"], name)
    page = notebook.page
    try:
        log = page.locator("[data-dial-root] .dial-log")
        expect(log.locator(":scope > *").first).to_be_attached(timeout=60000)
        page.wait_for_timeout(500)
        seen = page.evaluate("() => window.__copy")
        assert seen["frames"] > 0
        assert seen["shownEmpty"] == 0 and seen["shownFull"] == 0, seen
        assert page.locator("[data-dial-root][data-dial-arriving]").count() == 0

        # saved with its widget state and opened without a kernel: the copy shows, at once
        save_with_widget_state(page)
        saved = json.loads((jupyter["root"] / name).read_text(encoding="utf-8"))
        saved["metadata"].pop("kernelspec", None)
        saved["metadata"].pop("language_info", None)
        (jupyter["root"] / "arriving_no_kernel.ipynb").write_text(json.dumps(saved))
        other = browser_context.new_page()
        other.on("dialog", lambda dialog: dialog.dismiss())
        try:
            other.goto(f"{jupyter['base']}/lab/workspaces/arriving/tree/arriving_no_kernel.ipynb")
            other.locator(".jp-Dialog").get_by_role("button", name="No Kernel").click(
                timeout=30000)
            widget = other.locator("[data-dial-root]")
            copy = other.locator(".dial-static").first
            expect(copy).to_be_attached(timeout=60000)
            if widget.count():  # drawn from the saved widget state: the copy does not wait
                start = time.monotonic()
                expect(copy).to_be_visible(timeout=10000)
                assert time.monotonic() - start < 3.0
            expect(copy).to_be_visible(timeout=10000)
            expect(copy).to_contain_text("Arriving")
        finally:
            other.close()
    finally:
        page.close()
