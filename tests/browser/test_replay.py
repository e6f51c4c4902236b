"""A saved conversation replayed in JupyterLab 4, with a real kernel and real clicks: Next and
Back step one event at a time; at each step the conversation is drawn as the ChatWidget drew it
(read-only: every button in it disabled), and beside it the current event and the exact message
the agent had received; a raw reply is shown on a 'reply' step; a hostile reply stays text; the
kernel's ``replay.step`` follows the clicks, and a step set in the kernel moves the view.

The snapshot is made here by a real Conversation (a scripted agent, the notes domain, a
scripted human); the agent's ``received`` is what the page must show, character for character.
Screenshots (light and dark) go to tests/browser/output/replay-*.png."""

from __future__ import annotations

import asyncio
import json
import re
import uuid
from pathlib import Path

import nbformat
import pytest
from playwright.sync_api import expect

from dial_notebook import Conversation, NotesDomain, ScriptedAgent, scripted_human

from ._harness import OUTPUT, NotebookPage, open_notebook

pytestmark = pytest.mark.browser

HOSTILE = "<img src=x onerror=window.__pwned=1>"


def dial(*elements: str) -> str:
    return '<dial version="0.1" actor="agent">' + "".join(elements) + "</dial>"


REPLIES = [
    dial('<dial-suggest id="milk" action="add-note">Shall I add it?'
         '<dial-payload>{"text": "buy milk"}</dial-payload></dial-suggest>'),
    # prose around the envelope holding markup, and an inform whose text is markup
    f"Done. {HOSTILE} " + dial(
        "<dial-inform>&lt;img src=x onerror=window.__pwned=1&gt;</dial-inform>"),
    dial('<dial-ask id="which" response-type="choice">Which list?'
         '<dial-option value="home">Home</dial-option>'
         '<dial-option value="work">Work</dial-option></dial-ask>'),
    dial("<dial-inform>Noted: work.</dial-inform>"),
]


def played() -> tuple[list[dict], list[str]]:
    """The conversation's transcript and what the agent received, in order."""
    agent = ScriptedAgent(REPLIES)
    talk = Conversation(agent=agent, domain=NotesDomain(),
                        human=scripted_human(["accept", {"answer": "work"}]))

    async def play() -> None:
        await talk.say("add a note: buy milk")
        await talk.say("which list?")

    asyncio.run(play())
    return json.loads(json.dumps(talk.transcript)), list(agent.received)


TRANSCRIPT, RECEIVED = played()
KINDS = [event["type"] for event in TRANSCRIPT]


@pytest.fixture(scope="module")
def lab(jupyter, browser_context) -> NotebookPage:
    root: Path = jupyter["root"]
    (root / "saved.json").write_text(json.dumps(
        {"format": "dial-notebook/conversation", "version": 1,
         "saved_at": "2026-12-01T17:00:00+00:00", "transcript": TRANSCRIPT}), encoding="utf-8")
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(
        "from dial_notebook import Playground\n\n"
        'replay = Playground.replay("saved.json", title="Monday\'s class")\nreplay')]
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                       "language": "python"}
    name = f"replay-{uuid.uuid4().hex[:6]}.ipynb"
    nbformat.write(notebook, root / name)
    page = open_notebook(browser_context, jupyter["base"], name, app="lab")
    page.page.set_viewport_size({"width": 1400, "height": 1300})
    page.page.locator("[data-dial-replay]").wait_for(timeout=60000)
    yield page
    page.page.close()


def replay(lab: NotebookPage):
    return lab.page.locator("[data-dial-replay]").first


def press(lab: NotebookPage, action: str, times: int = 1) -> None:
    for _ in range(times):
        replay(lab).locator(f"[data-dial-replay-action={action}]").click()


def shot(lab: NotebookPage, name: str) -> None:
    root = replay(lab)
    root.scroll_into_view_if_needed()
    root.screenshot(path=str(OUTPUT / f"replay-{name}.png"))


def at(lab: NotebookPage, step: int) -> None:
    """The view shows ``step`` and the kernel's replay is there too."""
    total = len(TRANSCRIPT)
    expect(replay(lab).locator("[data-dial-replay-counter]")).to_have_text(
        f"Event {step} of {total}" if step else f"Start · {total} events")
    lab.page.wait_for_function("""(step) => {
        const slider = document.querySelector('[data-dial-replay-slider]');
        return slider && slider.value === String(step);
    }""", arg=step)


