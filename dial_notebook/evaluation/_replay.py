# Yesterday's decisions against today's agent: recorded sessions replayed in one call.
"""``replay_decisions``: the scenarios of recorded sessions run with a ``recorded_human`` of
the same sessions, so the report says, decision by decision, what changed (``_verdicts``)."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import Any

from ._from_session import scenario_from_session
from ._recorded import recorded_human
from ._report import Report
from ._run import evaluate
from ._scenario import Scenario


async def replay_decisions(*, agent: Any, domain: Any,
                           sessions: Iterable[Scenario | str | os.PathLike[str]
                                              | Mapping[str, Any]],
                           otherwise: str = "dismiss",
                           tolerance: Mapping[str, Any] | None = None,
                           **options: Any) -> Report:
    """``evaluate`` the agent on recorded sessions (paths, snapshots or ``Scenario``s made
    by ``Scenario.from_session``), the proposals decided as the person did
    (``recorded_human(…, otherwise=, tolerance=)``); ``options`` go to ``evaluate``
    (``concurrency``, ``timeout``, ``max_turns`` …). ``report.summary()`` says on how many
    decisions the agent agrees with the person; ``report.disagreements()`` lists the others.

        report = await replay_decisions(agent=lambda: MyAgent(), domain=make_domain,
                                        sessions=["monday.json", "tuesday.json"])
    """
    if isinstance(sessions, str | os.PathLike | Mapping | Scenario):
        sessions = [sessions]
    scenarios = [s if isinstance(s, Scenario) else scenario_from_session(s) for s in sessions]
    human = recorded_human(scenarios, otherwise=otherwise, tolerance=tolerance)
    return await evaluate(agent=agent, domain=domain, scenarios=scenarios, human=human,
                          **options)
