"""A hostile file against the kernel's time: opening one never holds the kernel for long.

A session file someone sent, a saved report, a scenario YAML are read on the kernel's thread
(a cell, a widget's constructor). Each async test here runs under the stall watchdog
(tests/conftest.py: it fails when the event loop is held past 2 s, less any wait for a CPU, and
names what held it); ``tests/bench/bench_hostile.py`` prints the figures, at larger sizes.
"""

from __future__ import annotations

import asyncio

import pytest

from dial_notebook.domains.notes import NotesDomain
from dial_notebook.evaluation import Report, load_scenarios
from dial_notebook.widget import ChatWidget

from ..hostile_corpus import billion_laughs, envelope, hostile_report, hostile_session


class Silent:
    def send(self, message: str) -> str:
        return envelope()


async def test_a_big_session_file_with_charts_and_a_deep_payload_opens_without_holding_the_loop(
        tmp_path, stall_watchdog):
    path = hostile_session(tmp_path, 2_000)  # 8 MB: 2,000 informs of 4 KB, 20 charts
    chat = ChatWidget(agent=Silent(), domain=NotesDomain(), session=path)
    assert len(chat.transcript) > 2_000
    assert chat.untrusted  # someone else's file: shown read-only
    await asyncio.sleep(0.05)  # the watchdog's heartbeat notes how long the opening held it
    assert stall_watchdog.beats > 0 and 0 < stall_watchdog.worst < 2


async def test_a_session_file_nested_past_the_readers_depth_is_refused_not_recursed(
        tmp_path, stall_watchdog):
    path = hostile_session(tmp_path, 10, depth=100_000)
    with pytest.raises(ValueError, match="nested more than 256 levels"):
        ChatWidget(agent=Silent(), domain=NotesDomain(), session=path)


async def test_a_big_saved_report_loads_without_holding_the_loop(tmp_path, stall_watchdog):
    report = Report.load(hostile_report(tmp_path, 40))  # 8 MB
    assert len(report.scenarios) == 40


async def test_a_billion_laughs_scenario_file_is_refused_before_it_expands(tmp_path,
                                                                           stall_watchdog):
    with pytest.raises(ValueError, match="anchors and aliases"):
        load_scenarios(billion_laughs(tmp_path))
