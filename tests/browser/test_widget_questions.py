"""The ask_user panel in JupyterLab 4, in headless Chromium: code in the kernel asks (as a tool
or domain action would), the person answers in the chat, and the test reads back the exact
Answer Python received (the asking code writes its ``repr`` next to the notebook)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from dial_notebook.interaction import Answer, AnswerItem

from ._harness import (
    OUTPUT,
    NotebookPage,
    mount_widget,
    open_notebook,
    save_and_reload,
    write_notebook,
)

pytestmark = pytest.mark.browser

WIDGET_CELL = """\
from dial_notebook.widget import ChatWidget
chat = ChatWidget(agent=RuleAgent(), domain=notes_domain(), title="Report assistant")
chat"""

ASKING_CELL = """\
import asyncio
from pathlib import Path
from dial_notebook.interaction import ask_user

def start(name, questions, signal=None):
    async def run():
        try:
            result = repr(await ask_user(questions, signal=signal))
        except Exception as error:
            result = repr(error)
        Path(name + ".answer").write_text(result)
    return asyncio.ensure_future(run())

BATCH = [
    {"id": "lang", "header": "Language", "question": "Which language should the report use?",
     "detail": "The report is **shared** with the team.\\n\\n- Python has `pandas`\\n"
               "- <img src=x onerror=\\"window.__xss=1\\"> stays text",
     "options": [{"label": "Python", "description": "Most of the team knows it"},
                 {"label": "R", "description": "Better plots"}]},
    {"id": "fmt", "header": "Formats", "question": "Which formats do you want?",
     "options": [{"label": "HTML", "description": "Opens in a browser"}, "PDF", "Markdown"],
     "multiSelect": True},
    {"id": "who", "question": "Who should receive it?"},
]
PLAN = [{"id": "plan", "header": "Plan", "question": "Shall I go ahead with this plan?",
         "detail": "# Clean the sales data\\n\\n1. Drop rows with an empty **amount**\\n"
                   "2. Convert `date` to ISO dates\\n3. Save as `sales_clean.parquet`\\n\\n"
                   "Nothing is deleted from the source file.",
         "options": ["Approve", "Revise"],
         "intent": {"kind": "plan-review", "approve": "Approve"}}]"""


class Lab:
    """The notebook page plus the kernel's answers directory."""

    def __init__(self, notebook: NotebookPage, root: Path) -> None:
        self.nb = notebook
        self.root = root

    def run(self, code: str) -> None:
        """Execute ``code`` in the notebook's kernel (not as a cell)."""
        status = self.nb.page.evaluate("""async (code) => {
            const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
            const reply = await kernel.requestExecute({code}).done;
            return reply.content.status;
        }""", code)
        assert status == "ok", code

    def answer(self, name: str) -> str:
        path = self.root / f"{name}.answer"
        for _ in range(150):
            if path.exists() and path.read_text():
                return path.read_text()
            self.nb.page.wait_for_timeout(100)
        raise AssertionError(f"Python never received the answer to {name!r}")

    def panel(self):
        return self.nb.root.locator("[data-dial-questions]")


@pytest.fixture(scope="module")
def lab(jupyter, browser_context) -> Lab:
    name = write_notebook(jupyter["root"], "questions_lab.ipynb", WIDGET_CELL, ASKING_CELL)
    notebook = open_notebook(browser_context, jupyter["base"], name, app="lab")
    notebook.page.wait_for_function(
        "() => window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.status"
        " === 'idle'", timeout=60000)
    yield Lab(notebook, jupyter["root"])
    notebook.page.close()


