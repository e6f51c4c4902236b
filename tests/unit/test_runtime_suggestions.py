"""The life of a suggestion: every path from <dial-suggest> to its one outcome."""

from __future__ import annotations

import json

from dial_notebook.runtime import Conversation, Suggestion, policy_human, scripted_human

from .runtime_doubles import (
    NotesDomain,
    ScriptedAgent,
    dial,
    inform,
    outcomes_in,
    suggest,
)


def conversation_for(replies, human, domain=None, **kw):
    agent = ScriptedAgent(replies)
    domain = domain or NotesDomain()
    events: list[dict] = []
    conversation = Conversation(agent=agent, domain=domain, human=human,
                                on_event=events.append, **kw)
    return conversation, agent, domain, events


def types(events):
    return [e["type"] for e in events]


async def test_an_accepted_suggestion_runs_and_the_agent_is_told_it_was_done_with_the_result():
    human = policy_human("accept")
    conversation, agent, domain, events = conversation_for(
        [dial(inform("Adding it."), suggest("add-note", {"text": "Strong brand"}, "Add it?")),
         dial("<dial-acknowledge>Done — added.</dial-acknowledge>")], human)
    result = await conversation.say("add strong brand")
    assert domain.notes == ["Strong brand"]
    assert human.seen[0].preview == "Add the note 'Strong brand'"
    assert human.seen[0].text == "Add it?"
    assert outcomes_in(agent.received[1]) == [
        {"action": "add-note", "status": "done", "result": {"count": 1}}]
    # 'running' (not kept in the transcript) says the run started: a surface saves now
    assert types(events) == ["sent", "reply", "inform", "suggestion", "running", "outcome",
                             "sent", "reply", "inform"]
    assert "running" not in types(conversation.transcript)
    assert result.outcomes == [{"id": "sg-1", "action": "add-note", "status": "done",
                                "preview": "Add the note 'Strong brand'",
                                "result": {"count": 1}}]


async def test_the_suggestion_event_carries_what_a_surface_shows_and_whether_it_mutates():
    conversation, _, _, events = conversation_for(
        [dial(suggest("remove-note", {"index": 0}, "Remove it?", id="rm")), dial(inform("ok"))],
        policy_human("dismiss"))
    await conversation.say("x")
    shown = next(e for e in events if e["type"] == "suggestion")
    assert shown == {"type": "suggestion", "id": "rm", "action": "remove-note",
                     "text": "Remove it?", "payload": {"index": 0}, "preview": "Remove note 0",
                     "destructive": True, "mutates": True}


async def test_the_human_gets_a_suggestion_object_with_attributes_and_to_dict():
    human = policy_human("dismiss")
    conversation, *_ = conversation_for([dial(suggest("add-note", {"text": "a"}))], human)
    await conversation.say("x")
    (shown,) = human.seen
    assert isinstance(shown, Suggestion)
    assert (shown.id, shown.action, shown.payload, shown.destructive, shown.issue) == (
        "sg-1", "add-note", {"text": "a"}, False, None)
    assert json.loads(json.dumps(shown.to_dict()))["preview"] == "Add the note 'a'"


async def test_an_invalid_payload_is_never_shown_and_the_agent_gets_code_field_and_hint():
    human = policy_human("accept")
    conversation, agent, domain, events = conversation_for(
        [dial(suggest("add-note", {"text": ""})), dial(suggest("add-note", {"text": "Fixed"})),
         dial(inform("ok"))], human)
    result = await conversation.say("add a note")
    assert len(human.seen) == 1
    assert outcomes_in(agent.received[1]) == [{"action": "add-note", "status": "invalid",
                                           "code": "invalid-payload", "field": "text",
                                           "hint": "text is required"}]
    assert domain.notes == ["Fixed"]
    assert result.turns == 3
    assert [e["preview"] for e in events if e["type"] == "outcome"] == ["", "Add the note 'Fixed'"]
    assert [e["id"] for e in events if e["type"] == "suggestion"] == ["sg-2"]


async def test_an_unknown_action_is_invalid_with_code_unknown_action_and_not_shown():
    human = policy_human("accept")
    conversation, agent, _, events = conversation_for(
        [dial(suggest("fly", {})), dial(inform("sorry"))], human)
    await conversation.say("x")
    assert human.seen == []
    assert outcomes_in(agent.received[1]) == [{"action": "fly", "status": "invalid",
                                           "code": "unknown-action",
                                           "hint": "There is no action 'fly'."}]
    assert "suggestion" not in types(events)


async def test_a_suggest_without_an_action_is_reported_with_an_empty_action():
    conversation, agent, *_ = conversation_for(
        [dial("<dial-suggest>Do something?</dial-suggest>"), dial(inform("sorry"))],
        policy_human())
    await conversation.say("x")
    assert outcomes_in(agent.received[1]) == [{"action": "", "status": "invalid",
                                           "code": "unknown-action",
                                           "hint": "There is no action ''."}]


