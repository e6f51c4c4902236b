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

Cancelling the task that runs ``say`` (a kernel interrupt: the stop button stops a cell that
awaits a say at once, ../_interrupt.py) ends the say with CancelledError and leaves the
conversation usable: the suggestion the person was deciding and the reply's remaining
ones end ``superseded``, and all of it is owed. Stop stops the agent, not the work: a run the
person approved that has started goes on to its real end (within ``run_timeout``), and that
outcome is told with the next say.

``snapshot()`` is the conversation as plain JSON at any moment it waits (for the person, the
agent or a run) and at every event (taken inside ``on_event``: each event is emitted only once
what it reports is recorded, _state.py), and ``Conversation.restore(snapshot, …)`` carries on
from it in a new kernel:
``resume()`` takes up the say that was going where it stood — the card the person was deciding
comes back (re-checked against the domain), a run that was going ends ``failed`` (code
``interrupted``), never run again (_snapshot.py, _resume.py). A say being stopped is over from
the stop's first event on: a snapshot then holds what the stop settles, and no say to take up.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from .._interrupt import interrupt_wakes_loop
from ..dial import MAX_REPLY_CHARS, outcome_reply
from ._events import Event, Events, OnEvent
from ._executors import Executors
from ._outcomes import Outcome
from ._ports import Agent, AgentPort, Domain, DomainPort, Human, HumanPort
from ._reply import KEPT_OF_TOO_LONG, handle
from ._resume import Restored, settle_interrupted
from ._review import dry_run as review_dry_run
from ._review import undo as review_undo
from ._review import undoable
from ._rules import RulesPort
from ._snapshot import FORMAT, VERSION, SnapshotError, load_snapshot, read_snapshot
from ._state import Reply, State, running_key
from ._streaming import StreamProgress
from ._suggestion import MAX_EDIT_ATTEMPTS
from ._sync import BlockingSayError, SyncRunner
from ._values import PendingAsk, Suggestion
from ._yields import Resolution


class ConversationBusyError(RuntimeError):
    """``say`` was called while another ``say`` of the same conversation was running."""


class _NoReply(Exception):
    pass


def _seconds(limit: float | None, default: float | None) -> float | None:
    chosen = limit if limit is not None else default
    return None if chosen is None else float(chosen)


@dataclass(eq=False)
class _Say:
    """The say that is going: what a snapshot records of it."""

    text: str
    turn: int = 0
    #: 'composing' the message, 'sending' it (waiting for the reply), 'handling' the reply
    phase: str = "composing"
    #: The message once composed and announced ('sent'), before the agent is handed it.
    message: str | None = None
    reached: list[Outcome] = field(default_factory=list)
    reply: Reply | None = None
    reply_text: str = ""
    reply_chars: int = 0


