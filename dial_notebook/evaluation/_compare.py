# Reports side by side: the same scenarios run with different agents (or prompts, or models).
"""``compare(*reports)``: per scenario and per action, what each report says, in one place."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ._display import cell
from ._report import Report, frame_module
from ._verdicts import agreement_line


class Comparison:
    """Reports lined up. ``scenarios``: scenario name → report name → ``{status, passed,
    turns, refused}`` (None when that report has no such scenario); ``actions``: action →
    report name → its counts (None when that report never saw it proposed); ``decisions``:
    report name → how far it agrees with the person's recorded decisions (``Report.decisions``;
    empty when no report has any)."""

    def __init__(self, reports: Sequence[Report], names: Sequence[str]) -> None:
        self.names: list[str] = list(names)
        self.reports: list[Report] = list(reports)
        order: dict[str, None] = {}
        for report in self.reports:
            order.update(dict.fromkeys(s.name for s in report.scenarios))
        self.scenarios: dict[str, dict[str, dict[str, Any] | None]] = {}
        for scenario in order:
            self.scenarios[scenario] = {}
            for name, report in zip(self.names, self.reports, strict=True):
                found = next((s for s in report.scenarios if s.name == scenario), None)
                self.scenarios[scenario][name] = None if found is None else {
                    "status": found.status, "passed": found.passed, "turns": found.turns,
                    "refused": found.refused}
        stats = [report.actions for report in self.reports]
        actions: dict[str, None] = {}
        for each in stats:
            actions.update(dict.fromkeys(each))
        self.actions: dict[str, dict[str, dict[str, Any] | None]] = {
            action: {name: (each[action].to_dict() if action in each else None)
                     for name, each in zip(self.names, stats, strict=True)}
            for action in actions}
        self.decisions: dict[str, dict[str, int] | None] = {}
        if any(report.decisions is not None for report in self.reports):
            self.decisions = {name: report.decisions
                              for name, report in zip(self.names, self.reports, strict=True)}

    def to_dict(self) -> dict[str, Any]:
        """The comparison as plain data (``decisions`` when a report has some)."""
        data = {"reports": list(self.names),
                "passed": {n: r.passed for n, r in zip(self.names, self.reports, strict=True)},
                "scenarios": self.scenarios, "actions": self.actions}
        if self.decisions:
            data["decisions"] = self.decisions
        return data

    def to_frame(self) -> Any:
        """A pandas DataFrame: one row per scenario, columns (report, status / passed /
        turns / refused)."""
        pandas = frame_module()
        keys = ("status", "passed", "turns", "refused")
        columns = pandas.MultiIndex.from_tuples([(n, k) for n in self.names for k in keys])
        rows = [[(row[n] or {}).get(k) for n in self.names for k in keys]
                for row in self.scenarios.values()]
        return pandas.DataFrame(rows, index=pandas.Index(list(self.scenarios), name="scenario"),
                                columns=columns)

    def _repr_html_(self) -> str:
        head = "<th>scenario</th>" + "".join(f"<th>{cell(n)}</th>" for n in self.names)
        rows = []
        for scenario, row in self.scenarios.items():
            cells = []
            for name in self.names:
                entry = row[name]
                cells.append("<td>—</td>" if entry is None else
                             f"<td>{'✓' if entry['passed'] else '✗'} {cell(entry['status'])}"
                             f", {entry['turns']} turns, {entry['refused']} refused</td>")
            rows.append(f"<tr><td>{cell(scenario)}</td>{''.join(cells)}</tr>")
        agreement = "".join(
            f"<p>{cell(name)}: {cell(agreement_line(counts))}</p>"
            for name, counts in self.decisions.items() if counts is not None)
        return (f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody>"
                f"</table>{agreement}")

    def __repr__(self) -> str:
        return f"<Comparison reports={self.names!r} scenarios={len(self.scenarios)}>"


def compare(*reports: Report, names: Sequence[str] | None = None) -> Comparison:
    """Line ``reports`` up, per scenario and per action. ``names`` labels them (default
    ``report 1``, ``report 2`` …); scenarios missing from a report show as None."""
    if not reports:
        raise ValueError("compare: give at least one report")
    for report in reports:
        if not isinstance(report, Report):
            raise TypeError(f"compare: expected Report objects, not {type(report).__name__}")
    labels = [f"report {i}" for i in range(1, len(reports) + 1)] if names is None else list(
        names)
    if isinstance(names, str) or len(labels) != len(reports):
        raise ValueError(f"compare: names must give one name per report ({len(reports)})")
    if len(set(labels)) != len(labels) or not all(isinstance(n, str) and n for n in labels):
        raise ValueError("compare: names must be distinct, non-empty text")
    return Comparison(reports, labels)
