"""Agents that keep their own state save it (``snapshot()``) and take it back (``restore``):
the SDK agents for real over HTTP against the fake server, ScriptedAgent, the demo agents.
A restored agent behaves as the uninterrupted one would; a snapshot in the middle of a send
is a consistent point; the key is never saved; a tampered file is refused, changing nothing."""

from __future__ import annotations

import asyncio
import copy
import json
import threading
import time
from typing import Any

import pandas
import pytest

from dial_notebook import outcome_reply
from dial_notebook.agents import DemoAgent, SchemaDemoAgent, ScriptedAgent
from dial_notebook.domains import SchemaDomain
from dial_notebook.domains.dataframes import DataFramesDomain
from dial_notebook.domains.notes import NotesDomain

from .fake_llm_server import reply, status
from .test_agents_sdk import AGENTS, KEY, _only_local, make, sent_messages, server
from .test_agents_streaming import until

__all__ = ["_only_local", "server"]  # the fixtures, shared with test_agents_sdk


def through_a_file(snapshot: dict[str, Any]) -> dict[str, Any]:
    """What the runtime writes and a new kernel reads back."""
    return json.loads(json.dumps(snapshot, allow_nan=False))


def is_plain_json(value: Any) -> bool:
    if value is None or isinstance(value, bool | int | float | str):
        return True
    if isinstance(value, list):
        return all(is_plain_json(item) for item in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and is_plain_json(v) for k, v in value.items())
    return False


# -- the SDK agents ------------------------------------------------------------------------


@pytest.mark.parametrize("stream", [True, False])
@pytest.mark.parametrize("kind", AGENTS)
async def test_a_restored_sdk_agent_sends_what_the_uninterrupted_one_sends(kind, stream,
                                                                           server):
    notes = NotesDomain(["buy milk"])
    server.plan(reply("first", usage=(12, 30)), reply("second", usage=None))
    before = make(kind, server, domain=notes, stream=stream)
    await before.send("one")
    await before.send("two")
    saved = before.snapshot()
    assert is_plain_json(saved)
    assert saved == {
        "kind": kind, "version": 1, "model": "test-model",
        "history": [{"role": "user", "content": "one"},
                    {"role": "assistant", "content": "first"},
                    {"role": "user", "content": "two"},
                    {"role": "assistant", "content": "second"}],
        "usage": {"turns": [{"input": 12, "output": 30, "total": 42},
                            {"input": None, "output": None, "total": None}]}}

    after = make(kind, server, domain=notes, stream=stream)
    after.restore(through_a_file(saved))
    assert after.usage == before.usage and after.history.turns == before.history.turns
    await before.send("three")
    await after.send("three")
    uninterrupted, restored = server.requests[-2], server.requests[-1]
    assert sent_messages(kind, restored) == sent_messages(kind, uninterrupted)
    assert sent_messages(kind, restored)[-2:] == [("assistant", "second"), ("user", "three")]
    assert after.snapshot() == before.snapshot()


@pytest.mark.parametrize("kind", AGENTS)
async def test_the_api_key_is_never_saved(kind, server, monkeypatch):
    server.plan(reply("hello"), status(401, f"bad key {KEY}"))
    agent = make(kind, server, system="Speak DIAL.")
    await agent.send("hi")
    with pytest.raises(Exception):  # noqa: B017 - the refusal itself is tested elsewhere
        await agent.send("again")
    text = json.dumps(agent.snapshot())
    assert KEY not in text and KEY[-8:] not in text and KEY[:8] not in text
    assert "Speak DIAL." not in text  # the system prompt is the agent's own, not saved
    assert "authorization" not in text.lower() and "x-api-key" not in text.lower()
    # nor a key from the environment
    monkeypatch.setenv(agent.key_variable, KEY)
    from_environment = AGENTS[kind](model="test-model", base_url=agent.base_url)
    from_environment.restore(agent.snapshot())
    assert KEY not in json.dumps(from_environment.snapshot())