async def test_read_only_actions_run_without_asking_and_failures_carry_error_code_and_hint():
    human = policy_human("accept")
    conversation, agent, *_ = conversation_for(
        [dial(suggest("list-notes", {}), suggest("remove-note", {"index": 7})),
         dial(inform("ok"))], human)
    await conversation.say("clean up")
    assert [s.action for s in human.seen] == ["remove-note"]
    assert human.seen[0].destructive is True
    assert outcomes_in(agent.received[1]) == [
        {"action": "list-notes", "status": "done", "result": {"notes": []}},
        {"action": "remove-note", "status": "failed", "error": "No note 7",
         "code": "not-found", "hint": "list-notes gives the indices"},
    ]


async def test_an_action_whose_spec_does_not_say_mutates_is_asked_not_run_alone():
    domain = NotesDomain()
    domain.actions["add-note"] = {}
    human = policy_human("dismiss")
    conversation, *_ = conversation_for([dial(suggest("add-note", {"text": "a"}))], human,
                                        domain=domain)
    await conversation.say("x")
    assert len(human.seen) == 1
    assert domain.ran == []


async def test_action_specs_may_be_objects_with_attributes():
    class Spec:
        mutates = False
        destructive = False
        handoff = False

    domain = NotesDomain()
    domain.actions = {"list-notes": Spec()}
    conversation, *_ = conversation_for([dial(suggest("list-notes", {})), dial(inform("ok"))],
                                        scripted_human([]), domain=domain)
    result = await conversation.say("x")
    assert [o["status"] for o in result.outcomes] == ["done"]


async def test_a_hand_off_runs_at_once_asks_nobody_and_waits_for_the_persons_next_words():
    human = scripted_human([])
    conversation, agent, domain, events = conversation_for(
        [dial(suggest("open-poll", {"question": "Lunch?"})), dial(inform("ok"))], human)
    first = await conversation.say("poll please")
    assert domain.ran == [("open-poll", {"question": "Lunch?"})]
    assert [o["status"] for o in first.outcomes] == ["handed-off"]
    assert len(agent.received) == 1
    assert "suggestion" in types(events)
    await conversation.say("thanks")
    assert outcomes_in(agent.received[1]) == [{"action": "open-poll", "status": "handed-off"}]


async def test_a_dismissal_alone_runs_nothing_and_starts_no_turn():
    conversation, agent, domain, _ = conversation_for(
        [dial(suggest("add-note", {"text": "a"})), dial(inform("ok, skipped"))],
        policy_human("dismiss"))
    first = await conversation.say("x")
    assert domain.ran == []
    assert (first.status, first.turns, len(agent.received)) == ("idle", 1, 1)
    assert [o["status"] for o in first.outcomes] == ["dismissed"]
    await conversation.say("something else")
    assert outcomes_in(agent.received[1]) == [{"action": "add-note", "status": "dismissed"}]


async def test_a_dismissal_next_to_an_action_that_ran_is_reported_in_the_same_turn():
    conversation, agent, domain, _ = conversation_for(
        [dial(suggest("add-note", {"text": "a"}), suggest("add-note", {"text": "b"})),
         dial("<dial-acknowledge>ok</dial-acknowledge>")],
        scripted_human(["accept", "dismiss"]))
    await conversation.say("x")
    assert domain.notes == ["a"]
    assert [o["status"] for o in outcomes_in(agent.received[1])] == ["done", "dismissed"]


async def test_an_edited_payload_is_validated_then_runs_and_the_outcome_says_edited():
    human = scripted_human([{"edit": {"text": "Final"}}])
    conversation, agent, domain, events = conversation_for(
        [dial(suggest("add-note", {"text": "draft"})), dial(inform("ok"))], human)
    await conversation.say("x")
    assert domain.notes == ["Final"]
    assert outcomes_in(agent.received[1]) == [{"action": "add-note", "status": "done",
                                           "result": {"count": 1}, "edited": True}]
    assert events[-4]["preview"] == "Add the note 'Final'"


async def test_a_refused_edit_is_shown_back_with_the_issue_and_the_person_decides_again():
    human = scripted_human([{"edit": {"text": ""}}, {"edit": {"text": "Final"}}])
    conversation, _, domain, _ = conversation_for(
        [dial(suggest("add-note", {"text": "draft"})), dial(inform("ok"))], human)
    await conversation.say("x")
    assert domain.notes == ["Final"]
    assert human.seen[0].issue is None
    assert human.seen[1].issue == {"code": "invalid-payload", "field": "text",
                                   "hint": "text is required"}
    assert human.seen[1].payload == {"text": ""}


