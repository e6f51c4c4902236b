"""LearnerAgent: the playground's agent, played by the learner.

The reply the learner typed is armed before each send; the runtime's next call to the agent
gets it. Any call after that (the turn the runtime takes after an outcome or an answer) gets a
short canned acknowledgement, so the conversation comes to rest.

    send ─ a reply armed? ─ yes ─▶ that reply (disarmed)
                          └ no  ─▶ FOLLOW_UP

    >>> import asyncio
    >>> agent = LearnerAgent()
    >>> agent.arm("<dial><dial-inform>hi</dial-inform></dial>")
    >>> asyncio.run(agent.send("hello"))
    '<dial><dial-inform>hi</dial-inform></dial>'
    >>> asyncio.run(agent.send("outcome")) == FOLLOW_UP
    True
"""

from __future__ import annotations

#: What the agent answers when the learner has not armed a reply.
FOLLOW_UP = ('<dial version="0.1" actor="agent">'
             "<dial-acknowledge>Noted, thank you.</dial-acknowledge></dial>")


class LearnerAgent:
    """An agent whose next reply is whatever the learner typed; a canned one after that.

    ``received`` holds every message the runtime sent, in order.
    """

    def __init__(self, follow_up: str = FOLLOW_UP) -> None:
        self.follow_up = follow_up
        self.received: list[str] = []
        self._armed: str | None = None

    def arm(self, reply: str) -> None:
        """Make ``reply`` the answer to the next message (replacing one armed before)."""
        self._armed = str(reply)

    @property
    def armed(self) -> str | None:
        """The reply waiting for the next message, if any."""
        return self._armed

    async def send(self, message: str) -> str:
        """The armed reply, once; the follow-up otherwise."""
        self.received.append(message)
        reply, self._armed = self._armed, None
        return self.follow_up if reply is None else reply
