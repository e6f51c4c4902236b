"""One gate for running: only runtime/_run_gate.py calls a domain's run or an execute step's
executor, and only with a decision record — the person's decision on that card, a rule the
person made, or the domain's own word that the action is read-only or a hand-off."""

from __future__ import annotations

import ast
import functools
import importlib.util
import pkgutil
from pathlib import Path

import pytest

import dial_notebook
from dial_notebook.dial import Step
from dial_notebook.runtime import Conversation, policy_human
from dial_notebook.runtime._run_gate import (
    Approval,
    NotApproved,
    by_domain,
    by_person,
    by_rule,
    start_action,
    start_step,
)
from dial_notebook.runtime._values import Suggestion

from .runtime_doubles import NotesDomain, ScriptedAgent, dial, inform, suggest

GATE = "dial_notebook.runtime._run_gate"
#: Names through which an action or a step runs.
RUNNING = {"run", "_run", "start_run"}


@functools.cache
def _modules() -> dict[str, ast.Module]:
    found = {}
    for info in pkgutil.walk_packages(dial_notebook.__path__, "dial_notebook."):
        spec = importlib.util.find_spec(info.name)
        assert spec is not None and spec.origin is not None
        if spec.origin.endswith(".py"):
            found[info.name] = ast.parse(Path(spec.origin).read_text(encoding="utf-8"))
    return found


def _runs_something(node: ast.AST) -> str | None:
    """What ``node`` runs, when it is a call into a domain's run, ``start_run``, or an
    executor (``executors.get(…)``, ``executor(…)``), else None."""
    if not isinstance(node, ast.Call):
        return None
    func = node.func
    if isinstance(func, ast.Attribute):
        owner = ast.unparse(func.value).lower()
        if func.attr == "start_run":
            return ast.unparse(node)
        if func.attr in RUNNING and "domain" in owner:
            return ast.unparse(node)
        if func.attr == "get" and owner.endswith("executors"):
            return ast.unparse(node)
    if isinstance(func, ast.Name) and func.id == "executor":
        return ast.unparse(node)
    if any(isinstance(a, ast.Name) and a.id == "executor" for a in node.args):
        return ast.unparse(node)  # in_thread(executor, step), call(executor, step)
    return None


def test_only_the_run_gate_calls_a_domains_run_or_an_executor():
    modules = _modules()
    assert len(modules) > 50 and GATE in modules
    calls = {name: [text for node in ast.walk(tree) if (text := _runs_something(node))]
             for name, tree in modules.items()}
    elsewhere = {name: found for name, found in calls.items() if found and name != GATE}
    assert elsewhere == {}
    # the check sees the gate's own calls: it is not vacuous
    assert any("start_run" in c for c in calls[GATE])
    assert any("executors.get" in c for c in calls[GATE])


def test_only_the_decision_paths_make_a_decision_record():
    makers = {"by_person": set(), "by_rule": set(), "by_domain": set(), "Approval": set()}
    for name, tree in _modules().items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and (
                    node.func.id in makers):
                makers[node.func.id].add(name)
    assert makers == {
        "by_person": {"dial_notebook.runtime._suggestion"},  # person_decides, after decide()
        "by_rule": {"dial_notebook.runtime._suggestion"},
        "by_domain": {"dial_notebook.runtime._suggestion", GATE},
        "Approval": {GATE},
    }


def _state():
    return Conversation(agent=ScriptedAgent([]), domain=NotesDomain(), human=policy_human(),
                        executors={"python": lambda step: step.command})._state


async def test_the_gate_refuses_a_run_without_a_record_or_with_anothers():
    state = _state()
    payload = {"text": "milk"}
    card = Suggestion(id="sg-1", action="add-note", payload=payload)
    with pytest.raises(NotApproved, match="no decision record"):
        start_action(state, None, "sg-1", "add-note", payload)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="made by the decision paths"):
        Approval(object(), "sg-1", "add-note", "person", payload)
    for answer in ({"dismiss": True}, {"say": "no"}, {"answer": "yes"}, {}):
        with pytest.raises(NotApproved):
            by_person(card, answer, payload)  # an answer, a dismissal: never an approval
    record = by_person(card, {"accept": True}, payload)
    with pytest.raises(AttributeError, match="cannot be changed"):
        record.payload = {"text": "other"}  # type: ignore[misc]
    with pytest.raises(NotApproved, match="for sg-1"):
        start_action(state, record, "sg-2", "add-note", payload)
    with pytest.raises(NotApproved, match="not the one that was decided"):
        start_action(state, record, "sg-1", "add-note", {"text": "milk"})
    assert await start_action(state, record, "sg-1", "add-note", payload) == {"count": 1}
    with pytest.raises(NotApproved, match="once"):
        start_action(state, record, "sg-1", "add-note", payload)
    assert state.domain._domain.notes == ["milk"]  # ran once


async def test_the_domain_and_the_rules_make_records_only_for_what_they_allow():
    state = _state()
    assert by_domain(state, "sg-1", "add-note", {"text": "a"}) is None  # mutating: asked
    assert by_domain(state, "sg-1", "fly", {}) is None
    listed = by_domain(state, "sg-1", "list-notes", {})
    assert listed is not None and listed.by == "domain"
    spec = state.domain.spec("add-note")
    assert spec is not None and by_rule(state, spec, "sg-1", "add-note", {"text": "a"}) is None
    assert await start_action(state, listed, "sg-1", "list-notes", listed.payload) == {
        "notes": []}


async def test_an_execute_step_runs_only_if_it_is_on_the_approved_card():
    state = _state()
    steps = (Step(command="1 + 1", env="python"), Step(command="2 + 2", env="python"))
    card = Suggestion(id="ex-1", action="execute", payload={})
    record = by_person(card, {"accept": True}, steps)
    with pytest.raises(NotApproved, match="not one the person approved"):
        start_step(state, record, "ex-1", Step(command="1 + 1", env="python"))  # a look-alike
    with pytest.raises(NotApproved):
        start_step(state, record, "ex-2", steps[0])
    assert await start_step(state, record, "ex-1", steps[1]) == "2 + 2"
    with pytest.raises(NotApproved, match="ran already"):
        start_step(state, record, "ex-1", steps[1])
    listed = by_domain(state, "ex-1", "list-notes", {})
    with pytest.raises(NotApproved):
        start_step(state, listed, "ex-1", steps[0])  # type: ignore[arg-type]


async def test_every_run_of_a_conversation_carries_its_decision():
    seen: list[str] = []

    class Watched(NotesDomain):
        def run(self, action, payload):
            seen.append(action)
            return super().run(action, payload)

    agent = ScriptedAgent([dial(suggest("add-note", {"text": "a"}), suggest("list-notes", {}),
                                suggest("add-note", {"text": "b"})), dial(inform("ok"))])
    human = policy_human("dismiss")
    conversation = Conversation(agent=agent, domain=Watched(context=False), human=human)
    result = await conversation.say("go")
    assert [o["status"] for o in result.outcomes] == ["dismissed", "done", "dismissed"]
    assert seen == ["list-notes"]  # only what the domain says runs unasked

