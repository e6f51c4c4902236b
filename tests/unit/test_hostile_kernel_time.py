"""A hostile agent against the kernel's time: no reply holds it for long, whatever the schema.

Each reply of the corpus (tests/hostile_corpus.py) is handled to its end and every proposal in
it is refused for a reason the agent can act on; how long each one takes is the benchmark's to
report (tests/bench/bench_hostile.py). The time limit on each test is what "never hangs" means
here: before these fixes the same replies took from 20 seconds to hours.
"""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar

import pytest

from dial_notebook.domains import SchemaDomain
from dial_notebook.runtime import REPLY_SECONDS, Conversation, policy_human, scripted_human

from ..hostile_corpus import CASES, EVIL_PATTERN, envelope, field, one_action, suggest
from .runtime_doubles import ScriptedAgent


@pytest.mark.timeout(60)
@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
async def test_a_hostile_reply_is_handled_and_every_proposal_refused_for_a_reason(case):
    agent = ScriptedAgent([case.reply, envelope(), envelope()])
    conversation = Conversation(agent=agent, domain=case.domain(), human=policy_human("dismiss"))
    result = await conversation.say("go")
    assert result.status == "idle"
    codes = {o.get("code") for o in result.outcomes}
    assert codes <= case.codes, [o.get("hint") for o in result.outcomes]
    # what the agent is told (and the person sees) stays short, whatever the payload was
    assert all(len(str(o.get("hint", ""))) < 1000 for o in result.outcomes)
    assert len(agent.received[-1]) < 20_000


async def test_the_budget_is_shared_by_the_whole_reply_so_later_proposals_go_unchecked():
    make = one_action(field({"type": "string", "pattern": EVIL_PATTERN}))
    reply = envelope(*(suggest("take", {"value": "a" * 40 + "!"}, n) for n in range(20)))
    conversation = Conversation(agent=ScriptedAgent([reply, envelope()]), domain=make(),
                                human=policy_human("dismiss"))
    result = await conversation.say("go")
    codes = [o["code"] for o in result.outcomes]
    assert len(codes) == 20 and set(codes) == {"invalid-payload", "time-budget"}
    assert codes.index("time-budget") <= REPLY_SECONDS / 0.5  # a second each, at most
    unchecked = result.outcomes[-1]
    assert unchecked["status"] == "invalid"
    assert unchecked["hint"].startswith("Not checked: this reply already used the 1.5 s")


async def test_a_persons_edit_gets_a_budget_of_its_own():
    domain = SchemaDomain("d")
    domain.add_action("take", schema=field({"type": "string", "pattern": EVIL_PATTERN}),
                      run=lambda payload: {"took": payload["value"]})
    reply = envelope(*(suggest("take", {"value": "a" * 40 + "!"}, n) for n in range(4)),
                     suggest("take", {"value": "aa"}, 9))
    human = scripted_human([{"edit": {"value": "aaaa"}}])
    conversation = Conversation(agent=ScriptedAgent([reply, envelope()]), domain=domain,
                                human=human)
    result = await conversation.say("go")
    last = result.outcomes[-1]
    if last["status"] == "invalid":  # the reply's budget was spent before it: not shown
        assert last["code"] == "time-budget"
    else:
        assert (last["status"], last["result"], last["edited"]) == ("done", {"took": "aaaa"}, True)


# ---- a run that never returns -------------------------------------------------------------------

class Stuck:
    """A domain whose one action never returns (a blocking call with no timeout)."""

    actions: ClassVar[dict[str, Any]] = {"wait": {"mutates": True}}

    def __init__(self) -> None:
        import threading

        self.release = threading.Event()
        self.returned = False

    def run(self, action, payload):
        self.release.wait(30)
        self.returned = True
        return {"finally": True}


@pytest.mark.timeout(30)
async def test_a_run_that_never_returns_fails_with_a_timeout_and_the_turn_goes_on():
    domain = Stuck()
    agent = ScriptedAgent([envelope('<dial-suggest action="wait"/>'),
                           envelope("<dial-inform>ok</dial-inform>")])
    conversation = Conversation(agent=agent, domain=domain, human=policy_human("accept"),
                                run_timeout=0.3)
    loop = asyncio.get_running_loop()
    ticks = 0

    async def kernel_is_free():
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    ticker = asyncio.ensure_future(kernel_is_free())
    result = await conversation.say("wait")
    ticker.cancel()
    stuck_meanwhile = not domain.returned
    domain.release.set()
    (outcome,) = result.outcomes
    assert (outcome["status"], outcome["code"]) == ("failed", "timeout")
    assert outcome["error"] == "It did not finish within 0.3s"
    assert "may still be running" in outcome["hint"]
    assert result.turns == 2 and stuck_meanwhile  # the turn went on while the run was stuck
    assert ticks > 5  # the loop went on while the run was stuck on its thread
    assert loop.is_running()


@pytest.mark.timeout(30)
async def test_the_run_timeout_defaults_to_the_conversations_timeout():
    domain = Stuck()
    conversation = Conversation(agent=ScriptedAgent([envelope('<dial-suggest action="wait"/>'),
                                                     envelope()]),
                                domain=domain, human=policy_human("accept"), timeout=0.4)
    result = await conversation.say("wait")
    domain.release.set()
    assert result.outcomes[0]["code"] == "timeout"


@pytest.mark.timeout(30)
async def test_an_async_run_past_its_time_is_stopped_and_says_so():
    class Sleepy:
        actions: ClassVar[dict[str, Any]] = {"nap": {"mutates": False}}
        stopped = False

        async def run(self, action, payload):
            try:
                await asyncio.sleep(30)
            except asyncio.CancelledError:
                Sleepy.stopped = True
                raise

    conversation = Conversation(agent=ScriptedAgent([envelope('<dial-suggest action="nap"/>'),
                                                     envelope()]),
                                domain=Sleepy(), human=policy_human(), run_timeout=0.2)
    result = await conversation.say("nap")
    assert result.outcomes[0]["code"] == "timeout"
    assert result.outcomes[0]["hint"].startswith("It was stopped")
    assert Sleepy.stopped


def test_a_run_timeout_that_is_not_a_positive_number_is_refused():
    with pytest.raises(ValueError, match="run_timeout must be a positive number"):
        Conversation(agent=lambda m: "", domain=Stuck(), human=policy_human(), run_timeout=0)
