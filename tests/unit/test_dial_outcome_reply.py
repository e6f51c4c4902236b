"""outcome_reply() writes exactly the envelope of the runtime document and its wire details."""

from __future__ import annotations

import pytest

from dial_notebook.dial import outcome_reply, parse
from dial_notebook.dial._outcome import js_json, js_number

SPEC_EXAMPLE = """\
<dial>
  <dial-acknowledge of="sg-3" yield="sg-3:failed">Couldn't do it: Add 'Brand' to Strengths.</dial-acknowledge>
  <dial-declare context-key="outcome:sg-3">
    <dial-payload type="application/json">{"action":"matrix.entry.add","status":"failed","error":"…","hint":"…"}</dial-payload>
  </dial-declare>
</dial>"""


def test_the_runtime_documents_example_character_for_character():
    reply = outcome_reply([{
        "id": "sg-3", "action": "matrix.entry.add", "status": "failed",
        "preview": "Add 'Brand' to Strengths", "error": "…", "hint": "…",
    }])
    assert reply == SPEC_EXAMPLE


@pytest.mark.parametrize(("status", "ack"), [
    ("done", "Done: Add the note 'milk'."),
    ("failed", "Couldn't do it: Add the note 'milk'."),
    ("invalid", "Not proposed to the user — the payload for add-note is invalid."),
    ("dismissed", "The user dismissed: Add the note 'milk'."),
    ("superseded", "The user moved on without deciding: Add the note 'milk'."),
    ("handed-off", "Passed to the user in its own panel: Add the note 'milk'."),
])
def test_acknowledgement_text_for_every_status(status, ack):
    reply = outcome_reply([{"id": "sg-1", "action": "add-note", "status": status,
                            "preview": "Add the note 'milk'"}])
    assert f'<dial-acknowledge of="sg-1" yield="sg-1:{status}">{ack}</dial-acknowledge>' in reply


def test_an_empty_preview_falls_back_to_the_action_name():
    reply = outcome_reply([{"id": "a", "action": "list-notes", "status": "done", "preview": ""}])
    assert ">Done: list-notes.<" in reply


def test_several_outcomes_are_separated_by_one_newline():
    one = {"id": "a", "action": "x", "status": "dismissed", "preview": "P"}
    two = {"id": "b", "action": "y", "status": "done", "preview": "Q", "result": None}
    reply = outcome_reply([one, two])
    assert reply == (
        "<dial>\n"
        '  <dial-acknowledge of="a" yield="a:dismissed">The user dismissed: P.</dial-acknowledge>\n'
        '  <dial-declare context-key="outcome:a">\n'
        '    <dial-payload type="application/json">{"action":"x","status":"dismissed"}'
        "</dial-payload>\n"
        "  </dial-declare>\n"
        '  <dial-acknowledge of="b" yield="b:done">Done: Q.</dial-acknowledge>\n'
        '  <dial-declare context-key="outcome:b">\n'
        '    <dial-payload type="application/json">{"action":"y","status":"done","result":null}'
        "</dial-payload>\n"
        "  </dial-declare>\n"
        "</dial>"
    )


def test_json_key_order_and_edited_flag():
    reply = outcome_reply([{
        "edited": True, "hint": "h", "field": "f", "code": "c", "error": "e", "preview": "p",
        "status": "failed", "action": "a", "id": "i",
    }])
    assert ('{"action":"a","status":"failed","error":"e","code":"c","field":"f","hint":"h",'
            '"edited":true}') in reply


def test_escaping_of_text_attributes_and_payload():
    reply = outcome_reply([{"id": 'x"<&>\'', "action": "a", "status": "done",
                            "preview": "a < b & c > d", "result": "</dial-payload> & é"}])
    assert 'of="x&quot;&lt;&amp;&gt;\'"' in reply
    assert ">Done: a &lt; b &amp; c &gt; d.<" in reply
    assert '"result":"\\u003c/dial-payload&gt; &amp; é"' in reply
    env = parse(reply)
    assert env.elements[1].payload.value["result"] == "</dial-payload> & é"


def test_unknown_status_raises_naming_the_known_ones():
    with pytest.raises(ValueError, match=r"Unknown outcome status 'exploded'.*done"):
        outcome_reply([{"id": "a", "action": "x", "status": "exploded"}])


def test_no_outcomes_is_an_empty_string():
    assert outcome_reply([]) == ""


@pytest.mark.parametrize(("value", "text"), [
    (1.0, "1"), (-2.0, "-2"), (0.1, "0.1"), (1e21, "1e+21"), (1e20, "100000000000000000000"),
    (1e-7, "1e-7"), (1.5e-7, "1.5e-7"), (0.000001, "0.000001"), (123.456, "123.456"),
    (10**21, "1e+21"), (12, "12"), (float("nan"), "null"), (float("inf"), "null"),
    (-0.0, "0"), (2.5e300, "2.5e+300"), (True, "true"),
])
def test_numbers_are_written_as_javascript_writes_them(value, text):
    assert js_number(value) == text


def test_json_is_compact_with_non_ascii_as_is():
    assert js_json({"a": [1, 2.0, "é", None, {"b": False}]}) == '{"a":[1,2,"é",null,{"b":false}]}'


def test_objects_that_are_not_json_become_text():
    class Thing:
        def __str__(self) -> str:
            return "a thing"

    assert js_json({"r": Thing(), "t": (1, 2)}) == '{"r":"a thing","t":[1,2]}'


def test_a_long_data_url_in_a_result_reaches_the_agent_as_a_short_note():
    png = "data:image/png;base64," + "A" * 40_000
    reply = outcome_reply([{"id": "p", "action": "plot", "status": "done", "preview": "Plot",
                            "result": {"media": [{"src": png, "alt": "price by size"}]}}])
    assert "AAAA" not in reply
    assert ('{"src":"data:image/png;base64,[40,022 characters omitted: shown to the person]",'
            '"alt":"price by size"}') in reply


def test_a_short_data_url_is_kept():
    url = "data:text/plain,hello"
    reply = outcome_reply([{"id": "p", "action": "a", "status": "done", "preview": "", "result": url}])
    assert f'"result":"{url}"' in reply
