"""notebooks/teaching-dial.ipynb in JupyterLab 4, in headless Chromium, walked as the tour walks
it: run all, send the suggest as the agent, accept the card as the person and read the outcome
reply the agent receives; answer a choice; accept an execute block and find its variable in the
kernel; see a long payload cut at a line's end; switch the domain. Screenshots (light and dark)
go to tests/browser/output/teaching-*.png."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from playwright.sync_api import expect

from ._harness import OUTPUT, NotebookPage, open_notebook

pytestmark = pytest.mark.browser

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "teaching-dial.ipynb"


@pytest.fixture(scope="module")
def lab(jupyter, browser_context) -> NotebookPage:
    shutil.copy(NOTEBOOK, jupyter["root"] / NOTEBOOK.name)
    notebook = open_notebook(browser_context, jupyter["base"], NOTEBOOK.name, app="lab")
    notebook.page.set_viewport_size({"width": 1280, "height": 2200})
    notebook.page.locator(".dpg-root").first.wait_for(timeout=60000)
    yield notebook
    notebook.page.close()


def shot(lab: NotebookPage, name: str, *, page: bool = False) -> None:
    """The playground (and with ``page``, the whole JupyterLab window) as teaching-NAME.png."""
    root = lab.page.locator(".dpg-root").first
    root.scroll_into_view_if_needed()
    root.screenshot(path=str(OUTPUT / f"teaching-{name}.png"))
    if page:
        lab.page.screenshot(path=str(OUTPUT / f"teaching-{name}-page.png"))


def pick(lab: NotebookPage, label: str, menu: int = 0) -> None:
    """Choose ``label`` in the example menu (``menu=1``: the domain menu)."""
    lab.page.locator(".dpg-root .widget-dropdown select").nth(menu).select_option(label=label)


KERNEL_RUN = """async (code) => {
    const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
    const future = kernel.requestExecute({code, silent: false, store_history: false});
    let out = "";
    future.onIOPub = (msg) => {
        if (msg.header.msg_type === "stream") out += msg.content.text;
        if (msg.header.msg_type === "error") out += msg.content.ename;
    };
    await future.done;
    return out;
}"""


def kernel(lab: NotebookPage, code: str) -> str:
    """What ``code`` prints when run in the notebook's kernel (an error: its name)."""
    return lab.page.evaluate(KERNEL_RUN, code)


def test_run_all_shows_the_playground_with_clean_panels(lab):
    root = lab.page.locator(".dpg-root").first
    expect(root.locator(".dpg-editor textarea")).to_have_value(re.compile('action="add-note"'))
    expect(root.locator(".dpg-ok")).to_contain_text("No findings")
    expect(root.locator("[data-dial-root]")).to_be_visible()


def test_the_suggest_example_sent_and_accepted_shows_the_outcome_reply(lab):
    root = lab.page.locator(".dpg-root").first
    pick(lab, "inform · render=\"prose\"")
    expect(root.locator(".dpg-editor textarea")).to_have_value(
        '<dial version="0.1" actor="agent">\n'
        '  <dial-inform id="greeting" render="prose">\n'
        "    Hello! I can add, list and remove your notes.\n"
        "  </dial-inform>\n</dial>")
    pick(lab, "suggest · with its own payload")
    expect(root.locator(".dpg-tree .dpg-tag").first).to_have_text("suggest")
    shot(lab, "light")
    root.get_by_role("button", name="Send as the agent").click()
    card = root.locator('[data-dial-suggestion="sg-milk"]')
    expect(card).to_have_attribute("data-dial-status", "pending")
    expect(card.locator(".dial-preview")).to_have_text("Add the note 'buy milk'")
    card.locator("[data-dial-action=accept]").click()
    expect(card).to_have_attribute("data-dial-status", "done")
    received = root.locator("[data-dpg-received]")
    expect(received).to_contain_text('<dial-acknowledge of="sg-milk" yield="sg-milk:done">')
    expect(received).to_contain_text('"status":"done"')
    # where sg-milk comes from: the suggest's id, not its own yield="milk:added …"
    expect(root.locator("[data-dpg-outcome]")).to_contain_text(
        'of="sg-milk" yield="sg-milk:STATUS">: sg-milk is its id')
    expect(root.locator("[data-dpg-outcome]")).to_contain_text(
        'Its own yield="milk:added milk:dismissed" is not sent back')
    expect(root.locator("[data-dpg-read]")).to_contain_text("Here: sg-milk → done.")
    expect(root.locator("[data-dial-inform]").last).to_have_text("Noted, thank you.")
    shot(lab, "accepted", page=True)