async def test_three_refused_edits_end_invalid_and_nothing_runs():
    human = scripted_human([{"edit": {"text": ""}}] * 3)
    conversation, agent, domain, _ = conversation_for(
        [dial(suggest("add-note", {"text": "draft"})), dial(inform("ok"))], human)
    result = await conversation.say("x")
    assert domain.ran == []
    assert len(human.seen) == 3
    assert outcomes_in(agent.received[1]) == [{"action": "add-note", "status": "invalid",
                                           "code": "invalid-payload", "field": "text",
                                           "hint": "text is required"}]
    assert result.turns == 2


async def test_an_accept_after_a_refused_edit_never_runs_the_unvalidated_payload():
    human = scripted_human([{"edit": {"text": ""}}, "accept", "accept"])
    conversation, _, domain, _ = conversation_for(
        [dial(suggest("add-note", {"text": "draft"})), dial(inform("ok"))], human)
    result = await conversation.say("x")
    assert domain.ran == []
    assert [o["status"] for o in result.outcomes] == ["invalid"]
    assert human.seen[2].issue == {"code": "invalid-payload", "field": "text",
                                   "hint": "text is required"}


async def test_words_written_instead_of_deciding_supersede_this_and_the_rest_of_the_reply():
    human = scripted_human([{"say": "actually, add c instead"}])
    conversation, agent, domain, events = conversation_for(
        [dial(suggest("add-note", {"text": "a"}), suggest("add-note", {"text": "b"}),
              suggest("fly", {})),
         dial(inform("Got it."))], human)
    result = await conversation.say("add a and b")
    assert domain.ran == []
    assert len(human.seen) == 1
    assert [(o["status"], o["preview"]) for o in result.outcomes] == [
        ("superseded", "Add the note 'a'"), ("superseded", "Add the note 'b'"),
        ("invalid", "")]
    assert agent.received[1].endswith("actually, add c instead")
    assert result.status == "idle"
    assert [e["id"] for e in events if e["type"] == "suggestion"] == ["sg-1"]


async def test_ids_are_the_agents_or_sg_n_counted_across_turns_and_says():
    conversation, *_ = conversation_for(
        [dial(suggest("add-note", {"text": "a"}), suggest("add-note", {"text": "b"}, id="mine")),
         dial(suggest("add-note", {"text": "c"})), dial(inform("ok")),
         dial(suggest("add-note", {"text": "d"})), dial(inform("ok"))],
        policy_human("accept"))
    first = await conversation.say("x")
    second = await conversation.say("y")
    assert [o["id"] for o in first.outcomes] == ["sg-1", "mine", "sg-2"]
    assert [o["id"] for o in second.outcomes] == ["sg-3"]


async def test_the_payload_is_the_suggests_own_else_the_declare_right_after_it():
    human = policy_human("dismiss")
    conversation, *_ = conversation_for([dial(
        suggest("add-note", {"text": "own"}, via="payload"),
        '<dial-declare context-key="fact">{"text": "not a payload"}</dial-declare>',
        suggest("add-note", {"text": "declared as text"}),
        '<dial-suggest action="add-note">x</dial-suggest><dial-declare context-key="y">'
        '<dial-payload type="application/json">{"text": "declared in a payload"}</dial-payload>'
        "</dial-declare>",
        '<dial-suggest action="list-notes">x</dial-suggest><dial-declare context-key="z">'
        "not json</dial-declare>",
    )], human, domain=_asking_everything())
    result = await conversation.say("x")
    assert [s.payload for s in human.seen] == [
        {"text": "own"}, {"text": "declared as text"}, {"text": "declared in a payload"}, {}]
    assert len(result.outcomes) == 4


async def test_a_suggest_with_no_payload_gets_an_empty_one_and_an_empty_payload_counts_as_none():
    human = policy_human("dismiss")
    conversation, *_ = conversation_for([dial(
        '<dial-suggest action="list-notes">List?</dial-suggest>',
        '<dial-suggest action="list-notes">List?<dial-payload/></dial-suggest>',
    )], human, domain=_asking_everything())
    await conversation.say("x")
    assert [s.payload for s in human.seen] == [{}, {}]


async def test_a_payload_that_is_not_json_is_invalid_with_the_reason():
    conversation, agent, *_ = conversation_for([
        dial('<dial-suggest action="add-note"><dial-payload>{text: oops}</dial-payload>'
             "</dial-suggest>"),
        dial(inform("sorry")),
    ], policy_human())
    await conversation.say("x")
    (outcome,) = outcomes_in(agent.received[1])
    assert (outcome["status"], outcome["code"]) == ("invalid", "invalid-json")
    assert outcome["hint"].startswith("The payload could not be read: Not valid JSON")


