"""The stall watchdog (tests/stall_watchdog.py) itself: it catches a block and names its holder."""

from __future__ import annotations

import asyncio
import time

import pytest

from tests.stall_watchdog import (
    LoopWatch,
    held_seconds,
    runqueue_wait,
    watch_call,
    watch_loop,
)


def parse_forever_and_a_bit(seconds: float) -> None:
    """Stands for a parser that holds the loop (the name the failure must show)."""
    time.sleep(seconds)


async def test_a_block_past_the_limit_fails_and_names_the_function_that_held_the_loop() -> None:
    with pytest.raises(AssertionError) as failure:
        async with watch_loop(limit=0.2) as watch:
            await asyncio.sleep(0.03)
            parse_forever_and_a_bit(0.4)
            await asyncio.sleep(0.03)
    message = str(failure.value)
    assert "parse_forever_and_a_bit" in message
    assert "limit 0.20 s" in message
    assert watch.worst >= 0.35 and watch.blocks_over == 1
    assert "time.sleep(seconds)" in watch.stack


async def test_a_block_at_the_very_end_is_seen_too() -> None:
    with pytest.raises(AssertionError, match="parse_forever_and_a_bit"):
        async with watch_loop(limit=0.2):
            parse_forever_and_a_bit(0.4)


async def test_a_well_behaved_coroutine_passes_however_long_it_awaits() -> None:
    async with watch_loop(limit=0.2) as watch:
        for _ in range(5):
            parse_forever_and_a_bit(0.01)  # short holds are fine
            await asyncio.sleep(0.06)
    assert watch.worst < 0.2 and watch.beats > 0 and watch.stack == ""


async def test_time_the_loop_waited_for_a_cpu_is_the_machine_s_load_not_a_block() -> None:
    """A busy machine makes a block long in wall time; only the time the loop held is judged."""
    busy = {"waiting": False, "waited": 0.0}

    def waited(thread: int) -> float:  # a machine so busy the loop waited out the whole block
        return busy["waited"] + (time.perf_counter() if busy["waiting"] else 0.0)

    async with watch_loop(limit=0.2, waited=waited) as watch:
        await asyncio.sleep(0.03)
        busy["waited"], busy["waiting"] = -time.perf_counter(), True
        parse_forever_and_a_bit(0.4)
        busy["waited"], busy["waiting"] = busy["waited"] + time.perf_counter(), False
        await asyncio.sleep(0.03)
    assert watch.worst < 0.2 and watch.stack == ""


def test_held_seconds_counts_a_sleep_but_not_the_wait_for_a_cpu() -> None:
    _, seconds = held_seconds(lambda: parse_forever_and_a_bit(0.05))
    assert seconds >= 0.04
    assert runqueue_wait() >= 0.0


async def test_the_body_s_own_error_is_not_hidden_by_the_watchdog() -> None:
    with pytest.raises(KeyError):
        async with watch_loop(limit=0.2):
            raise KeyError("x")


async def test_a_test_lowers_its_limit_through_the_fixture(stall_watchdog: LoopWatch) -> None:
    stall_watchdog.limit = 5.0
    await asyncio.sleep(0.02)
    assert stall_watchdog.beats > 0  # the fixture's record is filled while the test runs


@pytest.mark.stall_watchdog(limit=0.2)
@pytest.mark.xfail(raises=AssertionError, strict=True,
                   reason="the watchdog must fail a marked test that holds its loop")
async def test_the_marker_fails_a_test_that_holds_its_loop() -> None:
    await asyncio.sleep(0.02)
    parse_forever_and_a_bit(0.4)


def test_a_synchronous_hold_past_the_limit_fails_and_names_the_function() -> None:
    with (pytest.raises(AssertionError, match="parse_forever_and_a_bit") as failure,
          watch_call(limit=0.2)):
        parse_forever_and_a_bit(0.4)
    assert "time.sleep(seconds)" in str(failure.value)
    with watch_call(limit=0.2) as watch:
        parse_forever_and_a_bit(0.01)
    assert watch.worst < 0.2


@pytest.mark.stall_watchdog(limit=0.2)
@pytest.mark.xfail(raises=AssertionError, strict=True,
                   reason="the watchdog must fail a marked synchronous test that holds its thread")
def test_the_marker_fails_a_synchronous_test_that_holds_its_thread() -> None:
    parse_forever_and_a_bit(0.4)