def test_a_choice_shows_every_option_with_its_value_and_the_agent_receives_the_value(lab):
    root = lab.page.locator(".dpg-root").first
    pick(lab, "ask · response-type=\"choice\"")
    options = root.locator("[data-dpg-option]")
    expect(options).to_have_count(3)
    for index, (value, label) in enumerate([("groceries", "Groceries list"),
                                            ("people", "People to call"),
                                            ("archive", "Archive (read-only)")]):
        expect(options.nth(index)).to_contain_text(f'value="{value}"')
        expect(options.nth(index)).to_contain_text(f"shown as “{label}”")
    root.get_by_role("button", name="Send as the agent").click()
    choices = root.locator(".dial-choice")
    expect(choices).to_have_count(3)
    for index, value in enumerate(["groceries", "people", "archive"]):
        expect(choices.nth(index).locator(".dial-choice-desc")).to_have_text(value)
    shot(lab, "choice")
    choices.nth(1).click()
    expect(root.locator(".dial-answered").last).to_have_text("You: People to call")
    received = root.locator("[data-dpg-received]")
    expect(received).to_have_text(re.compile(r"\n\npeople$"))


def test_the_execute_example_runs_in_the_notebook_only_after_accept_on_its_card(lab):
    root = lab.page.locator(".dpg-root").first
    kernel(lab, "globals().pop('shopping', None)")  # the code cells below made one already
    pick(lab, "execute (steps)")
    root.get_by_role("button", name="Send as the agent").click()
    card = root.locator('[data-dial-suggestion="shopping"]').last
    expect(card).to_have_attribute("data-dial-status", "pending")
    expect(card.locator(".dial-badge-danger")).to_have_text("⚠ Runs code")
    steps = card.locator("[data-dial-step]")
    expect(steps).to_have_count(2)
    expect(steps.nth(0).locator(".dial-command")).to_have_text(
        'shopping = ["milk", "bread", "eggs"]\nshopping')
    expect(steps.nth(1).locator(".dial-command")).to_have_text(
        'print(len(shopping), "items:", ", ".join(shopping))\nlen(shopping)')
    assert kernel(lab, "print(shopping)") == "NameError"  # nothing ran before Accept
    shot(lab, "execute-pending")
    card.locator("[data-dial-action=accept]").click()
    expect(card).to_have_attribute("data-dial-status", "done")
    expect(steps.nth(0).locator(".dial-output-value")).to_have_text(
        "['milk', 'bread', 'eggs']")
    expect(steps.nth(1).locator(".dial-output-stdout")).to_have_text(
        "3 items: milk, bread, eggs")
    expect(steps.nth(1).locator(".dial-output-value")).to_have_text("3")
    received = root.locator("[data-dpg-received]")
    expect(received).to_contain_text('<dial-acknowledge of="make" yield="make:done">')
    expect(received).to_contain_text('<dial-acknowledge of="count" yield="count:done">')
    assert kernel(lab, "print(shopping)") == "['milk', 'bread', 'eggs']\n"
    shot(lab, "execute-done")


def test_a_long_payload_is_cut_at_a_line_end_saying_what_was_left_out(lab):
    root = lab.page.locator(".dpg-root").first
    rows = [{"id": n, "text": f"note {n}"} for n in range(200)]
    root.locator(".dpg-editor textarea").fill(
        '<dial version="0.1" actor="agent"><dial-inform render="table">'
        f'<dial-payload type="application/json">{json.dumps(rows)}</dial-payload>'
        "</dial-inform></dial>")
    clipped = root.locator("[data-dpg-clipped]")
    expect(clipped).to_have_count(1)
    full = json.dumps(rows, indent=2)  # as the panel lays the payload out
    shown = root.locator(".dpg-tree pre").last.text_content()
    assert full.startswith(shown + "\n")  # whole lines only, never half of one
    left = full[len(shown) + 1:]
    expect(clipped).to_have_text(
        f"… {left.count(chr(10)) + 1:,} more lines not shown ({len(left):,} characters)")
    clipped.scroll_into_view_if_needed()
    shot(lab, "clipped")



def test_the_malformed_example_shows_repairs_and_the_xml_error(lab):
    root = lab.page.locator(".dpg-root").first
    pick(lab, "malformed · what LLMs really write")
    expect(root.locator(".dpg-repair")).to_have_count(3)
    findings = root.locator(".dpg-finding")
    expect(findings).to_have_count(2)
    expect(findings.nth(0)).to_contain_text("Did you mean 'dial-inform'?")
    expect(findings.nth(1)).to_contain_text("not-well-formed")
    expect(findings.nth(1)).to_contain_text("line 3, column 36")
    shot(lab, "malformed")


