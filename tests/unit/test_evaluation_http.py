"""evaluate() against a real HTTP agent: OpenAIAgent talking to the fake OpenAI-compatible
server on 127.0.0.1 (tests/unit/fake_llm_server.py). A 429 with Retry-After is waited out
and the scenario still passes; every scenario's agent is closed after it, so no connection is
left open; many scenarios share the server at once."""

from __future__ import annotations

import time

import pytest

from dial_notebook import OpenAIAgent, evaluate
from dial_notebook.domains import NotesDomain

from .fake_llm_server import Answer, FakeLLMServer, reply, status

PROPOSE = ('<dial version="0.1" actor="agent"><dial-suggest id="s1" action="add-note">'
           "Add it?<dial-payload type=\"application/json\">{\"text\": \"milk\"}</dial-payload>"
           "</dial-suggest></dial>")
THANKS = '<dial version="0.1" actor="agent"><dial-inform>Added.</dial-inform></dial>'


@pytest.fixture
def server():
    with FakeLLMServer() as fake:
        yield fake


def agent_for(server: FakeLLMServer):
    return lambda: OpenAIAgent(model="m", base_url=server.url + "/v1", api_key="sk-test",
                               max_retries=3)


async def test_a_429_with_retry_after_is_waited_out_and_the_scenario_passes(server):
    server.plan(status(429, retry_after="0.4"), reply(PROPOSE), reply(THANKS))
    started = time.monotonic()
    report = await evaluate(agent=agent_for(server), domain=NotesDomain, scenarios=[
        {"name": "add", "say": ["add milk"], "expect": {"actions": ["add-note"]}}])
    waited = time.monotonic() - started
    [result] = report.scenarios
    assert (result.status, result.passed, result.reasons) == ("idle", True, [])
    assert [o["status"] for o in result.outcomes] == ["done"]
    assert len(server.requests) == 3  # the refused one, then the two turns
    assert waited >= 0.4  # the server's Retry-After, honoured
    assert result.tokens == {"input": 20, "output": 20, "total": 40}


async def test_a_rate_limit_that_does_not_end_fails_that_scenario_only(server):
    server.plan(*(status(429, retry_after="0") for _ in range(4)))  # 1 try + 3 retries
    report = await evaluate(agent=agent_for(server), domain=NotesDomain, concurrency=1,
                            scenarios=[{"name": "limited", "say": ["hi"]},
                                       {"name": "fine", "say": ["hi"]}])
    limited, fine = report.scenarios
    assert (limited.status, limited.passed) == ("error", False)
    assert limited.reasons == [f"the scenario raised {limited.error}"]
    assert limited.error.startswith("AgentError: Rate limited by ")
    assert "(429), still after 3 retries" in limited.error
    assert [e["type"] for e in limited.transcript] == ["sent"]  # what it had got to
    assert (fine.status, fine.passed) == ("idle", True)
    assert len(server.requests) == 5


async def test_every_scenarios_agent_is_closed_after_it(server):
    server.default = Answer(text=THANKS, delay=0.02)
    report = await evaluate(agent=agent_for(server), domain=NotesDomain, concurrency=4,
                            scenarios=[{"name": f"s{i}", "say": ["hi"]} for i in range(8)])
    assert [r.status for r in report.scenarios] == ["idle"] * 8
    assert server.wait_for("closed", server.connections) == server.connections