def kernel_step(lab: NotebookPage) -> int:
    return int(lab.kernel_value("replay.step"))


def kernel_at(lab: NotebookPage, step: int) -> None:
    """The kernel's ``replay.step`` comes to ``step`` (a click travels on a comm, which
    JupyterLab may send over a subshell: it can arrive after a later execute request)."""
    for _ in range(50):
        if kernel_step(lab) == step:
            return
        lab.page.wait_for_timeout(100)
    assert kernel_step(lab) == step


def view_step(lab: NotebookPage) -> int:
    return int(replay(lab).locator("[data-dial-replay-slider]").input_value())


def test_it_opens_at_the_start_with_nothing_sent(lab):
    root = replay(lab)
    at(lab, 0)
    expect(root.locator(".dial-title")).to_have_text("Monday's class")
    expect(root.locator("[data-dial-replay-origin]")).to_have_text(
        "saved.json · saved 2026-12-01 17:00 UTC")
    expect(root.locator("[data-dial-replay-received]")).to_contain_text(
        "Nothing sent to the agent yet.")
    expect(root.locator("[data-dial-replay-empty]")).to_be_visible()
    expect(root.locator("[data-dial-replay-action=back]")).to_be_disabled()
    expect(root.locator("[data-dial-replay-action=first]")).to_be_disabled()
    expect(root.locator("[data-dial-replay-tick]")).to_have_count(len(TRANSCRIPT))
    expect(root.locator("[data-dial-replay-next]")).to_have_text("Next: sent to the agent (turn 1)")
    shot(lab, "start")


def test_next_steps_through_the_wire_and_a_card_appears(lab):
    root = replay(lab)
    lab.kernel_value("replay.first()")
    at(lab, 0)
    press(lab, "next")
    at(lab, 1)
    assert KINDS[0] == "sent"
    expect(root.locator("[data-dial-replay-type]")).to_have_text("sent")
    wire = root.locator("[data-dial-replay-wire]")
    expect(wire).to_have_count(1)
    assert wire.text_content() == RECEIVED[0]  # exact, whitespace and all
    expect(root.locator("[data-dial-replay-received]")).to_contain_text("just sent")
    expect(root.locator("[data-dial-replay-reply]")).to_be_hidden()

    press(lab, "next")
    at(lab, 2)
    expect(root.locator("[data-dial-replay-type]")).to_have_text("reply")
    assert root.locator("[data-dial-replay-raw]").text_content() == REPLIES[0]
    assert root.locator("[data-dial-replay-wire]").text_content() == RECEIVED[0]

    press(lab, "next")
    at(lab, 3)
    card = root.locator('[data-dial-replay-log] [data-dial-suggestion="milk"]')
    expect(card).to_be_visible()
    expect(card).to_have_attribute("data-dial-status", "proposed")
    expect(card).to_have_class(re.compile(r"(^|\s)dial-replay-current(\s|$)"))
    expect(root.locator("[data-dial-replay-reply]")).to_be_hidden()
    expect(root.locator('[data-dial-replay-field="action"]')).to_have_text("add-note")
    shot(lab, "card")

    press(lab, "next")
    at(lab, 4)
    expect(card).to_have_attribute("data-dial-status", "done")
    expect(root.locator("[data-dial-replay-type]")).to_have_text("outcome")

    press(lab, "next")
    at(lab, 5)
    wire = root.locator("[data-dial-replay-wire]")
    assert wire.text_content() == RECEIVED[1]
    expect(wire).to_contain_text('<dial-acknowledge of="milk" yield="milk:done">')
    kernel_at(lab, 5)  # the clicks reached the kernel
    shot(lab, "outcome-reply")


def test_a_hostile_reply_is_shown_as_text_and_runs_nothing(lab):
    root = replay(lab)
    step = KINDS.index("reply", 5) + 1
    while view_step(lab) < step:
        press(lab, "next")
    at(lab, step)
    raw = root.locator("[data-dial-replay-raw]")
    assert raw.text_content() == REPLIES[1]
    expect(raw).to_contain_text(HOSTILE)
    press(lab, "next")
    expect(root.locator("[data-dial-replay-log] [data-dial-inform]").last).to_contain_text(HOSTILE)
    expect(root.locator("img")).to_have_count(0)
    lab.page.wait_for_timeout(300)
    assert lab.page.evaluate("() => window.__pwned") is None
    shot(lab, "hostile")


