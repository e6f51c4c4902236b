"""Replies a hostile agent sends to take the kernel's time, each with the domain it aims at.

Shared by ``tests/unit/test_hostile_kernel_time.py`` (every reply is handled, and refused for the
right reason) and ``tests/bench/bench_hostile.py`` (how long each one holds the kernel; the goal
is under two seconds for any of them, whatever the schema).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
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
