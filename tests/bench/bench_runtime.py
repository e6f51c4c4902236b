"""Benchmark of the runtime: turns per second, runtime overhead per turn, transcript memory.

    .venv/bin/python tests/bench/bench_runtime.py [--conversations N] [--quick]

The conversation: 8 turns, 3 suggestions a turn, an instant scripted agent, a policy human
that accepts, a trivial domain. "Overhead" is everything but the agent — composing messages,
outcome replies, parsing, the lifecycle of each suggestion, events — since the agent answers
at once. Prints figures; asserts nothing about time.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import platform
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from dial_notebook.dial import extract_prose, parse
from dial_notebook.runtime import Conversation, policy_human

TURNS = 8
PER_TURN = 3


class Domain:
    """Trivial: one mutating action, every payload valid."""

    def __init__(self) -> None:
        self.actions = {"add-note": {"mutates": True}}

    def validate(self, action, payload):
        return {"ok": True}

    def preview(self, action, payload):
        return f"Add the note '{payload['text']}'"

    def run(self, action, payload):
        return {"count": 1}

    def context(self):
        return '<context notes="1"/>'


def reply(turn: int) -> str:
    suggestions = "".join(
        f'<dial-suggest action="add-note">Add note {turn}.{i}?'
        f'<dial-payload type="application/json">{{"text": "note {turn}.{i}"}}</dial-payload>'
        f"</dial-suggest>"
        for i in range(PER_TURN)
    )
    return (f'Here are three more.\n<dial version="0.1" actor="agent">'
            f"<dial-inform>Turn {turn}.</dial-inform>{suggestions}</dial>")


REPLIES = [reply(t) for t in range(1, TURNS + 1)]


class InstantAgent:
    def __init__(self) -> None:
        self.turn = 0

    async def send(self, message: str) -> str:
        text = REPLIES[self.turn % TURNS]
        self.turn += 1
        return text


class InstantSyncAgent(InstantAgent):
    def send(self, message: str) -> str:  # type: ignore[override]
        text = REPLIES[self.turn % TURNS]
        self.turn += 1
        return text


def conversation(agent=None, on_event=None) -> Conversation:
    return Conversation(agent=agent or InstantAgent(), domain=Domain(),
                        human=policy_human("accept"), on_event=on_event, max_turns=TURNS)


async def one_conversation(agent_class) -> int:
    result = await conversation(agent_class()).say("add notes")
    assert result.turns == TURNS and len(result.outcomes) == TURNS * PER_TURN
    return result.turns


async def time_conversations(n: int, agent_class) -> list[float]:
    """Seconds per turn, one figure per conversation."""
    per_turn = []
    for _ in range(n):
        start = time.perf_counter()
        turns = await one_conversation(agent_class)
        per_turn.append((time.perf_counter() - start) / turns)
    return per_turn


def time_parsing(n: int) -> float:
    """Seconds to parse one reply and extract its prose (a share of the per-turn figure)."""
    start = time.perf_counter()
    for i in range(n):
        text = REPLIES[i % TURNS]
        envelope = parse(text)
        assert envelope is not None and len(envelope.elements) == 1 + PER_TURN
        extract_prose(text)
    return (time.perf_counter() - start) / n


async def transcript_memory(events: int) -> tuple[int, int, int]:
    """(events, bytes held by the transcript, bytes of its JSON) for a long conversation."""
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    conv = conversation()
    while len(conv.transcript) < events:
        await conv.say("more")
    del conv.transcript[events:]
    gc.collect()
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    held = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    return len(conv.transcript), held, len(json.dumps(conv.transcript))


def describe(per_turn: list[float]) -> str:
    us = sorted(x * 1e6 for x in per_turn)
    median = statistics.median(us)
    p90 = us[int(len(us) * 0.9)]
    return (f"{1e6 / median:8.0f} turns/s   median {median:6.0f} µs/turn   "
            f"p90 {p90:6.0f} µs/turn   min {us[0]:6.0f} µs/turn")


async def main(n: int) -> None:
    print(f"Python {platform.python_version()} on {platform.machine()}, "
          f"{n} conversations of {TURNS} turns × {PER_TURN} suggestions "
          "(instant agent, accepting policy human, trivial domain)")
    await time_conversations(20, InstantAgent)  # warm up
    print(f"async agent           {describe(await time_conversations(n, InstantAgent))}")
    print(f"sync agent (thread)   "
          f"{describe(await time_conversations(max(n // 4, 10), InstantSyncAgent))}")
    parse_us = time_parsing(n * TURNS) * 1e6
    print(f"of which parse + extract_prose of one reply: {parse_us:.0f} µs")
    count, held, json_bytes = await transcript_memory(10_000)
    print(f"transcript of {count:,} events: {held / 1e6:.1f} MB held "
          f"({held / count:.0f} B/event), {json_bytes / 1e6:.1f} MB as JSON")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--conversations", type=int, default=500)
    parser.add_argument("--quick", action="store_true", help="30 conversations: a smoke run")
    args = parser.parse_args()
    asyncio.run(main(30 if args.quick else args.conversations))
