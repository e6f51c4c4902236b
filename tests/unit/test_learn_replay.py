"""Issue 32, done when: a session recorded in a ChatWidget with an offline agent becomes a
scenario; replayed with recorded_human against the same agent, it agrees with the person on
every decision; the sloppy agent's disagreements are listed by kind; compare() shows both."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from dial_notebook import SchemaDemoAgent, SchemaDomain
from dial_notebook.agents import DemoAgent
from dial_notebook.domains.notes import NotesDomain
from dial_notebook.evaluation import (
    Scenario,
    compare,
    evaluate,
    load_scenarios,
    recorded_human,
    replay_decisions,
    save_scenarios,
)
from dial_notebook.widget import ChatWidget

from .runtime_doubles import click, until


def make_todo() -> SchemaDomain:
    """The todo domain of prototyping-a-domain.ipynb (and evaluating-a-domain.ipynb)."""
    todos: list[dict[str, Any]] = []
    todo = SchemaDomain("todo", context=lambda: f'<context todos="{len(todos)}"/>',
                        description="A small todo list.")

    @todo.action(
        schema={"type": "object",
                "properties": {"title": {"type": "string", "minLength": 1, "maxLength": 80},
                               "priority": {"enum": ["low", "normal", "high"]},
                               "due": {"type": "string", "format": "date"}},
                "required": ["title"], "additionalProperties": False},
        preview="Add the todo '{title}'")
    def add_todo(payload):
        todos.append({"priority": "normal", **payload})
        return {"count": len(todos)}

    @todo.action(schema={"type": "object"}, mutates=False)
    def list_todos(payload):
        return {"todos": todos}

    return todo


class SloppyAgent:
    """The evaluating notebook's careless agent: every add's first payload is broken."""

    def __init__(self) -> None:
        self.careful = SchemaDemoAgent(make_todo())

    def send(self, message: str) -> str:
        return self.careful.send(message.replace("add todo", "invalid add-todo"))


async def record(chat: ChatWidget, steps: list[tuple[str, list[dict[str, Any]]]]) -> None:
    """Say each message; decide each card it brings with the clicks given, in order."""
    for text, clicks in steps:
        task = chat.say(text)
        for decision in clicks:
            await until(lambda task=task: chat.pending.get("kind") == "decide" or task.done())
            assert not task.done(), f"no card to decide for {text!r}"
            click(chat, type="decide", token=chat.pending["token"], **decision)
        await task
    await asyncio.sleep(0.05)  # the last save runs once the say's step is done


async def test_a_notes_session_replayed_against_the_same_agent_agrees_on_every_decision(
        tmp_path):
    path = tmp_path / "notes.json"
    notes = NotesDomain([])
    chat = ChatWidget(agent=DemoAgent(notes), domain=notes, session=path)
    await record(chat, [
        ("add a note: buy milk", [{"decision": "accept"}]),
        ("add a note: call Sam", [{"decision": "edit", "payload": {"text": "call Sam at 5"},
                                   "comments": [{"field": "/text", "text": "Say when."}]}]),
        ("add a note: water the plants", [{"decision": "dismiss", "reason": "done already"}]),
        ("list notes", []),
    ])
    chat.close()

    scenario = Scenario.from_session(path)
    assert scenario.name == "notes"
    assert scenario.say == ("add a note: buy milk", "add a note: call Sam",
                            "add a note: water the plants", "list notes")
    assert [(d["kind"], d["payload"]) for d in scenario.expect.decisions] == [
        ("accepted", {"text": "buy milk"}), ("corrected", {"text": "call Sam at 5"}),
        ("dismissed", {"text": "water the plants"})]
    corrected, dismissed = scenario.expect.decisions[1:]
    assert corrected["original"] == {"text": "call Sam"}
    assert corrected["comments"] == [{"field": "/text", "text": "Say when."}]
    assert dismissed["reason"] == "done already"
    assert scenario.expect.actions == ("add-note", "list-notes")

    data = path.read_bytes()  # a file cut anywhere: its last whole save, or a clear error
    for cut in range(1, 20):
        short = tmp_path / f"cut{cut}.json"
        short.write_bytes(data[: len(data) * cut // 20])
        try:
            earlier = Scenario.from_session(short)
        except ValueError as exc:
            assert str(short) in str(exc)
            continue
        assert scenario.say[:len(earlier.say)] == earlier.say
        made = scenario.expect.decisions
        assert made[:len(earlier.expect.decisions)] == earlier.expect.decisions

    saved = save_scenarios([scenario], tmp_path / "learned.yaml")
    assert load_scenarios(saved) == [scenario]  # plain, readable, and read back the same

    human = recorded_human(scenario)
    report = await evaluate(agent=lambda: DemoAgent(NotesDomain([])),
                            domain=lambda: NotesDomain([]), scenarios=[scenario], human=human)
    assert report.passed == 1, report.summary()
    assert report.summary().splitlines()[1] == (
        "agrees with the person on 3 of 3 decisions "
        "(1 still needs the edit, 1 proposed again)")
    assert [v["verdict"] for v in report["notes"].decisions] == [
        "accepted again", "still needs the edit", "proposed again"]
    assert [v["decision"] for v in human.verdicts] == [
        {"accept": True},
        {"edit": {"text": "call Sam at 5"},
         "comments": [{"field": "/text", "text": "Say when."}]},
        {"dismiss": True, "reason": "done already"}]
    assert human.new == 0 and report.disagreements() == {}
    outcome = [e for e in report["notes"].transcript if e["type"] == "outcome"][1]
    assert outcome["payload"] == {"text": "call Sam at 5"}  # the same edit, made again


async def test_the_todo_session_agrees_for_the_careful_agent_and_the_sloppy_one_is_listed(
        tmp_path):
    path = tmp_path / "todo.json"
    todo = make_todo()
    chat = ChatWidget(agent=SchemaDemoAgent(todo), domain=todo, session=path)
    await record(chat, [
        ("add todo: buy milk", [{"decision": "accept"}]),
        ("add todo: call Sam", [{"decision": "dismiss", "reason": "not today"}]),
        ("list todos", []),
    ])
    chat.close()
    scenario = Scenario.from_session(path, name="todo day")

    careful = await replay_decisions(agent=lambda: SchemaDemoAgent(make_todo()),
                                     domain=make_todo, sessions=[scenario])
    assert careful.summary().splitlines()[1] == (
        "agrees with the person on 2 of 2 decisions (1 proposed again)")
    assert careful.passed == 1 and careful.disagreements() == {}

    sloppy = await replay_decisions(agent=SloppyAgent, domain=make_todo, sessions=[scenario])
    found = sloppy.disagreements()
    assert sorted(found) == ["missed", "new"]
    assert [(d["kind"], d["action"]) for d in found["missed"]] == [("accepted", "add-todo")]
    assert {d["action"] for d in found["new"]} == {"add-todo"}
    assert sloppy.failed == 1
    assert "agrees with the person on 1 of 2 decisions" in sloppy.summary()

    both = compare(careful, sloppy, names=["careful", "sloppy"])
    assert both.decisions["careful"]["agrees"] == 2
    assert both.decisions["sloppy"]["missed"] == 1
    assert "agrees with the person on 1 of 2" in both._repr_html_()
    assert json.loads(json.dumps(both.to_dict()))["decisions"]["sloppy"]["agrees"] == 1
    again = type(sloppy).load(sloppy.save(tmp_path / "sloppy.json"))
    assert again.decisions == sloppy.decisions
