"""The conversation as static HTML, in a real browser with the network blocked:

- ``chat.export_html(path)``: one file that shows the words, cards and outcomes with script on
  and off, runs none of the agent's script, fetches nothing, and reads well light and dark;
- a notebook (ScriptedAgent, NotesDomain) played in JupyterLab shows the conversation once (the
  static copy beside the widget is hidden while the widget shows, and kept current); saved from
  JupyterLab and converted by ``jupyter nbconvert --to html``, it is readable offline, without
  a kernel and without the widget's JavaScript (which nbconvert's page would fetch from a CDN).

Screenshots go to tests/browser/output/static-*.png."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import nbformat
import pytest
from playwright.sync_api import expect

from dial_notebook.agents import ScriptedAgent
from dial_notebook.domains import DataFramesDomain, load_sales
from dial_notebook.domains.notes import NotesDomain
from dial_notebook.runtime import EVENT_TYPES, Conversation, policy_human
from dial_notebook.widget import ChatWidget

from ..unit.test_static_html import HOSTILE, hostile_transcript
from ._harness import (
    CHROMIUM,
    CHROMIUM_ARGS,
    OUTPUT,
    NotebookPage,
    open_notebook,
    save_with_widget_state,
)

pytestmark = pytest.mark.browser

FIXTURE = Path(__file__).resolve().parents[2] / "js" / "test" / "fixtures" / "transcript.json"


def dial(*parts: str) -> str:
    return '<dial version="0.1" actor="agent">' + "".join(parts) + "</dial>"


def esc(text: str) -> str:
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


def payload(value: Any) -> str:
    return f'<dial-payload type="application/json">{esc(json.dumps(value))}</dial-payload>'


def eda_transcript() -> list[dict[str, Any]]:
    """A short analysis with the real data-frames domain: a table and a real chart."""
    replies = [
        dial("<dial-inform>Here is a first look at the sales data.</dial-inform>",
             '<dial-suggest id="d1" action="describe">Summary statistics of sales.'
             + payload({"frame": "sales", "columns": ["price", "units"]}) + "</dial-suggest>",
             '<dial-suggest id="p1" action="plot">How units move with price.'
             + payload({"frame": "sales", "kind": "scatter", "x": "price", "y": "units",
                        "title": "Units against price"}) + "</dial-suggest>"),
        dial('<dial-acknowledge of="p1">Cheaper widgets sell more units.</dial-acknowledge>'),
    ]
    events: list[dict[str, Any]] = []
    conversation = Conversation(agent=ScriptedAgent(replies),
                                domain=DataFramesDomain({"sales": load_sales()}),
                                human=policy_human("accept"), on_event=events.append)
    conversation.say_sync("describe the sales, and plot units against price")
    kept = [e for e in events if e["type"] in EVENT_TYPES]
    return [{"type": "person", "text": "describe the sales, and plot units against price"},
            *json.loads(json.dumps(kept))]


def export(path: Path, transcript: list[Any], title: str, pending: dict[str, Any] | None = None
           ) -> Path:
    chat = ChatWidget(agent=ScriptedAgent([]), domain=NotesDomain(), title=title)
    chat.transcript = transcript
    if pending:
        chat.pending = pending
    return chat.export_html(path)


@pytest.fixture(scope="module")
def exports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The files, made before the browser starts (sync Playwright holds this thread's loop)."""
    root = tmp_path_factory.mktemp("exports")
    fixture = json.loads(FIXTURE.read_text(encoding="utf-8"))
    waiting = {"type": "suggestion", "id": "tidy", "action": "remove-note",
               "text": "This one looks done.", "payload": {"id": 2},
               "preview": "Remove the note 'green tea'", "destructive": True, "mutates": True}
    # the fixture up to the superseded card's outcome (what the checks below look at)
    end = next(n for n, e in enumerate(fixture) if e.get("type") == "outcome"
               and e.get("id") == "skipme") + 1
    conversation = [*eda_transcript(), *fixture[:end],
                    {"type": "person", "text": HOSTILE[1]},
                    *({"type": "inform", "text": text, "act": "inform"} for text in HOSTILE[:6]),
                    waiting]
    pending = {"kind": "decide", "token": "d9", "id": "tidy", "action": "remove-note",
               "payload": {"id": 2}, "issue": None, "errors": [], "edits_left": None}
    return {
        "conversation": export(root / "conversation.html", conversation, "Sales assistant",
                               pending),
        "hostile": export(root / "hostile.html", [*hostile_transcript(), *fixture],
                          HOSTILE[3]),
    }


