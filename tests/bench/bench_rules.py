"""Benchmark of the person's rules: what checking a proposal against them costs the kernel, and
what a rule draft on a card costs (the earlier proposals it would have accepted).

    .venv/bin/python tests/bench/bench_rules.py [--quick]

Rules of the shape the card's editor makes (an object, each field exact, any of its type, or a
pattern) over a notes-like payload. Printed: the median time of ``Rules.match`` with 1, 10 and
100 rules (the last one matching, so every rule is tried), the time of a whole say whose 20
proposals a rule accepts, and of a draft over a conversation of 500 proposals.

Prints figures; asserts nothing about time.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from dial_notebook.domains import NotesDomain, Rules  # noqa: E402
from dial_notebook.runtime import Conversation, scripted_human  # noqa: E402
from dial_notebook.widget._rules import draft_answer  # noqa: E402


def schema(n: int) -> dict:
    return {"type": "object", "properties": {"text": {"type": "string", "pattern": f"^note {n} "}},
            "required": ["text"], "additionalProperties": False}


def median_ms(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def match_figures(runs: int) -> None:
    for count in (1, 10, 100):
        rules = Rules()
        for n in range(count):
            rules.add("add-note", schema(n))
        payload = {"text": f"note {count - 1} buy milk"}
        assert rules.match("add-note", payload) is not None
        ms = median_ms(lambda rules=rules, payload=payload: rules.match("add-note", payload), runs)
        print(f"match, {count:>3} rules (the last one fits): {ms:.3f} ms")


def say_figure() -> None:
    notes = NotesDomain()
    rules = Rules(domain=notes)
    rules.add("add-note", {"type": "object", "properties": {"text": {"type": "string"}},
                           "required": ["text"], "additionalProperties": False})
    suggests = "".join(f'<dial-suggest action="add-note"><dial-payload>{{"text": "n{i}"}}'
                       "</dial-payload></dial-suggest>" for i in range(20))
    replies = [f"<dial>{suggests}</dial>", "<dial></dial>"]
    conversation = Conversation(agent=lambda _: replies.pop(0), domain=notes,
                                human=scripted_human([]), rules=rules)
    started = time.perf_counter()
    result = asyncio.run(conversation.say("add twenty"))
    ms = (time.perf_counter() - started) * 1000
    accepted = sum(1 for o in result.outcomes if o.get("rule"))
    print(f"a say of 20 proposals a rule accepts: {ms:.1f} ms ({accepted} accepted by the rule)")


def draft_figure(proposals: int, runs: int) -> None:
    transcript = [{"type": "suggestion", "id": f"s{i}", "action": "add-note",
                   "payload": {"text": f"note {i % 7} item"}, "preview": f"Add note {i}"}
                  for i in range(proposals)]
    answer = {}

    def draft() -> None:
        answer.update(draft_answer(schema(3), "add-note", "card", {"text": "note 3 x"},
                                   transcript, check_action=lambda _: None))

    ms = median_ms(draft, runs)
    print(f"a rule draft over {proposals} earlier proposals: {ms:.2f} ms "
          f"({answer['total']} would have been accepted)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer runs (for the test suite)")
    args = parser.parse_args()
    runs = 20 if args.quick else 200
    match_figures(runs)
    say_figure()
    draft_figure(100 if args.quick else 500, 5 if args.quick else 20)


if __name__ == "__main__":
    main()
