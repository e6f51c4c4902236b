"""parse() finds envelopes in real LLM replies and repairs their usual mistakes, saying so."""

from __future__ import annotations

from dial_notebook.dial import Envelope, Inform, parse, parse_all

GOOD = '<dial version="0.1" actor="agent"><dial-inform>hi</dial-inform></dial>'


def kinds(env: Envelope) -> list[str]:
    return [r.kind for r in env.repairs]


def test_a_reply_without_an_envelope_parses_to_none():
    assert parse("Just some prose, no XML at all.") is None
    assert parse("") is None
    assert parse("<dial-inform>not an envelope</dial-inform>") is None


def test_prose_before_and_after_the_envelope_is_not_part_of_it():
    env = parse(f"Sure thing!\n{GOOD}\nAnything else?")
    assert env.elements == (Inform(text="hi"),)
    assert env.repairs == ()


def test_markdown_code_fence_and_xml_prolog_are_tolerated():
    env = parse(f'```xml\n<?xml version="1.0" encoding="UTF-8"?>\n{GOOD}\n```')
    assert env.elements == (Inform(text="hi"),) and env.repairs == ()


def test_unescaped_ampersand_and_less_than_in_a_command_come_back_exactly():
    cmd = "make && ./run < in.txt 2>&1 | grep -c 'a<b' && echo $((1<2))"
    env = parse(f'<dial version="0.1" actor="agent"><dial-execute><step>{cmd}</step>'
                "</dial-execute></dial>")
    assert env.elements[0].steps[0].command == cmd
    assert kinds(env) == ["escaped-ampersand", "escaped-less-than"]
    assert not env.damaged


def test_comparison_in_prose_is_kept():
    env = parse('<dial version="0.1" actor="agent"><dial-inform>x < 3 & y > 2</dial-inform></dial>')
    assert env.elements[0].text == "x < 3 & y > 2"


def test_a_shell_redirect_that_looks_like_a_tag_is_text():
    env = parse('<dial actor="agent"><dial-execute><step>sort <input.txt >out.txt</step>'
                "</dial-execute></dial>")
    assert env.elements[0].steps[0].command == "sort <input.txt >out.txt"


def test_a_forgotten_closing_tag_is_closed_and_reported():
    env = parse('<dial version="0.1" actor="agent"><dial-inform>one<dial-inform>two</dial>')
    assert [e.text for e in env.elements] == ["one"]
    assert "closed-tag" in kinds(env)


def test_a_missing_envelope_end_is_closed():
    env = parse('Here:\n<dial version="0.1" actor="agent">\n  <dial-inform>hi</dial-inform>\n')
    assert env.elements == (Inform(text="hi"),)
    assert kinds(env) == ["closed-tag"]
    assert "<dial>" in env.repairs[0].message


def test_a_forgotten_element_end_is_closed_before_the_envelope_ends():
    env = parse('<dial actor="agent"><dial-inform>hi\n<dial-suggest action="x"/></dial>')
    assert [e.kind for e in env.elements] == ["inform"]
    assert env.elements[0].text == "hi"
    assert "closed-tag" in kinds(env)


def test_a_closing_tag_that_closes_nothing_is_dropped():
    env = parse('<dial actor="agent"><dial-inform>hi</dial-inform></dial-ask></dial>')
    assert env.elements == (Inform(text="hi"),)
    assert kinds(env) == ["dropped-closing-tag"]


def test_two_envelopes_are_both_kept_in_order():
    second = '<dial version="0.1" actor="agent"><dial-inform>there</dial-inform></dial>'
    env = parse(f"{GOOD}\nand\n{second}")
    assert [e.elements[0].text for e in env.all()] == ["hi", "there"]
    assert len(parse_all(f"{GOOD}{second}")) == 2


def test_self_closing_envelopes_are_found():
    assert [e.actor for e in parse_all('<dial actor="a"/> and <dial actor="b"/>')] == ["a", "b"]


def test_unrecoverable_markup_is_read_by_recovery_and_marked_damaged():
    env = parse('<dial actor="agent"><dial-inform id="a" id="b">x</dial-inform></dial>')
    assert env.damaged
    assert kinds(env)[-1] == "recovered"