@pytest.mark.parametrize("kind", AGENTS)
async def test_a_snapshot_in_the_middle_of_a_stream_is_the_history_before_it(kind, server):
    server.plan(reply("first"), reply("the reply in flight", chunks=5, gate=True))
    taken: list[dict[str, Any]] = []
    agent = make(kind, server)
    await agent.send("one")

    def on_chunk(text: str) -> None:  # the runtime snapshots from its progress event
        if not taken:
            taken.append(agent.snapshot())
            server.gate.set()

    agent.on_chunk = on_chunk
    assert await agent.send("two") == "the reply in flight"
    assert not server.gate_timed_out
    in_flight = taken[0]
    assert in_flight["history"] == [{"role": "user", "content": "one"},
                                    {"role": "assistant", "content": "first"}]
    assert len(in_flight["usage"]["turns"]) == 1

    # the kernel died there: a new agent restored from it sends "two" again, exactly as the
    # interrupted request did
    restored = make(kind, server)
    restored.restore(through_a_file(in_flight))
    server.plan(reply("the reply in flight"))
    await restored.send("two")
    assert sent_messages(kind, server.requests[-1]) == sent_messages(kind, server.requests[1])
    assert restored.history.turns == agent.history.turns


@pytest.mark.parametrize("kind", AGENTS)
async def test_a_snapshot_from_another_thread_while_sending_is_always_whole_turns(kind,
                                                                                  server):
    server.plan(*(reply(f"reply {n}", chunks=3, delay=0.002) for n in range(6)))
    agent = make(kind, server)
    seen: list[dict[str, Any]] = []
    stop = threading.Event()

    def watch() -> None:
        while not stop.is_set():
            seen.append(agent.snapshot())
            time.sleep(0.0005)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        for n in range(6):
            await agent.send(f"message {n}")
    finally:
        stop.set()
        watcher.join(5)
    assert seen
    fresh = make(kind, server)
    for snapshot in seen:
        history = snapshot["history"]
        assert len(history) % 2 == 0 and len(snapshot["usage"]["turns"]) == len(history) // 2
        fresh.restore(snapshot)  # every one of them restores
    assert {len(snapshot["history"]) for snapshot in seen} <= set(range(0, 13, 2))


@pytest.mark.parametrize("kind", AGENTS)
async def test_a_cancelled_stream_leaves_the_snapshot_as_before(kind, server):
    long = "".join(f"<p>{n}</p>" for n in range(60))
    server.plan(reply("first"), reply(long, chunks=60, delay=0.05))
    agent = make(kind, server)
    await agent.send("one")
    before = agent.snapshot()
    got: list[str] = []

    async def read() -> None:
        async for piece in agent.stream_reply("a long one"):
            got.append(piece)

    task = asyncio.create_task(read())
    await until(lambda: len(got) >= 2)
    assert agent.snapshot() == before
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert agent.snapshot() == before


def good_sdk(kind: str) -> dict[str, Any]:
    return {"kind": kind, "version": 1, "model": "m",
            "history": [{"role": "user", "content": "hi"},
                        {"role": "assistant", "content": "hello"}],
            "usage": {"turns": [{"input": 1, "output": 2, "total": 3}]}}


