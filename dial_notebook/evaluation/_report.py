# The results of an evaluation: per scenario, per action, and the report that holds them.
"""``ScenarioResult``, ``ActionStats`` and ``Report``: what ``evaluate`` returns, as plain data
(``to_dict``, ``save`` / ``load``), a text ``summary``, a pandas frame and escaped HTML."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .._data_files import DataFileError
from . import _display
from ._report_file import FORMAT, VERSION, check_result, read_report_file
from ._verdicts import agreement_line, tally

#: The key counted for a refusal that names no code or no field.
NONE_KEY = "(none)"


@dataclass
class ScenarioResult:
    """What came of one scenario.

    ``proposals`` holds one dict per proposal (``id``, ``action``, ``payload`` — None when it
    could not be read —, ``status``, and ``errors``: ``[{code, field, hint}]`` for a refused
    one); ``lint`` one dict per finding on a reply (``turn``, ``code``, ``severity``,
    ``message``, ``line``, ``column``); ``tokens`` the agent's ``usage`` sums
    (``{input, output, total}``) when it keeps one, else None; ``decisions`` one verdict per
    recorded decision of the scenario, then one per new proposal (``_verdicts``: ``{kind,
    action, verdict, agrees, id, payload?}``), empty for a scenario without them.
    """

    name: str
    status: str
    turns: int = 0
    outcomes: list[dict[str, Any]] = field(default_factory=list)
    proposals: list[dict[str, Any]] = field(default_factory=list)
    lint: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0
    tokens: dict[str, Any] | None = None
    passed: bool = True
    reasons: list[str] = field(default_factory=list)
    error: str | None = None
    transcript: list[dict[str, Any]] = field(default_factory=list)
    decisions: list[dict[str, Any]] = field(default_factory=list)

    @property
    def refused(self) -> int:
        """How many proposals the domain refused (status ``invalid``)."""
        return sum(1 for p in self.proposals if p.get("status") == "invalid")

    def to_dict(self) -> dict[str, Any]:
        """The result as plain JSON-able data (``decisions`` only when there are some)."""
        data = asdict(self)
        if not self.decisions:
            del data["decisions"]
        return data

    def _repr_html_(self) -> str:
        """Its verdict and its conversation, read-only (``report["name"]`` in a cell)."""
        return "<div>" + _display.verdict(self) + _display.conversation(self) + "</div>"

    @classmethod
    def from_dict(cls, data: Any) -> ScenarioResult:
        """A result from ``to_dict``'s data, every field checked; ``ValueError`` naming the
        field when it is not one (``_report_file.check_result``)."""
        try:
            return check_result(data, "")
        except DataFileError as exc:
            raise ValueError(f"not a scenario result: {exc}") from None


@dataclass
class ActionStats:
    """How one action fared over every scenario: how often it was proposed and what became
    of it; refusals counted by the domain's code and by the field it named."""

    proposed: int = 0
    invalid: int = 0
    done: int = 0
    failed: int = 0
    dismissed: int = 0
    refused_by_code: dict[str, int] = field(default_factory=dict)
    refused_by_field: dict[str, int] = field(default_factory=dict)

    def add(self, proposal: Mapping[str, Any]) -> None:
        """Count one proposal (a ``ScenarioResult.proposals`` entry)."""
        self.proposed += 1
        status = proposal.get("status")
        if status in ("invalid", "done", "failed", "dismissed"):
            setattr(self, str(status), getattr(self, str(status)) + 1)
        if status == "invalid":
            for error in proposal.get("errors") or [{}]:
                code = error.get("code") or NONE_KEY
                where = error.get("field") or NONE_KEY
                self.refused_by_code[code] = self.refused_by_code.get(code, 0) + 1
                self.refused_by_field[where] = self.refused_by_field.get(where, 0) + 1

    @property
    def accepted(self) -> int:
        """Proposals the person accepted (as proposed or edited): those that ran, ``done``
        or ``failed``."""
        return self.done + self.failed

    def to_dict(self) -> dict[str, Any]:
        """The counts as plain data (``accepted`` included)."""
        return {**asdict(self), "accepted": self.accepted}


def action_stats(results: Iterable[ScenarioResult]) -> dict[str, ActionStats]:
    """Action → its counts over ``results``, actions in the order first proposed."""
    stats: dict[str, ActionStats] = {}
    for result in results:
        for proposal in result.proposals:
            stats.setdefault(str(proposal.get("action")), ActionStats()).add(proposal)
    return stats


def frame_module() -> Any:
    """pandas, or an ImportError saying how to install it."""
    try:
        import pandas
    except ImportError:
        raise ImportError('to_frame() needs pandas: pip install "dial-notebook[data]"') from None
    return pandas