async def test_a_preview_that_raises_or_returns_nothing_falls_back_to_the_action_name():
    class Domain(NotesDomain):
        def preview(self, action, payload):
            if action == "list-notes":
                return ""
            raise KeyError("boom")

    human = policy_human("dismiss")
    conversation, *_ = conversation_for(
        [dial(suggest("add-note", {"text": "a"}), suggest("list-notes", {})), dial(inform("ok"))],
        human, domain=Domain())
    result = await conversation.say("x")
    assert human.seen[0].preview == "add-note"
    assert [o["preview"] for o in result.outcomes] == ["add-note", "list-notes"]


async def test_a_run_that_returns_none_reports_no_result_as_the_reference_omits_undefined():
    domain = NotesDomain()
    domain.run = lambda action, payload: None
    conversation, agent, *_ = conversation_for(
        [dial(suggest("list-notes", {})), dial(inform("ok"))], policy_human(), domain=domain)
    await conversation.say("x")
    assert outcomes_in(agent.received[1]) == [{"action": "list-notes", "status": "done"}]


async def test_a_result_json_cannot_write_is_reported_as_the_agent_reads_it():
    class Frame:
        def to_dict(self):
            return {"rows": 3}

    domain = NotesDomain()
    domain.run = lambda action, payload: {"frame": Frame(), "when": {1, 2} and "now"}
    conversation, agent, _, events = conversation_for(
        [dial(suggest("list-notes", {})), dial(inform("ok"))], policy_human(), domain=domain)
    await conversation.say("x")
    assert outcomes_in(agent.received[1])[0]["result"] == {"frame": {"rows": 3}, "when": "now"}
    json.dumps(conversation.transcript)
    assert next(e for e in events if e["type"] == "outcome")["result"] == {
        "frame": {"rows": 3}, "when": "now"}


async def test_a_run_error_without_a_message_is_named_by_its_type():
    def run(action, payload):
        raise RuntimeError()

    domain = NotesDomain()
    domain.run = run
    conversation, agent, *_ = conversation_for(
        [dial(suggest("list-notes", {})), dial(inform("ok"))], policy_human(), domain=domain)
    await conversation.say("x")
    assert outcomes_in(agent.received[1]) == [
        {"action": "list-notes", "status": "failed", "error": "RuntimeError"}]


async def test_an_edited_action_that_fails_says_edited_too():
    human = scripted_human([{"edit": {"index": 5}}])
    conversation, agent, *_ = conversation_for(
        [dial(suggest("remove-note", {"index": 0})), dial(inform("ok"))], human)
    await conversation.say("x")
    assert outcomes_in(agent.received[1]) == [
        {"action": "remove-note", "status": "failed", "error": "No note 5", "code": "not-found",
         "hint": "list-notes gives the indices", "edited": True}]


def _asking_everything() -> NotesDomain:
    domain = NotesDomain()
    domain.actions = {name: {"mutates": True} for name in domain.actions}
    return domain


async def test_a_refusals_itemised_errors_reach_the_person_but_the_agent_gets_code_field_hint():
    class Itemised(NotesDomain):
        def validate(self, action, payload):
            verdict = super().validate(action, payload)
            if not verdict["ok"]:
                verdict["errors"] = [{"field": "text", "message": "too short"}]
            return verdict

    human = scripted_human([{"edit": {"text": ""}}] * 3)
    conversation, agent, *_ = conversation_for(
        [dial(suggest("add-note", {"text": "draft"})), dial(inform("ok"))], human,
        domain=Itemised())
    await conversation.say("x")
    assert human.seen[1].issue == {"code": "invalid-payload", "field": "text",
                                   "hint": "text is required",
                                   "errors": [{"field": "text", "message": "too short"}]}
    assert outcomes_in(agent.received[1]) == [{"action": "add-note", "status": "invalid",
                                           "code": "invalid-payload", "field": "text",
                                           "hint": "text is required"}]


async def test_each_refused_edit_says_how_many_more_refusals_end_the_proposal():
    bad = {"edit": {"text": ""}}
    human = scripted_human([bad, bad, bad])
    conversation, *_ = conversation_for([dial(suggest("add-note", {"text": "a"})), dial("")],
                                        human)
    await conversation.say("x")
    assert [s.edits_left for s in human.seen] == [None, 2, 1]
    assert "edits_left" not in human.seen[0].to_dict()
    assert human.seen[2].to_dict()["edits_left"] == 1


async def test_an_acknowledge_says_which_proposal_it_is_about():
    conversation, _, _, events = conversation_for(
        [dial('<dial-acknowledge of="sg-1">OK, I left that out.</dial-acknowledge>',
              "<dial-acknowledge>Fine.</dial-acknowledge>")], policy_human())
    await conversation.say("x")
    informs = [e for e in events if e["type"] == "inform"]
    assert informs[0] == {"type": "inform", "text": "OK, I left that out.",
                          "act": "acknowledge", "of": "sg-1"}
    assert "of" not in informs[1]