def tampered_sdk(kind: str) -> list[tuple[Any, str]]:
    """(data, what the error must say) for each way a saved SDK agent can be wrong."""
    def good() -> dict[str, Any]:
        return good_sdk(kind)

    def with_(change):
        data = good()
        change(data)
        return data

    other = "anthropic" if kind == "openai" else "openai"
    many = [{"role": ("user", "assistant")[n % 2], "content": ""} for n in range(10_002)]
    big = "x" * 10_500_000
    return [
        ([good()], "a saved agent is a JSON object, not a list"),
        ("{}", "a saved agent is a JSON object, not text"),
        (None, "a saved agent is a JSON object, not null"),
        (with_(lambda d: d.update(kind=other)), f"kind is '{other}', not '{kind}'"),
        (with_(lambda d: d.pop("kind")), f"kind is null, not '{kind}'"),
        (with_(lambda d: d.pop("version")), "version must be a whole number, not null"),
        (with_(lambda d: d.update(version=2)), "version 2 is not known"),
        (with_(lambda d: d.update(version="1")), "version must be a whole number, not text"),
        (with_(lambda d: d.update(version=True)), "version must be a whole number, not a boolean"),
        (with_(lambda d: d.update(secret="x")), "unexpected key 'secret'"),
        (with_(lambda d: d.pop("usage")), "has no 'usage'"),
        (with_(lambda d: d["history"].__setitem__(1, {"role": "system", "content": "x"})),
         r"history\[1\].role must be 'user' or 'assistant', not 'system'"),
        (with_(lambda d: d["history"].__setitem__(0, {"role": "assistant", "content": "x"})),
         r"history\[0\].role must be 'user' \(turns alternate, user first\), not 'assistant'"),
        (with_(lambda d: d["history"][1].update(content=123)),
         r"history\[1\].content must be text, not a number"),
        (with_(lambda d: d["history"][1].update(extra=1)),
         r"history\[1\] has unexpected key 'extra'"),
        (with_(lambda d: d["history"].__setitem__(1, "hello")),
         r"history\[1\] must be an object with role and content, not text"),
        (with_(lambda d: d.update(history={"role": "user"})),
         "history must be a list, not an object"),
        (with_(lambda d: (d["history"].pop(), d["usage"].update(turns=[]))),
         r"history ends with a user message without its reply \(history\[0\]\)"),
        (with_(lambda d: d.update(history=many)),
         "history has 10,002 messages, more than 10,000"),
        (with_(lambda d: d.update(history=[{"role": "user", "content": big},
                                           {"role": "assistant", "content": big}])),
         "more than 20,000,000 characters of text"),
        (with_(lambda d: d["usage"]["turns"][0].update(input=-1)),
         r"usage.turns\[0\].input must not be negative \(-1\)"),
        (with_(lambda d: d["usage"]["turns"][0].update(output=1.5)),
         r"usage.turns\[0\].output must be a whole number, not a number"),
        (with_(lambda d: d["usage"]["turns"][0].update(total=True)),
         r"usage.turns\[0\].total must be a whole number, not a boolean"),
        (with_(lambda d: d["usage"]["turns"].append(d["usage"]["turns"][0])),
         "usage.turns has 2 entries, but the history has 1 completed turn"),
        (with_(lambda d: d.update(usage=[])), "usage must be an object with turns"),
        (with_(lambda d: d.update(model=7)), "model must be text, not a number"),
    ]


@pytest.mark.parametrize("kind", AGENTS)
async def test_a_tampered_sdk_snapshot_is_refused_naming_the_problem_and_changes_nothing(
        kind, server):
    server.plan(reply("kept"))
    agent = make(kind, server)
    await agent.send("before")
    before = agent.snapshot()
    turns = agent.history.turns
    for data, problem in tampered_sdk(kind):
        with pytest.raises(ValueError, match=problem) as caught:
            agent.restore(data)
        assert str(caught.value).startswith(f"cannot restore {type(agent).__name__}: ")
        assert agent.snapshot() == before and agent.history.turns is turns
    agent.restore(good_sdk(kind))  # and the good one is taken
    assert agent.history.turns is turns and agent.usage["total"] == 3


# -- ScriptedAgent ---------------------------------------------------------------------------


def script() -> list[Any]:
    return ["a", lambda message: f"you said {message}", ValueError("transport down"), "d", "e"]


async def test_a_restored_scripted_agent_goes_on_with_the_next_reply_of_the_same_script():
    before = ScriptedAgent(script())
    assert before.send("one") == "a"
    assert before.send("two") == "you said two"
    with pytest.raises(ValueError, match="transport down"):
        before.send("three")  # a reply raised counts as used
    saved = before.snapshot()
    assert saved == {"kind": "scripted", "version": 1, "used": 3}
    after = ScriptedAgent(script())
    after.restore(through_a_file(saved))
    assert after.remaining == before.remaining == 2
    assert after.send("four") == before.send("four") == "d"
    assert after.snapshot() == before.snapshot()


