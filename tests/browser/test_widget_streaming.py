"""A real model's reply, live, in JupyterLab 4: OpenAIAgent in the notebook's kernel streams from
a fake OpenAI-compatible server on 127.0.0.1 (tests/unit/fake_llm_server.py) that sends the reply
in timed chunks. The reply appears as it is written (prose word by word, "Proposing: add-note…"
while the model writes the proposal) and never as raw markup; when it completes, the streamed
bubble gives way to the card. Stop ends a reply mid-stream: the HTTP stream is closed, the
person sees "Stopped.", and the conversation goes on."""

from __future__ import annotations

import itertools
import json

import pytest
from playwright.sync_api import expect

from ..unit.fake_llm_server import FakeLLMServer, reply
from ._harness import NotebookPage, open_notebook, save_with_widget_state, write_notebook

pytestmark = pytest.mark.browser

PROSE = ("Sure. I will add that note to your list, so that you remember to buy the milk on "
         "the way home tonight.")
PROPOSAL = (PROSE + '<dial version="0.1" actor="agent">'
            "<dial-inform>Here is the note, ready to add.</dial-inform>"
            '<dial-suggest id="add-milk" action="add-note">Add it?'
            '<dial-payload type="application/json">{"text": "milk"}</dial-payload>'
            "</dial-suggest></dial>")
LONG = "I am going to think out loud about this for quite a while. " * 40

WATCH = """() => {
    const root = document.querySelector('[data-dial-root]');
    window.__raw = [];       // every text of the widget that showed markup
    window.__streamed = [];  // each text the streamed bubble showed, in order
    window.__writing = [];
    const look = () => {
        const text = root.innerText;
        if (/<\\/?dial|dial-payload|&lt;/.test(text)) window.__raw.push(text);
        const box = root.querySelector('[data-dial-streaming]');
        if (box && !box.hidden) {
            const prose = box.querySelector('.dial-prose');
            const shown = prose ? prose.textContent : '';
            if (window.__streamed[window.__streamed.length - 1] !== shown) window.__streamed.push(shown);
            const writing = box.querySelector('[data-dial-writing]');
            if (writing) window.__writing.push(writing.textContent);
        }
    };
    new MutationObserver(look).observe(root, {subtree: true, childList: true, characterData: true, attributes: true});
}"""


@pytest.fixture(scope="module")
def server():
    with FakeLLMServer() as fake:
        yield fake


@pytest.fixture(scope="module")
def lab(jupyter, browser_context, server) -> NotebookPage:
    cell = f"""\
from dial_notebook.agents import OpenAIAgent
from dial_notebook.widget import ChatWidget
domain = notes_domain()
agent = OpenAIAgent(model="fake-model", base_url={server.url + '/v1'!r}, api_key="sk-test",
                    domain=domain)
chat = ChatWidget(agent=agent, domain=domain, title="Streaming assistant")
chat"""
    name = write_notebook(jupyter["root"], "chat_streaming.ipynb", cell)
    notebook = open_notebook(browser_context, jupyter["base"], name, app="lab")
    notebook.page.evaluate(WATCH)
    yield notebook
    notebook.page.close()


def test_a_streamed_reply_appears_as_it_is_written_and_never_as_markup(lab, server):
    server.plan(reply(PROPOSAL, chunks=45, delay=0.08),
                reply("Done, the note is on the list.", chunks=3, delay=0.05))
    lab.say("add milk to my notes")
    stream = lab.root.locator("[data-dial-streaming]")
    expect(stream).to_be_visible(timeout=10000)
    expect(stream.locator(".dial-prose")).to_contain_text("I will add that note")
    lab.shot("streaming-mid")
    expect(stream.locator("[data-dial-writing]")).to_contain_text("Proposing: add-note…",
                                                                  timeout=10000)
    lab.shot("streaming-proposing")
    card = lab.card("add-milk")
    expect(card).to_have_attribute("data-dial-status", "pending", timeout=15000)
    expect(stream).to_be_hidden()
    # the reply as itself now: its prose and inform in the log, the card below them
    expect(lab.root.locator("[data-dial-inform]").filter(has_text="buy the milk")).to_be_visible()
    lab.shot("streaming-done")
    streamed = lab.page.evaluate("() => window.__streamed")
    grown = [text for text in streamed if text]
    assert len(grown) >= 5, streamed  # word by word, not at once
    assert all(b.startswith(a) for a, b in itertools.pairwise(grown)), grown
    assert grown[-1].startswith(PROSE[:60])
    assert lab.page.evaluate("() => window.__raw") == []
    card.locator("[data-dial-action=accept]").click()
    expect(card).to_have_attribute("data-dial-status", "done")
    expect(lab.root.locator("[data-dial-inform]").filter(has_text="on the list")).to_be_visible(
        timeout=10000)
    assert "milk" in lab.kernel_value("[note['text'] for note in domain.notes]")
    # the usage the server reported, in the footer
    expect(lab.root.locator("[data-dial-usage]")).to_contain_text("2 replies")
    expect(lab.root.locator("[data-dial-usage]")).to_contain_text("40 tokens")


def test_stop_ends_a_reply_mid_stream_and_the_conversation_goes_on(lab, server):
    cut_before = server.streams_cut_by_client
    server.plan(reply(LONG, chunks=200, delay=0.05), reply("Fine, a short answer then."))
    lab.say("tell me everything")
    stream = lab.root.locator("[data-dial-streaming]")
    expect(stream.locator(".dial-prose")).to_contain_text("think out loud", timeout=10000)
    stop = lab.root.locator("[data-dial-action=stop]")
    expect(stop).to_be_visible()
    lab.shot("streaming-before-stop")
    stop.click()
    expect(lab.root.locator("[data-dial-stopped]")).to_have_text("Stopped.", timeout=10000)
    expect(stream).to_be_hidden()
    # what had been written stays, above the note
    expect(lab.root.locator("[data-dial-partial]")).to_contain_text("think out loud")
    expect(stop).to_be_hidden()
    lab.shot("streaming-stopped")
    assert server.wait_for("streams_cut_by_client", cut_before + 1) == cut_before + 1
    assert lab.kernel_value("chat.running") == "False"
    lab.say("ok, briefly")
    expect(lab.root.locator("[data-dial-inform]").filter(has_text="short answer")).to_be_visible(
        timeout=10000)
    assert lab.page.evaluate("() => window.__raw") == []
    sent = json.loads(lab.kernel_value("json.dumps([e['type'] for e in chat.transcript])"))
    assert sent.count("stopped") == 1


def test_saved_the_conversation_is_in_the_notebook_once_in_its_static_copy(lab, jupyter):
    """The saved widget state holds none of the conversation (js/src/unsaved.js); the static
    copy beside the widget holds it, once (issue 29: a notebook no bigger than its session)."""
    save_with_widget_state(lab.page)
    saved = json.loads((jupyter["root"] / "chat_streaming.ipynb").read_text())
    states = saved["metadata"]["widgets"]["application/vnd.jupyter.widget-state+json"]
    model_id = lab.kernel_value("chat.model_id")
    assert states["state"][model_id]["state"].get("transcript", []) == []
    events = json.loads(lab.kernel_value("json.dumps(chat.transcript)"))
    assert len(events) > 10 and {"stopped", "reply", "suggestion"} <= {e["type"] for e in events}
    copies = [output["data"]["text/html"] for cell in saved["cells"]
              for output in cell.get("outputs", []) if "data-dial-static" in
              "".join(output.get("data", {}).get("text/html", ""))]
    assert len(copies) == 1
    for words in ("buy the milk", "short answer", "think out loud"):
        assert words in "".join(copies[0]), words
