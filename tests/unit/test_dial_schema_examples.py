"""Every example of dial-schema-v0.1.md parses to the right objects and round-trips."""

from __future__ import annotations

import pytest

from dial_notebook.dial import (
    Acknowledge,
    Ask,
    Declare,
    Delegate,
    Execute,
    Inform,
    Option,
    Phatic,
    Step,
    Suggest,
    lint,
    parse,
    to_xml,
)

from .schema_examples import EXAMPLES


def wrap(fragment: str) -> str:
    if fragment.lstrip().startswith(("<dial ", "<?xml")):
        return fragment
    return f'<dial version="0.1" actor="agent">\n{fragment}\n</dial>'


def test_there_are_sixteen_examples_in_the_schema():
    assert len(EXAMPLES) == 16


@pytest.mark.parametrize("index", range(16))
def test_every_example_parses_strictly_and_round_trips(index):
    env = parse(wrap(EXAMPLES[index]))
    assert env is not None
    assert env.repairs == ()
    assert not env.damaged
    assert parse(to_xml(env)) == env


@pytest.mark.parametrize("index", [i for i in range(1, 16) if i not in (12, 13)])
def test_every_element_example_lints_without_errors(index):
    errors = [f for f in lint(wrap(EXAMPLES[index])) if f.severity == "error"]
    assert errors == []


@pytest.mark.parametrize(("index", "tag"), [(12, "dial-payload"), (13, "dial-option")])
def test_payload_and_option_standing_alone_are_reported_not_dropped(index, tag):
    env = parse(wrap(EXAMPLES[index]))
    assert env.elements == () and env.ignored == (tag,)
    (finding,) = lint(wrap(EXAMPLES[index]))
    assert finding.code == "misplaced-element" and f"<{tag}>" in finding.message


def test_root_attributes_are_read_with_numbers_as_numbers():
    env = parse(EXAMPLES[0])
    assert (env.version, env.turn, env.actor, env.session) == ("0.1", 3, "agent", "sess-abc123")
    assert env.elements == ()


def test_inform_prose_example():
    (el,) = parse(wrap(EXAMPLES[1])).elements
    assert el == Inform(
        text="The image was generated successfully. Resolution: 1024×1024.",
        id="result", render="prose", yields=("result:delivered",),
    )


def test_inform_card_list_example_decodes_its_json_payload():
    (el,) = parse(wrap(EXAMPLES[2])).elements
    assert isinstance(el, Inform) and el.render == "card-list" and el.text == ""
    assert el.payload.type == "application/json"
    assert el.payload.value[1] == {"id": "sku-002", "title": "Adidas Ultraboost", "price": 160,
                                   "currency": "USD"}


def test_confirm_ask_example_splits_its_yield():
    (el,) = parse(wrap(EXAMPLES[3])).elements
    assert isinstance(el, Ask)
    assert el.response_type == "confirm"
    assert el.yields == ("delete:confirmed", "delete:cancelled")
    assert el.text.startswith("Are you sure") and el.timeout is None


def test_choice_ask_example_has_options_and_a_numeric_timeout():
    (el,) = parse(wrap(EXAMPLES[4])).elements
    assert el.timeout == 30 and isinstance(el.timeout, int)
    assert el.text == "Which visual style would you like for the generated image?"
    assert el.options == (
        Option("photorealistic", "Photorealistic"),
        Option("illustration", "Illustration"),
        Option("minimalist", "Minimalist"),
    )


def test_suggest_example():
    (el,) = parse(wrap(EXAMPLES[5])).elements
    assert isinstance(el, Suggest)
    assert (el.render, el.action, el.multi) == ("card-list", "add-to-cart", False)
    assert el.yields == ("item:selected", "item:dismissed")
    assert el.payload.value[0]["badge"] == "Best Seller"


def test_execute_example_has_steps_with_their_own_observe_and_yield():
    (el,) = parse(wrap(EXAMPLES[6])).elements
    assert isinstance(el, Execute)
    assert el.observe == "confirm:received"
    assert el.steps == (
        Step(command="mkdir -p /home/user/docs/project", env="shell", id="make-dir",
             yields=("dir:ready",)),
        Step(command="echo '{\"version\": \"1.0\"}' > /home/user/docs/project/config.json",
             env="shell", id="write-config", observe="dir:ready", yields=("config:written",)),
    )
    assert el.steps[0].display_label == "mkdir -p /home/user/docs/project"


def test_acknowledge_declare_delegate_examples():
    (ack,) = parse(wrap(EXAMPLES[7])).elements
    assert ack == Acknowledge(text="Got it — processing your file now.", id="ack-upload",
                              of="file-upload-request", yields=("ack:sent",))
    (dec,) = parse(wrap(EXAMPLES[8])).elements
    assert isinstance(dec, Declare) and dec.context_key == "active-artefact"
    assert dec.payload.value["brandColor"] == "#f97316"
    (dg,) = parse(wrap(EXAMPLES[9])).elements
    assert isinstance(dg, Delegate)
    assert (dg.to, dg.intent, dg.resume) == ("billing-agent", "resolve-payment-dispute", False)
    assert dg.text == "The user needs help with a charge from March 2026. Handing off to billing."
    assert dg.context.payload.value["amount"] == 49.99


def test_phatic_examples_with_numeric_interval():
    (typing,) = parse(wrap(EXAMPLES[10])).elements
    assert typing == Phatic(signal="typing")
    (beat,) = parse(wrap(EXAMPLES[11])).elements
    assert beat.signal == "heartbeat" and beat.interval == 30


def test_full_product_example_keeps_document_order_and_drops_comments():
    env = parse(EXAMPLES[14])
    assert (env.turn, env.session) == (2, "sess-shop-7712")
    assert [e.kind for e in env.elements] == ["declare", "inform", "suggest", "ask"]
    ask = env.elements[3]
    assert ask.addressed_to == "human"
    assert [o.value for o in ask.options if o.default] == ["none"]
    assert env.elements[1].observe == "domain:set"


def test_full_execution_example():
    env = parse(EXAMPLES[15])
    assert [e.kind for e in env.elements] == ["ask", "execute", "inform", "acknowledge"]
    assert env.elements[0].text == (
        "This will permanently delete all files in /home/user/archive/2024.\n"
        "This cannot be undone. Proceed?"
    )
    assert env.elements[1].steps[1].command == "rm -rf /home/user/archive/2024/*"
