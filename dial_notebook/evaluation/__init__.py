# dial_notebook.evaluation: run an agent through scripted scenarios and judge what came of it.
"""Evaluation of an agent on a domain: scenarios (what a person says, and what should come of
it), run each in a conversation of its own, judged, counted per action, compared. Scenarios
can be recorded sessions (``Scenario.from_session``), replayed with a ``recorded_human`` that
decides as the person did: the report says on how many decisions the agent agrees with them.

    >>> import asyncio, json
    >>> from dial_notebook.agents import ScriptedAgent
    >>> from dial_notebook.domains import SchemaDomain
    >>> todo = SchemaDomain("todo")
    >>> @todo.action(schema={"type": "object", "required": ["title"]})
    ... def add_todo(payload):
    ...     return {"id": 1}
    >>> proposal = ('<dial><dial-suggest id="s1" action="add-todo">Add it?'
    ...             '<dial-payload type="application/json">{"title": "milk"}</dial-payload>'
    ...             '</dial-suggest></dial>')
    >>> thanks = "<dial><dial-inform>Added.</dial-inform></dial>"
    >>> scenarios = [{"name": "add", "say": ["add milk"],
    ...               "expect": {"actions": ["add-todo"], "status": "idle"}}]
    >>> report = evaluate_sync(agent=lambda: ScriptedAgent([proposal, thanks]),
    ...                        domain=todo, scenarios=scenarios)
    >>> print(report.summary())
    1 scenario: 1 passed, 0 failed
    >>> report.actions["add-todo"].done
    1
"""

from .. import _public
from ._compare import Comparison, compare
from ._from_session import save_scenarios, scenario_from_session, scenarios_from_sessions
from ._recorded import RecordedHuman, recorded_human
from ._replay import replay_decisions
from ._report import ActionStats, Report, ScenarioResult
from ._run import evaluate, evaluate_sync
from ._scenario import Expectation, Scenario, load_scenarios

__all__ = [
    "ActionStats",
    "Comparison",
    "Expectation",
    "RecordedHuman",
    "Report",
    "Scenario",
    "ScenarioResult",
    "compare",
    "evaluate",
    "evaluate_sync",
    "load_scenarios",
    "recorded_human",
    "replay_decisions",
    "save_scenarios",
    "scenario_from_session",
    "scenarios_from_sessions",
]

_public.shown_as_top_level(Comparison, Report, Scenario)
