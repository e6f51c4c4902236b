"""The marimo quickstart (notebooks/quickstart_marimo.py) in marimo's own runtime, in Chromium.

``marimo run`` serves it as an app: the cells run when the page connects, the turn loop runs
as a task on the kernel's event loop after they finished, and the person's clicks reach it as
custom messages; the notebook's live list of notes follows the chat (a ``mo.state`` set from
that task). ``marimo edit`` serves it to edit: its cells run once the person clicks Run all
(marimo's default ``runtime.auto_instantiate`` is off), then the same chat works there.

Each server gets a HOME of its own (marimo's config, cache and state live there) and the
notebook is copied into a temporary folder (marimo writes ``__marimo__/`` beside it). The
page may reach only the server: any other request is aborted and fails the test.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import marimo  # a test dependency: the tests fail, never skip, without it
import pytest
from playwright.sync_api import Page, Route, expect

from . import _quickstart_steps as steps
from ._harness import BIN, OUTPUT, NotebookPage, free_port, serve

pytestmark = pytest.mark.browser

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "quickstart_marimo.py"


@contextlib.contextmanager
def marimo_server(mode: str, root: Path) -> Iterator[dict[str, Any]]:
    """``marimo MODE quickstart_marimo.py`` (``run`` or ``edit``) on a free loopback port,
    headless, with no token, its HOME and XDG folders in ``root``; yields ``{base, log}``."""
    home = root / "home"
    folder = root / "nb"
    folder.mkdir(parents=True, exist_ok=True)
    notebook = folder / NOTEBOOK.name
    shutil.copy(NOTEBOOK, notebook)
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / "config"),
           "XDG_CACHE_HOME": str(home / "cache"), "XDG_STATE_HOME": str(home / "state"),
           "XDG_DATA_HOME": str(home / "data"), "MARIMO_SKIP_UPDATE_CHECK": "1"}
    port = free_port()
    command = [str(BIN / "marimo"), "--yes", mode, str(notebook), "--headless", "--host",
               "127.0.0.1", "--port", str(port), "--no-token", "--no-sandbox"]
    if mode == "edit":
        command.append("--skip-update-check")
    base = f"http://127.0.0.1:{port}"
    log = root / f"marimo-{mode}.log"
    with serve(f"marimo {mode}", command, env, log, f"{base}/health", cwd=folder):
        yield {"base": base, "log": log}


def open_app(context: Any, base: str, name: str) -> tuple[NotebookPage, list[str]]:
    """A page on ``base`` that may fetch nothing else (what it tried is listed), and the chat
    in it once shown (marimo may draw it in a shadow root: the locators pierce open ones)."""
    page: Page = context.new_page()
    refused: list[str] = []

    def only_the_server(route: Route) -> None:
        if route.request.url.startswith((base, "data:", "blob:")):
            route.continue_()
        else:
            refused.append(route.request.url)
            route.abort()

    page.route("**/*", only_the_server)
    page.goto(base)
    notebook = NotebookPage(page, name)
    return notebook, refused


@pytest.fixture(scope="module")
def app(browser_context: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[NotebookPage]:
    with marimo_server("run", tmp_path_factory.mktemp("marimo-run")) as server:
        chat, refused = open_app(browser_context, server["base"], "marimo")
        try:
            chat.root.wait_for(timeout=60000)
            yield chat
            assert not refused, f"the page asked for more than the server: {refused}"
        finally:
            chat.page.close()


def test_marimo_is_the_version_the_notebook_was_written_for() -> None:
    major, minor = (int(part) for part in marimo.__version__.split(".")[:2])
    assert (major, minor) >= (0, 25)


def test_run_the_card_the_notebook_asked_for_is_accepted_and_the_notes_follow(
        app: NotebookPage) -> None:
    notes = app.page.locator("[data-notes]")
    expect(notes).to_contain_text("note 2: book the dentist")
    steps.accept_the_first_card(app)
    # the notes cell ran again by itself, after the turn loop (a task) changed the domain
    expect(notes).to_contain_text("note 3: buy milk")
    # the cell that says "buy milk" ran once: nothing the widget sends re-runs it
    expect(app.root.locator("[data-dial-suggestion]", has_text="buy milk")).to_have_count(1)
    expect(app.page.get_by_text("── message 2 (turn 2 of its request) ──")).to_be_visible()


def test_run_an_edit_refused_by_the_schema_then_fixed_is_added(app: NotebookPage) -> None:
    steps.edit_refused_then_fixed(app)
    expect(app.page.locator("[data-notes]")).to_contain_text(
        "note 4: water the plants on the balcony")


def test_run_a_dismissed_removal_is_acknowledged_with_the_next_words(app: NotebookPage) -> None:
    steps.dismiss_the_removal(app)
    notes = app.page.locator("[data-notes]")
    expect(notes).to_contain_text("note 1: call the plumber")
    app.shot("notes", notes)


def test_run_talking_while_a_card_waits_supersedes_it(app: NotebookPage) -> None:
    app.say("add a note: call mum")
    card = app.pending_card()
    app.say("list notes")
    expect(card).to_have_attribute("data-dial-status", "superseded")
    app.shot("conversation")
    app.page.screenshot(path=str(OUTPUT / "marimo-page.png"), full_page=True)


def test_run_step_5_a_rule_made_on_a_card_accepts_the_next_note_and_never_a_removal(
        app: NotebookPage) -> None:
    steps.make_a_rule_then_revoke_it(app)


def test_run_step_6_a_dismissal_with_a_reason_reaches_the_agent(app: NotebookPage) -> None:
    steps.dismiss_with_a_reason(app)
    # the notebook's last cell, run again by itself, shows what the agent received
    expect(app.page.locator("pre", has_text="(turn 1 of its request) ──")).to_contain_text(
        '"action":"add-note","status":"dismissed","reason":"I have that one already"}')


def test_edit_after_run_all_the_chat_works_in_the_editor(
        browser_context: Any, tmp_path: Path) -> None:
    with marimo_server("edit", tmp_path) as server:
        chat, refused = open_app(browser_context, server["base"], "marimo-edit")
        try:
            # marimo edit runs no cell on open (runtime.auto_instantiate is off by default);
            # Run all is heard once the kernel has sent the cells (the editors are drawn then)
            cells = NOTEBOOK.read_text(encoding="utf-8").count("\n@app.cell")
            expect(chat.page.locator("[data-testid=cell-editor]")).to_have_count(cells,
                                                                                timeout=60000)
            run_all = chat.page.locator(
                "[data-testid=chrome-controls-bottom-right] [data-testid=run-button]")
            run_all.click(timeout=60000)
            chat.root.wait_for(timeout=60000)
            steps.accept_the_first_card(chat)
            expect(chat.page.locator("[data-notes]")).to_contain_text("note 3: buy milk")
            chat.page.screenshot(path=str(OUTPUT / "marimo-edit-page.png"))
            # reloaded, the page joins the same kernel: marimo replays the widget's state (not
            # its custom messages), the front end asks for the rest ('sync'), the card waiting
            # is still answerable
            chat.say("remove note 1")
            removal = chat.pending_card()
            chat.page.reload()
            expect(chat.card("note-1")).to_have_attribute("data-dial-status", "done",
                                                          timeout=60000)
            expect(removal).to_have_attribute("data-dial-status", "pending")
            removal.locator("[data-dial-action=dismiss]").click()
            expect(removal).to_have_attribute("data-dial-status", "dismissed")
            chat.shot("reloaded")
            assert not refused, f"the page asked for more than the server: {refused}"
        finally:
            chat.page.close()
