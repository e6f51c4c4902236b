"""The runtime's lifecycle end to end on the ready domains, with scripted agents and humans."""

from __future__ import annotations

import json
from collections.abc import Iterable

import pytest

from dial_notebook.domains import DataFramesDomain, NotesDomain, load_sales
from dial_notebook.runtime import Conversation, policy_human, scripted_human


class ScriptedAgent:
    """Replies in order, and keeps every message it was sent."""

    def __init__(self, replies: Iterable[str]) -> None:
        self.replies = list(replies)
        self.messages: list[str] = []

    async def send(self, message: str) -> str:
        self.messages.append(message)
        return self.replies.pop(0)


def suggest(action: str, payload: object, sid: str) -> str:
    body = json.dumps(payload).replace("<", "\\u003c")
    return (
        f'<dial-suggest id="{sid}" action="{action}">'
        f'<dial-payload type="application/json">{body}</dial-payload></dial-suggest>'
    )


def reply(*elements: str) -> str:
    return "<dial>" + "".join(elements) + "</dial>"


THANKS = reply("<dial-acknowledge>Thanks.</dial-acknowledge>")


def conversation(domain, agent, human) -> tuple[Conversation, list[dict]]:
    events: list[dict] = []
    return Conversation(
        agent=agent, domain=domain, human=human, on_event=events.append, timeout=10
    ), events


def by_id(outcomes: list[dict]) -> dict[str, dict]:
    return {o["id"]: o for o in outcomes}


# Notes


async def test_an_accepted_note_is_added_and_the_agent_is_told_the_result():
    notes = NotesDomain()
    agent = ScriptedAgent([reply(suggest("add-note", {"text": "buy milk"}, "s1")), THANKS])
    talk, events = conversation(notes, agent, policy_human("accept"))
    result = await talk.say("add a note: buy milk")
    assert (result.status, result.turns) == ("idle", 2)
    assert result.outcomes == [
        {
            "id": "s1",
            "action": "add-note",
            "status": "done",
            "preview": "Add the note 'buy milk'",
            "result": {"id": 1, "text": "buy milk"},
        }
    ]
    assert agent.messages[0] == '<context notes="0"/>\n\nadd a note: buy milk'
    assert (
        '{"action":"add-note","status":"done","result":{"id":1,"text":"buy milk"}}'
        in agent.messages[1]
    )
    assert agent.messages[1].endswith('<context notes="1"/>')
    [shown] = [e for e in events if e["type"] == "suggestion"]
    assert (shown["preview"], shown["destructive"], shown["mutates"]) == (
        "Add the note 'buy milk'",
        False,
        True,
    )


async def test_an_invalid_payload_never_reaches_the_person_and_the_agent_gets_the_hint():
    notes = NotesDomain()
    agent = ScriptedAgent([reply(suggest("add-note", {"text": "", "colour": "red"}, "s1")), THANKS])
    talk, events = conversation(notes, agent, scripted_human([]))  # would raise if asked
    result = await talk.say("add an empty note")
    [outcome] = result.outcomes
    assert outcome == {
        "id": "s1",
        "action": "add-note",
        "status": "invalid",
        "preview": "",
        "code": "invalid-payload",
        "field": "colour",
        "hint": "unexpected field 'colour'; text must not be empty",
    }
    assert "suggestion" not in [e["type"] for e in events]
    assert notes.notes == []


async def test_a_refused_edit_is_shown_back_with_the_errors_then_a_good_edit_runs():
    notes = NotesDomain(["buy milk", "call Sam"])
    human = scripted_human([{"edit": {"id": 0}}, {"edit": {"id": 2}}])
    agent = ScriptedAgent([reply(suggest("remove-note", {"id": 1}, "s1")), THANKS])
    talk, _ = conversation(notes, agent, human)
    result = await talk.say("remove the first note")
    first, second = human.seen
    assert first.destructive is True and first.preview == "Remove the note 'buy milk'"
    assert second.issue == {
        "code": "invalid-payload",
        "field": "id",
        "hint": "id must be at least 1",
        "errors": [{"field": "id", "message": "id must be at least 1"}],
    }
    [outcome] = result.outcomes
    assert (outcome["status"], outcome["preview"], outcome["edited"]) == (
        "done",
        "Remove the note 'call Sam'",
        True,
    )
    assert [n["text"] for n in notes.notes] == ["buy milk"]


async def test_read_only_and_hand_off_actions_run_without_asking():
    notes = NotesDomain(["a"])
    agent = ScriptedAgent(
        [
            reply(
                suggest("list-notes", {}, "s1"),
                suggest("open-poll", {"question": "Lunch?", "options": ["pizza", "salad"]}, "s2"),
            ),
            THANKS,
        ]
    )
    talk, _ = conversation(notes, agent, scripted_human([]))
    result = await talk.say("what do I have, and ask the team about lunch")
    outcomes = by_id(result.outcomes)
    assert outcomes["s1"]["status"] == "done"
    assert outcomes["s1"]["result"] == {"notes": [{"id": 1, "text": "a"}]}
    assert outcomes["s2"]["status"] == "handed-off"
    assert notes.polls == [{"question": "Lunch?", "options": ["pizza", "salad"]}]


