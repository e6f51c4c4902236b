"""ScriptedAgent: replays replies in order — for tests, teaching and demos.

A reply is a string, or a callable of the message (so a script can react to what the runtime
sent, e.g. read an outcome); an exception instance is raised instead of replying (a transport
that fails), and ``ScriptedAgent.HANG`` never replies (an agent that times out). Every message
received is kept in ``received``; ``replies`` holds the ones not used yet, in order (a script
may add to it as it goes).

    >>> agent = ScriptedAgent(["<dial><dial-inform>hi</dial-inform></dial>",
    ...                        lambda message: f"You said {len(message)} characters."])
    >>> agent.send("hello")
    '<dial><dial-inform>hi</dial-inform></dial>'
    >>> agent.send("hello")
    'You said 5 characters.'
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from typing import ClassVar

Reply = str | Callable[[str], str] | BaseException | object


class ScriptExhaustedError(LookupError):
    """A ``ScriptedAgent`` was sent more messages than it has replies."""


class _Hang:
    def __repr__(self) -> str:
        return "ScriptedAgent.HANG"


class ScriptedAgent:
    """An agent that answers each message with the next scripted reply.

    Args:
        replies: strings, callables ``reply(message) -> str``, exceptions (raised instead of
            a reply) or ``ScriptedAgent.HANG`` (no reply, ever), used in order.

    Raises ``ScriptExhaustedError`` (naming how many replies it had and the message it could
    not answer) when sent more messages than it has replies.
    """

    #: A reply that never comes: the send blocks (the runtime's timeout ends it).
    HANG: ClassVar[object] = _Hang()

    def __init__(self, replies: Iterable[Reply]) -> None:
        #: The replies not used yet, in order.
        self.replies: list[Reply] = list(replies)
        for reply in self.replies:
            if not (isinstance(reply, str | BaseException) or callable(reply)
                    or reply is ScriptedAgent.HANG):
                raise TypeError(
                    f"ScriptedAgent: each reply is a str, a callable of the message, an "
                    f"exception or ScriptedAgent.HANG, not {type(reply).__name__}"
                )
        #: Every message received, in order.
        self.received: list[str] = []

    @property
    def remaining(self) -> int:
        """Replies not used yet."""
        return len(self.replies)

    def send(self, message: str) -> str:
        """The next reply (called with ``message`` when it is a callable)."""
        if not self.replies:
            shown = message if len(message) <= 80 else message[:77] + "..."
            raise ScriptExhaustedError(
                f"ScriptedAgent ran out of replies: it had {len(self.received)} and was sent "
                f"message {len(self.received) + 1}: {shown!r}"
            )
        self.received.append(message)
        reply = self.replies.pop(0)
        if reply is ScriptedAgent.HANG:
            threading.Event().wait()  # for ever: the send runs on a daemon worker thread
        if isinstance(reply, BaseException):
            raise reply
        text = reply(message) if callable(reply) else reply
        if not isinstance(text, str):
            raise TypeError(f"ScriptedAgent: reply {len(self.received)} returned "
                            f"{type(text).__name__}, not the reply text")
        return text

    def __repr__(self) -> str:
        return f"ScriptedAgent(received={len(self.received)}, remaining={self.remaining})"
