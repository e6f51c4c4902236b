"""The turn loop of a conversation: one ``say`` as turns, until the agent needs nothing back.

    say(text) ─▶ turn 1, 2 … up to max_turns:
        message = [outcome reply of what is owed] + [domain.context()] + [the person's words]
                  (parts left out when empty, joined by one blank line)
        'sent' ─▶ agent.send(message) ─ no reply within timeout ─▶ 'no-reply'  → status no-reply
                                       └ raises ─▶ the error propagates (nothing owed is lost)
        'reply' ─▶ its elements handled in order (_reply.py; suggestions: _suggestion.py)
        a turn follows only for the person's words (an answer; what they wrote instead of
        deciding) or a done / failed / invalid outcome; otherwise ─▶ status idle
    past max_turns ─▶ 'turn-limit' → status turn-limit

What the message carries stops being owed (_state.py) only once the agent replied to it. A
streamed reply's pieces become 'progress' events on the way (_streaming.py).

Record, then tell (_state.py): ``Say`` is what a snapshot records of the say that is going
(``Turns.going``, read by _saving.py), and each event is emitted once it says what the event
reports — the message composed before 'sent', the say over before 'turn-limit' and
'no-reply', the reply being handled before 'reply'.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from ..dial import outcome_reply
from ._outcomes import Outcome
from ._ports import AgentPort
from ._reply import handle
from ._state import Reply, State
from ._streaming import StreamProgress


class NoReply(Exception):
    """The agent did not reply within the conversation's timeout."""


@dataclass(frozen=True)
class SayResult:
    """How a ``say`` ended: ``status`` ('idle' | 'no-reply' | 'turn-limit'), the turns it
    took, and every outcome reached on the way (dicts, in order)."""

    status: str
    turns: int
    outcomes: list[Outcome] = field(default_factory=list)


@dataclass(eq=False)
class Say:
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


class Turns:
    """The turns of a conversation's says, over its ``state`` and ``agent``.

        result = await Turns(state, AgentPort(agent), timeout=90.0, max_turns=8).run(Say("hi"))
    """

    def __init__(self, state: State, agent: AgentPort, *, timeout: float | None,
                 max_turns: int) -> None:
        self.state = state
        self.agent = agent
        self.timeout = timeout  # seconds to wait for a reply (None: for ever)
        self.max_turns = max_turns
        self.going: Say | None = None  # the say that is going (what a snapshot records)

    async def run(self, say: Say, restored: Reply | None = None, *,
                  announced: str | None = None) -> SayResult:
        """The turns of ``say``; ``restored``: a reply to take up first; ``announced``: a
        restored say's message, already in the transcript, to hand to the agent first."""
        state = self.state
        self.going = say
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
                    if say.turn > self.max_turns:
                        self.going = None  # the say is over
                        state.events.emit({"type": "turn-limit", "turns": self.max_turns})
                        return SayResult("turn-limit", self.max_turns, say.reached)
                    spoken = ([*state.owed_words, say.text] if say.turn == 1
                              else list(state.owed_words))
                    message = await self._compose(state.owed_outcomes[:outcomes], spoken)
                    say.message = message
                    state.events.emit({"type": "sent", "turn": say.turn, "message": message})
                say.phase, say.message = "sending", None
                try:
                    reply_text = await self._send(message, say.turn)
                except NoReply as exc:
                    self.going = None  # the say is over
                    state.events.emit({"type": "no-reply", "turn": say.turn, "error": str(exc)})
                    return SayResult("no-reply", say.turn, say.reached)
                # the agent has the message: what it carried is no longer owed
                del state.owed_outcomes[:outcomes]
                del state.owed_words[:words]
                state.replies += 1
                reply = Reply(state, say.reached, serial=state.replies)
                say.phase, say.reply = "handling", reply
                say.reply_text, say.reply_chars = reply_text, self.agent.chars
                await handle(reply, say.turn, reply_text, self.agent.chars)
                if not reply.needs_turn():
                    return SayResult("idle", say.turn, say.reached)
        finally:
            self.going = None

    async def _compose(self, outcomes: list[Outcome], words: list[str]) -> str:
        parts = []
        if outcomes:
            parts.append(outcome_reply(outcomes))
        context = await self.state.domain.context()
        if context:
            parts.append(context)
        spoken = "\n\n".join(w for w in words if w)
        if spoken:
            parts.append(spoken)
        return "\n\n".join(parts)

    async def _send(self, message: str, turn: int) -> str:
        # a streamed reply's pieces become 'progress' events: readable (no markup), paced,
        # passed to on_event but not kept (the reply event keeps the text): _streaming.py
        progress = (StreamProgress(turn, self.state.events.transient)
                    if self.agent.streams else None)
        on_piece = progress.feed if progress is not None else None
        try:
            if self.timeout is None:
                return await self.agent.send(message, on_piece)
            timer = asyncio.timeout(self.timeout)
            try:
                async with timer:
                    return await self.agent.send(message, on_piece)
            except TimeoutError:
                if timer.expired():
                    raise NoReply(
                        f"The agent didn't reply within {self.timeout:g}s") from None
                raise
        finally:
            if progress is not None:
                progress.close()