def test_entities_are_decoded_and_unknown_entities_stay_text():
    env = parse('<dial actor="a"><dial-inform>&lt;b&gt; &#233; &nbsp; &amp;</dial-inform></dial>')
    assert env.elements[0].text == "<b> é &nbsp; &"
    assert kinds(env) == ["escaped-ampersand"]


def test_cdata_is_text():
    env = parse('<dial actor="a"><dial-execute><step><![CDATA[a && b < c]]></step>'
                "</dial-execute></dial>")
    assert env.elements[0].steps[0].command == "a && b < c" and env.repairs == ()


def test_control_characters_are_removed_and_reported():
    env = parse('<dial actor="a"><dial-inform>a\x00b\x07c</dial-inform></dial>')
    assert env.elements[0].text == "abc"
    assert kinds(env) == ["control-characters"]


def test_defaults_of_the_schema_are_filled_in():
    env = parse('<dial actor="a"><dial-inform>x</dial-inform><dial-ask>q</dial-ask>'
                '<dial-suggest action="a"/><dial-execute><step>ls</step></dial-execute>'
                '<dial-ask response-type="choice"><dial-option value="v">V</dial-option></dial-ask>'
                '<dial-delegate to="b"/></dial>')
    inform, ask, suggest, execute, choice, delegate = env.elements
    assert inform.render == "prose" and inform.lang == "en"
    assert ask.response_type == "text"
    assert suggest.render == "card-list" and suggest.multi is False
    assert execute.steps[0].env == "shell"
    assert choice.options[0].default is False and choice.options[0].disabled is False
    assert delegate.resume is False


def test_text_excludes_child_elements_but_keeps_the_text_between_them():
    env = parse('<dial actor="a"><dial-ask response-type="choice">Pick\n'
                '<dial-option value="1">One</dial-option> one.</dial-ask></dial>')
    assert env.elements[0].text == "Pick\n one."


def test_non_json_payload_is_kept_as_text_with_its_type():
    env = parse('<dial actor="a"><dial-inform render="diagram">'
                '<dial-payload type="text/x-mermaid">graph TD; A-->B</dial-payload>'
                "</dial-inform></dial>")
    payload = env.elements[0].payload
    assert (payload.type, payload.value, payload.error) == ("text/x-mermaid", "graph TD; A-->B",
                                                            None)


def test_invalid_json_payload_keeps_the_raw_text_and_the_reason():
    env = parse('<dial actor="a"><dial-suggest action="x"><dial-payload>{text: 1}</dial-payload>'
                "</dial-suggest></dial>")
    payload = env.elements[0].payload
    assert payload.value is None and payload.raw == "{text: 1}"
    assert payload.error.startswith("Not valid JSON")


def test_bad_numbers_and_booleans_fall_back_without_raising():
    env = parse('<dial actor="a" turn="two"><dial-ask timeout="soon">q</dial-ask>'
                '<dial-suggest multi="maybe" action="a"/></dial>')
    assert env.turn is None
    assert env.elements[0].timeout is None
    assert env.elements[1].multi is False


def test_unknown_children_are_listed_in_ignored():
    env = parse('<dial actor="a"><dial-infrom>typo</dial-infrom><dial-inform>ok</dial-inform></dial>')
    assert env.elements == (Inform(text="ok"),)
    assert env.ignored == ("dial-infrom",)


def test_element_line_numbers_point_into_the_reply():
    env = parse('Intro\n\n<dial actor="a">\n  <dial-inform>x</dial-inform>\n</dial>')
    assert env.elements[0].line == 4


def test_envelopes_are_immutable():
    env = parse(GOOD)
    try:
        env.actor = "x"  # type: ignore[misc]
    except AttributeError:
        pass
    else:  # pragma: no cover
        raise AssertionError("Envelope accepted an assignment")


def test_parse_rejects_bytes_with_a_clear_error():
    import pytest

    with pytest.raises(TypeError, match="takes a str"):
        parse(b"<dial/>")  # type: ignore[arg-type]


def test_a_misspelt_element_in_a_reply_that_needs_repair_is_kept_as_an_element_and_reported():
    env = parse('<dial actor="a"><dial-infrom>typo</dial-infrom><dial-inform>a && b</dial-inform>'
                "</dial>")
    assert env.elements == (Inform(text="a && b"),)
    assert env.ignored == ("dial-infrom",)
    assert "typo" not in env.elements[0].text
