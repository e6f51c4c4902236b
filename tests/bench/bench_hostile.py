"""Benchmark: how long each hostile reply of the test corpus holds the kernel (asserts nothing).

    .venv/bin/python tests/bench/bench_hostile.py [--quick]

For every reply in ``tests/hostile_corpus.py`` (catastrophic patterns, huge "did you mean"
inputs, slow format checkers, 200,000 unexpected keys, a slow hand-written validate …) a
conversation handles it with a person who dismisses everything, and two figures are printed:

    handled   seconds from the reply arriving to the turn loop being done with it
    blocked   the longest stretch the event loop could not run anything else (the kernel
              could not process a click, a widget message or another cell's output)

The goal is under two seconds for each, whatever the schema. ``--quick`` is the same run (the
corpus is the point; each case runs once either way).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from dial_notebook.runtime import Conversation, policy_human
from tests.hostile_corpus import CASES, Case, envelope


class Agent:
    """Replies with the hostile text once, then with an empty envelope."""

    def __init__(self, reply: str) -> None:
        self.replies = [reply]
        self.arrived = 0.0

    async def send(self, message: str) -> str:
        if self.replies:
            self.arrived = time.perf_counter()
            return self.replies.pop()
        return envelope()


async def measure(case: Case) -> tuple[float, float]:
    agent = Agent(case.reply)
    conversation = Conversation(agent=agent, domain=case.domain(), human=policy_human("dismiss"),
                                max_turns=2)
    longest = 0.0

    async def ticker() -> None:
        nonlocal longest
        last = time.perf_counter()
        while True:
            await asyncio.sleep(0.005)
            now = time.perf_counter()
            longest = max(longest, now - last - 0.005)
            last = now

    tick = asyncio.ensure_future(ticker())
    await asyncio.sleep(0.02)
    task = asyncio.ensure_future(conversation.say("go"))
    done_at = 0.0

    def handled(event: dict) -> None:
        nonlocal done_at
        if event.get("type") == "sent" and event.get("turn") == 2:
            done_at = time.perf_counter()

    conversation._state.events._on_event = handled  # time the end of the first reply
    await task
    await asyncio.sleep(0.02)  # the ticker wakes, and sees how long it was kept waiting
    tick.cancel()
    end = done_at or time.perf_counter()
    return end - agent.arrived, longest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the same run (kept for the suite)")
    parser.parse_args()
    print(f"{len(CASES)} hostile replies, each handled once (goal: under 2 s each)")
    print(f"  {'reply':<58} {'handled':>9} {'blocked':>9}")
    worst = (0.0, "")
    for case in CASES:
        handled, blocked = asyncio.run(measure(case))
        worst = max(worst, (max(handled, blocked), case.name))
        print(f"  {case.name:<58} {handled:8.2f}s {blocked:8.2f}s")
    print(f"worst: {worst[0]:.2f} s ({worst[1]})")


if __name__ == "__main__":
    main()
