"""Benchmark (issue 28): the demo's hand-written generators against Hypothesis' own.

    .venv/bin/python tests/bench/bench_demo_generators.py [--quick]

The offline demo agents make payloads from JSON Schemas (``PayloadMaker``, ``_schema_values.py``)
and strings from ``pattern``s (``from_pattern``, ``_pattern_strings.py``). Could
hypothesis-jsonschema's ``from_schema`` and Hypothesis' ``from_regex`` do it instead? Printed,
for the schemas the notebooks and tests use (notes, data frames, the schema demo tests' SCHEMAS,
the JSON-Schema-Test-Suite's object schemas that have a valid case):

- coverage: schemas each side makes a payload the domain accepts for, refuses, or fails on;
- time per payload (one payload, as the demo makes it: strategy built and one value drawn);
- plausibility: sample payloads of three schemas, and the share of "noisy" values (strings with
  a character outside printable ASCII, integers beyond ±1000, dates outside 1990–2100);
- determinism: a digest of every payload from two processes with different PYTHONHASHSEED
  (Hypothesis is drawn through ``@given`` with ``derandomize=True``, its public way to be
  repeatable; ``strategy.example()`` is not, and warns);
- weight: what Hypothesis would add to the base install, and the time to import it.

hypothesis-jsonschema is not a dependency: without it, its side says so (``pip install
hypothesis-jsonschema`` in another environment to measure it). Prints figures; asserts nothing.

What it showed (Dec 2026, 432 schemas, 38 patterns), so the hand-written generators stay:
hypothesis-jsonschema 0.23.1 fails on every object schema with Hypothesis >= 6.170.10 (it uses
Hypothesis' private ``many().more()``); with Hypothesis 6.150 it makes 404 accepted payloads
against 419, in a median 13 ms (up to 2.6 s) against 1 ms, and most of its strings are noise
("\x00+\x8c…", year 1364) where the demo's read "Example title", 2030-01-15. ``from_regex``
makes one pattern more (a lookahead) in 15 ms against 0.05 ms, its first draw is the demo's own
string, and its values change with the Hypothesis version. Both would put Hypothesis into the
base install.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import json
import os
import re
import statistics
import subprocess
import sys
import time
import tomllib
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from dial_notebook.agents._pattern_strings import from_pattern  # noqa: E402
from dial_notebook.agents._schema_payloads import PayloadMaker  # noqa: E402
from dial_notebook.domains import SchemaDomain  # noqa: E402
from dial_notebook.domains.notes import NotesDomain  # noqa: E402

SUITE = ROOT / "tests" / "data" / "json-schema-test-suite" / "draft2020-12"
SAMPLED = ("tests:todo", "notes:open-poll", "frames:plot")
DRAWS = 10


# -- the schemas ----------------------------------------------------------------------------

def corpus(quick: bool) -> list[tuple[str, dict[str, Any]]]:
    """(label, schema) for every schema measured, each one an action of a SchemaDomain."""
    from dial_notebook.domains.dataframes import SCHEMAS as FRAMES
    from tests.unit.test_agents_schema_demo import SCHEMAS as TESTS

    notes = NotesDomain()
    found = [(f"notes:{a}", notes.schema(a)) for a in notes.actions]
    found += [(f"frames:{a}", s) for a, s in FRAMES.items()]
    found += [(f"tests:{a}", s) for a, s in TESTS.items()]
    suite = []
    for path in sorted(SUITE.rglob("*.json")):
        for number, group in enumerate(json.loads(path.read_text(encoding="utf-8"))):
            schema = group["schema"]
            if isinstance(schema, dict) and any(t["valid"] for t in group["tests"]):
                suite.append((f"suite:{path.stem}#{number}", schema))
    return found + [s for s in suite if domain_for(s[1])][:40 if quick else None]


def domain_for(schema: dict[str, Any]) -> SchemaDomain | None:
    domain = SchemaDomain("bench")
    try:
        domain.add_action("act", schema=schema, run=lambda payload: payload)
    except ValueError:  # refused at definition (remote refs …): the domain's rule
        return None
    return domain


def patterns(schemas: list[tuple[str, dict[str, Any]]]) -> list[str]:
    """Every ``pattern`` (and patternProperties key) in the schemas, once each."""
    found: dict[str, None] = {}

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("pattern"), str):
                found[node["pattern"]] = None
            if isinstance(node.get("patternProperties"), dict):
                found.update(dict.fromkeys(node["patternProperties"]))
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for _, schema in schemas:
        walk(schema)
    return list(found)


# -- the two sides --------------------------------------------------------------------------

def hand_payloads(schema: dict[str, Any], count: int) -> list[Any]:
    """The demo's payload (the same every time: one, repeated for the digest)."""
    made = PayloadMaker(domain_for(schema)).valid("act")
    if made.payload is None:
        raise LookupError("no payload: " + str((made.why or {}).get("hint")))
    return [made.payload] * count


