"""A reply is read up to its first MAX_ELEMENTS elements (every envelope's together): the rest
are counted, never built, and said unread — to the person, as an over-long reply is; none of
them becomes a suggestion, and every suggestion read still ends in exactly one outcome."""

from __future__ import annotations

from dial_notebook.dial import MAX_ELEMENTS, _build, parse, parse_all
from dial_notebook.runtime import Conversation, policy_human

from .runtime_doubles import NotesDomain, ScriptedAgent, dial, inform, suggest


def informs(n: int) -> str:
    return "".join(inform(f"n{i}") for i in range(n))


def test_elements_past_the_cap_are_counted_not_read():
    envelope = parse(dial(informs(MAX_ELEMENTS + 57)))
    assert len(envelope.elements) == MAX_ELEMENTS
    assert envelope.elements[-1].text == f"n{MAX_ELEMENTS - 1}"
    assert envelope.unread == 57
    (repair,) = [r for r in envelope.repairs if r.kind == "too-many-elements"]
    assert repair.message == (f"The reply has {MAX_ELEMENTS + 57:,} elements; the first "
                              f"{MAX_ELEMENTS:,} were read and 57 were not.")


def test_the_cap_is_for_the_whole_reply_across_its_envelopes():
    first, second, third = parse_all(dial(informs(600)) + dial(informs(600)) + dial(informs(3)))
    assert (len(first.elements), len(second.elements), len(third.elements)) == (600, 400, 0)
    assert (first.unread, second.unread, third.unread) == (0, 200, 3)
    both = parse(dial(informs(600)) + dial(informs(600)))
    assert [e.unread for e in both.all()] == [0, 200]
    (repair,) = [r for r in second.repairs if r.kind == "too-many-elements"]
    assert repair.message == (f"The reply has 1,203 elements; the first {MAX_ELEMENTS:,} were "
                              "read and 203 were not.")


def test_a_reply_under_the_cap_is_read_whole():
    envelope = parse(dial(informs(MAX_ELEMENTS)))
    assert len(envelope.elements) == MAX_ELEMENTS and envelope.unread == 0
    assert not [r for r in envelope.repairs if r.kind == "too-many-elements"]


def test_elements_past_the_cap_are_never_built(monkeypatch):
    built: list[object] = []
    original = _build.build_element

    def counting(*args: object) -> object:
        built.append(args[0])
        return original(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(_build, "build_element", counting)
    envelope = parse(dial(informs(20 * MAX_ELEMENTS)))
    assert len(envelope.elements) == MAX_ELEMENTS and len(built) == MAX_ELEMENTS


async def test_the_person_is_told_how_many_were_not_read_and_none_of_them_is_proposed():
    reply = dial(suggest("add-note", {"text": "read"}, id="first", via="payload"), informs(MAX_ELEMENTS - 1),
                 suggest("add-note", {"text": "never"}, id="past", via="payload"), inform("past too"))
    agent = ScriptedAgent([reply, dial(inform("ok"))])
    events: list[dict] = []
    conversation = Conversation(agent=agent, domain=NotesDomain(),
                                human=policy_human("accept"), on_event=events.append)
    result = await conversation.say("go")
    unread = [e for e in events if e.get("act") == "unread"]
    assert [e["text"] for e in unread] == [
        f"2 elements of the agent's reply were not read: a reply is read up to its first "
        f"{MAX_ELEMENTS:,} elements."]
    assert [e["id"] for e in events if e["type"] == "suggestion"] == ["first"]
    assert [(o["id"], o["status"]) for o in result.outcomes] == [("first", "done")]
    assert not any(e.get("text") == "past too" for e in events)


def test_envelopes_past_the_cap_are_not_even_looked_for(monkeypatch):
    from dial_notebook.dial import MAX_ENVELOPES, _scan

    reply = "<dial/>" * (MAX_ENVELOPES + 40)
    envelopes = parse_all(reply)
    assert len(envelopes) == MAX_ENVELOPES
    (repair,) = [r for r in envelopes[-1].repairs if r.kind == "too-many-envelopes"]
    assert repair.message == (f"The agent's reply has more than {MAX_ENVELOPES} envelopes: the "
                              f"rest of it ({40 * 7:,} characters) was not read.")
    openers: list[int] = []
    original = _scan._find_opener

    def counting(text: str, pos: int) -> int:
        openers.append(pos)
        return original(text, pos)

    monkeypatch.setattr(_scan, "_find_opener", counting)
    parse_all("<dial/>" * 500_000)
    assert len(openers) <= MAX_ENVELOPES + 1  # the scan stops at the cap: linear in it


def test_the_text_past_the_envelope_cap_is_not_prose_either():
    from dial_notebook.dial import MAX_ENVELOPES, extract_prose

    assert extract_prose("hi " + "<dial/>" * MAX_ENVELOPES + " <dial/> secret") == "hi"


async def test_the_person_is_told_the_rest_of_a_reply_of_many_envelopes_was_not_read():
    from dial_notebook.dial import MAX_ENVELOPES

    reply = dial(suggest("add-note", {"text": "read"}, id="first", via="payload")) + (
        dial(inform("x")) * MAX_ENVELOPES) + dial(suggest("add-note", {"text": "no"}, id="past"))
    agent = ScriptedAgent([reply, dial(inform("ok"))])
    events: list[dict] = []
    conversation = Conversation(agent=agent, domain=NotesDomain(),
                                human=policy_human("accept"), on_event=events.append)
    result = await conversation.say("go")
    unread = [e["text"] for e in events if e.get("act") == "unread"]
    assert len(unread) == 1 and unread[0].startswith(
        f"The agent's reply has more than {MAX_ENVELOPES} envelopes: the rest of it (")
    assert [(o["id"], o["status"]) for o in result.outcomes] == [("first", "done")]