class Report:
    """The results of ``evaluate``: ``scenarios`` (``ScenarioResult``s, in the order given)
    and ``actions`` (action → ``ActionStats``)."""

    def __init__(self, scenarios: Iterable[ScenarioResult]) -> None:
        self.scenarios: list[ScenarioResult] = list(scenarios)

    @property
    def actions(self) -> dict[str, ActionStats]:
        """Action → how it fared over every scenario."""
        return action_stats(self.scenarios)

    @property
    def passed(self) -> int:
        """How many scenarios passed."""
        return sum(1 for s in self.scenarios if s.passed)

    @property
    def failed(self) -> int:
        """How many scenarios failed."""
        return len(self.scenarios) - self.passed

    def __getitem__(self, name: str) -> ScenarioResult:
        """The result of the scenario called ``name`` (``KeyError`` when there is none)."""
        for result in self.scenarios:
            if result.name == name:
                return result
        raise KeyError(name)

    @property
    def decisions(self) -> dict[str, int] | None:
        """Over the scenarios with recorded decisions: ``decisions`` (how many), ``agrees``
        (met again) and each verdict's count (``_verdicts``); None when none has any."""
        verdicts = [v for s in self.scenarios for v in s.decisions]
        return tally(verdicts) if verdicts else None

    def disagreements(self) -> dict[str, list[dict[str, Any]]]:
        """The verdicts that disagree with the person, by kind (``missed``, ``new``), each
        with its ``scenario``."""
        found: dict[str, list[dict[str, Any]]] = {}
        for result in self.scenarios:
            for verdict in result.decisions:
                if not verdict["agrees"]:
                    found.setdefault(str(verdict["verdict"]), []).append(
                        {"scenario": result.name, **verdict})
        return found

    def summary(self) -> str:
        """A few lines: the counts (and, with recorded decisions, how far the agent agrees
        with the person), then each failed scenario with its reasons."""
        count = len(self.scenarios)
        lines = [f"{count} scenario{'' if count == 1 else 's'}: {self.passed} passed, "
                 f"{self.failed} failed"]
        decisions = self.decisions
        if decisions is not None:
            lines.append(agreement_line(decisions))
        for result in self.scenarios:
            if not result.passed:
                lines.append(f"  FAILED {result.name} ({result.status}): "
                             + "; ".join(result.reasons))
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        """The report as plain JSON-able data (what ``save`` writes)."""
        return {"format": FORMAT, "version": VERSION,
                "passed": self.passed, "failed": self.failed,
                "scenarios": [s.to_dict() for s in self.scenarios],
                "actions": {name: stats.to_dict() for name, stats in self.actions.items()}}

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write the report as JSON (UTF-8), atomically: a temporary file, then a rename."""
        target = Path(path)
        text = json.dumps(self.to_dict(), ensure_ascii=False, indent=1, default=str)
        handle, temporary = tempfile.mkstemp(dir=target.parent or ".", prefix=target.name,
                                             suffix=".tmp")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(text)
            os.replace(temporary, target)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        return target

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Report:
        """A report ``save`` wrote, every field checked (``_report_file``); ``ValueError``
        naming the file and the field when it is not one.

            Report.load("report.json")   # ValueError: Report.load: report.json:
                                         #   scenarios[0].turns: must be a whole number, not '2'
        """
        try:
            return cls(read_report_file(path))
        except DataFileError as exc:
            raise ValueError(f"Report.load: {exc}") from None

    def rows(self) -> list[dict[str, Any]]:
        """One dict per scenario: name, status, turns, proposals, refused, passed, seconds,
        tokens (the total)."""
        return [{"name": s.name, "status": s.status, "turns": s.turns,
                 "proposals": len(s.proposals), "refused": s.refused, "passed": s.passed,
                 "seconds": round(s.seconds, 3),
                 "tokens": None if s.tokens is None else s.tokens.get("total")}
                for s in self.scenarios]

    def to_frame(self) -> Any:
        """A pandas DataFrame, one row per scenario (see ``rows``)."""
        pandas = frame_module()
        columns = ["name", "status", "turns", "proposals", "refused", "passed", "seconds",
                   "tokens"]
        return pandas.DataFrame(self.rows(), columns=columns)

    def _repr_html_(self) -> str:
        """The summary table (each name a link to its conversation), bars of refusals by
        field, and every scenario's conversation behind a disclosure (read-only)."""
        count = len(self.scenarios)
        prefix = _display.anchors()  # each name in the table opens its conversation below
        decisions = self.decisions
        agreement = ("" if decisions is None else
                     f"<p>{_display.cell(agreement_line(decisions))}</p>")
        return (f"<div><p>{count} scenario{'' if count == 1 else 's'}: {self.passed} passed, "
                f"{self.failed} failed</p>{agreement}"
                + _display.summary_table(self.rows(), (s.reasons for s in self.scenarios),
                                         prefix)
                + _display.refusal_bars(self.actions)
                + _display.drill_down(self.scenarios, prefix) + "</div>")

    def __repr__(self) -> str:
        return (f"<Report scenarios={len(self.scenarios)} passed={self.passed} "
                f"failed={self.failed}>")
