"""The runtime's run limit (``run_timeout``) does not count the time the person spends
answering a question a running action put to them through ``ask_user``: the run's clock
(dial_notebook/_clock.py) is paused while the question waits. Everything else the run does,
before and after the question, still counts."""

from __future__ import annotations

import asyncio
import contextvars
import threading
from typing import Any, ClassVar

import pytest

from dial_notebook._clock import Clock, current_clock, person_answering, timed_by
from dial_notebook.interaction import Answer, AnswerItem, ask_user, use_provider
from dial_notebook.runtime import Conversation, policy_human

from .runtime_doubles import ScriptedAgent, dial, inform, suggest

LIMIT = 0.2  # the run's time limit in these tests
SLOW = 0.45  # the person takes longer than the whole limit to answer
QUESTION = [{"id": "go", "question": "Go on?", "options": ["Yes", "No"]}]


class Person:
    """A provider that answers Yes after ``seconds`` (the person thinking)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.asked = 0

    async def ask(self, request: Any) -> Answer:
        self.asked += 1
        await asyncio.sleep(self.seconds)
        return Answer((AnswerItem("go", ("Yes",)),))


class Asks:
    """'check' works ``before`` seconds, asks the person (unless ``asks`` is False), then
    works ``after`` seconds."""

    actions: ClassVar[dict[str, Any]] = {"check": {"mutates": False}}

    def __init__(self, before: float, after: float, *, asks: bool = True) -> None:
        self.before, self.after, self.asks = before, after, asks

    async def run(self, action: str, payload: Any) -> Any:
        await asyncio.sleep(self.before)
        said = None
        if self.asks:
            said = (await ask_user(QUESTION))["go"].selected[0]
        await asyncio.sleep(self.after)
        return {"said": said}


async def outcome_of(domain: Any, person: Person) -> dict[str, Any]:
    agent = ScriptedAgent([dial(suggest("check", {})), dial(inform("ok"))])
    conversation = Conversation(agent=agent, domain=domain, human=policy_human(),
                                run_timeout=LIMIT)
    with use_provider(person):
        result = await asyncio.wait_for(conversation.say("check"), 10)
    [outcome] = [o for o in result.outcomes if o["id"] == "sg-1"]
    return outcome


# The run limit and the person's answer


@pytest.mark.timeout(10)
async def test_a_question_answered_after_the_run_limit_does_not_time_the_run_out():
    person = Person(SLOW)
    outcome = await outcome_of(Asks(0.02, 0.02), person)
    assert person.asked == 1
    assert (outcome["status"], outcome["result"]) == ("done", {"said": "Yes"})


@pytest.mark.timeout(10)
async def test_a_run_that_works_past_its_limit_without_asking_still_times_out():
    outcome = await outcome_of(Asks(SLOW, 0, asks=False), Person(0))
    assert (outcome["status"], outcome["code"]) == ("failed", "timeout")
    assert outcome["hint"].startswith("It was stopped")


@pytest.mark.timeout(10)
async def test_the_time_before_and_after_a_quick_answer_both_count():
    # 0.12 s before the question + 0.15 s after: past 0.2 s, the quick answer aside
    outcome = await outcome_of(Asks(0.12, 0.15), Person(0.01))
    assert (outcome["status"], outcome["code"]) == ("failed", "timeout")


@pytest.mark.timeout(10)
async def test_the_time_before_and_after_a_slow_answer_both_count():
    # the clock resumes with what was left before the question, not a fresh limit
    outcome = await outcome_of(Asks(0.12, 0.15), Person(SLOW))
    assert (outcome["status"], outcome["code"]) == ("failed", "timeout")


@pytest.mark.timeout(10)
async def test_a_question_asked_on_the_runs_loop_from_elsewhere_in_its_context_is_not_counted():
    # as McpDomain does: the question travels through another loop and is asked back on
    # the run's loop, in the run's context
    class Relays(Asks):
        async def run(self, action: str, payload: Any) -> Any:
            loop, context = asyncio.get_running_loop(), contextvars.copy_context()
            elsewhere = asyncio.new_event_loop()
            thread = threading.Thread(target=elsewhere.run_forever, daemon=True)
            thread.start()

            async def relayed() -> Any:
                future = context.copy().run(asyncio.run_coroutine_threadsafe,
                                            ask_user(QUESTION), loop)
                return await asyncio.wrap_future(future)

            try:
                answer = await asyncio.wrap_future(
                    asyncio.run_coroutine_threadsafe(relayed(), elsewhere))
            finally:
                elsewhere.call_soon_threadsafe(elsewhere.stop)
                await asyncio.to_thread(thread.join)
                elsewhere.close()
            return {"said": answer["go"].selected[0]}

    outcome = await outcome_of(Relays(0, 0), Person(SLOW))
    assert (outcome["status"], outcome["result"]) == ("done", {"said": "Yes"})


@pytest.mark.timeout(10)
async def test_a_blocking_run_that_asks_on_the_loop_is_not_timed_out_by_the_answer():
    class Blocking:
        actions: ClassVar[dict[str, Any]] = {"check": {"mutates": False}}

        def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
            self.loop = loop

        def run(self, action: str, payload: Any) -> Any:  # on a worker thread
            answer = asyncio.run_coroutine_threadsafe(ask_user(QUESTION), self.loop).result(5)
            return {"said": answer["go"].selected[0]}

    outcome = await outcome_of(Blocking(asyncio.get_running_loop()), Person(SLOW))
    assert (outcome["status"], outcome["result"]) == ("done", {"said": "Yes"})


@pytest.mark.timeout(10)
async def test_a_blocking_run_that_asks_on_a_loop_of_its_own_is_not_timed_out_by_the_answer():
    class OwnLoop:
        actions: ClassVar[dict[str, Any]] = {"check": {"mutates": False}}

        def run(self, action: str, payload: Any) -> Any:  # on a worker thread
            answer = asyncio.run(ask_user(QUESTION))
            return {"said": answer["go"].selected[0]}

    outcome = await outcome_of(OwnLoop(), Person(SLOW))
    assert (outcome["status"], outcome["result"]) == ("done", {"said": "Yes"})


async def test_the_runs_clock_is_not_left_in_the_callers_context():
    await outcome_of(Asks(0, 0), Person(0))
    assert current_clock() is None


# The clock


async def test_a_paused_clock_does_not_expire_and_resumes_with_the_time_that_was_left():
    loop = asyncio.get_running_loop()
    clock = Clock(0.1)
    with pytest.raises(TimeoutError):
        async with asyncio.timeout(0.1) as bound:
            clock.start(bound)
            await asyncio.sleep(0.04)
            clock.pause()
            await asyncio.sleep(0.2)  # past the bound: paused, so nothing happens
            paused_until = loop.time()
            clock.resume()
            await asyncio.sleep(1)
    assert 0.04 <= loop.time() - paused_until < 0.2  # about the 0.06 s that were left


async def test_pauses_nest_the_clock_runs_again_only_when_the_last_one_ends():
    clock = Clock(0.05)
    async with asyncio.timeout(0.05) as bound:
        clock.start(bound)
        clock.pause()
        clock.pause()
        clock.resume()  # one pause still holds it
        await asyncio.sleep(0.15)
        clock.resume()
        assert bound.when() is not None
    with pytest.raises(TimeoutError):
        async with asyncio.timeout(0.05) as bound:
            clock = Clock(0.05)
            clock.start(bound)
            clock.pause()
            clock.resume()
            await asyncio.sleep(0.3)


async def test_a_clock_paused_before_it_started_starts_paused():
    clock = Clock(0.05)
    clock.pause()
    async with asyncio.timeout(0.05) as bound:
        clock.start(bound)
        await asyncio.sleep(0.15)  # paused from the start
        clock.resume()
    assert clock.paused is False


async def test_person_answering_pauses_the_clock_of_the_context_it_is_in_and_nests():
    clock = Clock(0.05)
    with timed_by(clock):
        assert current_clock() is clock
        async with asyncio.timeout(0.05) as bound:
            clock.start(bound)
            with person_answering():
                with person_answering():
                    await asyncio.sleep(0.1)
                assert clock.paused
                await asyncio.sleep(0.1)
            assert not clock.paused
    assert current_clock() is None


async def test_person_answering_without_a_clock_does_nothing():
    assert current_clock() is None
    with person_answering(), person_answering():
        await asyncio.sleep(0)
    assert current_clock() is None


async def test_a_clock_without_a_limit_is_never_rescheduled():
    clock = Clock(None)
    async with asyncio.timeout(None) as bound:
        clock.start(bound)
        with timed_by(clock), person_answering():
            await asyncio.sleep(0)
        assert bound.when() is None
