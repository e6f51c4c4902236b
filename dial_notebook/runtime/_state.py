"""What a conversation holds between and during turns, and what one reply has produced so far.

``State`` lives as long as the conversation. Its ``owed_outcomes`` and ``owed_words`` are the
single record of what the agent has not been told: an outcome is appended the moment it is
reached, the person's words the moment the reply that drew them is done with (or interrupted),
and both are cleared only when a message carrying them got a reply. So a send that fails, a
missing reply, a human that raises or a cancelled task leaves nothing untold.

``Reply`` is the handling of one agent reply: its outcomes, the answers given to its questions,
and what the person wrote instead of deciding.

Record, then tell: every event leaves the conversation in a state a snapshot can carry on from
(one taken inside ``on_event``, as an autosave does). So what an event reports is recorded
before the event is emitted — an outcome is owed, and when it is the last of the item being
handled, the item is recorded as resolved (``Reply.ends``) — and a step that reports in
several events records them all first, then tells them one by one from ``Reply.queued``
(a snapshot saves those as told); when the handling stops part-way, everything the stop
settles is recorded before the first of it is told (``Reply.stop``). What the item going at the snapshot had already shown is not shown
again when it is taken up (``Reply.current_from``, _resume.py).

``running`` is every run that has started and not yet ended (a suggestion's, an execute step's,
a delegation's), by reply and outcome id: a snapshot taken while one runs knows it, so that a
conversation restored after the kernel died never runs it again and tells the agent it was
interrupted.

With ``full_dial`` the state also holds the session context (``<dial-declare>``), the latest
channel signals (``<dial-phatic>`` heartbeat / presence), the executors by ``env`` and the
actors a ``<dial-delegate>`` may hand over to.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ._events import Events
from ._outcomes import NEEDS_REPLY, Outcome, outcome
from ._ports import DomainPort, HumanPort
from ._values import PendingAsk, Suggestion

#: Outcomes no run ends with: settling one never ends a run that is going under that id.
NEVER_RAN = frozenset({"superseded", "invalid", "dismissed"})


def running_key(reply: int | None, sid: str) -> str:
    """Where ``State.running`` keeps a run: its reply's serial and its outcome id."""
    return f"{reply}/{sid}"


