"""Replay without a kernel: a saved conversation read from each kind of source, stepped through
from Python as the front end steps it (a trait update), the exact message the agent had
received at every step, and every way a source can be wrong — each a ValueError that names the
file and what is wrong with it. The conversations are real: the runtime, the notes domain and a
scripted agent, whose ``received`` is what the agent really got."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import pickle
import re
import sys
from pathlib import Path
from typing import Any

import pytest

import dial_notebook
from dial_notebook import Conversation, NotesDomain, ScriptedAgent, scripted_human
from dial_notebook.widget import ChatWidget, Playground, Replay, _replay_source
from dial_notebook.widget._chat_widget import STATIC

from .test_widget_js import IMPORT

ROOT = Path(__file__).resolve().parents[2]
FORMAT = "dial-notebook/conversation"


def dial(*elements: str) -> str:
    return '<dial version="0.1" actor="agent">' + "".join(elements) + "</dial>"


REPLIES = [
    dial('<dial-suggest id="milk" action="add-note">Add it?'
         '<dial-payload>{"text": "buy milk"}</dial-payload></dial-suggest>'),
    dial('<dial-acknowledge of="milk">Added.</dial-acknowledge>'),
    dial('<dial-ask id="which" response-type="choice">Which list?'
         '<dial-option value="home">Home</dial-option>'
         '<dial-option value="work">Work</dial-option></dial-ask>'),
    dial("<dial-inform>Noted: work.</dial-inform>"),
]


def conversation() -> tuple[Conversation, ScriptedAgent]:
    """A real conversation, played to the end: a card accepted, a question answered."""
    agent = ScriptedAgent(REPLIES)
    talk = Conversation(agent=agent, domain=NotesDomain(),
                        human=scripted_human(["accept", {"answer": "work"}]))

    async def play() -> None:
        await talk.say("add a note: buy milk")
        await talk.say("which list?")

    asyncio.run(play())
    return talk, agent


@pytest.fixture(scope="module")
def played() -> tuple[Conversation, ScriptedAgent]:
    return conversation()


def snapshot(events: Any, **extra: Any) -> dict[str, Any]:
    return {"format": FORMAT, "version": 1, "saved_at": "2026-12-01T17:00:00+00:00",
            "transcript": events, **extra}


def write(tmp_path: Path, data: Any, name: str = "conversation.json") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


# ---- loading, from each kind of source -----------------------------------------------------

def test_a_snapshot_dict_is_replayed_from_its_transcript(played):
    talk, _ = played
    replay = Replay(snapshot(talk.transcript))
    assert replay.transcript == json.loads(json.dumps(talk.transcript))
    assert replay.step == 0 and replay.event is None and replay.received is None
    assert replay.source == "the snapshot"
    assert replay.saved_at == "2026-12-01T17:00:00+00:00"
    assert replay.title == "Replay"


def test_the_surfaces_transcript_is_preferred_it_has_the_persons_words(played):
    talk, _ = played
    words = [{"type": "person", "text": "add a note: buy milk"}, *talk.transcript]
    replay = Replay(snapshot(talk.transcript, surface={"transcript": words, "other": 1}))
    assert replay.transcript[0] == {"type": "person", "text": "add a note: buy milk"}
    assert len(replay.transcript) == len(talk.transcript) + 1
    # a surface without a transcript: the runtime's is replayed
    assert Replay(snapshot(talk.transcript, surface={})).transcript == replay.transcript[1:]


@pytest.mark.parametrize("as_path", [str, Path], ids=["str", "Path"])
def test_a_json_file_is_read_by_its_path(played, tmp_path, as_path):
    talk, _ = played
    path = write(tmp_path, snapshot(talk.transcript))
    replay = Replay(as_path(path))
    assert replay.transcript == json.loads(json.dumps(talk.transcript))
    assert replay.source == str(path)


def test_a_file_with_a_byte_order_mark_is_read(played, tmp_path):
    talk, _ = played
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(snapshot(talk.transcript)).encode())
    assert len(Replay(path).transcript) == len(talk.transcript)


def test_a_conversation_is_replayed_from_its_transcript(played):
    talk, _ = played
    replay = Playground.replay(talk)
    assert isinstance(replay, Replay)
    assert replay.transcript == json.loads(json.dumps(talk.transcript))
    assert replay.source == "a Conversation"


def test_a_chat_widget_is_replayed_with_the_persons_words_and_its_title(played):
    talk, _ = played
    chat = ChatWidget(agent=ScriptedAgent([]), domain=NotesDomain(), title="Class of Monday")
    chat.transcript = [{"type": "person", "text": "add a note: buy milk"}, *talk.transcript]
    replay = Playground.replay(chat, step=1)
    assert replay.title == "Class of Monday"
    assert replay.event == {"type": "person", "text": "add a note: buy milk"}
    assert Playground.replay(chat, title="Mine").title == "Mine"


def test_a_plain_transcript_list_is_replayed_and_made_json_safe():
    replay = Replay([{"type": "outcome", "id": "m", "status": "done", "result": float("nan"),
                      "steps": (1, 2)}])
    assert replay.transcript == [{"type": "outcome", "id": "m", "status": "done",
                                  "result": None, "steps": [1, 2]}]
    json.dumps(replay.transcript, allow_nan=False)


def test_the_replay_is_exported_from_the_package_top_and_the_widget_layer():
    assert dial_notebook.Replay is Replay
    assert "Replay" in dial_notebook.__all__ and "Replay" in dial_notebook.widget.__all__
    assert repr(Replay).startswith("<class 'dial_notebook.Replay'")


# ---- stepping ---------------------------------------------------------------------------------

def test_next_and_back_step_one_event_and_stop_at_the_ends():
    events = [{"type": "person", "text": "a"}, {"type": "sent", "turn": 1, "message": "m"},
              {"type": "reply", "turn": 1, "text": "r"}]
    replay = Replay(events)
    assert replay.back() is False and replay.step == 0
    assert replay.next() is True and replay.event == events[0]
    assert replay.next() is True and replay.event == events[1]
    assert replay.next() is True and replay.event == events[2]
    assert replay.next() is False and replay.step == 3
    assert replay.back() is True and replay.step == 2
    replay.first()
    assert replay.step == 0 and replay.event is None
    replay.last()
    assert replay.step == 3
    assert repr(replay) == ("<Replay of a transcript: event 3 of 3 (reply); shown as a widget "
                            "in JupyterLab and Notebook 7>")


@pytest.mark.parametrize("step", [-1, 4, 2.5, True, "1", None])
def test_a_step_outside_the_conversation_is_refused_and_nothing_changes(step):
    replay = Replay([{"type": "person", "text": "a"}] * 3, step=1)
    with pytest.raises(Exception, match=r"step|int") as caught:
        replay.step = step
    if isinstance(step, int):
        assert isinstance(caught.value, ValueError)
        assert "step must be a whole number from 0 to 3 (the number of events)" in str(
            caught.value)
    assert replay.step == 1
    with pytest.raises(ValueError, match="from 0 to 3"):
        Replay([{"type": "person", "text": "a"}] * 3, step=9)


def test_the_current_event_is_a_copy_the_replay_keeps_its_own():
    replay = Replay([{"type": "outcome", "id": "m", "result": {"notes": [1]}}], step=1)
    event = replay.event
    event["result"]["notes"].append(2)
    assert replay.event == {"type": "outcome", "id": "m", "result": {"notes": [1]}}


def test_the_front_end_steps_by_setting_the_trait():
    """What a Next click does: the front end sets ``step`` and saves it (a comm update)."""
    replay = Replay([{"type": "person", "text": "a"}, {"type": "person", "text": "b"}])
    replay.set_state({"step": 2})
    assert replay.step == 2 and replay.event == {"type": "person", "text": "b"}
    assert replay.get_state()["step"] == 2


def test_at_every_step_the_wire_text_is_exactly_what_the_agent_received(played):
    talk, agent = played
    replay = Replay(talk)
    sent = 0
    seen: list[str | None] = []
    for index, event in enumerate(talk.transcript):
        replay.step = index + 1
        if event["type"] == "sent":
            sent += 1
        expected = agent.received[sent - 1] if sent else None
        assert replay.received == expected
        seen.append(replay.received)
    assert sent == len(agent.received) == 4
    assert seen.count(None) == 0  # the first event is the first message sent
    replay.step = 0
    assert replay.received is None
    # turn 2 of the first say: the outcome reply, exactly as the runtime sent it
    second = [i for i, e in enumerate(talk.transcript) if e["type"] == "sent"][1]
    replay.step = second + 1
    assert replay.received == agent.received[1]
    assert '<dial-acknowledge of="milk" yield="milk:done">' in replay.received
    # the answer to the question went with the next message
    assert replay.received is not None and "work" not in replay.received
    replay.last()
    assert replay.received == agent.received[3] and agent.received[3].endswith("work")


# ---- every error: a ValueError saying what is wrong, and where ----------------------------------

BAD_SNAPSHOTS = [
    ([], "holds a list, not a saved conversation"),
    ("just text", "holds text, not a saved conversation"),
    ({"version": 1, "transcript": []}, "has no 'format'"),
    ({"format": "jupyter-notebook", "version": 1, "transcript": []},
     "its 'format' is 'jupyter-notebook', not 'dial-notebook/conversation'"),
    ({"format": FORMAT, "transcript": []}, "has no 'version'"),
    ({"format": FORMAT, "version": 2, "transcript": []},
     "version 2 is not one this dial-notebook reads (it reads version 1)"),
    ({"format": FORMAT, "version": "1", "transcript": []},
     "its 'version' is '1', not a whole number"),
    ({"format": FORMAT, "version": True, "transcript": []},
     "its 'version' is True, not a whole number"),
    ({"format": FORMAT, "version": 1}, "has no 'transcript'"),
    ({"format": FORMAT, "version": 1, "transcript": {"type": "sent"}},
     "its 'transcript' is an object, not a list of events"),
    ({"format": FORMAT, "version": 1, "transcript": [], "surface": []},
     "its 'surface' is a list, not an object"),
    ({"format": FORMAT, "version": 1, "transcript": [], "surface": {"transcript": "x"}},
     "its 'surface.transcript' is text, not a list of events"),
    ({"format": FORMAT, "version": 1, "transcript": [*[{"type": "person", "text": "a"}] * 12,
                                                     {"text": "no type"}]},
     "transcript[12] has no 'type'"),
    ({"format": FORMAT, "version": 1, "transcript": [{"type": "person", "text": "a"}, ["sent"]]},
     "transcript[1] is a list, not an event (an object with a 'type')"),
    ({"format": FORMAT, "version": 1, "transcript": [{"type": 3}]},
     "transcript[0]'s 'type' is 3, not a string"),
    ({"format": FORMAT, "version": 1, "transcript": [{"type": "sent", "turn": 1}]},
     "transcript[0] is a 'sent' event without its 'message' as text"),
    ({"format": FORMAT, "version": 1, "transcript": [{"type": "reply", "text": ["x"]}]},
     "transcript[0] is a 'reply' event without its 'text' as text"),
    ({"format": FORMAT, "version": 1, "transcript": [],
      "surface": {"transcript": [{"type": "person", "text": "a"},
                                 {"type": "sent", "turn": 1, "message": "m"}, {}]}},
     "surface.transcript[2] has no 'type'"),
]


@pytest.mark.parametrize(("data", "problem"), BAD_SNAPSHOTS,
                         ids=[problem for _, problem in BAD_SNAPSHOTS])
def test_a_wrong_file_is_refused_naming_the_file_and_what_is_wrong(tmp_path, data, problem):
    path = write(tmp_path, data if not isinstance(data, str) else json.dumps(data))
    with pytest.raises(ValueError) as caught:
        Playground.replay(path)
    assert str(caught.value) == f"Replay: {path}: {problem}" or (
        str(caught.value).startswith(f"Replay: {path}: {problem}"))


@pytest.mark.parametrize(("data", "problem"), [d for d in BAD_SNAPSHOTS if isinstance(d[0], dict)],
                         ids=[p for d, p in BAD_SNAPSHOTS if isinstance(d, dict)])
def test_a_wrong_snapshot_dict_is_refused_the_same_way(data, problem):
    with pytest.raises(ValueError, match=re.escape(f"Replay: the snapshot: {problem}")):
        Replay(data)


def test_a_missing_file_or_a_folder_is_refused(tmp_path):
    with pytest.raises(ValueError, match=re.escape(
            f"Replay: {tmp_path / 'nowhere.json'}: there is no such file")):
        Replay(tmp_path / "nowhere.json")
    with pytest.raises(ValueError, match=re.escape(f"Replay: {tmp_path}: not a file")):
        Replay(str(tmp_path))


@pytest.mark.parametrize(("text", "problem"), [
    ('{"format": "dial-notebook/conversation",\n "version": 1,,}',
     "not valid JSON (Expecting property name enclosed in double quotes, line 2 column 15)"),
    ("", "not valid JSON (Expecting value, line 1 column 1)"),
    ('{"format": "dial-notebook/conversation", "version": 1, "transcript": [{"type": "x", '
     '"v": NaN}]}', "not valid JSON (NaN is not a JSON number)"),
    ("[" * 100_000 + "]" * 100_000, "it nests more than 256 levels deep"),
])
def test_invalid_json_is_refused_saying_where(tmp_path, text, problem):
    path = write(tmp_path, text)
    with pytest.raises(ValueError, match=re.escape(f"Replay: {path}: {problem}")):
        Replay(path)


def test_a_pickle_is_never_unpickled(tmp_path):
    marker = tmp_path / "ran"

    class Boom:
        def __reduce__(self):
            return (Path.touch, (marker,))

    path = tmp_path / "conversation.json"
    path.write_bytes(pickle.dumps({"format": FORMAT, "version": 1, "boom": Boom()}))
    with pytest.raises(ValueError, match=re.escape(f"Replay: {path}: not UTF-8 text (byte ")):
        Replay(path)
    assert not marker.exists()


def test_a_file_over_the_limit_is_refused_before_it_is_read(tmp_path, monkeypatch):
    path = write(tmp_path, snapshot([{"type": "person", "text": "x" * 2000}]))
    monkeypatch.setattr(_replay_source, "MAX_BYTES", 1024)
    with pytest.raises(ValueError, match=re.escape(
            f"Replay: {path}: the file is 0.0 MB; files up to 0.0 MB are read")):
        Replay(path)
    assert _replay_source.MAX_BYTES == 1024
    monkeypatch.undo()
    assert _replay_source.MAX_BYTES == 50 * 1024 * 1024


def test_too_many_events_are_refused(monkeypatch):
    monkeypatch.setattr(_replay_source, "MAX_EVENTS", 5)
    with pytest.raises(ValueError, match=re.escape(
            "Replay: the snapshot: its 'transcript' has 6 events; a replay steps through up "
            "to 5")):
        Replay(snapshot([{"type": "person", "text": "a"}] * 6))


def test_json_text_given_as_a_path_says_so():
    with pytest.raises(ValueError, match="that is JSON text, not the path of a file"):
        Replay(json.dumps(snapshot([])))


@pytest.mark.parametrize("source", [None, 3, b"{}", object()])
def test_a_source_of_another_kind_is_a_type_error(source):
    with pytest.raises(TypeError, match=re.escape(
            "Replay: give a snapshot (a dict), the path of its JSON file, a ChatWidget or a "
            "Conversation, not")):
        Replay(source)


def test_an_object_whose_transcript_holds_a_non_event_is_refused_naming_it():
    class Talk:
        def __init__(self) -> None:
            self.transcript = [{"type": "person", "text": "a"}, "oops"]

    with pytest.raises(ValueError, match=re.escape(
            "Replay: the Talk: transcript[1] is text, not an event")):
        Replay(Talk())


# ---- the conversation shipped with the package, and the front end's files --------------------

def _example_script() -> Any:
    spec = importlib.util.spec_from_file_location(
        "make_replay_example", ROOT / "scripts" / "make_replay_example.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
    finally:
        sys.modules.pop(spec.name, None)
    return module


def test_the_shipped_example_is_inside_the_package_and_replays():
    assert Replay.EXAMPLE.is_file()
    assert Replay.EXAMPLE.is_relative_to(Path(dial_notebook.__file__).parent)
    replay = Playground.replay(Replay.EXAMPLE)
    kinds = [event["type"] for event in replay.transcript]
    assert kinds[0] == "person" and {"suggestion", "outcome", "ask", "sent", "reply"} <= set(kinds)
    statuses = {e.get("status") for e in replay.transcript if e["type"] == "outcome"}
    assert statuses == {"done", "dismissed", "invalid"}
    replay.last()
    assert replay.received is not None and 'yield="later:done"' in replay.received


def test_the_shipped_example_is_what_its_script_makes():
    """Run ``.venv/bin/python scripts/make_replay_example.py`` when the runtime changes."""
    assert Replay.EXAMPLE.read_text(encoding="utf-8") == _example_script().text()


def test_the_replay_is_drawn_by_the_widgets_one_bundle_with_its_styles():
    """One bundle for both widgets (js/src/widget.js): its render draws the replay for a model
    whose ``_view`` is 'replay', with the chat's look and the replay's own."""
    source = (STATIC / "widget.js").read_text(encoding="utf-8")
    assert source.startswith("// generated by esbuild from js/src")
    assert re.search(r'\bfunction viewOf\(model\)\s*\{\s*return model\.get\("_view"\)\s*===\s*'
                     r'"replay"', source)
    assert "data-dial-replay-slider" in source  # the replay's frame is in it
    assert not IMPORT.search(source)
    assert "innerHTML" not in source and "insertAdjacentHTML" not in source
    css = (STATIC / "widget.css").read_text(encoding="utf-8")
    assert css.startswith("/* generated by esbuild from js/src")
    assert ".dial-card" in css and ".dial-replay-tick" in css  # the chat's look, and its own
    assert css.index(".dial-card") < css.index(".dial-chat.dial-replay")  # the replay's last
    # what anywidget loads (it keeps the file it was given), and the view it asks for
    assert str(Replay._esm) == source and str(Replay._css) == css
    assert Replay(Replay.EXAMPLE).get_state()["_view"] == "replay"
    assert not (STATIC / "replay.js").exists() and not (STATIC / "replay.css").exists()


def test_a_title_the_surface_saved_is_the_replays():
    replay = Replay(snapshot([], surface={"transcript": [], "title": "Notes, with a class"}))
    assert replay.title == "Notes, with a class"
    assert Replay(Replay.EXAMPLE).title == "Notes, with a class"
    assert Replay(snapshot([], surface={"title": 3})).title == "Replay"


def test_a_chat_widgets_saved_session_is_replayed_with_the_persons_words_in_place(tmp_path):
    """What ``chat.save(path)`` writes: the runtime's snapshot, the widget's own entries (the
    person's words) in ``surface.entries`` with their places."""
    async def play() -> ChatWidget:
        chat = ChatWidget(agent=ScriptedAgent([REPLIES[3]]), domain=NotesDomain(),
                          title="Saved")
        await chat.say("hello")
        return chat

    chat = asyncio.run(play())
    path = chat.save(tmp_path / "monday.json")
    replay = Replay(path)
    assert [e["type"] for e in replay.transcript] == [e["type"] for e in chat.transcript]
    assert replay.transcript[0] == {"type": "person", "text": "hello"}
    assert replay.title == "Saved"
    replay.step = 2
    assert replay.received == '<context notes="0"/>\n\nhello'


def test_a_sessions_misplaced_entry_is_refused_naming_it():
    data = snapshot([{"type": "sent", "turn": 1, "message": "m"}],
                    surface={"entries": [[5, {"type": "person", "text": "hi"}]]})
    with pytest.raises(ValueError, match=re.escape(
            "Replay: the snapshot: surface.entries[0] has place 5, past the end of the "
            "transcript")):
        Replay(data)


# ---- files are data: every field of every event, and the nesting, checked ----------------------

WRONG_FIELDS = [
    ({"type": "sent", "turn": "1", "message": "m"},
     "transcript[0].turn: must be a whole number, not '1'"),
    ({"type": "outcome", "id": "s1", "action": "a", "status": ["done"], "preview": "p"},
     "transcript[0].status: must be text, not a list"),
    ({"type": "ask", "id": "a1", "text": "q", "response_type": "choice",
      "options": [{"value": 1, "label": "one", "default": False, "disabled": False}]},
     "transcript[0].options[0].value: must be text, not 1"),
    ({"type": "person", "text": "hi", "answer_to": "x"},
     "transcript[0].answer_to: must be a whole number or null, not 'x'"),
    ({"type": "inform", "text": "t", "chart": {"src": 3}},
     "transcript[0].chart: must be an object with src, width, height, alt or an object with "
     "error, not an object"),
    ({"type": "sent", "turn": 1, "message": "m", "extra": 1},
     "transcript[0].extra: is not a known field"),
    ({"type": "x"}, "transcript[0].type: 'x' is not an event type a replay shows"),
    ({"type": "suggestion", "id": "s1", "action": "a", "text": "t", "payload": {},
      "preview": "p", "destructive": "yes", "mutates": True},
     "transcript[0].destructive: must be true or false, not 'yes'"),
]


@pytest.mark.parametrize(("event", "problem"), WRONG_FIELDS, ids=[p for _, p in WRONG_FIELDS])
def test_an_event_with_a_field_of_the_wrong_kind_is_refused_naming_the_field(
        tmp_path, event, problem):
    path = write(tmp_path, snapshot([event]))
    with pytest.raises(ValueError, match=re.escape(f"Replay: {path}: {problem}")):
        Replay(path)


def test_a_file_nested_past_the_limit_is_refused_though_json_reads_it(tmp_path):
    deep: Any = "bottom"
    for _ in range(300):
        deep = [deep]
    event = {"type": "inform", "text": "t", "payload": deep}
    path = write(tmp_path, snapshot([event]))
    with pytest.raises(ValueError, match=re.escape(
            f"Replay: {path}: it nests more than 256 levels deep")):
        Replay(path)