@pytest.fixture(scope="module")
def browser(exports) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():  # as tests/browser/conftest.py: fails under CI
        message = f"Chromium not found at {CHROMIUM}: apt-get install -y chromium"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    OUTPUT.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                              args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()


class Offline:
    """A page in a context that reaches nothing but the file it opens (offline, and every
    other request aborted); ``requests``: every URL the page tried."""

    def __init__(self, browser: Any, *, script: bool, scheme: str = "light") -> None:
        self.context = browser.new_context(java_script_enabled=script, color_scheme=scheme,
                                           offline=True, viewport={"width": 940, "height": 1100})
        self.requests: list[str] = []
        self.context.on("request", lambda request: self.requests.append(request.url))
        self.allowed = ""
        self.context.route("**/*", lambda route: route.continue_()
                           if route.request.url == self.allowed else route.abort())
        self.page = self.context.new_page()

    def open(self, path: Path) -> Any:
        self.allowed = path.as_uri()
        self.page.goto(self.allowed)
        return self.page

    def fetched(self) -> list[str]:
        """What the page asked for besides its own file and its inline images."""
        return [url for url in self.requests if url != self.allowed
                and not url.startswith("data:")]

    def close(self) -> None:
        self.context.close()


def pwned(page: Any) -> Any:
    return page.evaluate("() => window.__pwned")


# ---- chat.export_html -------------------------------------------------------------------------

@pytest.mark.parametrize("script", [True, False], ids=["script-on", "script-off"])
def test_an_export_shows_the_conversation_offline_with_script_on_or_off(browser, exports, script):
    view = Offline(browser, script=script)
    try:
        page = view.open(exports["conversation"])
        static = page.locator(".dial-static")
        expect(static).to_be_visible()
        expect(page).to_have_title("Sales assistant")
        # the person's words and the agent's
        expect(static.locator(".dial-bubble").first).to_have_text(
            "describe the sales, and plot units against price")
        expect(static.get_by_text("Here is a first look at the sales data.",
                                  exact=True)).to_be_visible()
        # cards, with their outcomes: a table, a real chart (drawn from its data: URL)
        describe = static.locator("[data-dial-suggestion=d1]")
        expect(describe).to_have_attribute("data-dial-status", "done")
        expect(describe.locator("table.dial-table th").first).to_have_text("column")
        chart = static.locator("[data-dial-suggestion=p1] img")
        expect(chart).to_be_visible()
        assert chart.evaluate("img => img.naturalWidth") > 100
        expect(static.locator("[data-dial-suggestion=p1] .dial-card-ack")).to_contain_text(
            "Cheaper widgets sell more units.")
        for card, status in (("add", "done"), ("rm", "dismissed"), ("poll", "handed-off"),
                             ("op", "done"), ("skipme", "superseded"), ("tidy", "pending")):
            expect(static.locator(f"[data-dial-suggestion={card}]")).to_have_attribute(
                "data-dial-status", status)
        expect(static.locator("[data-dial-suggestion=tidy]")).to_contain_text(
            "Waiting for the person's decision")
        expect(static.locator("[data-dial-suggestion=op] .dial-command").nth(1)).to_have_text(
            'print("safe") #⟨U+2067⟩')
        # the agent's markup is text on the page, and none of it ran
        for text in HOSTILE[:6]:
            expect(static.get_by_text(text, exact=True).first).to_be_visible()
        assert pwned(page) is None
        if script:
            for scheme in ("light", "dark"):
                page.emulate_media(color_scheme=scheme)
                page.evaluate("() => window.scrollTo(0, 0)")
                page.screenshot(path=str(OUTPUT / f"static-export-{scheme}.png"))
                static.locator("[data-dial-suggestion=op]").screenshot(
                    path=str(OUTPUT / f"static-export-execute-{scheme}.png"))
                static.locator("[data-dial-suggestion=tidy]").screenshot(
                    path=str(OUTPUT / f"static-export-waiting-{scheme}.png"))
            page.emulate_media(color_scheme="light")
        # collapsed until opened: what the agent received
        wire = static.locator("details.dial-wire").first
        expect(wire.locator(".dial-wire-text").first).to_be_hidden()
        wire.locator("summary").click()
        expect(wire.locator(".dial-wire-text").first).to_be_visible()
        if script:
            wire.screenshot(path=str(OUTPUT / "static-export-wire.png"))
        assert view.fetched() == []
    finally:
        view.close()


