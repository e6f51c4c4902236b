"""Doubles for the invariant machine (test_invariants.py): one ``Ledger`` that every port
writes to, so the machine can check the four promises after every step.

    LedgerHuman.decide ─ accept / edit ─▶ ledger.grant(card id, action, payload)
    LedgerDomain.run / LedgerExecutor ─▶ ledger.authorize(...): a live grant is consumed; a
        read-only or hand-off action, or a rule the person made (still there), is allowed;
        anything else is a violation (recorded, never raised: the runtime would turn it into
        a failed outcome and hide it)
    a 'running' event for the card ─▶ its grant is marked started (the run may end after an
        outcome of another card with the same id and action: Stop supersedes the rest)
    an outcome event for the card id ─▶ its unused grants not started are retired (a grant
        lives only between the person's decision and that card's outcome)
    LedgerAgent.send ─▶ a message the agent replied to is 'delivered' (told)
    LedgerDomain.undo ─▶ counted per run

An ``Interrupter`` hands every call into a port to the machine (to cancel or snapshot there).
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

from dial_notebook.dial import Declare, Step, parse

from .runtime_doubles import NotesDomain, SendFailed

#: Script entries that are not reply texts.
SEND_ERROR = "<<send error>>"
HANG = "<<hang>>"
#: What the agent says once its script is used up: plain text, nothing owed back.
PLAIN = "ok"


def canonical(value: Any) -> str:
    """A payload as comparable text."""
    return json.dumps(value, sort_keys=True, default=str)


def told_in(message: str) -> list[tuple[str, str]]:
    """(id, status) of every outcome an outcome reply in ``message`` carries."""
    envelope = parse(message)
    if envelope is None:
        return []
    told = []
    for env in envelope.all():
        for element in env.elements:
            key = element.context_key or "" if isinstance(element, Declare) else ""
            if key.startswith("outcome:"):
                value = element.payload.value if element.payload is not None else None
                status = value.get("status") if isinstance(value, dict) else None
                told.append((key.removeprefix("outcome:"), str(status)))
    return told


class Ledger:
    """What the person allowed, what ran, what was undone and what the agent was told."""

    def __init__(self) -> None:
        #: (card id, action, kind ('run' | 'step'), key) of decisions not yet used or retired
        self.grants: list[tuple[str, str, str, str]] = []
        #: grants whose run has started (never retired: the run consumes them)
        self.started: list[tuple[str, str, str, str]] = []
        #: runs check grants on worker threads while the loop moves them: one at a time
        self._lock = threading.RLock()
        self.violations: list[str] = []
        self.runs = 0
        self.undone: Counter[int] = Counter()
        self.delivered: list[str] = []
        self._told: list[list[tuple[str, str]]] = []
        self.rules: Any = None
        self.domain_actions: dict[str, dict[str, Any]] = {}

    # -- decisions and runs ----------------------------------------------------------------

    def grant(self, card: Any, payload: Any) -> None:
        """The person accepted ``card`` (or an edit of it, ``payload``)."""
        with self._lock:
            self._grant(card, payload)

    def _grant(self, card: Any, payload: Any) -> None:
        if card.action == "execute" and isinstance(payload, dict):
            for step in payload.get("steps") or []:
                if isinstance(step, dict):
                    self.grants.append((str(step.get("id")), f"execute:{step.get('env')}",
                                        "step", canonical([step.get("id"), step.get("env"),
                                                           step.get("command")])))
            return
        self.grants.append((card.id, card.action, "run", canonical([card.action, payload])))

    def saw(self, event: dict[str, Any]) -> None:
        """An event of the conversation: 'running' starts a grant, 'outcome' retires."""
        if event.get("type") == "running":
            self.start(event)
        elif event.get("type") == "outcome":
            self.retire(event)

    def start(self, running: dict[str, Any]) -> None:
        """A run of the card has started ('running' event): its grant is the run's now."""
        with self._lock:
            for index, grant in enumerate(self.grants):
                if grant[:2] == (running.get("id"), running.get("action")):
                    self.started.append(self.grants.pop(index))
                    return

    def retire(self, outcome: dict[str, Any]) -> None:
        """The card's outcome is reached: its unused grants go (by id and action: an agent
        may use one id for several proposals, each settled on its own)."""
        with self._lock:
            self.grants = [g for g in self.grants
                           if g[:2] != (outcome.get("id"), outcome.get("action"))]

    def _consume(self, kind: str, key: str) -> bool:
        with self._lock:
            for grants in (self.started, self.grants):
                for index, grant in enumerate(grants):
                    if grant[2:] == (kind, key):
                        del grants[index]
                        return True
            return False

    def authorize_run(self, action: str, payload: Any) -> int:
        """Check a run of ``action`` against the grants (a violation is recorded); the run's
        serial number."""
        with self._lock:
            self.runs += 1
            serial = self.runs
        if self._consume("run", canonical([action, payload])):
            return serial
        spec = self.domain_actions.get(action, {})
        if not spec.get("mutates", True) or spec.get("handoff"):
            return serial  # read-only and hand-off actions run without asking
        rules = self.rules
        if (rules is not None and not spec.get("destructive")
                and rules.match(action, payload) is not None):
            return serial
        self.violations.append(f"ran {action} {canonical(payload)} without a decision or rule")
        return serial

    def authorize_step(self, step: Step) -> None:
        if not self._consume("step", canonical([step.id, step.env, step.command])):
            self.violations.append(f"ran step {step.id} ({step.env}: {step.command!r}) "
                                   f"without a decision")

    # -- what the agent heard --------------------------------------------------------------

    def deliver(self, message: str) -> None:
        self.delivered.append(message)

    def told(self) -> Counter[tuple[str, str]]:
        while len(self._told) < len(self.delivered):
            self._told.append(told_in(self.delivered[len(self._told)]))
        return Counter(pair for told in self._told[:len(self.delivered)] for pair in told)

    def forget_after(self, delivered: int) -> None:
        """A restore from a snapshot: the agent's side forks there too."""
        del self.delivered[delivered:]
        del self._told[delivered:]