@dataclass(eq=False)
class State:
    """The conversation's ports, events, counters and what is owed to the agent."""

    domain: DomainPort
    human: HumanPort
    events: Events
    #: Outcomes the agent has not been told yet.
    owed_outcomes: list[Outcome] = field(default_factory=list)
    #: The person's words from inside the conversation that have not reached the agent.
    owed_words: list[str] = field(default_factory=list)
    #: What waits for the person right now: a Suggestion, a PendingAsk, or None.
    pending: Suggestion | PendingAsk | None = None
    #: How many suggestion ids the runtime assigned (sg-1, sg-2 …), across turns and says.
    assigned: int = 0
    #: How many ask ids the runtime assigned (ask-1, ask-2 …).
    asked: int = 0
    #: Act on the rest of the schema too (execute, declare, delegate, phatic, addressed-to).
    full: bool = False
    #: env → executor (_executors.Executors), when ``full``.
    executors: Any = None
    #: actor id → callable or agent, for ``<dial-delegate to=…>``.
    actors: dict[str, Any] = field(default_factory=dict)
    #: The session context: context-key → the value the agent declared (a later one wins).
    context: dict[str, Any] = field(default_factory=dict)
    #: The latest heartbeat / presence signal of the agent: signal → {'interval', 'turn'}.
    presence: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: Seconds one domain run may take (None: no limit).
    run_timeout: float | None = None
    #: How many execute-block ids (ex-N) and delegation ids (dg-N) the runtime assigned.
    executed: int = 0
    delegated: int = 0
    #: How many replies were handled (each Reply's ``serial``).
    replies: int = 0
    #: Runs started and not yet ended, by ``running_key`` (the reply and the outcome id: an
    #: agent may use an id again in a later reply while an earlier run still goes):
    #: {'id', 'action', 'preview', 'fields', 'begun' (False: a step of a running block that
    #: has not started), 'reply', 'item'}.
    running: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: Done runs of mutating actions that may be undone, by suggestion id (_review.DoneRun).
    done_runs: dict[str, Any] = field(default_factory=dict)
    #: A restored conversation's done changes, made in an earlier kernel (never undone here).
    earlier_done: set[str] = field(default_factory=set)
    #: A restored conversation's shown-back proposal, by id: (Suggestion, refusals so far);
    #: ``person_decides`` takes it up instead of starting afresh.
    resumed: dict[str, tuple[Any, int]] = field(default_factory=dict)
    #: The person's rules (_rules.RulesPort), or None: no proposal is accepted by a rule.
    rules: Any = None

    def ids(self) -> tuple[int, int, int, int]:
        """The id counters: suggestions, asks, execute blocks, delegations."""
        return (self.assigned, self.asked, self.executed, self.delegated)

    def set_ids(self, ids: tuple[int, int, int, int]) -> None:
        self.assigned, self.asked, self.executed, self.delegated = ids

    def started(self, reply: Reply | None, sid: str, action: str, preview: str, *,
                begun: bool = True, **fields: Any) -> None:
        """A run is going (or, ``begun=False``, is about to: a block's step): remembered until
        its outcome is settled, and said to the surface as a 'running' event (not kept), so a
        surface that saves the conversation saves it now."""
        self.running[running_key(reply.serial if reply is not None else None, sid)] = {
            "id": sid, "action": action, "preview": preview, "fields": fields, "begun": begun,
            "reply": reply.serial if reply is not None else None,
            "item": list(reply.current) if reply is not None and reply.current else None,
        }
        if begun:
            self.events.transient({"type": "running", "id": sid, "action": action})

    def suggestion_id(self, given: str | None) -> str:
        if given:
            return given
        self.assigned += 1
        return f"sg-{self.assigned}"

    def ask_id(self, given: str | None) -> str:
        if given:
            return given
        self.asked += 1
        return f"ask-{self.asked}"

    def execute_id(self, given: str | None) -> str:
        if given:
            return given
        self.executed += 1
        return f"ex-{self.executed}"

    def delegate_id(self, given: str | None) -> str:
        if given:
            return given
        self.delegated += 1
        return f"dg-{self.delegated}"


