"""lint() explains each v0.1 problem in a sentence a learner understands, with line and column."""

from __future__ import annotations

import pytest

from dial_notebook.dial import lint


def codes(text: str) -> list[str]:
    return [f.code for f in lint(text)]


def wrap(body: str, root: str = 'version="0.1" actor="agent"') -> str:
    return f"<dial {root}>\n{body}\n</dial>"


def test_a_correct_reply_has_no_findings():
    assert lint(wrap('  <dial-inform>Hello</dial-inform>')) == []


def test_missing_version_and_actor():
    findings = lint("<dial><dial-inform>x</dial-inform></dial>")
    assert [f.code for f in findings] == ["missing-version", "missing-actor"]
    assert 'version="0.1"' in findings[0].message
    assert (findings[0].line, findings[0].column) == (1, 1)


def test_wrong_version_is_a_warning():
    (f,) = lint(wrap("", 'version="2" actor="agent"'))
    assert (f.code, f.severity) == ("wrong-version", "warning")


def test_unknown_element_suggests_the_nearest_name_with_position():
    text = 'Intro line\n<dial version="0.1" actor="agent">\n  <dial-infrom>x</dial-infrom>\n</dial>'
    (f,) = lint(text)
    assert f.code == "unknown-element"
    assert "Did you mean 'dial-inform'?" in f.message
    assert (f.line, f.column) == (3, 3)


def test_unknown_attribute_is_a_warning_with_a_suggestion():
    (f,) = lint(wrap('<dial-ask respone-type="text">q</dial-ask>'))
    assert (f.code, f.severity) == ("unknown-attribute", "warning")
    assert "respone-type" in f.message and "Did you mean 'response-type'?" in f.message


def test_option_outside_an_ask():
    assert codes(wrap('<dial-option value="a">A</dial-option>')) == ["misplaced-element"]
    assert codes(wrap('<dial-inform>x<dial-option value="a">A</dial-option></dial-inform>')) == [
        "misplaced-element"]


def test_choice_without_options_and_options_on_a_text_ask():
    assert codes(wrap('<dial-ask response-type="choice">Pick</dial-ask>')) == [
        "choice-without-options"]
    assert codes(wrap('<dial-ask>Pick<dial-option value="a">A</dial-option></dial-ask>')) == [
        "options-ignored"]


def test_option_without_value_and_duplicate_values_and_two_defaults():
    found = codes(wrap('<dial-ask response-type="choice">Pick'
                       '<dial-option>A</dial-option>'
                       '<dial-option value="b" default="true">B</dial-option>'
                       '<dial-option value="b" default="true">B2</dial-option></dial-ask>'))
    assert sorted(found) == ["duplicate-option", "missing-value", "several-defaults"]


def test_observe_that_nothing_yields():
    (f,) = lint(wrap('<dial-inform observe="never:fires">x</dial-inform>'))
    assert f.code == "observe-never-yielded" and "never:fires" in f.message


def test_observe_that_something_yields_is_fine():
    assert lint(wrap('<dial-ask yield="a:b">q</dial-ask><dial-inform observe="a:b">x</dial-inform>')
                ) == []


def test_duplicate_ids():
    assert codes(wrap('<dial-inform id="a">x</dial-inform><dial-inform id="a">y</dial-inform>')) == [
        "duplicate-id"]


def test_payload_that_is_not_json_says_why():
    (f,) = lint(wrap("<dial-suggest action=\"a\"><dial-payload>{'a': 1}</dial-payload>"
                     "</dial-suggest>"))
    assert f.code == "invalid-json" and "double quotes" in f.message


def test_bad_enumerations_numbers_and_booleans():
    found = codes(wrap('<dial-inform render="fancy">x</dial-inform>'
                       '<dial-ask response-type="date" timeout="soon">q</dial-ask>'
                       '<dial-suggest action="a" multi="yes"/>'
                       '<dial-phatic signal="waving"/>'))
    assert sorted(found) == sorted(["invalid-render", "invalid-response-type", "invalid-number",
                                    "invalid-boolean", "invalid-signal"])


def test_required_attributes():
    found = codes(wrap("<dial-declare>x</dial-declare><dial-delegate>y</dial-delegate>"
                       "<dial-phatic/>"))
    assert found == ["missing-context-key", "missing-to", "missing-signal"]


def test_execute_problems():
    found = codes(wrap('<dial-execute>ls<step env="ruby">puts 1</step><step></step>'
                       '<step observe="x:y">ls</step></dial-execute><dial-execute/>'))
    assert sorted(found) == sorted(["text-outside-steps", "invalid-env", "empty-step",
                                    "observe-never-yielded", "execute-without-steps"])


def test_suggest_without_action_and_nested_elements():
    assert codes(wrap("<dial-suggest/>")) == ["suggest-without-action"]
    assert codes(wrap("<dial-inform>x<dial-inform>y</dial-inform></dial-inform>")) == [
        "nested-element"]