def hypothesis_draws(strategy: Any, count: int) -> list[Any]:
    """``count`` values of ``strategy`` (fewer when it has fewer), repeatable: ``@given``
    with ``derandomize=True``, no database, generation only."""
    from hypothesis import HealthCheck, Phase, given, settings

    got: list[Any] = []

    @settings(database=None, derandomize=True, max_examples=count, phases=[Phase.generate],
              deadline=None, suppress_health_check=list(HealthCheck))
    @given(strategy)
    def collect(value: Any) -> None:
        got.append(value)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        collect()
    return got


def hypothesis_payloads(schema: dict[str, Any], count: int) -> list[Any]:
    from hypothesis_jsonschema import from_schema

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return hypothesis_draws(from_schema(schema), count)


def has_hypothesis_jsonschema() -> str | None:
    """None when it imports, else why not."""
    try:
        import hypothesis_jsonschema  # noqa: F401
    except ImportError as error:
        return f"not installed ({error.name}); pip install hypothesis-jsonschema to measure it"
    return None


# -- measuring ------------------------------------------------------------------------------

def measure(make: Callable[[dict[str, Any], int], list[Any]],
            schemas: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    """Per side: accepted / refused by the domain / failed (by error), time of one payload."""
    accepted = refused = 0
    failed: dict[str, int] = {}
    times: list[float] = []
    slowest = ("", 0.0)
    for label, schema in schemas:
        domain = domain_for(schema)
        started = time.perf_counter()
        try:
            payload = make(schema, 1)[0]
        except Exception as error:  # a side that cannot: counted by the error's kind
            key = f"{type(error).__name__}: {str(error)[:60]}"
            failed[key] = failed.get(key, 0) + 1
            continue
        times.append(time.perf_counter() - started)
        slowest = max(slowest, (label, times[-1]), key=lambda pair: pair[1])
        if domain is not None and domain.validate("act", payload).get("ok"):
            accepted += 1
        else:
            refused += 1
    return {"accepted": accepted, "refused": refused, "failed": failed, "times": times,
            "slowest": slowest[0]}


def noise(values: list[Any]) -> tuple[int, int]:
    """(noisy, total) over the leaves of ``values`` (module header: what counts as noisy)."""
    noisy = total = 0
    for leaf in leaves(values):
        total += 1
        if isinstance(leaf, str):
            date = re.match(r"^(\d{4})-\d\d-\d\d", leaf)
            if not all(" " <= c <= "~" for c in leaf) or (
                    date and not 1990 <= int(date.group(1)) <= 2100):
                noisy += 1
        elif isinstance(leaf, int | float) and not isinstance(leaf, bool) and abs(leaf) > 1000:
            noisy += 1
    return noisy, total


def leaves(value: Any) -> Iterator[Any]:
    if isinstance(value, dict):
        for item in value.values():
            yield from leaves(item)
    elif isinstance(value, list):
        for item in value:
            yield from leaves(item)
    else:
        yield value


def ms(times: list[float]) -> str:
    if not times:
        return "no payload"
    return (f"median {statistics.median(times) * 1000:.2f} ms, "
            f"max {max(times) * 1000:.1f} ms over {len(times)}")


def report_side(name: str, result: dict[str, Any], total: int) -> None:
    print(f"  {name}: {result['accepted']}/{total} accepted by the domain, "
          f"{result['refused']} refused, {sum(result['failed'].values())} failed; "
          f"time per payload: {ms(result['times'])} (slowest: {result['slowest']})")
    for error, count in sorted(result["failed"].items(), key=lambda kv: -kv[1])[:4]:
        print(f"      {count} × {error}")


# -- the report -----------------------------------------------------------------------------

def payload_figures(schemas: list[tuple[str, dict[str, Any]]], why_not: str | None) -> None:
    print(f"Payloads: {len(schemas)} schemas (notes, frames, tests, the suite's)")
    report_side("hand-written PayloadMaker", measure(hand_payloads, schemas), len(schemas))
    if why_not:
        print(f"  hypothesis-jsonschema from_schema: {why_not}")
    else:
        report_side("hypothesis-jsonschema from_schema",
                    measure(hypothesis_payloads, schemas), len(schemas))
    print(f"Plausibility ({DRAWS} payloads each; noisy: non-printable-ASCII strings, |n| > 1000,"
          " dates outside 1990-2100)")
    chosen = dict(schemas)
    for label in SAMPLED:
        sides = [("hand", hand_payloads)] + ([] if why_not else [("hypo", hypothesis_payloads)])
        for side, make in sides:
            try:
                values = make(chosen[label], DRAWS)
            except Exception as error:
                print(f"  {label} {side}: {type(error).__name__}: {str(error)[:80]}")
                continue
            noisy, total = noise(values)
            print(f"  {label} {side}: {noisy}/{total} values noisy; "
                  f"{len({json.dumps(v, sort_keys=True) for v in values})} distinct")
            for value in values[:DRAWS if side == "hypo" else 1]:
                print("     ", json.dumps(value, ensure_ascii=True)[:110])


def pattern_figures(found: list[str]) -> None:
    from hypothesis import strategies as st

    print(f"Patterns: {len(found)} (every pattern in those schemas)")
    hand_times, hypo_times, hand_none, hypo_failed, hand_values, hypo_values = [], [], 0, {}, [], []
    for pattern in found:
        started = time.perf_counter()
        made = from_pattern(pattern)
        hand_times.append(time.perf_counter() - started)
        if made is None or not re.search(pattern, made):
            hand_none += 1
        else:
            hand_values.append(made)
        started = time.perf_counter()
        try:
            drawn = hypothesis_draws(st.from_regex(pattern, fullmatch=True), 1)
        except Exception as error:
            key = type(error).__name__
            hypo_failed[key] = hypo_failed.get(key, 0) + 1
            continue
        hypo_times.append(time.perf_counter() - started)
        hypo_values += drawn
    print(f"  hand-written from_pattern: {len(found) - hand_none}/{len(found)} made "
          f"(None for the rest); {ms(hand_times)}; noisy {noise(hand_values)[0]}/{len(hand_values)}")
    print(f"  Hypothesis from_regex: {len(hypo_values)}/{len(found)} made, failed {hypo_failed}; "
          f"{ms(hypo_times)}; noisy {noise(hypo_values)[0]}/{len(hypo_values)}")
    for pattern in [p for p in found if "[A-Z]" in p or "[a-z]" in p][:4]:
        print(f"  {pattern!r}: hand {from_pattern(pattern)!r}; regex "
              f"{hypothesis_draws(st.from_regex(pattern, fullmatch=True), 5)!r}"[:200])


def digest(schemas: list[tuple[str, dict[str, Any]]], why_not: str | None) -> dict[str, str]:
    """A hash of every payload and pattern string per side, for the two-process check."""
    from hypothesis import strategies as st

    sides: dict[str, Callable[[], list[Any]]] = {
        "hand payloads": lambda: [_try(hand_payloads, s) for _, s in schemas],
        "hand patterns": lambda: [from_pattern(p) for p in patterns(schemas)],
        "from_regex": lambda: [_try(lambda p, n: hypothesis_draws(
            st.from_regex(p, fullmatch=True), n), p) for p in patterns(schemas)]}
    if not why_not:
        sides["from_schema"] = lambda: [_try(hypothesis_payloads, s) for _, s in schemas]
    return {name: hashlib.sha256(json.dumps(make(), default=repr).encode()).hexdigest()[:16]
            for name, make in sides.items()}


def _try(make: Callable[[Any, int], list[Any]], arg: Any) -> Any:
    try:
        return make(arg, 3)
    except Exception as error:
        return f"error {type(error).__name__}"


def determinism_figures(quick: bool) -> None:
    runs = []
    for seed in ("1", "2"):
        out = subprocess.run([sys.executable, __file__, "--digest", *(["--quick"] if quick
                                                                      else [])],
                             capture_output=True, text=True, timeout=300,
                             env={**os.environ, "PYTHONHASHSEED": seed}, cwd=ROOT)
        runs.append(json.loads(out.stdout.strip().splitlines()[-1]) if out.returncode == 0
                    else {"error": out.stderr[-300:]})
    print("Determinism (a digest of every value, two processes, PYTHONHASHSEED 1 and 2):")
    for name in runs[0]:
        same = runs[0].get(name) == runs[1].get(name)
        print(f"  {name}: {'same' if same else 'DIFFERENT'} ({runs[0][name]} / "
              f"{runs[1].get(name)})")


def weight_figures() -> None:
    base = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    print("Weight: base dependencies:", ", ".join(re.split(r"[<>=]", d)[0] for d in base))
    for name in ("hypothesis", "sortedcontainers", "hypothesis-jsonschema"):
        try:
            dist = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            print(f"  {name}: not installed")
            continue
        size = sum((f.size or 0) for f in dist.files or [])
        print(f"  {name} {dist.version}: {size / 1e6:.1f} MB installed "
              f"({'a base dependency' if any(d.startswith(name) for d in base) else 'not in base'})")
    for module in ("sys", "dial_notebook.agents", "hypothesis", "hypothesis.strategies"):
        times = []
        for _ in range(3):
            started = time.perf_counter()
            subprocess.run([sys.executable, "-c", f"import {module}"], check=True, cwd=ROOT)
            times.append(time.perf_counter() - started)
        print(f"  python -c 'import {module}': {min(times) * 1000:.0f} ms (best of 3, "
              "with the interpreter's start)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="40 suite schemas (for the tests)")
    parser.add_argument("--digest", action="store_true", help="print the digests only")
    args = parser.parse_args()
    schemas = corpus(args.quick)
    why_not = has_hypothesis_jsonschema()
    if args.digest:
        print(json.dumps(digest(schemas, why_not)))
        return
    import hypothesis

    print(f"Python {sys.version.split()[0]}, Hypothesis {hypothesis.__version__}, "
          f"hypothesis-jsonschema {why_not or importlib.metadata.version('hypothesis-jsonschema')}")
    payload_figures(schemas, why_not)
    pattern_figures(patterns(schemas))
    determinism_figures(args.quick)
    weight_figures()


if __name__ == "__main__":
    main()