async def test_a_scripted_snapshot_in_the_middle_of_a_streamed_reply_gives_that_reply_again():
    agent = ScriptedAgent(["first", "the reply in flight", "third"], pieces=4, delay=0.02)
    assert "".join([p async for p in agent.stream_reply("one")]) == "first"
    stream = agent.stream_reply("two")
    first = await anext(stream)
    in_flight = agent.snapshot()
    assert in_flight["used"] == 1  # not the reply still being given
    restored = ScriptedAgent(["first", "the reply in flight", "third"], pieces=4)
    restored.restore(through_a_file(in_flight))
    assert "".join([p async for p in restored.stream_reply("two")]) == "the reply in flight"
    assert first + "".join([p async for p in stream]) == "the reply in flight"
    assert agent.snapshot()["used"] == 2 == restored.snapshot()["used"]


async def test_a_stopped_or_hung_scripted_reply_counts_as_used_as_the_uninterrupted_agent():
    agent = ScriptedAgent(["a long reply", ScriptedAgent.HANG, "next"], pieces=6, delay=0.05)
    stream = agent.stream_reply("one")
    await anext(stream)
    await stream.aclose()  # the runtime's Stop: the uninterrupted agent moves on
    assert agent.snapshot()["used"] == 1
    task = asyncio.create_task(anext(agent.stream_reply("two")))
    await until(lambda: agent.remaining == 1)
    assert agent.snapshot()["used"] == 2  # a HANG is used once taken: it never ends
    task.cancel()
    restored = ScriptedAgent(["a long reply", ScriptedAgent.HANG, "next"])
    restored.restore(agent.snapshot())
    assert restored.send("three") == "next"


def test_a_scripted_agent_that_went_further_is_taken_back():
    agent = ScriptedAgent(["a", "b", "c"])
    saved = agent.snapshot()
    agent.send("x")
    agent.send("y")
    agent.restore(saved)
    assert agent.send("again") == "a" and agent.remaining == 2


def test_a_tampered_scripted_snapshot_is_refused_naming_the_problem_and_changes_nothing():
    agent = ScriptedAgent(["a", "b", "c"])
    agent.send("one")
    before = agent.snapshot()
    for data, problem in [
        ({"kind": "scripted", "version": 1, "used": 4}, "used is 4, but this script has 3"),
        ({"kind": "scripted", "version": 1, "used": -1}, r"used must not be negative \(-1\)"),
        ({"kind": "scripted", "version": 1, "used": True}, "used must be a whole number"),
        ({"kind": "scripted", "version": 1, "used": "1"}, "used must be a whole number"),
        ({"kind": "scripted", "version": 1}, "has no 'used'"),
        ({"kind": "scripted", "version": 9, "used": 1}, "version 9 is not known"),
        ({"kind": "openai", "version": 1, "used": 1}, "kind is 'openai', not 'scripted'"),
        (["scripted"], "a saved agent is a JSON object, not a list"),
    ]:
        with pytest.raises(ValueError, match=problem):
            agent.restore(data)
        assert agent.snapshot() == before and agent.remaining == 2
    assert agent.send("two") == "b"


# -- the demo agents ---------------------------------------------------------------------------


def two_frames() -> DataFramesDomain:
    return DataFramesDomain({
        "sales": pandas.DataFrame({"region": ["North", "South", "North"], "units": [1, 2, 3]}),
        "costs": pandas.DataFrame({"item": ["a", "b"], "price": [3.0, 4.5]})})


def todo_domain() -> SchemaDomain:
    todo = SchemaDomain("todo")

    @todo.action(schema={"type": "object", "required": ["title"], "additionalProperties": False,
                         "properties": {"title": {"type": "string", "minLength": 1,
                                                  "maxLength": 20}}})
    def add_todo(payload):
        return {"added": payload["title"]}

    @todo.action(schema={"type": "object", "required": ["title"],
                         "properties": {"title": {"type": "string"}}})
    def add_task(payload):
        return {"added": payload["title"]}

    return todo


def invalid(sid: str, action: str, **more: Any) -> str:
    return outcome_reply([{"id": sid, "action": action, "status": "invalid", **more}])