def test_back_takes_the_last_event_away(lab):
    root = replay(lab)
    before = view_step(lab)
    informs = root.locator("[data-dial-replay-log] [data-dial-inform]")
    shown = informs.count()
    press(lab, "back")
    at(lab, before - 1)
    expect(informs).to_have_count(shown - 1)
    kernel_at(lab, before - 1)
    press(lab, "back", 3)
    at(lab, before - 4)
    expect(root.locator('[data-dial-replay-log] [data-dial-suggestion="milk"]')).to_have_attribute(
        "data-dial-status", "proposed")


def test_a_question_and_the_answer_the_agent_received_with_the_next_message(lab):
    """A runtime's transcript keeps none of the person's words: the question says where its
    answer went (the teaching notebook's replay, a ChatWidget's, shows the answer itself)."""
    root = replay(lab)
    expect(root.locator("[data-dial-replay-no-words]")).to_be_visible()
    ask = KINDS.index("ask") + 1
    root.locator(f'[data-dial-replay-tick="{ask}"]').click()  # a tick on the timeline
    at(lab, ask)
    card = root.locator("[data-dial-replay-log] .dial-ask")
    expect(card).to_have_class(re.compile(r"(^|\s)dial-replay-current(\s|$)"))
    expect(card.locator(".dial-note")).to_have_text(
        "The answer is not in this transcript: it went to the agent with the next message.")
    shot(lab, "question")
    sent = KINDS.index("sent", ask) + 1
    root.locator("[data-dial-replay-slider]").evaluate(
        "(el, step) => { el.value = String(step); el.dispatchEvent(new Event('input', "
        "{bubbles: true})); }", sent)
    at(lab, sent)
    wire = root.locator("[data-dial-replay-wire]")
    assert wire.text_content() == RECEIVED[3]
    assert wire.text_content().endswith("\n\nwork")  # the answer, by its value
    kernel_at(lab, sent)


def test_nothing_in_the_conversation_can_be_clicked(lab):
    root = replay(lab)
    press(lab, "last")
    at(lab, len(TRANSCRIPT))
    expect(root.locator("[data-dial-replay-action=next]")).to_be_disabled()
    expect(root.locator("[data-dial-replay-next]")).to_have_text("The end of the conversation.")
    log = root.locator("[data-dial-replay-log]")
    expect(log.locator("button:not([disabled]), input:not([disabled]), textarea:not([disabled])")
           ).to_have_count(0)
    shot(lab, "end")


def test_a_step_set_in_the_kernel_moves_the_view(lab):
    lab.kernel_value("(setattr(replay, 'step', 3), replay.step)[1]")
    at(lab, 3)
    expect(replay(lab).locator("[data-dial-replay-type]")).to_have_text("suggestion")
    lab.kernel_value("replay.next()")
    at(lab, 4)


def test_the_arrow_keys_step_too_and_the_notebook_does_not_hear_them(lab):
    cells = lab.page.locator(".jp-Notebook .jp-Cell").count()
    lab.kernel_value("(setattr(replay, 'step', 2), replay.step)[1]")
    at(lab, 2)
    press(lab, "next")  # focus is in the replay now
    at(lab, 3)
    lab.page.keyboard.press("ArrowRight")
    at(lab, 4)
    lab.page.keyboard.press("ArrowLeft")
    lab.page.keyboard.press("ArrowLeft")
    at(lab, 2)
    lab.page.keyboard.press("End")
    at(lab, len(TRANSCRIPT))
    lab.page.keyboard.press("Home")
    at(lab, 0)
    lab.page.keyboard.press("b")  # JupyterLab's "insert a cell below", were it heard
    kernel_at(lab, 0)
    assert lab.page.locator(".jp-Notebook .jp-Cell").count() == cells


def test_the_replay_reads_well_in_the_dark_theme(lab):
    lab.set_theme("JupyterLab Dark")
    try:
        lab.kernel_value("(setattr(replay, 'step', 5), replay.step)[1]")
        at(lab, 5)
        shot(lab, "dark")
    finally:
        lab.set_theme("JupyterLab Light")