async def test_a_dismissed_note_is_not_added_and_no_turn_follows():
    notes = NotesDomain()
    agent = ScriptedAgent([reply(suggest("add-note", {"text": "x"}, "s1"))])
    talk, _ = conversation(notes, agent, policy_human("dismiss"))
    result = await talk.say("add x")
    assert (result.turns, [o["status"] for o in result.outcomes]) == (1, ["dismissed"])
    assert notes.notes == []


async def test_a_failed_run_carries_the_domains_code_field_and_hint():
    notes = NotesDomain(["a"])

    class Hasty:
        def decide(self, suggestion):  # the note disappears while the person decides
            notes.notes.clear()
            return {"accept": True}

    agent = ScriptedAgent([reply(suggest("remove-note", {"id": 1}, "s1")), THANKS])
    talk, _ = conversation(notes, agent, Hasty())
    result = await talk.say("remove it")
    [outcome] = result.outcomes
    assert (outcome["status"], outcome["code"], outcome["field"]) == ("failed", "not-found", "id")
    assert outcome["hint"] == "there is no note 1 (the notes' ids: none)"


# Data frames


@pytest.fixture
def namespace() -> dict:
    return {"sales": load_sales()}


async def test_an_eda_session_reads_changes_plots_and_is_undone(namespace):
    frames = DataFramesDomain(namespace)
    original = namespace["sales"]
    agent = ScriptedAgent(
        [
            reply(
                suggest("head", {"frame": "sales", "n": 2}, "s1"),
                suggest(
                    "add-column",
                    {"frame": "sales", "column": "revenue", "expression": "price * units"},
                    "s2",
                ),
            ),
            reply(
                suggest(
                    "plot",
                    {"frame": "sales", "kind": "scatter", "x": "price", "y": "revenue"},
                    "s3",
                )
            ),
            THANKS,
        ]
    )
    human = scripted_human(["accept"])  # only the add-column is asked
    talk, events = conversation(frames, agent, human)
    result = await talk.say("look at sales and chart revenue against price")
    outcomes = by_id(result.outcomes)
    assert [o["status"] for o in result.outcomes] == ["done", "done", "done"]
    assert outcomes["s1"]["result"]["table"]["total_rows"] == 200
    assert outcomes["s2"]["preview"] == "Add the column revenue = price * units in sales"
    assert outcomes["s2"]["result"]["columns"][-1] == "revenue"
    assert outcomes["s3"]["result"]["media"][0]["src"].startswith("data:image/png;base64,")
    assert [s.action for s in human.seen] == ["add-column"]
    assert "revenue (float64)" in agent.messages[1]  # the context told the agent
    json.dumps(events)  # the transcript is plain JSON
    frames.undo_last()
    assert namespace["sales"] is original


async def test_code_in_an_expression_is_refused_before_the_person_sees_it(namespace):
    frames = DataFramesDomain(namespace)
    agent = ScriptedAgent(
        [
            reply(
                suggest(
                    "add-column",
                    {"frame": "sales", "column": "x", "expression": "__import__('os')"},
                    "s1",
                )
            ),
            THANKS,
        ]
    )
    talk, _ = conversation(frames, agent, scripted_human([]))
    result = await talk.say("add a column")
    [outcome] = result.outcomes
    assert (outcome["status"], outcome["code"], outcome["field"]) == (
        "invalid",
        "invalid-expression",
        "expression",
    )
    assert outcome["hint"].startswith("function '__import__' is not allowed")
    assert "x" not in namespace["sales"].columns
    assert "function '__import__' is not allowed" in agent.messages[1]


async def test_an_edited_filter_is_validated_against_the_frames(namespace):
    frames = DataFramesDomain(namespace)
    bad = {"frame": "sales", "where": [{"column": "regon", "op": "==", "value": "North"}]}
    good = {"frame": "sales", "where": [{"column": "region", "op": "==", "value": "West"}]}
    human = scripted_human([{"edit": bad}, {"edit": good}])
    agent = ScriptedAgent(
        [
            reply(
                suggest(
                    "filter-rows",
                    {
                        "frame": "sales",
                        "where": [{"column": "region", "op": "==", "value": "North"}],
                    },
                    "s1",
                )
            ),
            THANKS,
        ]
    )
    talk, _ = conversation(frames, agent, human)
    result = await talk.say("keep the western sales")
    assert human.seen[1].issue["hint"] == "sales has no column 'regon' (did you mean 'region'?)"
    assert human.seen[1].issue["field"] == "where[0].column"
    [outcome] = result.outcomes
    assert (outcome["status"], outcome["edited"]) == ("done", True)
    assert set(namespace["sales"]["region"]) == {"West"}