def test_a_batch_of_three_questions_reaches_python_as_the_exact_answer(lab):
    lab.run("start('batch', BATCH)")
    panel = lab.panel()
    expect(panel).to_be_visible()
    expect(panel.locator("[data-dial-question]")).to_have_count(3)
    submit = panel.locator("[data-dial-action=submit-questions]")
    expect(submit).to_be_disabled()
    lang = panel.locator("[data-dial-question=lang]")
    expect(lang.locator("[data-dial-detail] strong")).to_have_text("shared")
    expect(lang.locator("[data-dial-detail]")).to_contain_text("<img src=x onerror")
    expect(lang.locator("[data-dial-choice=Python]")).to_contain_text("Most of the team knows it")
    lang.locator("[data-dial-choice=Python]").click()
    lang.locator("[data-dial-field=other]").fill("Julia")  # Other overrides the choice
    fmt = panel.locator("[data-dial-question=fmt]")
    fmt.locator("[data-dial-choice=HTML]").click()
    fmt.locator("[data-dial-choice=Markdown]").click()
    expect(submit).to_be_disabled()
    who = panel.locator("[data-dial-question=who]")
    who.locator("[data-dial-action=skip-question]").click()
    expect(who).to_have_attribute("data-dial-state", "skipped")
    expect(submit).to_be_enabled()
    lab.nb.shot("questions-batch", panel)
    submit.click()
    assert lab.answer("batch") == repr(Answer((
        AnswerItem("lang", (), "Julia"),
        AnswerItem("fmt", ("HTML", "Markdown")),
        AnswerItem("who"))))
    expect(panel).to_have_count(0)
    expect(lab.nb.root.locator(".dial-person").last).to_contain_text("Which language should the"
                                                                     " report use? Julia")
    assert lab.nb.page.evaluate("() => window.__xss") is None
    assert lab.nb.root.locator("img[onerror]").count() == 0


def test_a_plan_review_is_approved_or_declined_with_its_option_labels(lab):
    lab.run("start('approved', PLAN)")
    panel = lab.panel()
    plan = panel.locator("[data-dial-question=plan] .dial-plan")
    expect(plan.locator(".dial-md-h")).to_have_text("Clean the sales data")
    expect(plan.locator("ol li")).to_have_count(3)
    expect(panel.locator("[data-dial-action=submit-questions]")).to_have_count(0)
    lab.nb.shot("questions-plan", panel)
    panel.locator("[data-dial-action=approve-plan]").click()
    assert lab.answer("approved") == repr(Answer((AnswerItem("plan", ("Approve",)),)))
    expect(panel).to_have_count(0)
    lab.run("start('declined', PLAN)")
    decline = panel.locator("[data-dial-action=decline-plan]")
    expect(decline).to_have_attribute("data-dial-choice", "Revise")
    decline.click()
    assert lab.answer("declined") == repr(Answer((AnswerItem("plan", ("Revise",)),)))


def test_a_single_choice_answered_by_a_label_and_a_dark_panel(lab):
    lab.run("start('dark', BATCH[:2])")
    panel = lab.panel()
    lang = panel.locator("[data-dial-question=lang]")
    lang.locator("[data-dial-field=other]").fill("Julia")
    lang.locator("[data-dial-choice=R]").click()  # a label chosen after typing: the label wins
    panel.locator("[data-dial-question=fmt] [data-dial-choice=PDF]").click()
    panel.locator("[data-dial-question=fmt] [data-dial-field=other]").fill("ePub")
    light = panel.evaluate("n => getComputedStyle(n).backgroundColor")
    lab.nb.set_theme("JupyterLab Dark")
    try:
        assert panel.evaluate("n => getComputedStyle(n).backgroundColor") != light
        lab.nb.shot("questions-dark", panel)
    finally:
        lab.nb.set_theme("JupyterLab Light")
    panel.locator("[data-dial-action=submit-questions]").click()
    assert lab.answer("dark") == repr(Answer((
        AnswerItem("lang", ("R",)), AnswerItem("fmt", ("PDF",), "ePub"))))


def test_setting_the_signal_removes_the_panel_and_python_gets_ask_aborted(lab):
    lab.run("stop = asyncio.Event()\nstart('aborted', BATCH, signal=stop)")
    expect(lab.panel()).to_be_visible()
    lab.run("stop.set()")
    expect(lab.panel()).to_have_count(0)
    assert "code='ASK_ABORTED'" in lab.answer("aborted")


