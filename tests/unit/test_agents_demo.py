"""DemoAgent: the quickstart's path (notes) and the EDA notebook's path (data frames), through
the real Conversation, every reply checked with lint."""

from __future__ import annotations

from typing import Any

import pandas
import pytest

from dial_notebook.agents import DemoAgent
from dial_notebook.domains.notes import NotesDomain
from dial_notebook.runtime import Conversation, policy_human, scripted_human

from .runtime_doubles import LintChecked, said


def talk(domain: Any, human: Any) -> tuple[Conversation, LintChecked]:
    agent = LintChecked(DemoAgent(domain))
    return Conversation(agent=agent, domain=domain, human=human), agent


async def test_the_quickstart_path_add_accept_edit_invalid_dismiss_and_the_agent_reacts():
    notes = NotesDomain(["buy milk", "call Sam"])
    human = scripted_human([
        "accept",
        {"edit": {"text": ""}}, {"edit": {"text": "pay the rent"}},
        {"answer": "2"}, "dismiss",
    ])
    conversation, _ = talk(notes, human)

    result = await conversation.say("add a note: water the plants")
    assert [o["status"] for o in result.outcomes] == ["done"]
    assert said(conversation)[-1] == "Added 'water the plants'. You now have 3 notes."

    mark = len(conversation.transcript)
    result = await conversation.say("add a note: pay rent")
    assert human.seen[2].issue["field"] == "text"  # the empty edit was shown back, refused
    assert result.outcomes[0]["edited"] is True
    assert said(conversation, mark) == [
        "Added your edited version: 'pay the rent'. You now have 4 notes."]

    mark = len(conversation.transcript)
    result = await conversation.say("remove the note")
    question = human.seen[3]
    assert question.response_type == "choice"
    assert [o["label"] for o in question.options] == [
        "1. buy milk", "2. call Sam", "3. water the plants", "4. pay the rent"]
    assert [o["status"] for o in result.outcomes] == ["dismissed"]
    assert human.seen[4].payload == {"id": 2} and human.seen[4].destructive

    mark = len(conversation.transcript)
    result = await conversation.say("list notes")
    assert said(conversation, mark) == [
        "OK, I left that out.",
        "You have 4 notes, listed above."]
    assert [n["text"] for n in notes.notes] == [
        "buy milk", "call Sam", "water the plants", "pay the rent"]


async def test_a_note_that_does_not_exist_comes_back_invalid_and_the_agent_asks_which():
    notes = NotesDomain(["buy milk", "call Sam"])
    conversation, _ = talk(notes, scripted_human([{"answer": "call Sam"}, "accept"]))
    result = await conversation.say("remove note 9")
    assert [o["status"] for o in result.outcomes] == ["invalid", "done"]
    assert said(conversation)[0] == (
        "There is no note 9 (the notes' ids: 1, 2). Which one did you mean?")
    assert [n["text"] for n in notes.notes] == ["buy milk"]


async def test_after_refused_edits_the_agent_says_what_was_refused_not_a_guess():
    """remove note 2, then three edits the domain refuses: note 2 exists, and the agent
    must not claim it does not."""
    notes = NotesDomain(["buy milk", "call Sam"])
    bad = {"edit": {"id": 0}}
    conversation, _ = talk(notes, scripted_human([bad, bad, bad]))
    result = await conversation.say("remove note 2")
    assert [o["status"] for o in result.outcomes] == ["invalid"]
    words = said(conversation)[-1]
    assert "There is no note 2" not in words
    assert words == ("That removal was refused: id must be at least 1. Nothing was removed; "
                     "say 'remove note N' to try again.")
    assert [n["text"] for n in notes.notes] == ["buy milk", "call Sam"]


async def test_a_note_too_long_is_shortened_and_proposed_again():
    notes = NotesDomain()
    conversation, _ = talk(notes, policy_human("accept"))
    result = await conversation.say("add a note: " + "x" * 1200)
    assert [o["status"] for o in result.outcomes] == ["invalid", "done"]
    assert len(notes.notes[0]["text"]) == 1000
    assert "too long" in said(conversation)[0]


async def test_a_failed_removal_is_explained_with_an_offer():
    notes = NotesDomain(["buy milk"])

    class RemovesFirst:
        def decide(self, suggestion):
            notes.notes.clear()  # the note disappears before the accepted removal runs
            return {"accept": True}

    conversation, _ = talk(notes, RemovesFirst())
    result = await conversation.say("remove note 1")
    assert [o["status"] for o in result.outcomes] == ["failed"]
    assert said(conversation)[-1].startswith("That didn't work: there is no note 1")
    assert "list the notes" in said(conversation)[-1]


async def test_a_request_with_no_text_gets_a_question_then_the_note():
    notes = NotesDomain()
    conversation, _ = talk(notes, scripted_human([{"answer": "feed the cat"}, "accept"]))
    await conversation.say("add a note")
    assert said(conversation)[0] == "What should the note say?"
    assert notes.notes == [{"id": 1, "text": "feed the cat"}]


