"""Promise 3 on tables: a run that reaches the engine never holds the kernel's event loop, and a
run cancelled (the runtime's ``run_timeout``, a cancelled task) stops the engine's query.

The slow query is a cross join of 10⁵ rows with themselves (10¹⁰ rows: minutes on DuckDB),
an Ibis table on the domain's backend. "The engine was stopped" is asserted as behaviour: the
next query, given a bound far shorter than the cross join, answers (one query of ours runs on a
backend at a time: it could not start while the cross join held the engine).
"""

from __future__ import annotations

import asyncio
import json
import time

import pytest

from dial_notebook import Conversation, policy_human
from dial_notebook.domains.tables import TablesDomain
from tests.stall_watchdog import watch_loop
from tests.tables_data import ENGINE_WARNINGS, sales_frame

pytestmark = [pytest.mark.engine, *ENGINE_WARNINGS]

ROWS = 10**5
#: The bound of a read in these tests: far longer than any test waits, so that only a cancel
#: (never this bound) can end the cross join in time.
QUERY_SECONDS = 600.0
#: The bound of the query that checks the engine is free again.
NEXT_QUERY_SECONDS = 20.0
#: Until ``runtime/_ports.py`` ``DomainPort`` awaits a domain's ``run_async`` when it has one
#: (one line: ``self._run = _method(domain, "run_async") or run``), a conversation runs the
#: sync ``run`` on a thread, which its ``run_timeout`` and Stop cannot cancel.


@pytest.fixture
def tables():
    import ibis

    backend = ibis.duckdb.connect()
    left = ibis.range(ROWS).unnest().name("a").as_table()
    right = ibis.range(ROWS).unnest().name("b").as_table()
    slow = left.cross_join(right).mutate(c=ibis._.a * ibis._.b)
    domain = TablesDomain({"small": sales_frame(), "slow": backend.create_view("slow", slow)},
                          backend=backend, dry_run_seconds=NEXT_QUERY_SECONDS,
                          count_seconds=QUERY_SECONDS, query_seconds=QUERY_SECONDS)
    yield domain
    from dial_notebook.domains.tables._bounded import _slot

    backend.con.interrupt()  # whatever a failing test left running, then its end awaited
    if _slot(backend).acquire(timeout=60):
        backend.disconnect()


def _suggest(action: str, payload: dict, sid: str = "s1") -> str:
    body = json.dumps(payload).replace("<", "\\u003c")
    return (f'<dial><dial-suggest id="{sid}" action="{action}"><dial-payload '
            f'type="application/json">{body}</dial-payload></dial-suggest></dial>')


class _Agent:
    """Proposes one action, then acknowledges whatever it is told."""

    def __init__(self, action: str, payload: dict) -> None:
        self.replies = [_suggest(action, payload)]

    async def send(self, message: str) -> str:
        if self.replies:
            return self.replies.pop(0)
        return "<dial><dial-acknowledge>Noted.</dial-acknowledge></dial>"


class _Ticker:
    """A coroutine on the same loop, ticking every 50 ms: the longest gap between two ticks."""

    def __init__(self) -> None:
        self.ticks = 0
        self.longest = 0.0

    async def run(self) -> None:
        last = time.perf_counter()
        while True:
            await asyncio.sleep(0.05)
            now = time.perf_counter()
            self.longest = max(self.longest, now - last)
            self.ticks += 1
            last = now


def _engine_is_free(tables: TablesDomain) -> bool:
    """Whether a small query answers within NEXT_QUERY_SECONDS (it waits for the engine)."""
    return sorted(tables.distinct_values("small", "region")) == ["East", "North", "South", "West"]


async def _say_while_ticking(talk: Conversation, words: str):
    ticker = _Ticker()
    ticking = asyncio.create_task(ticker.run())
    try:
        async with watch_loop(limit=2.0):
            result = await talk.say(words)
    finally:
        ticking.cancel()
    return result, ticker