def test_switching_the_domain_starts_afresh_and_the_suggest_is_refused_without_a_card(lab):
    root = lab.page.locator(".dpg-root").first
    pick(lab, "suggest · with its own payload")
    pick(lab, "sales data frame (DataFramesDomain)", menu=1)
    expect(root.locator(".dpg-muted", has_text="New conversation")).to_be_visible()
    expect(root.locator("[data-dial-suggestion]")).to_have_count(0)  # the chat is empty
    expect(root.locator("[data-dpg-received]")).to_have_count(0)  # "Nothing sent yet"
    root.get_by_role("button", name="Send as the agent").click()
    line = root.locator('[data-dial-outcome="sg-milk"]')
    expect(line).to_have_text("add-note: Invalid — There is no action 'add-note'.")
    expect(root.locator("[data-dial-suggestion]")).to_have_count(0)  # no card, ever
    received = root.locator("[data-dpg-received]")
    expect(received).to_contain_text('yield="sg-milk:invalid"')
    expect(received).to_contain_text('"code":"unknown-action"')
    expect(received).to_contain_text('<context frames="1">')
    expect(root.locator(".dpg-muted", has_text="Sent to the agent on turn 2")).to_be_visible()
    shot(lab, "domain-switch")


def test_the_playground_reads_well_in_the_dark_theme(lab):
    lab.set_theme("JupyterLab Dark")
    try:
        pick(lab, "ask · response-type=\"choice\"")
        root = lab.page.locator(".dpg-root").first
        expect(root.locator(".dpg-tree").first).to_contain_text("groceries")
        shot(lab, "dark")
    finally:
        lab.set_theme("JupyterLab Light")


def test_the_replay_section_steps_through_the_shipped_conversation(lab):
    from dial_notebook.widget import Replay

    events = json.loads(Replay.EXAMPLE.read_text(encoding="utf-8"))["surface"]["transcript"]
    replay = lab.page.locator("[data-dial-replay]").first
    replay.scroll_into_view_if_needed()
    counter = replay.locator("[data-dial-replay-counter]")
    expect(counter).to_have_text(f"Start · {len(events)} events")
    expect(replay.locator("[data-dial-replay-no-words]")).to_be_hidden()  # the person's too
    nxt = replay.locator("[data-dial-replay-action=next]")
    for step in range(1, 6):
        nxt.click()
        expect(counter).to_have_text(f"Event {step} of {len(events)}")
    card = replay.locator('[data-dial-replay-log] [data-dial-suggestion="milk"]')
    expect(card).to_have_attribute("data-dial-status", "proposed")
    expect(replay.locator("[data-dial-replay-log] .dial-person").first).to_have_text(
        "add a note: buy milk")
    nxt.click()
    nxt.click()
    expect(counter).to_have_text(f"Event 7 of {len(events)}")
    expect(card).to_have_attribute("data-dial-status", "done")
    wire = replay.locator("[data-dial-replay-wire]")
    assert wire.text_content() == events[6]["message"]
    expect(wire).to_contain_text('<dial-acknowledge of="milk" yield="milk:done">')
    ask = next(i for i, e in enumerate(events) if e["type"] == "ask") + 1
    replay.locator(f'[data-dial-replay-tick="{ask}"]').click()
    question = replay.locator("[data-dial-replay-log] .dial-ask")
    expect(question).to_have_attribute("data-dial-status", "pending")  # answered later
    choices = question.locator(".dial-choice")
    expect(choices).to_have_count(2)
    expect(choices.first).to_be_disabled()
    expect(choices.first.locator(".dial-choice-label")).to_have_text("call Sam")
    lab.page.screenshot(path=str(OUTPUT / "teaching-replay-page.png"))
    replay.screenshot(path=str(OUTPUT / "teaching-replay.png"))
    nxt.click()
    expect(question.locator(".dial-answered")).to_have_text("You: call Sam")
    nxt.click()
    assert wire.text_content() == events[ask + 1]["message"]
    assert wire.text_content().endswith("\n\n1")  # the option's value, not its label
    replay.locator("[data-dial-replay-action=back]").click()
    expect(counter).to_have_text(f"Event {ask + 1} of {len(events)}")
    for _ in range(50):  # the click travels on a comm, maybe over a subshell: it can lag
        if kernel(lab, "print(replay.step)").strip() == str(ask + 1):
            break
        lab.page.wait_for_timeout(100)
    assert kernel(lab, "print(replay.step)").strip() == str(ask + 1)
