"""Conversation: one conversation with an agent that speaks DIAL — the class its callers hold.

    Conversation(agent=…, domain=…, human=…, on_event=…, timeout=90, max_turns=8, …)
      say(text), say_sync(text) ─▶ turns until the agent needs nothing back (_turns.py: what
            each message carries, 'sent' → 'reply' → its elements handled in order, _reply.py;
            suggestions: _suggestion.py) ─▶ SayResult: idle | no-reply | turn-limit
      dry_run, undoable, undo ─▶ a card's dry run, done changes taken back (_review.py)
      chart_not_drawn ─▶ a line owed to the agent (_told_later.py)
      snapshot() ─▶ plain JSON (_saving.py); Conversation.restore(…), resume() (_restoring.py)

What the agent was not told — outcomes, and the person's words given inside the conversation —
stays owed (_state.py) until a message carrying it gets a reply; it goes with the next turn or
the next ``say`` (``say('')`` sends just that). The caller's own words are not kept when their
first send fails: the caller sees the failure and can say them again.

With ``full_dial=True`` the reply's handling covers the rest of DIAL v0.1 (_reply.py):
execute blocks approved by the person and run by ``executors`` (per-step outcomes), declares
into ``context``, delegations to ``actors``, phatic signals, and addressed-to. Observe/yield
orders every reply's elements either way (_schedule.py).

Cancelling the task that runs ``say`` (a kernel interrupt: the stop button stops a cell that
awaits a say at once, ../_interrupt.py) ends the say with CancelledError and leaves the
conversation usable: the suggestion the person was deciding and the reply's remaining
ones end ``superseded``, and all of it is owed. Stop stops the agent, not the work: a run the
person approved that has started goes on to its real end (within ``run_timeout``), and that
outcome is told with the next say.

``snapshot()`` is the conversation as plain JSON at any moment it waits and at every event
(_saving.py); ``Conversation.restore(snapshot, …)`` carries on from it in a new kernel, and
``resume()`` takes up the say that was going where it stood — a run that was going is never
run again (_restoring.py). A say being stopped is over from the stop's first event on: a
snapshot then holds what the stop settles, and no say to take up.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import Any

from .._interrupt import interrupt_wakes_loop
from ._events import Event, OnEvent
from ._outcomes import Outcome
from ._ports import Agent, AgentPort, Domain, Human
from ._restoring import fill, read_checked, restore_agent, take_up
from ._review import dry_run as review_dry_run
from ._review import undo as review_undo
from ._review import undoable
from ._saving import plain, snapshot_view
from ._setup import check_options, make_state
from ._sync import BlockingSayError, SyncRunner
from ._told_later import ToldLater
from ._turns import Say, SayResult, Turns
from ._values import PendingAsk, Suggestion

__all__ = ["Conversation", "ConversationBusyError", "SayResult"]


class ConversationBusyError(RuntimeError):
    """``say`` was called while another ``say`` of the same conversation was running."""


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
        rules: the person's "always allow like this" rules (``dial_notebook.Rules``, or any
            object with ``match(action, payload)``): a valid proposal of a changing, not
            destructive, not hand-off action that one accepts runs without asking, and its
            outcome names the rule (``_rules.py``). None: the person decides every one.
        on_signal: called with the signals a surface needs beyond the events (``progress`` of
            a streamed reply, ``running`` when a run starts; not in the transcript). Without
            it they go to ``on_event``, unless ``full_dial=False``: then ``on_event`` gets
            exactly the runtime document's events.

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
        rules: Any = None,
        on_signal: OnEvent | None = None,
    ) -> None:
        check_options(timeout=timeout, run_timeout=run_timeout, max_turns=max_turns,
                      full_dial=full_dial, executors=executors, actors=actors)  # _setup.py
        self._agent = AgentPort(agent)
        self._agent_object = agent
        self._state = make_state(domain=domain, human=human, on_event=on_event,
                                 on_signal=on_signal, full_dial=full_dial, executors=executors,
                                 actors=actors, rules=rules, timeout=timeout,
                                 run_timeout=run_timeout)
        self._turns = Turns(self._state, self._agent,  # the turn loop (_turns.py)
                            timeout=None if timeout is None else float(timeout),
                            max_turns=max_turns)
        self._busy = False           # a say is running
        self._sync: SyncRunner | None = None  # the private loop of say_sync, made on first use
        self._carry: dict[str, Any] | None = None  # a restored snapshot's say, until resume()
        self._told_later = ToldLater()  # the charts told not drawn (_told_later.py)

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
        """The person's words from inside the conversation that have not reached the agent
        (and lines not from the person: a chart not drawn, ``chart_not_drawn``)."""
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
        if self._carry is not None:
            raise ConversationBusyError(
                "This conversation was restored while a say was going; "
                "`await conversation.resume()` takes it up first."
            )
        self._busy = True
        try:
            with interrupt_wakes_loop():  # the notebook's stop button cancels it at once
                return await self._turns.run(Say(text))
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

    # -- review and undo -----------------------------------------------------------------

    async def dry_run(self, action: str, payload: Any) -> dict[str, Any] | None:
        """What ``payload`` would do if ``action`` ran now, as the domain's ``dry_run`` says
        (for a card being edited): ``{'ok': True, 'summary', 'effect', 'code'?}``, or
        ``{'ok': False, 'error'}`` when it cannot say (the payload is refused, the dry run
        raised or took too long); None when the domain has none. Never changes anything.

            await conversation.dry_run("filter-rows", {"frame": "sales", ...})
        """
        if self._state.domain.spec(action) is None:
            return {"ok": False, "error": f"there is no action {action!r}"}
        check = await self._state.domain.validate(action, payload)
        if not check.ok:
            return {"ok": False, "error": str(check.issue().get("hint") or "the payload is "
                                              "not valid")}
        return await review_dry_run(self._state, action, payload)

    def undoable(self) -> dict[str, bool | str]:
        """Every done change the domain can take back: suggestion id → True when Undo would
        restore exactly what was there, else why not ("sales was changed again since")."""
        return undoable(self._state)

    async def undo(self, sid: str) -> Outcome | None:
        """Take back the done action ``sid`` (the domain's ``undo``): its second outcome,
        ``undone``, is owed to the agent and goes with the next message. When it cannot be
        undone exactly, or the undo raises, nothing changes: an 'undo-failed' event says why
        and None is returned. Refused while a say runs.

            outcome = await conversation.undo("sg-1")   # {'status': 'undone', …}
        """
        if self._busy:
            raise ConversationBusyError("Undo waits until the say that is running is over.")
        return await review_undo(self._state, sid)

    def chart_not_drawn(self, event: Mapping[str, Any], why: str) -> bool:
        """A surface could not draw the chart of the outcome ``event`` (this conversation's
        own event): the agent is owed one line saying so and ``why``, once, with the next
        message; nothing is sent now (_told_later.py). Whether a line was owed.

            conversation.chart_not_drawn(outcome_event, "The chart was not drawn: too big.")
        """
        return self._told_later.chart_not_drawn(self._state.events.transcript,
                                                self._state.owed_words, event, why)

    # -- saving and carrying on ----------------------------------------------------------

    def snapshot(self, *, surface: Any = None) -> dict[str, Any]:
        """The conversation as plain JSON: everything needed to carry on in a new kernel.

        It holds the transcript, what the agent is owed, the context, the id counters, the
        say that is going (the reply being handled and where it stands), the card waiting
        for the person, the runs going, and ``agent.snapshot()`` when the agent keeps state
        of its own (never a key: the agents leave secrets out). ``surface`` is kept as it
        is, for the surface that saves it (the ChatWidget's entries). Exact whenever the
        conversation waits — for the person, the agent or a run — and at every event: taken
        inside the ``on_event`` callback, it holds what that event reports and what it does
        not yet (_state.py: record, then tell), so an autosave on every event carries on
        exactly. See ``_saving.py`` for what it holds, ``_snapshot.py`` for the format.

            data = conversation.snapshot()
            later = Conversation.restore(data, agent=agent, domain=domain, human=human)
        """
        return plain(self.snapshot_view(surface=surface))

    def snapshot_view(self, *, surface: Any = None) -> dict[str, Any]:
        """``snapshot()`` without the copy: it shares the conversation's own lists, so write
        it out at once and do not change it (what a surface that saves often uses)."""
        return snapshot_view(self._state, going=self._turns.going, carry=self._carry,
                             agent=self._agent_object, surface=surface)

    @classmethod
    def restore(cls, snapshot: Mapping[str, Any] | str | os.PathLike[str], *,
                agent: Agent | Callable[[str], Any], domain: Domain, human: Human,
                on_event: OnEvent | None = None, **options: Any) -> Conversation:
        """A conversation that carries on from ``snapshot`` (a dict, or the path of a JSON
        file): its transcript, what is owed, context and counters are back, and the agent's
        own state when it keeps one (``agent.restore``). ``options`` are those of
        ``Conversation`` (``full_dial`` defaults to the snapshot's).

        When the snapshot was taken while a say was going, ``needs_resume`` is True and
        ``await conversation.resume()`` takes it up. A malformed or tampered snapshot raises
        ``SnapshotError`` naming what is wrong; nothing in it can make an action run.

            conversation = Conversation.restore("eda.json", agent=agent, domain=domain,
                                                human=human)
            await conversation.resume()
        """
        data = read_checked(snapshot)
        options.setdefault("full_dial", data.get("full_dial", True))
        conversation = cls(agent=agent, domain=domain, human=human, on_event=on_event,
                           **options)
        restore_agent(agent, data.get("agent"))
        conversation._carry = fill(conversation._state, data)
        return conversation

    @property
    def needs_resume(self) -> bool:
        """True when the conversation was restored while a say was going (or a run), and
        ``resume()`` has not taken it up yet."""
        return self._carry is not None

    async def resume(self) -> SayResult | None:
        """Take up the say that was going when the restored snapshot was taken; None when
        there is none.

        The reply being handled carries on where it stood: the card the person was deciding
        is offered again (re-checked against the domain as it is now: refused, or its action
        gone, it ends ``invalid``), the rest of the reply follows, then the turns as usual. A
        run that had started and not ended is never run again: it ends ``failed`` with code
        ``interrupted``. A say that was waiting for the agent's reply ends ``no-reply`` (what
        it carried is still owed). See ``_restoring.py`` and ``_resume.py``.

            result = await conversation.resume()
        """
        carry = self._carry
        if carry is None:
            return None
        if self._busy:
            raise ConversationBusyError("This conversation is already running a say().")
        self._busy = True
        self._carry = None
        try:
            return await take_up(self._turns, carry)
        finally:
            self._busy = False
            self._state.pending = None

    def __repr__(self) -> str:
        return (f"<Conversation events={len(self.transcript)} "
                f"owed={len(self._state.owed_outcomes)} busy={self._busy}>")