@pytest.mark.parametrize("script", [True, False], ids=["script-on", "script-off"])
def test_a_hostile_export_runs_nothing_fetches_nothing_and_shows_the_text(browser, exports,
                                                                          script):
    view = Offline(browser, script=script, scheme="dark")
    try:
        page = view.open(exports["hostile"])
        static = page.locator(".dial-static")
        expect(static).to_be_visible()
        assert page.title() == HOSTILE[3]
        for text in HOSTILE[:10]:
            expect(static.get_by_text(text, exact=True).first).to_be_attached()
        # nothing the agent wrote became an element, a handler or a request
        assert page.locator("script, iframe, svg, a, form, button, input").count() == 0
        assert page.evaluate("""() => [...document.querySelectorAll('*')].flatMap(
            (el) => [...el.attributes].map((a) => a.name)).filter((n) => n.startsWith('on'))""") \
            == []
        sources = [img.get_attribute("src") for img in page.locator("img").all()]
        # only inline raster images the renderer checked: the real PNG, the fixture's drawn
        # Vega-Lite chart (a PNG) and its dot (a GIF)
        assert sorted(src[:22] for src in sources) == [
            "data:image/gif;base64,", "data:image/png;base64,", "data:image/png;base64,"]
        assert page.locator("style").count() == 2  # the page's own and the fragment's
        assert pwned(page) is None
        if script:
            page.screenshot(path=str(OUTPUT / "static-export-hostile.png"))
        # every hover, click and toggle a script could have hooked
        for details in page.locator("details").all()[:20]:
            details.locator("summary").first.click()
        page.mouse.move(10, 10)
        page.mouse.move(400, 400)
        assert pwned(page) is None
        assert view.fetched() == []
    finally:
        view.close()


# ---- a notebook: live in JupyterLab, then saved and converted ------------------------------------

NOTEBOOK_CELL = textwrap.dedent('''\
    import json
    from dial_notebook import ChatWidget
    from dial_notebook.agents import ScriptedAgent
    from dial_notebook.domains.notes import NotesDomain

    HOSTILE = {hostile!r}

    def dial(*parts):
        return '<dial version="0.1" actor="agent">' + "".join(parts) + "</dial>"

    def esc(text):
        return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                .replace('"', "&quot;"))

    def payload(value):
        return '<dial-payload type="application/json">' + esc(json.dumps(value)) + "</dial-payload>"

    def respond(message):
        spoken = [part for part in message.split("\\n\\n") if not part.startswith("<")]
        words = spoken[-1].strip() if spoken else ""
        if words.startswith("add a note: "):
            note = words[len("add a note: "):]
            return dial('<dial-suggest id="add" action="add-note">Shall I add it?'
                        + payload({{"text": note}}) + "</dial-suggest>")
        if words == "remove note 1":
            return dial('<dial-suggest id="rm" action="remove-note">This cannot be undone.'
                        + payload({{"id": 1}}) + "</dial-suggest>")
        if words == "show":
            return dial(*(f"<dial-inform>{{esc(text)}}</dial-inform>" for text in HOSTILE),
                        '<dial-suggest id="ls" action="list-notes">' + payload({{}})
                        + "</dial-suggest>")
        return dial("<dial-acknowledge>Noted.</dial-acknowledge>")

    chat = ChatWidget(agent=ScriptedAgent([respond] * 40),
                      domain=NotesDomain(["buy milk", "call Sam"]), title="Notes, saved")
    chat''')


