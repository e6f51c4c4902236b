# A saved evaluation report read back as data: every field checked before any is used.
"""The shape of a saved report (``Report.save``) and its strict reading: a file a person may
have been sent, so it is bounded (``MAX_REPORT_BYTES``, ``MAX_DEPTH`` levels), every field is
checked against the shapes below (``_data_files.type_error``), every transcript event against
the runtime's (``EVENT_SHAPES``), and what is derived (``passed``, ``failed``, ``actions``) must
be what the scenarios say. The first thing wrong is one ``DataFileError``:
``report.json: scenarios[0].proposals[2].errors[0].code: must be text or null, not a list``.

    >>> check_report({"format": FORMAT, "version": 1, "passed": 0, "failed": 0,
    ...               "scenarios": [], "actions": {}}, "r.json")
    []
"""

# no ``from __future__ import annotations``: the shapes are read through their annotations
import os
from typing import Any, Literal, NotRequired, TypedDict

from .._data_files import DataFileError, at, parse_json, read_bytes, shown, type_error
from ..runtime import EVENT_SHAPES

FORMAT = "dial-notebook-evaluation"
VERSION = 1
#: The statuses a scenario can end with.
STATUSES = ("idle", "no-reply", "turn-limit", "error", "timeout")
#: The largest saved report read (a few thousand scenarios with their transcripts).
MAX_REPORT_BYTES = 20 * 1024 * 1024
#: Most scenarios, and most entries of one list of a scenario, read.
MAX_ITEMS = 100_000


class ErrorShape(TypedDict):
    """Why the domain refused a proposal."""

    code: str | None
    field: str | None
    hint: str | None


class ProposalShape(TypedDict):
    """One proposal and what became of it."""

    id: str | None
    action: str | None
    payload: Any
    status: str | None
    errors: list[ErrorShape]
    error: NotRequired[str | None]


class LintShape(TypedDict):
    """A lint finding on a reply."""

    turn: int | None
    code: str
    severity: Literal["error", "warning", "info"]
    message: str
    line: int | None
    column: int | None


class TokensShape(TypedDict, total=False):
    """The agent's usage sums."""

    input: int | None
    output: int | None
    total: int | None


class VerdictShape(TypedDict):
    """One recorded decision met again, or not, or a new proposal (``_verdicts``)."""

    kind: Literal["accepted", "corrected", "dismissed", "new"]
    action: str
    verdict: str
    agrees: bool
    id: str | None
    payload: NotRequired[Any]


class ResultShape(TypedDict):
    """One scenario's result (``ScenarioResult.to_dict``)."""

    name: str
    status: Literal["idle", "no-reply", "turn-limit", "error", "timeout"]
    turns: int
    outcomes: list[dict[str, Any]]
    proposals: list[ProposalShape]
    lint: list[LintShape]
    seconds: float
    tokens: TokensShape | None
    passed: bool
    reasons: list[str]
    error: str | None
    transcript: list[dict[str, Any]]
    decisions: NotRequired[list[VerdictShape]]


class StatsShape(TypedDict):
    """One action's counts (``ActionStats.to_dict``)."""

    proposed: int
    invalid: int
    done: int
    failed: int
    dismissed: int
    accepted: int
    refused_by_code: dict[str, int]
    refused_by_field: dict[str, int]


class ReportShape(TypedDict):
    """A saved report (``Report.to_dict``)."""

    format: Literal["dial-notebook-evaluation"]
    version: int
    passed: int
    failed: int
    scenarios: list[dict[str, Any]]
    actions: dict[str, StatsShape]


def read_report_file(path: str | os.PathLike[str]) -> list[Any]:
    """The ``ScenarioResult``s of the saved report at ``path``, read and checked
    (``check_report``); a ``DataFileError`` naming the file and the field otherwise."""
    name = str(path)
    return check_report(parse_json(read_bytes(path, max_bytes=MAX_REPORT_BYTES), name), name)


def check_report(data: Any, file: str) -> list[Any]:
    """Check a saved report field by field (``DataFileError`` at the first thing wrong); the
    ``ScenarioResult`` of each of its scenarios."""
    from ._report import action_stats

    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise DataFileError(file, "", "not a saved evaluation report (its \"format\" is not "
                                      f"{FORMAT!r})")
    if data.get("version") != VERSION:
        raise DataFileError(file, "version", f"unsupported report version "
                                             f"{data.get('version')!r} (this reads {VERSION})")
    _fits(data, ReportShape, "", file)
    if len(data["scenarios"]) > MAX_ITEMS:
        raise DataFileError(file, "scenarios", f"{len(data['scenarios']):,} scenarios; at most "
                                               f"{MAX_ITEMS:,} are read")
    results = [check_result(item, file, at("scenarios", n))
               for n, item in enumerate(data["scenarios"])]
    names = [result.name for result in results]
    for n, name in enumerate(names):
        if name in names[:n]:
            raise DataFileError(file, at("scenarios", n, "name"), f"{name!r} is used twice")
    passed = sum(1 for result in results if result.passed)
    derived = {"passed": passed, "failed": len(results) - passed,
               "actions": {name: stats.to_dict()
                           for name, stats in action_stats(results).items()}}
    for key, value in derived.items():
        if data[key] != value:
            raise DataFileError(file, key, "does not agree with the scenarios' results")
    return results


def check_result(data: Any, file: str, where: str = "") -> Any:
    """One scenario's result checked field by field; the ``ScenarioResult``."""
    from ._report import ScenarioResult

    _fits(data, ResultShape, where, file)
    if not data["name"].strip():
        raise DataFileError(file, at(where, "name"), "must be non-empty text")
    for key in ("turns", "seconds"):
        if data[key] < 0:
            raise DataFileError(file, at(where, key), f"must be ≥ 0, not {data[key]}")
    for key in ("outcomes", "proposals", "lint", "transcript", "reasons"):
        if len(data[key]) > MAX_ITEMS:
            raise DataFileError(file, at(where, key), f"has {len(data[key]):,} entries; at "
                                                      f"most {MAX_ITEMS:,} are read")
    for n, finding in enumerate(data["lint"]):
        for key in ("turn", "line", "column"):
            if finding[key] is not None and finding[key] < 0:
                raise DataFileError(file, at(where, "lint", n, key), "must be ≥ 0")
    for n, outcome in enumerate(data["outcomes"]):
        if "type" in outcome:
            raise DataFileError(file, at(where, "outcomes", n, "type"), "is not a known field")
        _event({**outcome, "type": "outcome"}, file, at(where, "outcomes", n))
    for n, event in enumerate(data["transcript"]):
        _event(event, file, at(where, "transcript", n))
    return ScenarioResult(**data)


def _event(event: dict[str, Any], file: str, where: str) -> None:
    kind = event.get("type")
    shape = EVENT_SHAPES.get(kind) if isinstance(kind, str) else None
    if shape is None:
        raise DataFileError(file, at(where, "type"), f"{shown(kind)} is not an event type")
    _fits(event, shape, where, file)


def _fits(value: Any, shape: Any, where: str, file: str) -> None:
    wrong = type_error(value, shape, where)
    if wrong is not None:
        raise DataFileError(file, *wrong)