def test_a_reloaded_page_shows_the_waiting_questions_still_answerable(lab):
    lab.run("start('reloaded', BATCH[2:])")
    expect(lab.panel()).to_be_visible()
    page = lab.nb.page
    save_and_reload(page)
    panel = page.locator("[data-dial-root] [data-dial-questions]").first
    expect(panel).to_be_visible(timeout=30000)
    panel.locator("[data-dial-field=other]").fill("Sam")
    panel.locator("[data-dial-field=other]").press("Enter")
    assert lab.answer("reloaded") == repr(Answer((AnswerItem("who", (), "Sam"),)))


QUESTIONS = {"token": "q7", "questions": [
    {"id": "lang", "header": None, "question": "Which language?", "detail": None,
     "multi_select": False, "intent": None,
     "options": [{"label": "Python", "description": None}, {"label": "R", "description": None}]},
    {"id": "who", "header": None, "question": "Who receives it?", "detail": None,
     "multi_select": False, "intent": None, "options": []}]}


def test_a_trait_update_keeps_the_persons_choices_and_a_new_request_starts_fresh(browser_context):
    page = mount_widget(browser_context, {"questions": QUESTIONS})
    page.locator("[data-dial-choice=R]").click()
    page.evaluate("q => window.model.set('questions', {...q})", QUESTIONS)  # same token again
    expect(page.locator("[data-dial-choice=R] input")).to_be_checked()
    who = page.locator("[data-dial-question=who] [data-dial-field=other]")
    who.fill("Sam")
    who.press("Enter")  # complete: Enter submits
    assert page.evaluate("() => window.sent") == [{"type": "questions", "token": "q7", "answers": [
        {"id": "lang", "selected": ["R"]}, {"id": "who", "selected": [], "custom": "Sam"}]}]
    page.evaluate("q => window.model.set('questions', {...q, token: 'q8'})", QUESTIONS)
    expect(page.locator("[data-dial-questions=q8] [data-dial-choice=R] input")).not_to_be_checked()
    page.evaluate("() => window.model.set('questions', {})")
    expect(page.locator("[data-dial-questions]")).to_have_count(0)
    page.close()


def test_a_chat_that_is_not_the_provider_says_so_in_a_visible_note(browser_context):
    note = ("Questions asked with ask_user() are not shown in this chat: another provider "
            "(ConsoleProvider) is active. Dispose of it (or close its widget), then call "
            "chat.provide().")
    page = mount_widget(browser_context, {"provider_note": note})
    shown = page.locator("[data-dial-provider-note]")
    expect(shown).to_have_text(note)
    shown.screenshot(path=str(OUTPUT / "questions-provider-note.png"))
    page.evaluate("() => window.model.set('provider_note', '')")
    expect(shown).to_have_count(0)
    page.close()


def test_a_plan_review_inside_a_batch_is_chosen_then_submitted_with_the_rest(browser_context):
    plan = {"id": "plan", "header": "Plan", "question": "Go ahead?", "detail": "1. Clean\n2. Save",
            "multi_select": False, "intent": {"kind": "plan-review", "approve": "Ship it"},
            "options": [{"label": "Ship it", "description": None},
                        {"label": "Not yet", "description": None}]}
    page = mount_widget(browser_context, {"questions": {
        "token": "q9", "questions": [plan, QUESTIONS["questions"][0]]}})
    approve = page.locator("[data-dial-action=approve-plan]")
    expect(approve).to_have_attribute("data-dial-choice", "Ship it")
    approve.click()
    expect(approve).to_have_attribute("aria-pressed", "true")
    submit = page.locator("[data-dial-action=submit-questions]")
    expect(submit).to_be_disabled()
    page.locator("[data-dial-question=lang] [data-dial-action=skip-question]").click()
    submit.click()
    assert page.evaluate("() => window.sent") == [{"type": "questions", "token": "q9", "answers": [
        {"id": "plan", "selected": ["Ship it"]}, {"id": "lang", "selected": []}]}]
    page.close()
