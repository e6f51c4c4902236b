"""Benchmark: validating a 10,000-row payload against its schema (prints times, asserts none).

    .venv/bin/python tests/bench/bench_domains.py [--quick]

``--quick`` (used by the test that checks every benchmark still runs) times each case once.

Compares SchemaDomain.validate (depth check, safe keywords, readable refusal) with plain
jsonschema on the same schema, for a valid payload and for one with an error every 100 rows.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import jsonschema

from dial_notebook.domains import SchemaDomain

ROWS = 10_000
REPEATS = 5

ROW = {
    "type": "object",
    "properties": {
        "id": {"type": "integer", "minimum": 1},
        "region": {"enum": ["North", "South", "East", "West"]},
        "sku": {"type": "string", "pattern": "^[A-Z]{3}-\\d{4}$"},
        "price": {"type": "number", "exclusiveMinimum": 0},
        "units": {"type": "integer", "minimum": 0, "maximum": 1000},
        "date": {"type": "string", "format": "date"},
    },
    "required": ["id", "region", "sku", "price", "units", "date"],
    "additionalProperties": False,
}
SCHEMA = {
    "type": "object",
    "properties": {"rows": {"type": "array", "items": ROW, "maxItems": 20_000}},
    "required": ["rows"],
    "additionalProperties": False,
}


def payload(*, broken_every: int = 0) -> dict[str, Any]:
    regions = ["North", "South", "East", "West"]
    rows = []
    for i in range(1, ROWS + 1):
        row = {
            "id": i,
            "region": regions[i % 4],
            "sku": f"ABC-{i % 10_000:04d}",
            "price": 1.5 + i % 7,
            "units": i % 50,
            "date": f"2024-{i % 12 + 1:02d}-15",
        }
        if broken_every and i % broken_every == 0:
            row["units"] = -1
        rows.append(row)
    return {"rows": rows}


def timed(function: Callable[[], object], repeats: int) -> tuple[float, float]:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        function()
        times.append(time.perf_counter() - started)
    return min(times), statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="time each case once")
    repeats = 1 if parser.parse_args().quick else REPEATS
    domain = SchemaDomain("bench")
    domain.add_action("load-rows", schema=SCHEMA)
    plain = jsonschema.Draft202012Validator(
        SCHEMA, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
    )
    valid, broken = payload(), payload(broken_every=100)
    assert domain.validate("load-rows", valid) == {"ok": True}
    verdict = domain.validate("load-rows", broken)
    print(f"{ROWS} rows × {len(ROW['properties'])} fields, best / median of {repeats} runs")
    print(f"  refusal: field={verdict['field']!r}, {len(verdict['errors'])} errors listed")
    print(f"  hint: {verdict['hint']}")
    cases = [
        ("SchemaDomain.validate, valid", lambda: domain.validate("load-rows", valid)),
        ("SchemaDomain.validate, 100 errors", lambda: domain.validate("load-rows", broken)),
        ("plain jsonschema, valid", lambda: list(plain.iter_errors(valid))),
        ("plain jsonschema, 100 errors", lambda: list(plain.iter_errors(broken))),
    ]
    for label, function in cases:
        best, median = timed(function, repeats)
        print(f"  {label:<36} {best * 1000:8.1f} ms   {median * 1000:8.1f} ms")


if __name__ == "__main__":
    main()
