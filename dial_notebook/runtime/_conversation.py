"""Conversation: one conversation with an agent that speaks DIAL — the turn loop.

    say(text) ─▶ turn 1, 2 … up to max_turns:
        message = [outcome reply of what is owed] + [domain.context()] + [the person's words]
                  (parts left out when empty, joined by one blank line)
        'sent' ─▶ agent.send(message) ─ no reply within timeout ─▶ 'no-reply'  → status no-reply
                                       └ raises ─▶ the error propagates (nothing owed is lost)
        'reply' ─▶ its elements handled in order (_reply.py; suggestions: _suggestion.py)
        a turn follows only for the person's words (an answer; what they wrote instead of
        deciding) or a done / failed / invalid outcome; otherwise ─▶ status idle
    past max_turns ─▶ 'turn-limit' → status turn-limit

What the agent was not told — outcomes, and the person's words given inside the conversation —
stays owed (_state.py) until a message carrying it gets a reply; it goes with the next turn or
the next ``say`` (``say('')`` sends just that). The caller's own words are not kept when their
first send fails: the caller sees the failure and can say them again.

With ``full_dial=True`` the reply's handling covers the rest of DIAL v0.1 (_reply.py):
execute blocks approved by the person and run by ``executors`` (per-step outcomes), declares
into ``context``, delegations to ``actors``, phatic signals, and addressed-to. Observe/yield
orders every reply's elements either way (_schedule.py).

Cancelling the task that runs ``say`` (a kernel interrupt) ends the say with CancelledError and
leaves the conversation usable: the suggestion the person was deciding and the reply's remaining
ones end ``superseded``, an action cut short ends ``failed``, and all of it is owed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..dial import outcome_reply
from ._events import Event, Events, OnEvent
from ._executors import Executors
from ._outcomes import Outcome
from ._ports import Agent, AgentPort, Domain, DomainPort, Human, HumanPort
from ._reply import handle
from ._state import Reply, State
from ._streaming import StreamProgress
from ._sync import BlockingSayError, SyncRunner
from ._values import PendingAsk, Suggestion


class ConversationBusyError(RuntimeError):
    """``say`` was called while another ``say`` of the same conversation was running."""


class _NoReply(Exception):
    pass


def _seconds(limit: float | None, default: float | None) -> float | None:
    chosen = limit if limit is not None else default
    return None if chosen is None else float(chosen)


@dataclass(frozen=True)
class SayResult:
    """How a ``say`` ended: ``status`` ('idle' | 'no-reply' | 'turn-limit'), the turns it
    took, and every outcome reached on the way (dicts, in order)."""

    status: str
    turns: int
    outcomes: list[Outcome] = field(default_factory=list)


class Conversation:
    """One conversation with an agent that speaks DIAL.

    Args:
        agent: an object with ``send(message) -> reply text`` (sync or async), or a callable.
        domain: the actions the agent may propose and how to run them (see ``_ports.py``).
        human: ``decide(suggestion)`` and ``answer(ask)``, sync or async.
        on_event: called with every event (a JSON-able dict), in order.
        timeout: seconds to wait for a reply before ``no-reply`` (None: wait for ever).
        max_turns: turns one ``say`` may take before ``turn-limit``.
        run_timeout: seconds one ``domain.run`` may take before its outcome is ``failed`` with
            code ``timeout`` and the turn goes on (None: the same as ``timeout``). A blocking
            run runs on a worker thread, so the kernel stays free while it works.
        full_dial: also act on the rest of DIAL v0.1 — ``<dial-execute>`` (approved by the
            person, run by ``executors``), ``<dial-declare>`` (``context``),
            ``<dial-delegate>`` (``actors``), ``<dial-phatic>`` and ``addressed-to``. On by
            default; ``full_dial=False`` behaves exactly as the reference runtime, which
            ignores them. Observe/yield applies either way.
        executors: env → ``fn(step)`` (sync or async), over the defaults: ``python`` runs in
            a namespace of the conversation's own (``python_executor(get_ipython().user_ns)``
            runs it in the notebook's, as the ChatWidget does); ``shell`` and ``http`` are off
            unless given
            (``shell_executor(timeout=…)``, ``http_executor(…)``); ``None`` turns one off.
        actors: actor id → a callable (called with the ``Delegation``) or an agent (an object
            with ``send``), for ``<dial-delegate to=…>``.

    Example::

        conversation = Conversation(agent=agent, domain=domain, human=policy_human("accept"))
        result = await conversation.say("add a note: buy milk")
        result.status, result.turns, [o["status"] for o in result.outcomes]
    """

    def __init__(
        self,
        *,
        agent: Agent | Callable[[str], Any],
        domain: Domain,
        human: Human,
        on_event: OnEvent | None = None,
        timeout: float | None = 90.0,
        max_turns: int = 8,
        run_timeout: float | None = None,
        full_dial: bool = True,
        executors: Mapping[str, Any] | None = None,
        actors: Mapping[str, Any] | None = None,
    ) -> None:
        for name, seconds in (("timeout", timeout), ("run_timeout", run_timeout)):
            if seconds is not None and (isinstance(seconds, bool) or not isinstance(
                    seconds, int | float) or not seconds > 0):
                raise ValueError(f"Conversation: {name} must be a positive number of seconds "
                                 f"or None, not {seconds!r}")
        if isinstance(max_turns, bool) or not isinstance(max_turns, int) or max_turns < 1:
            raise ValueError(f"Conversation: max_turns must be a whole number ≥ 1, "
                             f"not {max_turns!r}")
        if not full_dial and (executors or actors):
            raise ValueError("Conversation: executors and actors act on <dial-execute> and "
                             "<dial-delegate>, which only a full_dial=True conversation runs; "
                             "pass full_dial=True as well")
        if actors is not None and not isinstance(actors, Mapping):
            raise TypeError(f"Conversation: actors must map an actor id to a callable or an "
                            f"agent, not {type(actors).__name__}")
        self._agent = AgentPort(agent)
        self._state = State(DomainPort(domain), HumanPort(human), Events(on_event),
                            full=bool(full_dial), executors=Executors(executors),
                            actors=dict(actors or {}), run_timeout=_seconds(run_timeout, timeout))
        self._timeout = None if timeout is None else float(timeout)
        self._max_turns = max_turns
        self._busy = False           # a say is running
        self._sync: SyncRunner | None = None  # the private loop of say_sync, made on first use

    # -- what a surface reads -------------------------------------------------------------

    @property
    def transcript(self) -> list[Event]:
        """Every event so far, oldest first (the list itself: read it, do not change it)."""
        return self._state.events.transcript

    @property
    def pending(self) -> Suggestion | PendingAsk | None:
        """The suggestion or question waiting for the person right now, if any."""
        return self._state.pending

    @property
    def busy(self) -> bool:
        """True while a ``say`` runs."""
        return self._busy

    @property
    def owed_outcomes(self) -> list[Outcome]:
        """Outcomes the agent has not been told yet (they go with the next turn)."""
        return list(self._state.owed_outcomes)

    @property
    def full_dial(self) -> bool:
        """Whether the conversation acts on the rest of DIAL v0.1 (execute, declare …)."""
        return self._state.full

    @property
    def context(self) -> dict[str, Any]:
        """The session context the agent declared (``<dial-declare>``): context-key → value.

        A copy; a later declare of the same key overwrites.
        """
        return dict(self._state.context)

    @property
    def presence(self) -> dict[str, dict[str, Any]]:
        """The agent's latest heartbeat / presence signals: signal → {'interval', 'turn'}."""
        return {k: dict(v) for k, v in self._state.presence.items()}

    @property
    def namespace(self) -> dict[str, Any] | None:
        """Where python steps run: the namespace its python executor was given (the
        notebook's, from a ChatWidget), else the conversation's own dict (None when the python
        executor is not the default kind)."""
        python = self._state.executors.python
        return python.namespace if python is not None else None

    @property
    def owed_words(self) -> list[str]:
        """The person's words from inside the conversation that have not reached the agent."""
        return list(self._state.owed_words)

    # -- saying ---------------------------------------------------------------------------

    async def say(self, text: str = "") -> SayResult:
        """The person says ``text``; turns run until the agent needs nothing back.

        Raises what ``agent.send`` raises (other than running past the timeout), and what the
        human or the ``on_event`` callback raise; whatever was reached stays owed.

            result = await conversation.say("add a note: buy milk")
        """
        if not isinstance(text, str):
            raise TypeError(f"say() takes the person's words as a str, not {type(text).__name__}")
        if self._busy:
            raise ConversationBusyError(
                "This conversation is already running a say(); wait for it to finish "
                "(or cancel its task) before saying more."
            )
        self._busy = True
        try:
            return await self._turns(text)
        finally:
            self._busy = False
            self._state.pending = None

    def say_sync(self, text: str = "") -> SayResult:
        """``say`` for code that cannot ``await``: a script, or a notebook cell when no click
        is awaited (a policy or scripted human, a batch run).

        Refuses (``BlockingSayError``) when the human answers through the event loop, as the
        notebook widget does: waiting here would stop the clicks from ever arriving. Under a
        running loop the say runs on a worker thread (see ``_sync.py``), so the ports and
        ``on_event`` are called from that thread while this one waits.

            result = conversation.say_sync("add a note: buy milk")
        """
        if self._state.human.needs_event_loop:
            raise BlockingSayError(
                "say_sync() would wait for a person whose clicks arrive through this event "
                "loop, which the wait itself blocks: it would hang. Use "
                "`await conversation.say(...)` in the cell (or run it as a task) instead; "
                "say_sync() is for policy or scripted humans."
            )
        if not isinstance(text, str):
            raise TypeError(f"say_sync() takes the person's words as a str, "
                            f"not {type(text).__name__}")
        if self._busy:
            raise ConversationBusyError(
                "This conversation is already running a say(); say_sync() cannot start another."
            )
        if self._sync is None:
            self._sync = SyncRunner(self)
        return self._sync.run(lambda: self.say(text))

    # -- the turn loop --------------------------------------------------------------------

    async def _turns(self, text: str) -> SayResult:
        state = self._state
        reached: list[Outcome] = []
        turn = 0
        while True:
            turn += 1
            if turn > self._max_turns:
                state.events.emit({"type": "turn-limit", "turns": self._max_turns})
                return SayResult("turn-limit", self._max_turns, reached)
            outcomes = len(state.owed_outcomes)
            words = len(state.owed_words)
            spoken = [*state.owed_words, text] if turn == 1 else list(state.owed_words)
            message = await self._compose(state.owed_outcomes[:outcomes], spoken)
            state.events.emit({"type": "sent", "turn": turn, "message": message})
            try:
                reply_text = await self._send(message, turn)
            except _NoReply as exc:
                state.events.emit({"type": "no-reply", "turn": turn, "error": str(exc)})
                return SayResult("no-reply", turn, reached)
            # the agent has the message: what it carried is no longer owed
            del state.owed_outcomes[:outcomes]
            del state.owed_words[:words]
            reply = Reply(state, reached)
            await handle(reply, turn, reply_text, self._agent.chars)
            if not reply.needs_turn():
                return SayResult("idle", turn, reached)

    async def _compose(self, outcomes: list[Outcome], words: list[str]) -> str:
        parts = []
        if outcomes:
            parts.append(outcome_reply(outcomes))
        context = await self._state.domain.context()
        if context:
            parts.append(context)
        spoken = "\n\n".join(w for w in words if w)
        if spoken:
            parts.append(spoken)
        return "\n\n".join(parts)

    async def _send(self, message: str, turn: int) -> str:
        # a streamed reply's pieces become 'progress' events: readable (no markup), paced,
        # passed to on_event but not kept (the reply event keeps the text): _streaming.py
        progress = (StreamProgress(turn, self._state.events.transient)
                    if self._agent.streams else None)
        on_piece = progress.feed if progress is not None else None
        try:
            if self._timeout is None:
                return await self._agent.send(message, on_piece)
            timer = asyncio.timeout(self._timeout)
            try:
                async with timer:
                    return await self._agent.send(message, on_piece)
            except TimeoutError:
                if timer.expired():
                    raise _NoReply(
                        f"The agent didn't reply within {self._timeout:g}s") from None
                raise
        finally:
            if progress is not None:
                progress.close()

    def __repr__(self) -> str:
        return (f"<Conversation events={len(self.transcript)} "
                f"owed={len(self._state.owed_outcomes)} busy={self._busy}>")
