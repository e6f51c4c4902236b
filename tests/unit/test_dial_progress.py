"""A reply being written, read as a person could read it: the prose so far and what the agent
is writing, never raw markup, whatever the pieces it arrives in."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from dial_notebook.dial import Progress
from tests.hypothesis_profiles import examples
from tests.work_clock import least_cpu_seconds

REPLY = ('Sure, here you go.\n<dial version="0.1" actor="agent">'
         '<dial-inform>I found 3 notes &amp; one <b>list</b>.</dial-inform>'
         '<dial-suggest id="s1" action="add-note">Add it?<dial-payload>{"text": "a < b"}'
         "</dial-payload></dial-suggest>"
         '<dial-ask response-type="choice">Which list?<dial-option value="home">Home'
         "</dial-option></dial-ask>"
         "<dial-execute><step env=\"shell\">ls &amp;&amp; rm -rf x</step></dial-execute>"
         '<dial-acknowledge of="s0">Noted.</dial-acknowledge>'
         "</dial>\nAnything else?")


def fed(pieces: list[str]) -> Progress:
    progress = Progress()
    for piece in pieces:
        progress.feed(piece)
    return progress


def test_the_whole_reply_reads_as_its_prose_and_its_informs():
    progress = fed([REPLY])
    assert progress.prose == ("Sure, here you go.\n\nI found 3 notes & one list.\n\n"
                              "Noted.\n\nAnything else?")
    assert progress.writing is None


def test_what_is_being_written_is_named_in_words():
    states = []
    progress = Progress()
    for n in range(0, len(REPLY), 7):
        progress.feed(REPLY[n:n + 7])
        states.append(progress.writing)
    assert [w for w in dict.fromkeys(states) if w] == [
        "proposing: add-note", "asking a question", "writing commands to run"]


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.integers(1, 40), max_size=60))
def test_any_split_of_the_pieces_reads_the_same_and_never_shows_markup(cuts):
    pieces, rest = [], REPLY
    for cut in cuts:
        pieces.append(rest[:cut])
        rest = rest[cut:]
    pieces.append(rest)
    progress = Progress()
    for piece in pieces:
        progress.feed(piece)
        assert "<dial" not in progress.prose and "dial-" not in progress.prose
        assert "&amp;" not in progress.prose and "{" not in progress.prose
    assert progress.prose == fed([REPLY]).prose


def test_a_reply_without_an_envelope_is_all_prose():
    assert fed(["Just ", "text, a < b & c."]).prose == "Just text, a < b & c."


def test_a_long_reply_in_many_pieces_is_read_in_linear_time():
    def read(words: int) -> Progress:
        body = "<dial-inform>" + "word " * words + "</dial-inform>"
        reply = '<dial version="0.1" actor="agent">' + body + "</dial>"
        progress = Progress()
        for n in range(0, len(reply), 50):
            progress.feed(reply[n:n + 50])
        return progress

    assert read(200_000).prose.startswith("word word")
    # ten times the text, about ten times the CPU (never quadratic: it was, before pieces
    # tail); CPU time, which a busy machine does not inflate
    small = least_cpu_seconds(lambda: read(20_000), times=5)
    large = least_cpu_seconds(lambda: read(200_000), times=2)
    assert large < 30 * small


def test_each_character_is_decoded_once_however_often_the_prose_is_read(monkeypatch):
    """A surface reads ``prose`` as the pieces come (the runtime, 20 times a second): the
    entities of an inform are decoded once, not again at every read (a 3.9 MB inform took
    seconds a read). Counted: the characters handed to the decoder."""
    import html

    decoded = [0]
    unescape = html.unescape

    def counting(text: str) -> str:
        decoded[0] += len(text)
        return unescape(text)

    monkeypatch.setattr(html, "unescape", counting)
    body = "a &amp; b &#x263A; &CounterClockwiseContourIntegral; " * 4_000
    reply = '<dial version="0.1" actor="agent"><dial-inform>' + body + "</dial-inform></dial>"
    progress = Progress()
    for n in range(0, len(reply), 5):  # entities cut between pieces, all along
        progress.feed(reply[n:n + 5])
        if n % 100 == 0:  # read as a surface does, while the reply comes
            assert "&amp;" not in progress.prose
    assert progress.prose == fed([reply]).prose
    assert progress.prose.startswith("a & b \u263a \u2233 a & b")
    assert decoded[0] < 3 * len(body)


def test_markup_too_long_to_read_inside_an_inform_is_never_shown():
    """A hostile tag longer than Progress waits for, written inside text that is shown."""
    progress = Progress()
    progress.feed('<dial version="0.1" actor="agent"><dial-inform>Hello ')
    progress.feed('<dial-suggest action="' + "a" * 5000)
    progress.feed('" id="x">')
    progress.feed("there.</dial-inform></dial>")
    assert "<" not in progress.prose and "aaaa" not in progress.prose
    assert progress.prose == "Hello there."


def test_a_stray_less_than_in_prose_is_text():
    progress = Progress()
    progress.feed("if a < b then " + "x" * 5000)
    assert progress.prose.startswith("if a < b then xxx")
