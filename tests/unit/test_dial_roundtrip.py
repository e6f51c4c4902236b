"""to_xml() writes valid DIAL, and parse(to_xml(x)) == x for any element tree (hypothesis)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from dial_notebook.dial import (
    Acknowledge,
    Ask,
    Context,
    Declare,
    Delegate,
    Envelope,
    Execute,
    Inform,
    Option,
    Payload,
    Phatic,
    Step,
    Suggest,
    lint,
    parse,
    to_xml,
)
from dial_notebook.dial._build import clean_text
from tests.hypothesis_profiles import examples

# XML 1.0 characters (no C0 controls but tab/newline; no CR, which XML turns into LF).
xml_chars = st.characters(
    blacklist_categories=("Cs",),
    blacklist_characters="\r\x0b\x0c\ufffe\uffff" + "".join(chr(c) for c in range(0, 9))
    + "".join(chr(c) for c in range(14, 32)),
)
texts = st.text(xml_chars, max_size=40).map(clean_text)
names = st.from_regex(r"[a-z][a-z0-9_-]{0,10}(:[a-z]{1,6})?", fullmatch=True)
maybe = lambda s: st.none() | s  # noqa: E731
events = st.lists(names, max_size=3).map(tuple)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(xml_chars, max_size=10),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(xml_chars, max_size=5),
                                                                 inner, max_size=3),
    max_leaves=8,
)
payloads = st.one_of(
    json_values.map(Payload.of),
    texts.filter(bool).map(lambda t: Payload(type="text/plain", value=t, raw=t)),
)
numbers = st.integers(0, 10**6) | st.floats(0.5, 1e6).map(lambda f: round(f, 3))
base = {
    "text": texts, "id": maybe(names), "observe": maybe(names), "yields": events,
    "addressed_to": maybe(names), "lang": st.sampled_from(["en", "fr", "de-CH"]),
    "payload": maybe(payloads),
}
options = st.builds(Option, value=names, label=texts, default=st.booleans(),
                    disabled=st.booleans(), id=maybe(names))
steps = st.builds(Step, command=texts, env=st.sampled_from(["shell", "python", "http"]),
                  id=maybe(names), label=maybe(names), observe=maybe(names), yields=events)
elements = st.one_of(
    st.builds(Inform, render=st.sampled_from(["prose", "table", "code"]), **base),
    st.builds(Ask, response_type=st.sampled_from(["text", "choice", "confirm"]),
              timeout=maybe(numbers), options=st.lists(options, max_size=3).map(tuple), **base),
    st.builds(Suggest, action=maybe(names), multi=st.booleans(), **base),
    st.builds(Execute, steps=st.lists(steps, max_size=3).map(tuple), **base),
    st.builds(Acknowledge, of=maybe(names), **base),
    st.builds(Declare, context_key=maybe(names), **base),
    st.builds(Delegate, to=maybe(names), intent=maybe(names), resume=st.booleans(),
              context=maybe(st.builds(Context, payload=maybe(payloads), text=texts)), **base),
    st.builds(Phatic, signal=maybe(st.sampled_from(["typing", "heartbeat"])),
              interval=maybe(numbers), **base),
)
envelopes = st.builds(
    Envelope, st.lists(elements, max_size=5).map(tuple),
    turn=maybe(st.integers(1, 1000)), session=maybe(names), actor=names,
)


@settings(max_examples=examples(300), deadline=None)
@given(envelopes)
def test_parse_of_to_xml_gives_back_the_tree(env):
    xml = to_xml(env)
    back = parse(xml)
    assert back == env
    assert back.repairs == ()


@settings(max_examples=examples(300), deadline=None)
@given(st.text(max_size=300))
def test_parse_never_raises_on_random_text(text):
    env = parse(text)
    if env is not None:
        for e in env.all():
            assert isinstance(e.elements, tuple)


markup = st.lists(st.sampled_from([
    "<dial", "<dial ", ">", "</dial>", "<dial-inform>", "</dial-inform>", "<step>", "&", "<",
    '"', "=", "actor=", "<dial-payload>", "{", "}", "]]>", "<![CDATA[", "<!--", "-->", "&amp;",
    "x", " ", "\n", "```", "<?xml version='1.0'?>", "/>", "<dial-option value='a'>",
]), max_size=40).map("".join)


@settings(max_examples=examples(500), deadline=None)
@given(markup)
def test_parse_and_lint_never_raise_on_random_markup(text):
    env = parse(text)
    if env is not None:
        _ = [e.elements for e in env.all()]
    assert isinstance(lint(text), list)


def test_to_xml_accepts_one_element_or_a_list():
    assert parse(to_xml(Inform(text="x"))).elements == (Inform(text="x"),)
    assert len(parse(to_xml([Inform(text="x"), Phatic(signal="typing")])).elements) == 2


def test_to_xml_output_lints_clean_for_a_typical_reply():
    xml = to_xml([
        Inform(text="Found 3 notes & 2 drafts."),
        Suggest(action="add-note", text="Add it?", payload=Payload.of({"text": "<milk>"})),
        Ask(response_type="choice", text="Which?", options=(Option("a", "A"), Option("b", "B"))),
    ])
    assert lint(xml) == []
    assert "&amp;" in xml and "&lt;milk&gt;" in xml