#: For each demo kind: the agent, the words before the snapshot, and the words after it.
DEMOS = {
    "demo-notes": (lambda: DemoAgent(NotesDomain(["buy milk", "call Sam"])),
                   ["add a note: " + "x" * 1200, "remove a note"],
                   ["2", invalid("note-1", "add-note", code="too-long", field="text",
                                 hint="too long"), "add a note: pay rent"]),
    "demo-frames": (lambda: DemoAgent(two_frames()),
                    ["describe", "sales", "count colour"],
                    ["region", "filter where region is north", "count colour", "units"]),
    "demo-schema": (lambda: SchemaDemoAgent(todo_domain()),
                    ["invalid add-todo", "invalid add-todo", "add"],
                    ["add-task", invalid("todo-2", "add-todo", code="too-long",
                                         field="title", hint="too long"),
                     "invalid add-todo", "invalid"]),
    "demo-any": (lambda: DemoAgent(object()), ["hello"], ["hello again"]),
}


@pytest.mark.parametrize("kind", DEMOS)
def test_a_restored_demo_agent_answers_as_the_uninterrupted_one(kind):
    build, before_words, after_words = DEMOS[kind]
    before = build()
    for words in before_words:
        before.send(words)
    saved = before.snapshot()
    assert saved["kind"] == kind and saved["version"] == 1 and is_plain_json(saved)
    after = build()
    after.restore(through_a_file(saved))
    for words in after_words:
        assert after.send(words) == before.send(words), words
    assert after.snapshot() == before.snapshot()


def test_the_demo_snapshot_shape_and_an_open_question_continue_after_a_restore():
    agent = DemoAgent(NotesDomain(["buy milk", "call Sam"]))
    agent.send("add a note: call Mum")
    agent.send("remove a note")
    assert agent.snapshot() == {
        "kind": "demo-notes", "version": 1, "count": 1,
        "proposed": {"note-1": {"action": "add-note", "payload": {"text": "call Mum"}}},
        "question": {"options": [["1", "1. buy milk"], ["2", "2. call Sam"]],
                     "then": {"name": "_remove_chosen", "args": []}}}
    fresh = DemoAgent(NotesDomain(["buy milk", "call Sam"]))
    fresh.restore(agent.snapshot())
    assert 'id="note-2" action="remove-note"' in fresh.send("call sam")


def test_a_demo_snapshot_during_a_send_is_the_state_before_it():
    agent = DemoAgent(NotesDomain(["buy milk"]))
    agent.send("add a note: first")
    before = agent.snapshot()
    respond, inside, go_on = agent.brain.respond, threading.Event(), threading.Event()

    def slow(words: str):
        out = respond(words)  # the brain has changed: a proposal, a count
        inside.set()
        assert go_on.wait(5)
        return out

    agent.brain.respond = slow
    replies: list[str] = []

    def send_in_flight(words: str) -> threading.Thread:
        """Start a send as the runtime runs a sync one (on its worker thread), and wait
        until it is half-way."""
        inside.clear()
        go_on.clear()
        worker = threading.Thread(target=lambda: replies.append(agent.send(words)))
        worker.start()
        assert inside.wait(5)
        return worker

    worker = send_in_flight("add a note: second")
    in_flight = agent.snapshot()
    with pytest.raises(ValueError, match="a send is in flight"):
        agent.restore(before)  # never restored under a send
    go_on.set()
    worker.join(5)
    assert in_flight == before and agent.snapshot()["count"] == 2

    # the kernel died there: restored, the same words give the same reply
    restored = DemoAgent(NotesDomain(["buy milk"]))
    restored.restore(through_a_file(in_flight))
    assert restored.send("add a note: second") == replies[0]


def good_demo() -> dict[str, Any]:
    agent = DemoAgent(NotesDomain(["buy milk", "call Sam"]))
    agent.send("add a note: call Mum")
    agent.send("remove a note")
    return agent.snapshot()


