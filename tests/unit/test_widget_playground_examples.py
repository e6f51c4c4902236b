"""The playground's example replies: one for every element and variant the schema has, each
valid DIAL but the malformed one, which shows exactly the mistakes it promises."""

from __future__ import annotations

import pytest

from dial_notebook.agents import ScriptedAgent
from dial_notebook.dial import lint, parse
from dial_notebook.dial._elements import RENDER_VALUES, RESPONSE_TYPES
from dial_notebook.domains import NotesDomain
from dial_notebook.runtime import Conversation, policy_human, python_executor
from dial_notebook.widget._playground_examples import EXAMPLES, EXAMPLES_BY_KEY, MALFORMED

VALID = [example for example in EXAMPLES if example is not MALFORMED]


def kinds(example):
    return [element.kind for element in parse(example.xml).elements]


def test_there_is_an_inform_for_every_render_hint():
    renders = {parse(e.xml).elements[0].render for e in VALID if kinds(e) == ["inform"]}
    assert renders == set(RENDER_VALUES)


def test_there_is_an_ask_for_every_response_type():
    types = {parse(e.xml).elements[0].response_type for e in VALID if kinds(e) == ["ask"]}
    assert types == set(RESPONSE_TYPES)


def test_every_other_element_has_an_example():
    seen = {kind for example in VALID for kind in kinds(example)}
    assert {"suggest", "acknowledge", "declare", "execute", "delegate", "phatic"} <= seen


def test_one_suggest_carries_its_own_payload_and_one_takes_the_declare_after_it():
    own = parse(EXAMPLES_BY_KEY["suggest-payload"].xml).elements
    assert own[0].payload.value == {"text": "buy milk"}
    paired = parse(EXAMPLES_BY_KEY["suggest-declare"].xml).elements
    assert [e.kind for e in paired] == ["suggest", "declare"]
    assert paired[0].payload is None and paired[1].payload.value == {"text": "call the plumber"}


@pytest.mark.parametrize("key", ["suggest-payload", "suggest-declare"])
def test_the_suggest_examples_are_valid_add_note_proposals_in_the_notes_domain(key):
    elements = parse(EXAMPLES_BY_KEY[key].xml).elements
    payload = (elements[0].payload or elements[1].payload).value
    assert elements[0].action == "add-note"
    assert NotesDomain().validate("add-note", payload) == {"ok": True}


@pytest.mark.parametrize("example", VALID, ids=lambda e: e.key)
def test_every_example_but_the_malformed_one_lints_without_errors(example):
    findings = lint(example.xml)
    assert [f for f in findings if f.severity == "error"] == []
    envelope = parse(example.xml)
    assert envelope.repairs == () and not envelope.damaged


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.key)
def test_every_example_has_words_for_the_person_and_a_note_for_the_learner(example):
    assert example.says.strip() and example.note.strip() and example.label.strip()


def test_the_malformed_example_is_repaired_and_reported():
    envelope = parse(MALFORMED.xml)
    assert [r.kind for r in envelope.repairs] == [
        "escaped-ampersand", "escaped-less-than", "closed-tag"]
    assert not envelope.damaged
    assert [e.kind for e in envelope.elements] == ["inform"]
    assert envelope.elements[0].text == "Rebuild with: make && ./index < notes.txt"
    assert envelope.ignored == ("dial-infrom",)  # the misspelt element is reported, not lost
    findings = lint(MALFORMED.xml)
    assert [(f.line, f.code, f.severity) for f in findings] == [
        (2, "unknown-element", "error"), (3, "not-well-formed", "error")]
    assert "Did you mean 'dial-inform'?" in findings[0].message


def test_once_its_xml_is_fixed_lint_names_the_misspelt_element():
    fixed = (MALFORMED.xml.replace("&&", "&amp;&amp;").replace("< notes", "&lt; notes")
             .replace("notes.txt\n", "notes.txt</dial-inform>\n"))
    findings = lint(fixed)
    assert [(f.line, f.code) for f in findings] == [(2, "unknown-element")]
    assert "Did you mean 'dial-inform'?" in findings[0].message


def test_keys_are_unique():
    assert len(EXAMPLES_BY_KEY) == len(EXAMPLES)


def test_the_execute_example_is_python_only_its_second_step_waiting_for_the_first():
    block = parse(EXAMPLES_BY_KEY["execute"].xml).elements[0]
    assert [(s.id, s.env) for s in block.steps] == [("make", "python"), ("count", "python")]
    make, count = block.steps
    assert count.observe in make.yields
    note = EXAMPLES_BY_KEY["execute"].note
    for words in ("Runs code", "accepts it", "shell executor", "shopping"):
        assert words in note


def test_the_execute_example_run_as_its_note_says_leaves_shopping_in_the_namespace():
    namespace: dict[str, object] = {}
    agent = ScriptedAgent([EXAMPLES_BY_KEY["execute"].xml,
                           '<dial version="0.1" actor="agent"><dial-phatic signal="typing"/>'
                           "</dial>"])
    result = Conversation(agent=agent, domain=NotesDomain(), human=policy_human("accept"),
                          executors={"python": python_executor(namespace)}).say_sync("go")
    assert [o["status"] for o in result.outcomes] == ["done", "done"]
    assert result.outcomes[1]["result"]["stdout"] == "3 items: milk, bread, eggs\n"
    assert namespace["shopping"] == ["milk", "bread", "eggs"]


def test_every_option_of_the_choice_has_text_unlike_its_value_so_the_chat_shows_each_value():
    # the chat shows an option's value under its text when the two differ (case aside)
    options = parse(EXAMPLES_BY_KEY["ask-choice"].xml).elements[0].options
    assert len(options) == 3
    assert all(o.label and o.label.lower() != o.value.lower() for o in options)
    assert [(o.default, o.disabled) for o in options] == [(True, False), (False, False),
                                                          (False, True)]


def test_the_suggest_note_names_the_outcome_by_the_suggests_id_not_by_its_yields():
    example = EXAMPLES_BY_KEY["suggest-payload"]
    suggest = parse(example.xml).elements[0]
    assert suggest.id == "sg-milk" and suggest.yields == ("milk:added", "milk:dismissed")
    assert f'of="{suggest.id}" yield="{suggest.id}:done"' in example.note
    assert "milk:added milk:dismissed) is not sent back" in example.note