class Interrupter:
    """Every call into a port is a point where the machine may act (cancel the say, take a
    snapshot): ``hook`` is called there, from whichever thread the port runs on."""

    def __init__(self) -> None:
        self.hook: Callable[[str], None] | None = None

    def point(self, kind: str = "port") -> None:
        """``kind``: 'port', or 'person' when the person is deciding or answering."""
        if self.hook is not None:
            self.hook(kind)


class LedgerAgent:
    """Replies from a shared script; a reply returned means the message was delivered."""

    def __init__(self, script: list[str], ledger: Ledger, interrupter: Interrupter) -> None:
        self.script = script
        self.ledger = ledger
        self.interrupter = interrupter

    async def send(self, message: str) -> str:
        self.interrupter.point()
        await asyncio.sleep(0)
        reply = self.script.pop(0) if self.script else PLAIN
        if reply == SEND_ERROR:
            raise SendFailed("the transport failed")
        if reply == HANG:
            await asyncio.sleep(3600)
        self.ledger.deliver(message)  # no await from here to the runtime having it
        return reply


class LedgerHuman:
    """Plays the person from a queue of moves; what it accepts is granted in the ledger.

    Moves: 'accept', 'edit', 'refused-edit', 'dismiss', 'reason', 'say', and answers
    ('text', 'empty', 'none'). An empty queue accepts and answers nothing."""

    def __init__(self, ledger: Ledger, interrupter: Interrupter, *, is_async: bool) -> None:
        self.ledger = ledger
        self.interrupter = interrupter
        self.moves: list[str] = []
        self.answers: list[str] = []
        if not is_async:
            self.decide = self._decide  # type: ignore[method-assign]
            self.answer = self._answer  # type: ignore[method-assign]

    async def decide(self, suggestion: Any) -> dict[str, Any]:
        await asyncio.sleep(0)
        return self._decide(suggestion)

    async def answer(self, ask: Any) -> str | None:
        await asyncio.sleep(0)
        return self._answer(ask)

    def _decide(self, card: Any) -> dict[str, Any]:
        self.interrupter.point("person")
        move = self.moves.pop(0) if self.moves else "accept"
        if move == "accept":
            self.ledger.grant(card, card.payload)
            return {"accept": True}
        if move in ("edit", "refused-edit"):
            edited = edit_of(card.action, card.payload, valid=move == "edit")
            self.ledger.grant(card, edited)
            return {"edit": edited}
        if move == "dismiss":
            return {"dismiss": True}
        if move == "reason":
            return {"dismiss": True, "reason": "not now"}
        return {"say": "do something else"}

    def _answer(self, ask: Any) -> str | None:
        self.interrupter.point("person")
        move = self.answers.pop(0) if self.answers else "empty"
        return {"text": "yes", "empty": "", "none": None}.get(move, "yes")


def edit_of(action: str, payload: Any, *, valid: bool) -> Any:
    """A person's edit of a card: one the domain takes (``valid``) or one it refuses."""
    if action == "execute":
        steps = [dict(step) for step in (payload or {}).get("steps") or []
                 if isinstance(step, dict)]
        for step in steps:
            if valid:
                step["command"] = "echo edited"
            else:
                step["env"] = "elsewhere"  # a step's env may not change
        return {"steps": steps}
    if action == "remove-note":
        return {"index": 0} if valid else {"index": "first"}
    return {"text": "edited"} if valid else {"text": ""}


class LedgerDomain(NotesDomain):
    """Notes whose every run is checked against the ledger; undo is counted per run."""

    def __init__(self, ledger: Ledger, interrupter: Interrupter, *, is_async: bool,
                 context: bool) -> None:
        super().__init__(context=context)
        self.ledger = ledger
        self.interrupter = interrupter
        ledger.domain_actions = self.actions
        if is_async:
            self.run = self._run_async  # type: ignore[method-assign]

    def run(self, action: str, payload: Any) -> Any:
        self.interrupter.point()
        serial = self.ledger.authorize_run(action, payload)
        result = super().run(action, payload)
        return {**result, "run": serial} if isinstance(result, dict) else result

    async def _run_async(self, action: str, payload: Any) -> Any:
        await asyncio.sleep(0)
        return LedgerDomain.run(self, action, payload)

    def undoable(self, action: str, payload: Any, result: Any) -> Any:
        return True

    def undo(self, action: str, payload: Any, result: Any) -> None:
        self.ledger.undone[int((result or {}).get("run", 0))] += 1


class LedgerExecutor:
    """Runs an execute step only when the person approved exactly that step."""

    def __init__(self, ledger: Ledger, interrupter: Interrupter) -> None:
        self.ledger = ledger
        self.interrupter = interrupter

    def __call__(self, step: Step) -> Any:
        self.interrupter.point()
        self.ledger.authorize_step(step)
        return {"ran": step.command}