async def test_a_run_past_run_timeout_never_held_the_loop(tables):
    talk = Conversation(agent=_Agent("describe", {"frame": "slow"}), domain=tables,
                        human=policy_human("accept"), timeout=30, run_timeout=2.0)
    result, ticker = await _say_while_ticking(talk, "describe slow")
    [outcome] = result.outcomes
    assert (outcome["status"], outcome["code"]) == ("failed", "timeout")
    assert ticker.ticks >= 20  # the ticks kept coming (watch_loop judges how long a hold was)


async def test_a_run_past_run_timeout_is_stopped_on_the_engine(tables):
    talk = Conversation(agent=_Agent("describe", {"frame": "slow"}), domain=tables,
                        human=policy_human("accept"), timeout=30, run_timeout=2.0)
    result, _ = await _say_while_ticking(talk, "describe slow")
    [outcome] = result.outcomes
    assert "stopped" in outcome["hint"]  # a task cancelled: not "may still be running"
    assert await asyncio.to_thread(_engine_is_free, tables)


async def test_an_accepted_change_past_run_timeout_is_stopped_and_changes_nothing(tables):
    before = tables.table("slow")
    where = [{"column": "c", "op": "==", "value": 7}]
    talk = Conversation(agent=_Agent("filter-rows", {"frame": "slow", "where": where}),
                        domain=tables, human=policy_human("accept"), timeout=30,
                        run_timeout=2.0)
    result, ticker = await _say_while_ticking(talk, "keep c equal to 7")
    [outcome] = result.outcomes
    assert (outcome["status"], outcome["code"]) == ("failed", "timeout")
    assert ticker.ticks >= 20  # the ticks kept coming (watch_loop judges how long a hold was)
    assert await asyncio.to_thread(_engine_is_free, tables)
    assert tables.table("slow") is before


async def test_stop_during_a_slow_read_stops_the_engines_query(tables):
    talk = Conversation(agent=_Agent("describe", {"frame": "slow"}), domain=tables,
                        human=policy_human("accept"), timeout=30, run_timeout=QUERY_SECONDS)
    saying = asyncio.create_task(talk.say("describe slow"))
    await asyncio.sleep(1.5)
    saying.cancel()  # what Stop does
    with pytest.raises(asyncio.CancelledError):
        await saying
    assert await asyncio.to_thread(_engine_is_free, tables)


async def test_a_fast_run_through_a_conversation_gives_its_result(tables):
    talk = Conversation(agent=_Agent("value-counts", {"frame": "small", "column": "region"}),
                        domain=tables, human=policy_human("accept"), timeout=30,
                        run_timeout=30.0)
    result, _ = await _say_while_ticking(talk, "count the regions")
    [outcome] = result.outcomes
    assert outcome["status"] == "done"
    assert outcome["result"]["table"]["rows"][0] == ["North", 12]


async def test_run_async_cancelled_interrupts_the_engine_and_the_next_query_works(tables):
    ticker = _Ticker()
    ticking = asyncio.create_task(ticker.run())
    try:
        async with watch_loop(limit=2.0):
            running = asyncio.create_task(tables.run_async("describe", {"frame": "slow"}))
            await asyncio.sleep(1.0)
            assert not running.done()  # the cross join is under way, the loop ticking
            running.cancel()
            with pytest.raises(asyncio.CancelledError):
                await running
    finally:
        ticking.cancel()
    assert ticker.ticks >= 10  # the ticks kept coming (watch_loop judges how long a hold was)
    assert await asyncio.to_thread(_engine_is_free, tables)


async def test_run_async_gives_the_same_result_as_run(tables):
    payload = {"frame": "small", "column": "product"}
    assert await tables.run_async("value-counts", payload) == tables.run("value-counts", payload)


async def test_run_async_raises_the_runs_error(tables):
    from dial_notebook import ActionError

    with pytest.raises(ActionError) as refused:
        await tables.run_async("head", {"frame": "nowhere"})
    assert refused.value.field == "frame"