def _plain(data: Any) -> Any:
    """``data`` as plain JSON values (a deep copy); what JSON cannot write becomes its text."""
    return json.loads(json.dumps(data, ensure_ascii=False, default=str))


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
        self._agent_object = agent
        events = Events(on_event, on_signal, signals_to_on_event=bool(full_dial))
        self._state = State(DomainPort(domain), HumanPort(human), events,
                            full=bool(full_dial), executors=Executors(executors),
                            actors=dict(actors or {}), run_timeout=_seconds(run_timeout, timeout),
                            rules=None if rules is None else RulesPort(rules))
        self._timeout = None if timeout is None else float(timeout)
        self._max_turns = max_turns
        self._busy = False           # a say is running
        self._sync: SyncRunner | None = None  # the private loop of say_sync, made on first use
        self._say: _Say | None = None  # the say that is going
        self._carry: dict[str, Any] | None = None  # a restored snapshot's say, until resume()

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
        if self._carry is not None:
            raise ConversationBusyError(
                "This conversation was restored while a say was going; "
                "`await conversation.resume()` takes it up first."
            )
        self._busy = True
        try:
            with interrupt_wakes_loop():  # the notebook's stop button cancels it at once
                return await self._loop(_Say(text))
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
        exactly. See ``_snapshot.py`` for the format.

            data = conversation.snapshot()
            later = Conversation.restore(data, agent=agent, domain=domain, human=human)
        """
        return _plain(self.snapshot_view(surface=surface))

    def snapshot_view(self, *, surface: Any = None) -> dict[str, Any]:
        """``snapshot()`` without the copy: it shares the conversation's own lists, so write
        it out at once and do not change it (what a surface that saves often uses)."""
        state = self._state
        # events recorded and not yet told (a step that tells several, taken in the middle)
        # are saved as told: the transcript a restored conversation carries on from
        replying = self._say.reply if self._say is not None else None
        told = state.events.transcript
        data: dict[str, Any] = {
            "format": FORMAT, "version": VERSION,
            "saved_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "full_dial": state.full,
            "transcript": told + replying.queued if replying and replying.queued else told,
            "owed": {"outcomes": state.owed_outcomes, "words": state.owed_words},
            "context": state.context, "presence": state.presence,
            "ids": {"suggestions": state.assigned, "asks": state.asked,
                    "executes": state.executed, "delegations": state.delegated,
                    "replies": state.replies},
            "running": list(state.running.values()),
            "say": None, "pending": None,
        }
        if self._carry is not None:  # restored and not yet taken up: as it was read
            data["say"], data["pending"] = self._carry.get("say"), self._carry.get("pending")
        elif self._say is not None and not (self._say.reply and self._say.reply.stopped):
            data["say"] = self._say_snapshot(self._say)  # (a stopped one is over: not saved)
            data["pending"] = _pending_snapshot(state.pending) if data["say"]["reply"] else None
        snapshot_of_agent = getattr(self._agent_object, "snapshot", None)
        if callable(snapshot_of_agent):
            data["agent"] = snapshot_of_agent()
        if surface is not None:
            data["surface"] = surface
        return data

    @staticmethod
    def _say_snapshot(say: _Say) -> dict[str, Any]:
        reply = say.reply
        saved: dict[str, Any] = {"text": say.text, "turn": say.turn, "phase": say.phase,
                                 "reached": say.reached, "reply": None}
        if say.phase == "composing" and say.message is not None:
            saved["message"] = say.message  # announced, not yet handed to the agent
        if reply is not None and say.phase == "handling":
            saved["reply"] = {
                "serial": reply.serial, "turn": reply.turn,
                # a reply too long to read is kept by its beginning: its length says so
                "text": (say.reply_text if say.reply_chars <= MAX_REPLY_CHARS
                         else say.reply_text[:KEPT_OF_TOO_LONG]),
                "chars": say.reply_chars,
                "resolved": [[g, i, r.how, r.answer, r.note]
                             for (g, i), r in reply.resolved.items()],
                "skipped": [list(key) for key in sorted(reply.skipped)],
                "current": list(reply.current) if reply.current else None,
                "current_ids": list(reply.current_ids) if reply.current_ids else None,
                "current_from": reply.current_from if reply.current else None,
                "outcomes": reply.outcomes,
                "answers": [[ask.to_dict(), answer] for ask, answer in reply.answers],
                "said": reply.said,
            }
        return saved

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
        if isinstance(snapshot, str | os.PathLike):
            data = _plain(load_snapshot(snapshot))
        else:
            data = _plain(read_snapshot(snapshot))
        options.setdefault("full_dial", data.get("full_dial", True))
        conversation = cls(agent=agent, domain=domain, human=human, on_event=on_event,
                           **options)
        saved_agent = data.get("agent")
        restore_agent = getattr(agent, "restore", None)
        if saved_agent is not None and callable(restore_agent):
            try:
                restore_agent(saved_agent)
            except ValueError as exc:
                raise SnapshotError(f"agent: {exc}") from None
        state = conversation._state
        state.events.transcript.extend(data["transcript"])
        owed = data.get("owed") or {}
        state.owed_outcomes.extend(owed.get("outcomes") or [])
        state.owed_words.extend(owed.get("words") or [])
        state.context.update(data.get("context") or {})
        state.presence.update(data.get("presence") or {})
        ids = data.get("ids") or {}
        state.set_ids((ids.get("suggestions", 0), ids.get("asks", 0), ids.get("executes", 0),
                       ids.get("delegations", 0)))
        state.replies = ids.get("replies", 0)
        state.running.update({running_key(entry.get("reply"), entry["id"]): entry
                              for entry in data.get("running") or []})
        saying = data.get("say") or {}
        if saying.get("message") is not None:  # announced: the last event says so
            last = data["transcript"][-1] if data["transcript"] else {}
            if last != {"type": "sent", "turn": saying["turn"], "message": saying["message"]}:
                raise SnapshotError("say.message is not the message the transcript's last "
                                    "'sent' event announced")
        if data.get("say") is not None or state.running:
            conversation._carry = {"say": data.get("say"), "pending": data.get("pending")}
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
        it carried is still owed). See ``_resume.py``.

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
            return await self._take_up(carry)
        finally:
            self._busy = False
            self._state.pending = None

    async def _take_up(self, carry: dict[str, Any]) -> SayResult:
        state = self._state
        saved = carry.get("say")
        say = _Say(text="") if saved is None else _Say(
            text=saved.get("text", ""), turn=saved["turn"], phase=saved["phase"],
            reached=list(saved.get("reached") or []))
        replying = saved.get("reply") if saved is not None else None
        serial = replying["serial"] if replying else None
        detached = Reply(state, say.reached)
        for entry in list(state.running.values()):
            if serial is None or entry.get("reply") != serial:
                settle_interrupted(detached, entry)  # a run outside the reply being handled
        if saved is None:
            return SayResult("idle", 0, say.reached)
        if say.phase == "sending":
            state.events.emit({"type": "no-reply", "turn": say.turn,
                               "error": "The kernel stopped before the agent replied; what "
                                        "the message carried goes with the next one."})
            return SayResult("no-reply", say.turn, say.reached)
        if say.phase == "composing":
            if saved.get("message") is not None:  # announced (restore checked): handed over now
                return await self._loop(say, announced=saved["message"])
            say.turn -= 1  # the turn starts again
            return await self._loop(say)
        reply = self._restored_reply(say, replying or {}, carry.get("pending"))
        return await self._loop(say, reply)

    def _restored_reply(self, say: _Say, saved: dict[str, Any],
                        pending: dict[str, Any] | None) -> Reply:
        state = self._state
        reply = Reply(state, say.reached, turn=saved["turn"], serial=saved["serial"])
        say.reply, say.reply_text = reply, saved["text"]
        say.reply_chars = saved.get("chars", len(saved["text"]))
        reply.outcomes = list(saved.get("outcomes") or [])
        try:
            reply.answers = [(PendingAsk(**ask), answer)
                             for ask, answer in saved.get("answers") or []]
        except TypeError as exc:
            raise SnapshotError(f"say.reply.answers: {exc}") from None
        reply.said = saved.get("said")
        reply.resolved = {(g, i): Resolution(how, answer, note)
                          for g, i, how, answer, note in saved.get("resolved") or []}
        reply.skipped = {(g, i) for g, i in saved.get("skipped") or []}
        current = saved.get("current")
        ids = saved.get("current_ids")
        since = saved.get("current_from") if current else None
        # what the item going at the snapshot had shown: the transcript since it began (a
        # snapshot that does not say where: the card or question waiting for the person)
        shown = list(state.events.transcript[since:]) if isinstance(since, int) else []
        if pending is not None:
            value = pending["value"]
            kinds = ("suggestion",) if pending["kind"] == "suggestion" else ("ask",)
            card = next((e for e in reversed(state.events.transcript)
                         if e.get("type") in kinds and e.get("id") == value.get("id")), None)
            if since is None and card is not None:
                shown = [card]
            if pending["kind"] == "suggestion" and value.get("edits_left") is not None:
                try:
                    card = Suggestion(**value)
                except TypeError as exc:
                    raise SnapshotError(f"pending.value: {exc}") from None
                state.resumed[card.id] = (card, MAX_EDIT_ATTEMPTS - int(card.edits_left or 0))
        reply.restored = Restored(current=tuple(current) if current else None,  # type: ignore[arg-type]
                                  ids=tuple(ids) if ids else None,  # type: ignore[arg-type]
                                  shown=shown, since=since)
        return reply

    # -- the turn loop --------------------------------------------------------------------

    async def _loop(self, say: _Say, restored: Reply | None = None, *,
                    announced: str | None = None) -> SayResult:
        """The turns of ``say``; ``restored``: a reply to take up first; ``announced``: a
        restored say's message, already in the transcript, to hand to the agent first.

        Record, then tell (_state.py): each event is emitted once the say's record says what
        it reports — the message composed before 'sent', the say over before 'turn-limit'
        and 'no-reply', the reply being handled before 'reply'."""
        state = self._state
        self._say = say
        try:
            if restored is not None:  # a restored reply, taken up where it stood
                await handle(restored, restored.turn, say.reply_text, say.reply_chars)
                if not restored.needs_turn():
                    return SayResult("idle", say.turn, say.reached)
            while True:
                outcomes = len(state.owed_outcomes)
                words = len(state.owed_words)
                if announced is not None:
                    message, announced = announced, None
                else:
                    say.turn += 1
                    say.phase, say.reply, say.message = "composing", None, None
                    if say.turn > self._max_turns:
                        self._say = None  # the say is over
                        state.events.emit({"type": "turn-limit", "turns": self._max_turns})
                        return SayResult("turn-limit", self._max_turns, say.reached)
                    spoken = ([*state.owed_words, say.text] if say.turn == 1
                              else list(state.owed_words))
                    message = await self._compose(state.owed_outcomes[:outcomes], spoken)
                    say.message = message
                    state.events.emit({"type": "sent", "turn": say.turn, "message": message})
                say.phase, say.message = "sending", None
                try:
                    reply_text = await self._send(message, say.turn)
                except _NoReply as exc:
                    self._say = None  # the say is over
                    state.events.emit({"type": "no-reply", "turn": say.turn, "error": str(exc)})
                    return SayResult("no-reply", say.turn, say.reached)
                # the agent has the message: what it carried is no longer owed
                del state.owed_outcomes[:outcomes]
                del state.owed_words[:words]
                state.replies += 1
                reply = Reply(state, say.reached, serial=state.replies)
                say.phase, say.reply = "handling", reply
                say.reply_text, say.reply_chars = reply_text, self._agent.chars
                await handle(reply, say.turn, reply_text, self._agent.chars)
                if not reply.needs_turn():
                    return SayResult("idle", say.turn, say.reached)
        finally:
            self._say = None

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


def _pending_snapshot(pending: Suggestion | PendingAsk | None) -> dict[str, Any] | None:
    if isinstance(pending, Suggestion):
        return {"kind": "suggestion", "value": pending.to_dict()}
    if isinstance(pending, PendingAsk):
        return {"kind": "ask", "value": pending.to_dict()}
    return None
