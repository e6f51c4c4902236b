"""Stale proposals: a card made against frames that changed since is checked again before
Accept runs it — the card is shown again with a notice and a fresh dry run, or refused as an
edit is; it never runs against a state nobody saw, and it still ends in exactly one outcome."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import pytest

from dial_notebook import Rules
from dial_notebook.domains import DataFramesDomain
from dial_notebook.domains import _frames_version as versions
from dial_notebook.domains._frames_version import frame_version
from dial_notebook.runtime import Conversation, policy_human
from dial_notebook.runtime._budget import using_clock
from dial_notebook.runtime._stale import MAX_STALE, changed_names

from .runtime_doubles import NotesDomain, ScriptedAgent, dial, suggest, until

ADD_REVENUE = {"frame": "sales", "column": "revenue", "expression": "price * units"}


def sales(price: tuple[float, ...] = (2.0, 3.0), units: tuple[int, ...] = (1, 4)) -> pd.DataFrame:
    return pd.DataFrame({"price": list(price), "units": list(units)})


class Person:
    """Decides each card in turn: ``steps`` are (what to do first, the decision)."""

    def __init__(self, steps: list[tuple[Callable[[], Any] | None, dict[str, Any]]]) -> None:
        self.steps = list(steps)
        self.seen: list[Any] = []

    async def decide(self, suggestion: Any) -> dict[str, Any]:
        self.seen.append(suggestion)
        before, decision = self.steps.pop(0)
        if before is not None:  # the person's own cell runs while the card waits
            done = before()
            if asyncio.iscoroutine(done):
                await done
        return decision


ACCEPT = {"accept": True}


def talk(domain: Any, person: Any, *elements: str, **options: Any):
    events: list[dict[str, Any]] = []
    agent = ScriptedAgent([dial(*elements), dial()])
    return Conversation(agent=agent, domain=domain, human=person, on_event=events.append,
                        timeout=10, **options), events


def cards(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == "suggestion"]


def outcomes(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == "outcome"]


# -- DataFramesDomain.version -----------------------------------------------------------------

def test_a_frames_version_changes_when_rebound_or_changed_in_place_and_not_otherwise():
    frames = DataFramesDomain({"sales": sales(), "other": sales()})
    first = frames.version("add-column", ADD_REVENUE)
    assert list(first) == ["sales"]
    assert frames.version("add-column", ADD_REVENUE) == first  # untouched: the same
    frames.namespace["other"] = sales((9.0, 9.0))  # another frame: not what it works on
    assert frames.version("add-column", ADD_REVENUE) == first
    frames.namespace["sales"] = frames.namespace["sales"].copy()  # rebound to an equal copy
    assert frames.version("add-column", ADD_REVENUE) != first
    rebound = frames.version("add-column", ADD_REVENUE)
    frames.namespace["sales"].loc[0, "price"] = 7.0  # values changed in place
    assert frames.version("add-column", ADD_REVENUE) != rebound
    changed = frames.version("add-column", ADD_REVENUE)
    frames.namespace["sales"]["extra"] = 1  # a column added in place
    assert frames.version("add-column", ADD_REVENUE) != changed


def test_a_frames_version_names_into_and_says_when_a_name_holds_no_frame():
    frames = DataFramesDomain({"sales": sales()})
    payload = {"frame": "sales", "by": ["price"], "aggregations": {"units": "sum"},
               "into": "totals"}
    version = frames.version("group-aggregate", payload)
    assert set(version) == {"sales", "totals"} and version["totals"] == "absent"
    frames.namespace["totals"] = "not a frame"
    assert frames.version("group-aggregate", payload)["totals"] != "absent"
    assert frames.version("list-frames", {}) is None
    assert frames.version("sort", ["not", "an", "object"]) is None


def test_the_domains_own_change_gives_another_version():
    frames = DataFramesDomain({"sales": sales()})
    before = frames.version("sort", {"frame": "sales", "by": ["price"]})
    frames.run("filter-rows", {"frame": "sales", "where": [
        {"column": "price", "op": ">", "value": 0}]})
    assert frames.version("sort", {"frame": "sales", "by": ["price"]}) != before


def test_a_long_frame_is_versioned_from_a_sample_whose_ends_are_seen():
    frame = pd.DataFrame({"a": range(10_000)})
    namespace = {"df": frame}
    before = frame_version(namespace, "df", None)
    frame.loc[9_999, "a"] = -1  # the last rows are hashed
    assert frame_version(namespace, "df", None) != before


def _mixed(rows: int) -> pd.DataFrame:
    numbers = np.random.default_rng(0).random(rows)
    return pd.DataFrame({"x": numbers, "n": np.arange(rows), "flag": numbers > 0.5,
                         "when": pd.date_range("2026-01-01", periods=rows, freq="s"),
                         "region": np.array(["North", "South", "East"])[np.arange(rows) % 3]})


#: The most rows of ``_mixed`` hashed whole (four number columns and one of text).
WHOLE_ROWS = versions.WHOLE_CELLS // (4 + versions.TEXT_WEIGHT)


@pytest.mark.parametrize("rows", [1_000, WHOLE_ROWS + 1, 2_000_000],
                         ids=["small", "just-past-whole", "large"])
@pytest.mark.parametrize("column, value", [("x", 0.0), ("n", -1), ("flag", None),
                                           ("when", pd.Timestamp("2000-01-01"))])
def test_a_value_changed_in_place_in_a_middle_row_gives_another_version(rows, column, value):
    frame = _mixed(rows)
    namespace = {"df": frame}
    before = frame_version(namespace, "df", None)
    middle = rows // 2 + 7  # neither end, nor (past the whole) a sampled row
    frame.loc[middle, column] = (not frame.loc[middle, column]) if value is None else value
    assert frame.shape == (rows, 5) and frame[column].dtype == _mixed(3)[column].dtype
    assert frame_version(namespace, "df", None) != before


def test_a_text_value_changed_in_a_middle_row_is_seen_whole_when_small():
    frame = _mixed(1_000)
    before = frame_version({"df": frame}, "df", None)
    frame.loc[500, "region"] = "West"
    assert frame_version({"df": frame}, "df", None) != before


def test_a_wide_frame_sums_its_middle_columns_too():
    frame = pd.DataFrame(np.zeros((5_000, 300)), columns=[f"c{i}" for i in range(300)])
    before = frame_version({"df": frame}, "df", None)
    frame.loc[2_507, "c150"] = 1.0
    assert frame_version({"df": frame}, "df", None) != before


@pytest.mark.parametrize("rows", [WHOLE_ROWS, 2_000_000], ids=["whole", "sampled"])
def test_a_frames_version_costs_under_20_ms(rows):
    frame = _mixed(rows)
    frame_version({"df": frame}, "df", None)
    best = min(_timed(lambda: frame_version({"df": frame}, "df", None)) for _ in range(5))
    assert best < 0.020, f"{best * 1000:.1f} ms for {rows} rows"


def _timed(work: Callable[[], Any]) -> float:
    started = time.perf_counter()
    work()
    return time.perf_counter() - started


# -- the card is checked again before Accept runs it -------------------------------------------

async def test_a_frame_rebound_by_the_persons_cell_shows_the_card_again_and_runs_nothing():
    frames = DataFramesDomain({"sales": sales()})
    seen_at_second: list[list[str]] = []

    def cell() -> None:
        frames.namespace["sales"] = sales((10.0, 20.0, 30.0), (1, 1, 1))

    person = Person([(cell, ACCEPT),
                     (lambda: seen_at_second.append(list(frames.namespace["sales"].columns)),
                      ACCEPT)])
    conversation, events = talk(frames, person, suggest("add-column", ADD_REVENUE, id="s1"))
    result = await conversation.say("add revenue")
    assert seen_at_second == [["price", "units"]]  # nothing ran on the first accept
    first, again = cards(events)
    assert first["id"] == again["id"] == "s1" and "stale" not in first
    assert again["stale"] == {"why": "sales changed since this was proposed",
                              "changed": ["sales"]}
    assert first["dry_run"]["ok"] and again["dry_run"]["ok"]
    assert again["dry_run"] != first["dry_run"]  # worked out again, on three rows now
    assert "version" not in again  # the kernel's own token is not shown
    assert person.seen[1].stale == again["stale"] and person.seen[1].dry_run == again["dry_run"]
    # the second accept ran it, on the new frame: one outcome, done, not edited
    assert [(o["id"], o["status"]) for o in result.outcomes] == [("s1", "done")]
    assert "edited" not in result.outcomes[0]
    assert list(frames.namespace["sales"]["revenue"]) == [10.0, 20.0, 30.0]


@pytest.mark.parametrize("change", [
    lambda frame: frame.__setitem__("extra", 1),  # a column added in place
    lambda frame: frame.loc.__setitem__((0, "price"), 99.0),  # a value changed in place
], ids=["column-added", "value-changed"])
async def test_a_frame_changed_in_place_shows_the_card_again(change):
    frames = DataFramesDomain({"sales": sales()})
    person = Person([(lambda: change(frames.namespace["sales"]), ACCEPT), (None, ACCEPT)])
    conversation, events = talk(frames, person, suggest("add-column", ADD_REVENUE, id="s1"))
    result = await conversation.say("add revenue")
    assert [bool(c.get("stale")) for c in cards(events)] == [False, True]
    assert [o["status"] for o in result.outcomes] == ["done"]
    assert len(outcomes(events)) == 1


async def test_another_accepted_change_to_the_same_frame_makes_the_waiting_card_stale():
    frames = DataFramesDomain({"sales": sales((1.0, 5.0), (1, 2))})
    # a second conversation on the same frames (another widget) changes sales meanwhile
    elsewhere, _ = talk(frames, policy_human("accept"), suggest(
        "filter-rows", {"frame": "sales", "where": [{"column": "price", "op": ">", "value": 2}]},
        id="f1"))
    person = Person([(lambda: elsewhere.say("keep the dear ones"), ACCEPT), (None, ACCEPT)])
    conversation, events = talk(frames, person, suggest("add-column", ADD_REVENUE, id="s1"))
    result = await conversation.say("add revenue")
    assert [bool(c.get("stale")) for c in cards(events)] == [False, True]
    assert cards(events)[1]["dry_run"]["ok"]
    assert [o["status"] for o in result.outcomes] == ["done"]
    assert list(frames.namespace["sales"]["revenue"]) == [10.0]  # on the filtered frame


async def test_a_stale_card_whose_payload_is_now_invalid_is_refused_like_an_edit():
    frames = DataFramesDomain({"sales": sales()})

    def drop_units() -> None:
        frames.namespace["sales"] = frames.namespace["sales"].drop(columns=["units"])

    person = Person([(drop_units, ACCEPT), (None, {"dismiss": True})])
    conversation, events = talk(frames, person, suggest("add-column", ADD_REVENUE, id="s1"))
    result = await conversation.say("add revenue")
    again = cards(events)[1]
    assert again["stale"]["changed"] == ["sales"] and again["issue"]
    assert "dry_run" not in again  # nothing to work out for a refused payload
    shown = person.seen[1]
    assert shown.issue and shown.edits_left == 2 and shown.stale
    assert "revenue" not in frames.namespace["sales"]
    assert [o["status"] for o in result.outcomes] == ["dismissed"]
    assert len(outcomes(events)) == 1


async def test_a_stale_refusal_counts_as_an_edit_attempt():
    frames = DataFramesDomain({"sales": sales()})

    def drop_units() -> None:
        frames.namespace["sales"] = frames.namespace["sales"].drop(columns=["units"])

    bad = {**ADD_REVENUE, "expression": "price * nothing"}
    person = Person([(drop_units, ACCEPT), (None, {"edit": bad}), (None, {"edit": bad})])
    conversation, events = talk(frames, person, suggest("add-column", ADD_REVENUE, id="s1"))
    result = await conversation.say("add revenue")
    assert len(person.seen) == 3  # the stale refusal and one refused edit: the third ends it
    assert [o["status"] for o in result.outcomes] == ["invalid"]
    assert len(outcomes(events)) == 1
    assert "revenue" not in frames.namespace["sales"]


async def test_an_edit_of_a_stale_card_is_checked_again_and_then_runs_edited():
    frames = DataFramesDomain({"sales": sales()})
    edit = {**ADD_REVENUE, "expression": "price * 2"}

    def cell() -> None:
        frames.namespace["sales"] = sales((5.0,), (1,))

    person = Person([(cell, {"edit": edit}), (None, ACCEPT)])
    conversation, events = talk(frames, person, suggest("add-column", ADD_REVENUE, id="s1"))
    result = await conversation.say("add revenue")
    assert cards(events)[1]["payload"] == edit and cards(events)[1]["stale"]
    assert [(o["status"], o.get("edited")) for o in result.outcomes] == [("done", True)]
    assert list(frames.namespace["sales"]["revenue"]) == [10.0]


# -- versions the runtime cannot trust -----------------------------------------------------------

class VersionedNotes(NotesDomain):
    """Notes whose version the test sets; ``raises``: reading it raises."""

    def __init__(self) -> None:
        super().__init__(context=False)
        self.current: Any = "v1"
        self.raises = False
        self.reads = 0

    def version(self, action: str, payload: Any) -> Any:
        self.reads += 1
        if self.raises:
            raise RuntimeError("cannot tell")
        return self.current


async def test_a_version_that_raises_counts_as_changed_never_as_the_same():
    notes = VersionedNotes()

    def broken() -> None:
        notes.raises = True

    person = Person([(broken, ACCEPT)] + [(None, ACCEPT)] * MAX_STALE)
    conversation, events = talk(notes, person, suggest("add-note", {"text": "milk"}, id="n1"))
    result = await conversation.say("add milk")
    assert notes.ran == []  # never ran on a state it could not check
    assert len(person.seen) == MAX_STALE
    assert [(o["status"], o.get("code")) for o in result.outcomes] == [("invalid", "stale")]
    assert len(outcomes(events)) == 1


async def test_a_version_unchanged_runs_at_once_and_a_read_only_action_reads_none():
    notes = VersionedNotes()
    person = Person([(None, ACCEPT)])
    conversation, events = talk(notes, person, suggest("add-note", {"text": "milk"}, id="n1"),
                                suggest("list-notes", {}, id="n2"))
    result = await conversation.say("add milk")
    assert [o["status"] for o in result.outcomes] == ["done", "done"]
    assert notes.reads == 2  # when proposed, and when accepted: not for list-notes
    assert len(cards(events)) == 2


async def test_a_rule_never_runs_a_proposal_that_changed_after_its_check():
    notes = VersionedNotes()
    rules = Rules()
    rule = rules.add("add-note", {"type": "object"})
    validate = notes.validate

    def changes_while_checked(action: str, payload: Any) -> Any:
        notes.current = "v2"  # what it works on changes after the version was read
        return validate(action, payload)

    notes.validate = changes_while_checked  # type: ignore[method-assign]
    person = Person([(None, ACCEPT)])
    conversation, events = talk(notes, person, suggest("add-note", {"text": "milk"}, id="n1"),
                                rules=rules)
    result = await conversation.say("add milk")
    first, again = cards(events)
    assert "rule" in first and "rule" not in again and again["stale"]
    assert len(person.seen) == 1  # put to the person
    assert [(o["status"], o.get("rule")) for o in result.outcomes] == [("done", None)]
    assert rules[rule.id].fired == 0


async def test_reading_a_version_is_charged_to_the_replys_budget():
    notes = VersionedNotes()
    now = [0.0]

    def slow_version(action: str, payload: Any) -> str:
        now[0] += 2.0  # longer than a reply may keep the kernel
        return "v1"

    notes.version = slow_version  # type: ignore[method-assign]
    conversation, _ = talk(notes, Person([]), suggest("add-note", {"text": "milk"}, id="n1"))
    with using_clock(lambda: now[0]):
        result = await conversation.say("add milk")
    assert [(o["status"], o.get("code")) for o in result.outcomes] == [("invalid", "time-budget")]
    assert notes.ran == []


def test_a_recorded_version_from_a_file_that_is_not_a_version_counts_as_changed():
    assert changed_names(42, "v1") == []
    assert changed_names(["x"], {"sales": "a"}) == []
    assert changed_names({"sales": ["odd"]}, {"sales": "a"}) == ["sales"]
    assert changed_names({"sales": "a"}, {"other": "b"}) is None  # nothing in common


# -- a snapshot keeps the version; a restored card is checked against it -----------------------

class Surface:
    """A human like the widget: every decision is a future the test resolves."""

    needs_event_loop = True

    def __init__(self) -> None:
        self.futures: list[asyncio.Future[Any]] = []
        self.shown: list[Any] = []

    def decide(self, suggestion: Any) -> asyncio.Future[Any]:
        self.shown.append(suggestion)
        self.futures.append(asyncio.get_running_loop().create_future())
        return self.futures[-1]


async def _snapshot_of_a_shown_back_card() -> dict[str, Any]:
    frames = DataFramesDomain({"sales": sales()})
    surface = Surface()
    agent = ScriptedAgent([dial(suggest("add-column", ADD_REVENUE, id="s1")), dial()])
    conversation = Conversation(agent=agent, domain=frames, human=surface, timeout=10)
    task = asyncio.ensure_future(conversation.say("add revenue"))
    await until(lambda: surface.futures)
    surface.futures[0].set_result({"edit": {**ADD_REVENUE, "expression": "price * nothing"}})
    await until(lambda: len(surface.futures) > 1)  # the refused edit, shown back
    saved = json.loads(json.dumps(conversation.snapshot()))
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    return saved


async def test_a_restored_card_is_checked_against_its_recorded_version_before_it_runs():
    saved = await _snapshot_of_a_shown_back_card()
    recorded = saved["pending"]["value"]["version"]
    assert set(recorded) == {"sales"}
    frames = DataFramesDomain({"sales": sales((4.0,), (2,))})  # a new kernel: other frames
    surface = Surface()
    restored = Conversation.restore(saved, agent=ScriptedAgent([dial(), dial()]),
                                    domain=frames, human=surface, timeout=10)
    work = asyncio.ensure_future(restored.resume())
    await until(lambda: surface.futures)
    surface.futures[0].set_result({"edit": ADD_REVENUE})
    await until(lambda: len(surface.futures) > 1)
    assert "revenue" not in frames.namespace["sales"]  # never trusted: checked again first
    assert surface.shown[1].stale and surface.shown[1].dry_run["ok"]
    surface.futures[1].set_result(ACCEPT)
    result = await work
    assert [o["status"] for o in result.outcomes] == ["done"]
    assert list(frames.namespace["sales"]["revenue"]) == [8.0]


async def test_a_forged_recorded_version_is_never_taken_as_the_same():
    saved = await _snapshot_of_a_shown_back_card()
    frames = DataFramesDomain({"sales": sales()})
    saved["pending"]["value"]["version"] = frames.version("add-column", ADD_REVENUE)
    saved["pending"]["value"]["version"]["sales"] = 7  # not a version
    surface = Surface()
    restored = Conversation.restore(saved, agent=ScriptedAgent([dial(), dial()]),
                                    domain=frames, human=surface, timeout=10)
    work = asyncio.ensure_future(restored.resume())
    await until(lambda: surface.futures)
    surface.futures[0].set_result({"edit": ADD_REVENUE})
    await until(lambda: len(surface.futures) > 1 or work.done())
    assert "revenue" not in frames.namespace["sales"]
    surface.futures[1].set_result({"dismiss": True})
    result = await work
    assert [o["status"] for o in result.outcomes] == ["dismissed"]