async def test_a_poll_is_handed_off_and_acknowledged_with_the_next_words():
    notes = NotesDomain()
    conversation, _ = talk(notes, policy_human("accept"))
    result = await conversation.say("poll: Lunch? pizza, sushi, salad")
    assert [o["status"] for o in result.outcomes] == ["handed-off"]
    assert notes.polls == [{"question": "Lunch?", "options": ["pizza", "sushi", "salad"]}]
    mark = len(conversation.transcript)
    await conversation.say("thanks!")
    assert said(conversation, mark) == ["The poll is open in its own panel.",
                                        "You're welcome. What next?"]


async def test_words_it_does_not_understand_get_what_it_can_do():
    conversation, _ = talk(NotesDomain(), policy_human())
    await conversation.say("what's the weather like?")
    text = said(conversation)[0]
    assert text.startswith("I didn't catch that. I'm the offline demo agent")
    assert "add a note: buy milk" in text


# -- the EDA notebook's path ---------------------------------------------------------------

@pytest.fixture
def frames():
    from dial_notebook.domains._sales import load_sales
    from dial_notebook.domains.dataframes import DataFramesDomain

    return DataFramesDomain({"sales": load_sales()})


async def test_the_eda_path_describe_filter_add_a_column_plot_and_undo_one(frames):
    original = frames.namespace["sales"]
    conversation, agent = talk(frames, policy_human("accept"))

    result = await conversation.say("describe sales")
    assert result.outcomes[0]["result"]["table"]["columns"][0] == "column"  # on the card
    assert said(conversation)[-1] == "Summary of sales: on the card above."
    assert "<dial-inform render=" not in agent.replies[-1]  # the table is not repeated

    result = await conversation.say("filter sales where region is north")
    assert result.outcomes[0]["result"]["rows_before"] == 200
    north = frames.namespace["sales"]
    assert set(north["region"]) == {"North"}
    assert said(conversation)[-1].startswith(f"Done: sales now has {len(north)} rows, from 200.")

    await conversation.say("add a column revenue = price * units")
    assert list(frames.namespace["sales"].columns)[-1] == "revenue"
    assert "new column revenue (float64)" in said(conversation)[-1]

    result = await conversation.say("plot price against size")
    assert result.outcomes[0]["action"] == "plot"
    image = result.outcomes[0]["result"]["media"][0]["src"]  # the person's, whole
    assert image.startswith("data:image/png;base64,iVBOR") and len(image) > 5000
    # the agent saw only a placeholder of the image: it must not show that as the chart
    told = [e["message"] for e in conversation.transcript if e["type"] == "sent"][-1]
    assert "characters omitted" in told
    assert "render=\"media\"" not in agent.replies[-1]
    assert said(conversation)[-1] == "Here is the chart above: scatter of price against size."

    assert frames.undo_last().action == "add-column"  # the person undoes one change
    assert frames.namespace["sales"] is north
    result = await conversation.say("show sales")
    assert result.outcomes[0]["result"]["table"]["columns"] == list(original.columns)
    assert frames.undo_last().action == "filter-rows"
    assert frames.namespace["sales"] is original


async def test_with_two_frames_and_none_named_it_asks_which(frames):
    frames.namespace["regions"] = pandas.DataFrame({"region": ["North"], "manager": ["Ann"]})
    conversation, _ = talk(frames, scripted_human([{"answer": "regions"}]))
    result = await conversation.say("describe")
    ask = next(e for e in conversation.transcript if e["type"] == "ask")
    assert ask["text"] == "Which data frame?"
    assert [o["value"] for o in ask["options"]] == ["sales", "regions"]
    assert result.outcomes[0]["result"]["frame"] == "regions"


async def test_an_unknown_column_gets_a_question_listing_the_columns(frames):
    conversation, _ = talk(frames, scripted_human([{"answer": "units"}]))
    result = await conversation.say("histogram of unitz")
    assert said(conversation)[0] == "sales has no column 'unitz'. Which column did you mean?"
    assert result.outcomes[0]["status"] == "done"
    assert "Here is the chart above: histogram of units." in said(conversation)


async def test_group_sort_and_counts_make_valid_proposals(frames):
    conversation, _ = talk(frames, policy_human("accept"))
    for words in ("total units by region", "sort sales by price descending", "count region",
                  "correlation in sales", "list frames"):
        result = await conversation.say(words)
        assert [o["status"] for o in result.outcomes] == ["done"], words
    assert "sales_by_region" in frames.namespace
    assert frames.namespace["sales"]["price"].is_monotonic_decreasing


def test_the_undo_hint_names_the_notebook_variable_that_holds_the_domain(monkeypatch):
    import sys
    import types

    from dial_notebook.agents._reachable import undo_hint

    domain = NotesDomain()
    shell = types.SimpleNamespace(user_ns={"_": domain, "notes": domain, "other": 1})
    monkeypatch.setitem(sys.modules, "IPython",
                        types.SimpleNamespace(get_ipython=lambda: shell))
    assert undo_hint(domain) == "notes.undo_last()"
    assert undo_hint(NotesDomain()) == "the domain's undo_last()"


async def test_a_chart_that_will_not_be_drawn_is_never_said_to_be_above(frames, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "vl_convert", None)  # the renderer is not installed
    conversation, _ = talk(frames, policy_human("accept"))
    result = await conversation.say("plot price against units as vega-lite")
    assert result.outcomes[0]["result"]["drawn"] is False
    last = said(conversation)[-1]
    assert "chart above" not in last
    assert last.startswith("The chart could not be drawn: vl-convert-python is not installed")
