"""Benchmark of evaluate(): many scenarios against an OpenAI-compatible server that takes
200 ms per reply, one at a time and ten at a time.

    .venv/bin/python tests/bench/bench_evaluate.py [--quick]

The server is tests/unit/fake_llm_server.py on 127.0.0.1: every reply is streamed in 4 pieces
50 ms apart. Each scenario is one request (the person says "hi", the agent informs). Printed:
the wall time of 50 scenarios (10 with --quick) at concurrency 1 (serial) and 10, the speed-up,
and the CPU time the process spent (what one agent's client costs the event loop). Each
scenario makes its own OpenAIAgent, so its own client, as evaluate() requires (their TLS
context is shared: agents/_tls.py). Then the same at concurrency 10 with the server rate
limited: its first 10 answers are 429 with ``Retry-After: 0.4``, waited out and retried.

Prints figures; asserts nothing about time.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from dial_notebook import OpenAIAgent, evaluate  # noqa: E402
from dial_notebook.domains import NotesDomain  # noqa: E402
from tests.unit.fake_llm_server import Answer, FakeLLMServer, status  # noqa: E402

INFORM = '<dial version="0.1" actor="agent"><dial-inform>Hello.</dial-inform></dial>'


async def timed(server: FakeLLMServer, scenarios: int, concurrency: int) -> tuple[float, float]:
    """Wall and CPU seconds of ``scenarios`` one-request scenarios at ``concurrency``."""
    wall, cpu = time.perf_counter(), time.process_time()
    report = await evaluate(
        agent=lambda: OpenAIAgent(model="m", base_url=server.url + "/v1", api_key="sk-bench"),
        domain=NotesDomain, concurrency=concurrency,
        scenarios=[{"name": f"s{i}", "say": ["hi"]} for i in range(scenarios)])
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    if report.passed != scenarios:
        raise SystemExit(f"only {report.passed} of {scenarios} scenarios passed:\n"
                         + report.summary())
    return wall, cpu


async def main(quick: bool) -> None:
    scenarios = 10 if quick else 50
    with FakeLLMServer() as server:
        server.default = Answer(text=INFORM, chunks=4, delay=0.05)  # 200 ms a reply
        serial, serial_cpu = await timed(server, scenarios, 1)
        wide, wide_cpu = await timed(server, scenarios, 10)
        server.plan(*[status(429, retry_after="0.4") for _ in range(10)])
        before = len(server.requests)
        limited, _ = await timed(server, scenarios, 10)  # raises unless every scenario passed
        requests = len(server.requests) - before
    print(f"{scenarios} scenarios, 200 ms a reply, each its own agent and client")
    print(f"  concurrency  1: {serial:6.2f} s wall, {serial_cpu:5.2f} s CPU "
          f"({serial / scenarios * 1000:.0f} ms a scenario)")
    print(f"  concurrency 10: {wide:6.2f} s wall, {wide_cpu:5.2f} s CPU")
    print(f"  speed-up: {serial / wide:.1f}x")
    print(f"  concurrency 10, first 10 answers 429 (Retry-After 0.4 s): {limited:6.2f} s wall, "
          f"{requests} requests, every scenario passed")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10 scenarios, not 50")
    asyncio.run(main(parser.parse_args().quick))