@pytest.fixture(scope="module")
def lab(jupyter, browser) -> Iterator[NotebookPage]:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(NOTEBOOK_CELL.format(hostile=HOSTILE[:6])),
                nbformat.v4.new_code_cell('task = chat.say("add a note: call the plumber")')]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nbformat.write(nb, jupyter["root"] / "static_copy.ipynb")
    context = browser.new_context(viewport={"width": 1100, "height": 1000})
    notebook = open_notebook(context, jupyter["base"], "static_copy.ipynb", app="lab")
    notebook.app = "static"
    # the person's part: accept the note, dismiss the removal, ask to be shown things
    card = notebook.card("add")
    expect(card).to_have_attribute("data-dial-status", "pending", timeout=20000)
    card.locator("[data-dial-action=accept]").click()
    expect(card).to_have_attribute("data-dial-status", "done")
    notebook.say("remove note 1")
    removal = notebook.card("rm")
    expect(removal).to_have_attribute("data-dial-status", "pending")
    removal.locator("[data-dial-action=dismiss]").click()
    expect(removal).to_have_attribute("data-dial-status", "dismissed")
    notebook.say("show")
    expect(notebook.card("ls")).to_have_attribute("data-dial-status", "done")
    yield notebook
    context.close()


def test_live_the_conversation_shows_once_and_its_hidden_copy_keeps_up(lab):
    page = lab.page
    # the static copy is in the page, right after the widget, and hidden
    static = page.locator(".dial-static")
    expect(static).to_have_count(1)
    expect(static).to_be_hidden()
    child = page.locator(".jp-OutputArea-child", has=page.locator(".dial-static"))
    assert child.evaluate("el => getComputedStyle(el).display") == "none"
    assert child.evaluate(
        "el => el.previousElementSibling.querySelector('.dial-chat') !== null")
    # … and current: update_display reaches it from the background task (debounced)
    expect(static.locator("[data-dial-suggestion=rm]")).to_have_attribute(
        "data-dial-status", "dismissed", timeout=10000)
    expect(static.locator("[data-dial-suggestion=ls]")).to_have_attribute(
        "data-dial-status", "done", timeout=10000)
    # the conversation is on screen once
    preview = page.locator(".dial-preview", has_text="Add the note 'call the plumber'")
    expect(preview).to_have_count(2)  # the widget's and the hidden copy's
    expect(preview.locator("visible=true")).to_have_count(1)
    for text in HOSTILE[:6]:
        expect(page.get_by_text(text, exact=True).locator("visible=true")).to_have_count(1)
    assert pwned(page) is None
    page.screenshot(path=str(OUTPUT / "static-lab-live.png"))


