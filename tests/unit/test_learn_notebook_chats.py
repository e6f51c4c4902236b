"""Issue 32, done when, for the analysis notebooks' chats: a session recorded with the offline
agent on the EDA notebook's requests (eda-assistant.ipynb on DataFramesDomain, eda-at-scale.ipynb
on TablesDomain), replayed with recorded_human against the same agent, agrees with the person
on every decision (the notes and todo chats: test_learn_replay.py)."""

from __future__ import annotations

from typing import Any

import pytest

from dial_notebook import DataFramesDomain, DemoAgent, load_sales
from dial_notebook.evaluation import Scenario, replay_decisions
from dial_notebook.widget import ChatWidget

from .test_learn_replay import record

#: The EDA notebook's requests, each decided as a person might.
STEPS: list[tuple[str, list[dict[str, Any]]]] = [
    ("filter sales where region is north", [{"decision": "accept"}]),
    ("add a column revenue = price * units", [{"decision": "dismiss",
                                               "reason": "I keep revenue elsewhere"}]),
    ("sort sales by price descending", [{"decision": "accept"}]),
    ("describe sales", []),
]


async def _agrees(make_domain: Any, tmp_path: Any) -> None:
    path = tmp_path / "eda.json"
    domain = make_domain()
    chat = ChatWidget(agent=DemoAgent(domain), domain=domain, session=path)
    await record(chat, STEPS)
    chat.close()
    scenario = Scenario.from_session(path)
    kinds = [(d["kind"], d["action"]) for d in scenario.expect.decisions]
    assert kinds == [("accepted", "filter-rows"), ("dismissed", "add-column"),
                     ("accepted", "sort")]
    report = await replay_decisions(agent=lambda: DemoAgent(make_domain()),
                                    domain=make_domain, sessions=[scenario])
    assert report.passed == 1, report.summary()
    assert report.disagreements() == {}
    assert "agrees with the person on 3 of 3 decisions" in report.summary()


async def test_the_eda_assistant_chat_replayed_agrees_on_every_decision(tmp_path):
    await _agrees(lambda: DataFramesDomain({"sales": load_sales()}), tmp_path)


@pytest.mark.engine
async def test_the_eda_at_scale_chat_replayed_agrees_on_every_decision(tmp_path):
    from dial_notebook.domains.tables import TablesDomain

    await _agrees(lambda: TablesDomain({"sales": load_sales()}), tmp_path)