@dataclass(eq=False)
class Reply:
    """One reply being handled."""

    state: State
    #: Every outcome of the current ``say`` (the reply adds its own to it).
    reached: list[Outcome]
    #: How many questions the reply asks (decides how answers are written).
    asks: int = 0
    #: The turn the reply answers.
    turn: int = 0
    outcomes: list[Outcome] = field(default_factory=list)
    #: (question, answer) for every question the person answered.
    answers: list[tuple[PendingAsk, str]] = field(default_factory=list)
    #: What the person wrote instead of deciding; once set, the rest of the reply is superseded.
    said: str | None = None
    #: Events fired by a confirm ask the person answered yes in this reply (an execute card
    #: offered because of them says so; the person still decides on the card).
    confirmed: set[str] = field(default_factory=set)
    #: Which reply of the conversation this is (1, 2 …).
    serial: int = 0
    #: How each item resolved, by (envelope, position): what a snapshot records and what a
    #: restored reply recalls instead of handling the item again.
    resolved: dict[tuple[int, int], Any] = field(default_factory=dict)
    #: Items whose observed events never fired (reported once).
    skipped: set[tuple[int, int]] = field(default_factory=set)
    #: The item being handled now, and the id counters as they were when it began.
    current: tuple[int, int] | None = None
    current_ids: tuple[int, int, int, int] | None = None
    #: How many events the transcript held when the current item began (what it showed since
    #: is not shown again when a restored reply takes it up).
    current_from: int | None = None
    #: How the current item's outcome that ends it resolves it (None: not that one yet); set
    #: by the reply's handling for items that end in outcomes (_reply.py).
    ends: Callable[[Reply, Outcome], Any] | None = None
    #: Events recorded and not yet emitted (a step that reports in several events); a
    #: snapshot saves them as told.
    queued: list[dict[str, Any]] = field(default_factory=list)
    #: The handling stopped part-way (the say was cancelled, a human or callback raised): the
    #: say is over — a snapshot from then on holds no say to take up — and what the person
    #: said in this reply is owed.
    stopped: bool = False
    #: Settles what the reply never reached, when it stops (set by the reply's handling).
    on_stop: Callable[[], None] | None = None
    #: Events are being recorded, not yet told (a stop records all of its outcomes first).
    holding: bool = False
    #: id(item) → its (envelope, position), for the reply being handled.
    keys: dict[int, tuple[int, int]] = field(default_factory=dict)
    #: Set on a reply restored from a snapshot: how to take up its current item (_resume.py).
    restored: Any = None

    @property
    def moved_on(self) -> bool:
        return self.said is not None

    def begin(self, key: tuple[int, int]) -> None:
        """The item ``key`` starts being handled now."""
        self.current, self.current_ids = key, self.state.ids()
        self.current_from = len(self.state.events.transcript)

    def finish(self, resolution: Any) -> Any:
        """Record how the current item resolved (before its last event is emitted); returns
        how it is recorded — the first record stands."""
        if self.current is not None:
            resolution = self.resolved.setdefault(self.current, resolution)
        self.current = self.current_ids = self.current_from = None
        self.ends = None
        return resolution

    def settle(self, sid: str, action: str, status: str, preview: str, *, quiet: bool = False,
               first: dict[str, Any] | None = None, **fields: Any) -> Outcome:
        """Record the suggestion's one outcome as owed (and, when it ends the item being
        handled, the item as resolved), then tell the surface — after ``first``, an event of
        the same step."""
        result = outcome(sid, action, status, preview, **fields)
        if status not in NEVER_RAN:  # a card with the id of a run still going (ids may be
            self.state.running.pop(running_key(self.serial, sid), None)  # reused) ends alone
        self.state.owed_outcomes.append(result)
        self.reached.append(result)
        self.outcomes.append(result)
        if self.ends is not None and self.current is not None:
            resolution = self.ends(self, result)
            if resolution is not None:
                self.finish(resolution)
        told = [*([first] if first is not None else []), {"type": "outcome", **result}]
        if quiet and not self.stopped:  # on a path already raising: the handling stops here,
            self.queued.extend(told)    # and all that the stop settles is recorded first
            self.stop()
        else:
            self.tell(*told, quiet=quiet)
        return result

    def stop(self) -> None:
        """The handling stops part-way: all of it recorded — the say over, the person's words
        owed, what the reply never reached settled (``on_stop``) — before the outcomes are
        told, so a snapshot at any of them holds every one."""
        if self.stopped:
            return
        self.stopped = True
        from ._ask import person_words  # (late: _ask builds on this module)

        words = person_words(self)
        if words:
            self.state.owed_words.append(words)
        self.holding = True
        try:
            if self.on_stop is not None:
                self.on_stop()
        finally:
            self.holding = False
            self.flush(quiet=True)

    def tell(self, *events: dict[str, Any], quiet: bool = False) -> None:
        """Emit recorded ``events`` in order; until each is emitted it waits in ``queued``, so a
        snapshot taken while one is told has the rest (``quiet``: on a path already raising)."""
        self.queued.extend(events)
        if not self.holding:
            self.flush(quiet=quiet)

    def flush(self, *, quiet: bool = False) -> None:
        """Emit what ``queued`` holds (a snapshot saves it as told: Conversation.snapshot)."""
        events = self.state.events
        try:
            while self.queued:
                (events.emit_quietly if quiet else events.emit)(self.queued.pop(0))
        except BaseException:  # the callback raised: the rest is still recorded, then it goes on
            while self.queued:
                events.emit_quietly(self.queued.pop(0))
            raise

    def needs_turn(self) -> bool:
        """Whether a turn follows: the person's words, or an outcome the agent reacts to now.

        A delegation that was taken over without ``resume`` is the exception: the agent stepped
        back, so its ``done`` waits for the person's next words.
        """
        if self.moved_on or self.answers:
            return True
        return any(o["status"] in NEEDS_REPLY
                   and not (o["status"] == "done" and o.get("resume") is False)
                   for o in self.outcomes)