def test_not_well_formed_xml_is_explained_and_the_rest_still_checked():
    text = '<dial version="0.1">\n<dial-execute><step>a && b</step></dial-execute>\n</dial>'
    found = lint(text)
    assert [f.code for f in found] == ["missing-actor", "not-well-formed"]
    assert found[1].line == 2 and "&amp;" in found[1].message


def test_no_envelope_unclosed_envelope_and_several_envelopes():
    assert codes("hello") == ["no-envelope"]
    assert codes('<dial version="0.1" actor="a"><dial-inform>x</dial-inform>') == [
        "unclosed-envelope"]
    two = wrap("<dial-inform>x</dial-inform>") + "\n" + wrap("<dial-inform>y</dial-inform>")
    (f,) = lint(two)
    assert (f.code, f.severity, f.line) == ("several-envelopes", "info", 4)


def test_findings_read_as_one_line_each():
    (f,) = lint("<dial version='0.1'/>")
    assert str(f).startswith("1:1 error [missing-actor] The <dial> envelope has no actor")


@pytest.mark.parametrize("bad", [None, b"<dial/>", 3])
def test_lint_rejects_what_is_not_text(bad):
    with pytest.raises(TypeError, match="lint\\(\\) takes a str"):
        lint(bad)


# ---- bounded: a findings cap and a time budget ---------------------------------------------------

class CountingClock:
    """A clock that moves ``step`` seconds each time it is read (counts work, not wall time)."""

    def __init__(self, step: float) -> None:
        self.now, self.step, self.reads = 0.0, step, 0

    def __call__(self) -> float:
        self.reads += 1
        self.now += self.step
        return self.now


def test_past_the_findings_cap_one_finding_says_how_many_more_were_not_listed():
    from dial_notebook.dial._lint import MAX_FINDINGS

    text = wrap("<dial-infrom>x</dial-infrom>\n" * (MAX_FINDINGS + 57))
    found = lint(text)
    assert len(found) == MAX_FINDINGS + 1
    assert {f.code for f in found[:-1]} == {"unknown-element"}
    last = found[-1]
    assert (last.code, last.severity) == ("more-findings", "info")
    assert last.message == f"57 more findings are not listed (at most {MAX_FINDINGS} are)."
    assert last.line == MAX_FINDINGS + 2  # where the first one not listed is


def test_findings_past_the_cap_are_counted_without_building_their_messages(monkeypatch):
    from dial_notebook.dial import _lint

    asked: list[str] = []
    monkeypatch.setattr(_lint, "_suggest_name",
                        lambda name, known: asked.append(name) or "")  # type: ignore[func-returns-value]
    lint(wrap("<dial-infrom>x</dial-infrom>\n" * 1000))
    assert len(asked) == _lint.MAX_FINDINGS  # "did you mean" only for the findings listed


def test_lint_stops_at_its_time_budget_and_says_where():
    clock = CountingClock(0.001)  # every read of the clock is a millisecond of work
    text = wrap('<dial-inform colour="red">x</dial-inform>\n' * 5000)
    found = lint(text, seconds=0.5, clock=clock)
    assert clock.reads < 1000  # it stopped, rather than reading on
    last = found[-1]
    assert (last.code, last.severity) == ("lint-stopped", "warning")
    assert last.message.startswith("lint stopped after 0.5 s at line ")
    assert last.message.endswith("; the rest of the reply was not checked.")
    assert found[-2].code == "more-findings"  # the cap was reached before the clock ran out


def test_lint_within_its_budget_says_nothing_about_time():
    clock = CountingClock(0.001)
    assert lint(wrap("<dial-inform>x</dial-inform>\n" * 50), seconds=10.0, clock=clock) == []


def test_a_reply_past_the_element_cap_is_told_what_a_runtime_leaves_unread():
    from dial_notebook.dial import MAX_ELEMENTS

    text = wrap("<dial-inform>x</dial-inform>\n" * (MAX_ELEMENTS + 5))
    (f,) = lint(text)
    assert (f.code, f.severity, f.line) == ("too-many-elements", "error", MAX_ELEMENTS + 2)
    assert f.message == (f"This reply has {MAX_ELEMENTS + 5:,} elements; a runtime reads the "
                         f"first {MAX_ELEMENTS:,} and leaves 5 unread. Propose less at once.")


def test_a_reply_past_the_envelope_cap_is_told_what_a_runtime_leaves_unread():
    from dial_notebook.dial import MAX_ENVELOPES

    envelope = '<dial version="0.1" actor="agent"/>\n'
    found = lint(envelope * (MAX_ENVELOPES + 2))
    cut = [f for f in found if f.code == "too-many-envelopes"]
    assert [(f.line, f.column, f.severity) for f in cut] == [(MAX_ENVELOPES + 1, 1, "error")]
    assert cut[0].message.endswith(f"({2 * len(envelope):,} characters) unread. One envelope "
                                   "per reply is clearer.")