def test_saved_and_converted_the_notebook_reads_offline_without_a_kernel(lab, jupyter, browser,
                                                                        tmp_path):
    page = lab.page
    expect(page.locator(".dial-static [data-dial-suggestion=ls]")).to_have_attribute(
        "data-dial-status", "done", timeout=10000)
    save_with_widget_state(page)
    saved = jupyter["root"] / "static_copy.ipynb"
    notebook = json.loads(saved.read_text(encoding="utf-8"))
    assert "application/vnd.jupyter.widget-state+json" in notebook["metadata"]["widgets"]
    outputs = notebook["cells"][0]["outputs"]
    assert [sorted(o["data"]) for o in outputs] == [
        ["application/vnd.jupyter.widget-view+json", "text/plain"], ["text/html", "text/plain"]]

    jupyter_bin = Path(sys.executable).parent / "jupyter"
    pages = {}
    for theme in ("light", "dark"):
        name = f"static_copy_{theme}"
        run = subprocess.run([str(jupyter_bin), "nbconvert", "--to", "html",
                              f"--HTMLExporter.theme={theme}", "--output", name,
                              "--output-dir", str(tmp_path), str(saved)],
                             capture_output=True, text=True, timeout=120, check=False)
        assert run.returncode == 0, run.stderr
        pages[theme] = tmp_path / f"{name}.html"
    html = pages["light"].read_text(encoding="utf-8")
    assert "@jupyter-widgets/html-manager" in html  # the widgets would come from a CDN: blocked

    for theme, script in (("light", True), ("light", False), ("dark", True)):
        view = Offline(browser, script=script, scheme=theme)
        try:
            shown = view.open(pages[theme])
            static = shown.locator(".dial-static")
            expect(static).to_be_visible()
            expect(static.locator(".dial-bubble").first).to_have_text(
                "add a note: call the plumber")
            for card, status in (("add", "done"), ("rm", "dismissed"), ("ls", "done")):
                expect(static.locator(f"[data-dial-suggestion={card}]")).to_have_attribute(
                    "data-dial-status", status)
            expect(static.locator("[data-dial-suggestion=add]")).to_contain_text(
                "Add the note 'call the plumber'")
            expect(static.locator("[data-dial-suggestion=ls]")).to_contain_text(
                "call the plumber")
            expect(static.locator("[data-dial-suggestion=rm] .dial-outcome")).to_have_text(
                "Dismissed — nothing ran")
            for text in HOSTILE[:6]:
                expect(static.get_by_text(text, exact=True).first).to_be_visible()
            assert page_has_no_agent_element(shown)
            if script:
                assert pwned(shown) is None
                static.screenshot(path=str(OUTPUT / f"static-nbconvert-{theme}.png"))
            # nothing but the page itself: every CDN script was refused
            assert all(url.startswith(("https://cdn", "https://cdnjs", "https://unpkg"))
                       for url in view.fetched()), view.fetched()
        finally:
            view.close()


def page_has_no_agent_element(page: Any) -> bool:
    """No element inside the static copy but those the renderer makes."""
    return page.locator(".dial-static :is(script, iframe, svg, a, form, button, input, img)"
                        ).count() == 0


def test_in_notebook_7_too_the_static_copy_hides_while_the_widget_shows(jupyter, browser):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(NOTEBOOK_CELL.format(hostile=HOSTILE[:2])),
                nbformat.v4.new_code_cell('task = chat.say("add a note: water the plants")')]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nbformat.write(nb, jupyter["root"] / "static_copy_nb7.ipynb")
    context = browser.new_context(viewport={"width": 1100, "height": 1000})
    try:
        notebook = open_notebook(context, jupyter["base"], "static_copy_nb7.ipynb",
                                 app="notebook")
        page = notebook.page
        expect(notebook.card("add")).to_have_attribute("data-dial-status", "pending",
                                                       timeout=20000)
        static = page.locator(".dial-static")
        expect(static).to_have_count(1)
        expect(static).to_be_hidden()
        expect(static.locator("[data-dial-suggestion=add]")).to_have_attribute(
            "data-dial-status", "pending", timeout=10000)  # current, though hidden
        preview = page.locator(".dial-preview", has_text="water the plants")
        expect(preview.locator("visible=true")).to_have_count(1)
    finally:
        context.close()
