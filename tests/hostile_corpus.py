"""Replies a hostile agent sends to take the kernel's time, each with the domain it aims at;
and hostile files (a session, a saved report, a scenario YAML) made to do the same.

Shared by ``tests/unit/test_hostile_kernel_time.py`` (every reply is handled, and refused for the
right reason), ``tests/unit/test_hostile_files.py`` (no file holds the kernel) and
``tests/bench/bench_hostile.py`` (how long each one holds the kernel; the goal is under two
seconds for any of them, whatever the schema).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from dial_notebook.dial import MAX_REPLY_CHARS
from dial_notebook.domains import DataFramesDomain, SchemaDomain, load_sales

EVIL_PATTERN = "^(a|aa)+$"  # exponential backtracking on "aaa…!"
ENUM = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa"]


@dataclass(frozen=True)
class Case:
    """One attack: the domain it aims at, the reply, and the outcome codes it must end with."""

    name: str
    domain: Callable[[], Any]
    reply: str
    #: Every outcome's code must be one of these (None: an outcome without code is fine).
    codes: frozenset[str | None]


def envelope(*elements: str) -> str:
    return '<dial version="0.1" actor="agent">' + "".join(elements) + "</dial>"


def suggest(action: str, payload: Any, n: int = 0) -> str:
    body = json.dumps(payload).replace("&", "&amp;").replace("<", "&lt;")
    return (f'<dial-suggest id="h{n}" action="{action}">'
            f'<dial-payload type="application/json">{body}</dial-payload></dial-suggest>')


def one_action(schema: dict[str, Any], *, name: str = "take") -> Callable[[], SchemaDomain]:
    def make() -> SchemaDomain:
        domain = SchemaDomain("hostile")
        domain.add_action(name, schema=schema, run=lambda payload: {"ok": True})
        return domain
    return make


def field(schema: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": {"value": schema}}


class SlowValidation:
    """A hand-written domain whose validate takes half a second, whatever it is given."""

    actions: ClassVar[dict[str, Any]] = {"take": {"mutates": True}}

    def validate(self, action: str, payload: Any) -> dict[str, Any]:
        time.sleep(0.5)
        return {"ok": True}

    def run(self, action: str, payload: Any) -> Any:
        return None


def frames() -> DataFramesDomain:
    return DataFramesDomain({"sales": load_sales()})


REFUSED = frozenset({"invalid-payload", "time-budget"})

CASES = [
    Case("20 payloads against a catastrophic pattern, one reply",
         one_action(field({"type": "string", "pattern": EVIL_PATTERN})),
         envelope(*(suggest("take", {"value": "a" * 40 + "!"}, n) for n in range(20))), REFUSED),
    Case("400 KB column name, did-you-mean against 100 columns",
         one_action(field({"enum": [f"column_{n}" for n in range(100)]})),
         envelope(suggest("take", {"value": "column_" * 57_000})), REFUSED),
    Case("3.9 MB string against a 10-value enum",
         one_action(field({"enum": ENUM})),
         envelope(suggest("take", {"value": "x" * 3_900_000})), REFUSED),
    Case("200,000 unexpected keys",
         one_action({"type": "object", "properties": {"x": {}}, "additionalProperties": False}),
         envelope(suggest("take", {f"key{n}": 1 for n in range(200_000)})), REFUSED),
    Case("300 KB iri", one_action(field({"type": "string", "format": "iri"})),
         envelope(suggest("take", {"value": "http://example.org/" + "P1Y" * 100_000 + "%"})),
         REFUSED),
    Case("20 KB iri-reference × 20",
         one_action(field({"type": "string", "format": "iri-reference"})),
         envelope(*(suggest("take", {"value": "P1Y" * 7_000 + "%"}, n) for n in range(20))),
         REFUSED),
    Case("1 MB uri-template", one_action(field({"type": "string", "format": "uri-template"})),
         envelope(suggest("take", {"value": "{a" * 500_000})), REFUSED),
    Case("1 MB regex to compile", one_action(field({"type": "string", "format": "regex"})),
         envelope(suggest("take", {"value": "(a|b)*c" * 150_000})), REFUSED),
    Case("every branch of anyOf is false", one_action(field({"anyOf": [False, False]})),
         envelope(suggest("take", {"value": 1})), frozenset({"invalid-payload"})),
    Case("120,000 rows against an object schema",
         one_action({"type": "array", "items": {
             "type": "object", "properties": {"id": {"type": "integer"},
                                              "name": {"type": "string", "minLength": 1}},
             "required": ["id", "name"]}}),
         envelope(suggest("take", [{"id": n, "name": "n"} for n in range(120_000)])), REFUSED),
    Case("a validate that takes 0.5 s, 20 times", SlowValidation,
         envelope(*(suggest("take", {}, n) for n in range(20))), frozenset({None, "time-budget"})),
    Case("unknown frame and column names of 400 KB", frames,
         envelope(suggest("describe", {"frame": "sales", "columns": ["p" * 400_000]}),
                  suggest("describe", {"frame": "s" * 400_000})),
         REFUSED | {"unknown-column", "unknown-frame"}),
    Case("a reply over the parser's limit", one_action(field({})),
         "<dial>" + "x" * (MAX_REPLY_CHARS + 1) + "</dial>", frozenset()),
]


# -- files -----------------------------------------------------------------------------------------

BARS = {"$schema": "https://vega.github.io/schema/vega-lite/v5.json",
        "data": {"values": [{"fruit": "apple", "n": 3}, {"fruit": "pear", "n": 5}]},
        "mark": "bar", "encoding": {"x": {"field": "fruit", "type": "nominal"},
                                    "y": {"field": "n", "type": "quantitative"}}}


def hostile_session(folder: Path, events: int, *, depth: int = 250) -> Path:
    """A session file (unsigned, as one from someone else is) with ``events`` informs of 4 KB,
    a chart every 100 of them, and a payload ``depth`` levels deep (the reader refuses more
    than 256); in the format ``ChatWidget(session=…)`` saves."""
    text = "word " * 800
    transcript: list[dict[str, Any]] = [{"type": "sent", "turn": 1, "message": "go"}]
    for n in range(events):
        transcript.append({"type": "inform", "text": f"{n} {text}", "act": "inform"})
        if n % 100 == 0:
            transcript.append({"type": "inform", "text": "", "act": "inform",
                               "render": "chart", "payload": BARS})
    transcript.append({"type": "inform", "text": "deep", "act": "inform", "payload": "DEEP"})
    session = {"format": "dial-notebook/conversation", "version": 1,
               "saved_at": "2026-01-01T00:00:00+00:00", "full_dial": True,
               "transcript": transcript, "owed": {"outcomes": [], "words": []},
               "context": {}, "presence": {}, "ids": {"suggestions": 0, "asks": 0,
                                                      "executes": 0, "delegations": 0,
                                                      "replies": 1},
               "running": [], "say": None, "pending": None,
               "surface": {"entries": [], "usage": {}, "unsent": "", "title": "", "rules": []}}
    path = folder / "hostile-session.json"
    deep = "[" * depth + '"x"' + "]" * depth
    path.write_text(json.dumps(session).replace('"DEEP"', deep))
    return path


def hostile_report(folder: Path, scenarios: int) -> Path:
    """A saved evaluation report whose every scenario carries 100 events of 2 KB (about
    200 KB a scenario; the reader takes files up to 20 MB)."""
    events = [{"type": "inform", "text": "x" * 2_000, "act": "inform"}] * 100
    results = [{"name": f"s{n}", "status": "idle", "turns": 1, "seconds": 0.1, "passed": True,
                "tokens": None, "error": None, "reasons": [], "proposals": [],
                "transcript": events, "lint": [], "outcomes": []} for n in range(scenarios)]
    report = {"format": "dial-notebook-evaluation", "version": 1, "passed": scenarios,
              "failed": 0, "actions": {}, "scenarios": results}
    path = folder / "hostile-report.json"
    path.write_text(json.dumps(report))
    return path


def billion_laughs(folder: Path) -> Path:
    """A scenario YAML whose aliases expand to 10^9 things to say."""
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    lines += [f"a{n}: &a{n} [" + ", ".join([f"*a{n - 1}"] * 10) + "]" for n in range(1, 9)]
    lines.append("scenarios:\n- name: laughs\n  say: *a8\n  expect: {actions: *a8}")
    path = folder / "laughs.yaml"
    path.write_text("\n".join(lines) + "\n")
    return path


def misspelt_reply(size: int) -> str:
    """A reply of about ``size`` characters of misspelt DIAL tags (every one a lint finding)."""
    piece = "<dial-infrom>a note</dial-infrom><dial-sugest action='x'>y</dial-sugest>"
    return envelope(piece * (size // len(piece)))