def tampered_demo() -> list[tuple[Any, str]]:
    def with_(change):
        data = copy.deepcopy(good_demo())
        change(data)
        return data

    def nested(depth: int) -> Any:
        value: Any = "deep"
        for _ in range(depth):
            value = [value]
        return value

    question = "question.then"
    return [
        (with_(lambda d: d.update(kind="demo-frames")), "kind is 'demo-frames', not 'demo-notes'"),
        (with_(lambda d: d.update(version=0)), "version 0 is not known"),
        (with_(lambda d: d.update(count=-3)), r"count must not be negative \(-3\)"),
        (with_(lambda d: d.update(current="sales")), "unexpected key 'current'"),
        (with_(lambda d: d[question.split(".")[0]]["then"].update(name="__init__")),
         f"{question}.name '__init__' is not a way this agent continues"),
        (with_(lambda d: d["question"]["then"].update(name="send")),
         f"{question}.name 'send' is not a way this agent continues"),
        (with_(lambda d: d["question"]["then"].update(args=["x"])),
         rf"{question}.args must hold 0 values for _remove_chosen, not 1"),
        (with_(lambda d: d["question"].update(options=[["1"]])),
         r"question.options\[0\] must be a list of a value and a label"),
        (with_(lambda d: d["question"]["options"][0].__setitem__(1, 1)),
         r"question.options\[0\]\[1\] must be text, not a number"),
        (with_(lambda d: d.update(question="remove?")),
         "question must be an object or null, not text"),
        (with_(lambda d: d["proposed"]["note-1"].update(payload=nested(100))),
         "is nested more than 64 levels deep"),
        (with_(lambda d: d["proposed"]["note-1"].update(payload={"n": float("nan")})),
         r"proposed\['note-1'\].payload\['n'\] is nan, which JSON cannot hold"),
        (with_(lambda d: d["proposed"]["note-1"].pop("action")),
         r"proposed\['note-1'\] has no 'action'"),
        (with_(lambda d: d.update(proposed={f"n{i}": {"action": "a", "payload": {}}
                                            for i in range(10_001)})),
         "proposed has 10,001 entries, more than 10,000"),
        (with_(lambda d: d["proposed"]["note-1"].update(payload=["x" * 10_000_001] * 2)),
         "it holds more than 20,000,000 characters of text"),
        ("demo", "a saved agent is a JSON object, not text"),
    ]


def test_a_tampered_demo_snapshot_is_refused_naming_the_problem_and_changes_nothing():
    agent = DemoAgent(NotesDomain(["buy milk", "call Sam"]))
    agent.send("add a note: something else")
    before = agent.snapshot()
    for data, problem in tampered_demo():
        with pytest.raises(ValueError, match=problem):
            agent.restore(data)
        assert agent.snapshot() == before
    agent.restore(good_demo())
    assert agent.snapshot() == good_demo()


def test_the_frames_and_schema_brains_check_their_own_keys():
    frames = DemoAgent(two_frames())
    frames.send("describe")
    saved = frames.snapshot()
    for bad, problem in [({**saved, "current": 3}, "current must be text or null"),
                         ({**saved, "question": {**saved["question"], "then": {
                             "name": "_frame_chosen", "args": [None]}}},
                          r"question.then.args\[0\] has the wrong type for _frame_chosen")]:
        with pytest.raises(ValueError, match=problem):
            frames.restore(bad)
    assert frames.snapshot() == saved

    schema = SchemaDemoAgent(todo_domain())
    schema.send("invalid add-todo")
    saved = schema.snapshot()
    assert saved["breaks"] == {"add-todo": 1}
    assert saved["proposals"]["todo-1"]["kind"] == "broken"
    proposal = saved["proposals"]["todo-1"]
    for bad, problem in [
        ({**saved, "breaks": {"add-todo": -1}}, r"breaks\['add-todo'\] must not be negative"),
        ({**saved, "proposals": {"todo-1": {**proposal, "kind": "evil"}}},
         r"proposals\['todo-1'\].kind must be 'valid', 'broken' or 'yours'"),
        ({**saved, "proposals": {"todo-1": {**proposal, "retried": "no"}}},
         r"proposals\['todo-1'\].retried must be true or false"),
    ]:
        with pytest.raises(ValueError, match=problem):
            schema.restore(bad)
    assert schema.snapshot() == saved
