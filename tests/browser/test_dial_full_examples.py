"""Both full examples of dial-schema-v0.1.md in JupyterLab 4, with real clicks, on a
``full_dial`` ChatWidget: the confirm-gated delete (a harmless executor stands in for the shell:
it records the command and says what it would run), the product recommendation (declare →
context panel, suggestion, choice ask), and an execute block whose python command the person
edits before it runs in the notebook's own namespace."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.unit.schema_examples import EXAMPLES

from ._harness import NotebookPage, mount_widget, open_notebook, write_notebook

pytestmark = pytest.mark.browser

CELL = f'''\
import pandas as pd
from dial_notebook.widget import ChatWidget

CONFIRM_GATED = {EXAMPLES[-1]!r}
PRODUCTS = {EXAMPLES[-2]!r}
VAT = """<dial><dial-execute id="vat-op">
  <step env="python" id="vat" label="Add a VAT column">df["vat"] = df["price"] * 0.2
df["vat"].tolist()</step>
</dial-execute></dial>"""

df = pd.DataFrame({{"price": [10.0, 20.0]}})
ran = []


def harmless_shell(step):
    ran.append(step.command)
    return {{"exit_status": 0, "stdout": f"would run: {{step.command}}\\n"}}


class Shop:
    actions = {{"add-to-cart": {{"mutates": True}}}}
    cart = []

    def preview(self, action, payload):
        return "Add " + ", ".join(p["title"] for p in payload) + " to the cart"

    def run(self, action, payload):
        self.cart += [p["id"] for p in payload]
        return {{"cart": list(self.cart)}}


class ExamplesAgent:
    async def send(self, message):
        words = message.split("\\n\\n")[-1].strip()
        reply = {{"clear the archive": CONFIRM_GATED, "shop": PRODUCTS, "vat": VAT}}.get(words)
        return reply or '<dial><dial-inform>Noted.</dial-inform></dial>'


chat = ChatWidget(agent=ExamplesAgent(), domain=Shop(), full_dial=True,
                  executors={{"shell": harmless_shell}}, title="Full DIAL examples")
chat'''


@pytest.fixture(scope="module")
def lab(jupyter, browser_context) -> NotebookPage:
    name = write_notebook(jupyter["root"], "full_examples.ipynb", CELL)
    notebook = open_notebook(browser_context, jupyter["base"], name, app="lab")
    yield notebook
    notebook.page.close()


def test_the_confirm_gated_delete_is_offered_after_yes_and_runs_once_accepted(lab):
    lab.say("clear the archive")
    ask = lab.root.locator("[data-dial-ask]", has_text="permanently delete").last
    expect(ask).to_have_attribute("data-dial-status", "pending")
    expect(lab.card("delete-op")).to_have_count(0)  # nothing proposed before the answer
    ask.locator("[data-dial-option=yes]").click()
    card = lab.card("delete-op")
    expect(card).to_have_attribute("data-dial-status", "pending")  # the yes offers the card
    card.locator("[data-dial-action=accept]").click()  # the card, showing the commands, runs them
    expect(card).to_have_attribute("data-dial-status", "done")
    steps = card.locator("[data-dial-step]")
    expect(steps).to_have_count(2)
    expect(steps.nth(0).locator(".dial-env")).to_have_text("shell")
    expect(steps.nth(0).locator(".dial-command")).to_have_text("ls /home/user/archive/2024 | wc -l")
    expect(steps.nth(1).locator(".dial-command")).to_have_css("white-space", "pre-wrap")
    expect(steps.nth(1).locator(".dial-output-stdout")).to_have_text(
        "would run: rm -rf /home/user/archive/2024/*")
    expect(card.locator("[data-dial-action=accept]")).to_have_count(0)  # decided once
    expect(lab.root.locator(".dial-inform", has_text="Done. Archive cleared.")).to_be_visible()
    expect(lab.root.locator("[data-dial-skipped=ack-cancel]")).to_be_visible()
    lab.shot("execute-confirmed", card)


def test_the_confirm_gated_delete_only_acknowledges_on_no(lab):
    lab.say("clear the archive")
    ask = lab.root.locator("[data-dial-ask][data-dial-status=pending]")
    expect(ask).to_contain_text("permanently delete")
    ask.locator("[data-dial-option=no]").click()
    expect(lab.root.locator(".dial-ack", has_text="no files were deleted")).to_be_visible()
    expect(lab.root.locator("[data-dial-skipped=delete-op]")).to_contain_text("answered 'no'")
    earlier = lab.card("delete-op")
    expect(earlier).to_have_count(1)  # still only the card of the yes above, still done
    expect(earlier).to_have_attribute("data-dial-status", "done")
    lab.shot("execute-cancelled")


def test_the_product_example_fills_the_context_panel_and_takes_a_choice(lab):
    lab.say("shop")
    panel = lab.root.locator("[data-dial-context]")
    expect(panel).to_be_visible()
    toggle = panel.locator("[data-dial-action=context]")
    expect(toggle).to_have_text("Context (1)")
    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    expect(panel.locator("[data-dial-context-key=product-domain]")).to_contain_text("footwear")
    card = lab.card("top-picks")
    expect(card).to_have_attribute("data-dial-status", "pending")
    card.locator("[data-dial-action=accept]").click()
    expect(card).to_have_attribute("data-dial-status", "done")
    ask = lab.root.locator("[data-dial-ask]", has_text="filter by a specific use case").last
    ask.locator("[data-dial-option=running]").click()
    expect(ask).to_have_attribute("data-dial-status", "answered")
    lab.shot("product-example")


def test_an_edited_python_step_runs_in_the_notebook_namespace(lab):
    lab.say("vat")
    card = lab.card("vat-op")
    expect(card).to_have_attribute("data-dial-status", "pending")
    expect(card.locator(".dial-command")).to_contain_text('df["vat"] = df["price"] * 0.2')
    card.locator("[data-dial-action=edit]").click()
    command = card.locator('[data-dial-path="steps[0].command"] textarea')
    expect(command).to_be_visible()
    command.fill('df["vat"] = df["price"] * 0.25\ndf["vat"].tolist()')
    card.locator("[data-dial-action=save-edit]").click()
    expect(card).to_have_attribute("data-dial-status", "done")
    expect(card.locator(".dial-output-value")).to_have_text("[2.5, 5.0]")
    expect(card.locator(".dial-command")).to_contain_text('df["price"] * 0.25')
    expect(card.locator(".dial-edited")).to_be_visible()
    lab.shot("execute-edited", card)


def test_typing_shows_an_indicator_and_notes_show_hand_offs_and_elsewhere(browser_context):
    page = mount_widget(browser_context, {"running": True, "transcript": [
        {"type": "reply", "turn": 1, "text": "<dial/>"},
        {"type": "phatic", "signal": "heartbeat"},
        {"type": "phatic", "signal": "typing"},
        {"type": "inform", "act": "addressed-elsewhere", "addressed_to": "billing-agent",
         "element": "inform", "id": None, "text": "For billing <b>only</b>."},
        {"type": "delegate", "id": "dg-1", "to": "billing-agent", "intent": "refund",
         "text": "Over to billing.", "context": {"chargeId": "chg-1"}, "resume": False,
         "registered": False},
    ]})
    try:
        indicator = page.locator(".dial-thinking")
        expect(indicator).to_be_visible()
        expect(indicator).to_have_attribute("data-dial-signal", "typing")
        expect(indicator).to_contain_text("Typing…")
        elsewhere = page.locator("[data-dial-elsewhere=billing-agent]")
        expect(elsewhere).to_contain_text("For billing-agent — not acted on here:")
        expect(elsewhere.locator(".dial-elsewhere-text")).to_have_text("For billing <b>only</b>.")
        hand_off = page.locator("[data-dial-delegate=billing-agent]")
        expect(hand_off).to_contain_text("Hand-off to billing-agent (refund)")
        expect(hand_off).to_contain_text("nobody here takes it over")
        page.evaluate("() => window.model.set('running', false)")
        expect(indicator).to_be_hidden()
    finally:
        page.close()
