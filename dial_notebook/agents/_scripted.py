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

Given ``pieces`` it streams, as a model does: ``streams`` is True (the runtime then reads
``stream_reply``) and each reply comes in that many pieces, ``delay`` seconds apart; without,
``streams`` is False and the runtime calls ``send``.

    >>> import asyncio
    >>> typist = ScriptedAgent(["Hello there."], pieces=3, delay=0.01)
    >>> async def read():
    ...     return [piece async for piece in typist.stream_reply("hi")]
    >>> asyncio.run(read())
    ['Hell', 'o th', 'ere.']
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Callable, Iterable
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
        pieces: stream each reply in this many pieces (as even as can be; fewer for a reply
            shorter than that): ``streams`` is then True. None (the default): no streaming.
        delay: seconds between two pieces of a streamed reply (``asyncio.sleep``).

    Raises ``ScriptExhaustedError`` (naming how many replies it had and the message it could
    not answer) when sent more messages than it has replies.

        agent = ScriptedAgent([reply], pieces=8, delay=0.05)  # a reply typed out in 0.35 s
        chat = ChatWidget(agent=agent, domain=notes)
    """

    #: A reply that never comes: the send blocks (the runtime's timeout ends it).
    HANG: ClassVar[object] = _Hang()

    def __init__(self, replies: Iterable[Reply], *, pieces: int | None = None,
                 delay: float = 0.0) -> None:
        if pieces is not None and (isinstance(pieces, bool) or not isinstance(pieces, int)
                                   or pieces < 1):
            raise ValueError(f"ScriptedAgent: pieces must be a whole number from 1, or None, "
                             f"not {pieces!r}")
        if not isinstance(delay, int | float) or isinstance(delay, bool) or not delay >= 0:
            raise ValueError(f"ScriptedAgent: delay must be seconds, 0 or more, not {delay!r}")
        #: Pieces per streamed reply (None: the agent does not stream).
        self.pieces = pieces
        #: Seconds between two pieces of a streamed reply.
        self.delay = float(delay)
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

    @property
    def streams(self) -> bool:
        """True when made with ``pieces``: the runtime reads ``stream_reply``."""
        return self.pieces is not None

    def send(self, message: str) -> str:
        """The next reply (called with ``message`` when it is a callable)."""
        reply = self._next(message)
        if reply is ScriptedAgent.HANG:
            threading.Event().wait()  # for ever: the send runs on a daemon worker thread
        return self._text(reply, message)

    async def stream_reply(self, message: str) -> AsyncIterator[str]:
        """The next reply, in ``pieces`` pieces (one without ``pieces``), ``delay`` seconds
        apart; ``HANG`` waits for ever (until cancelled), an exception is raised."""
        reply = self._next(message)
        if reply is ScriptedAgent.HANG:
            await asyncio.Event().wait()
        text = self._text(reply, message)
        for number, piece in enumerate(split(text, self.pieces or 1)):
            if number and self.delay:
                await asyncio.sleep(self.delay)
            yield piece

    def _next(self, message: str) -> Reply:
        if not self.replies:
            shown = message if len(message) <= 80 else message[:77] + "..."
            raise ScriptExhaustedError(
                f"ScriptedAgent ran out of replies: it had {len(self.received)} and was sent "
                f"message {len(self.received) + 1}: {shown!r}"
            )
        self.received.append(message)
        return self.replies.pop(0)

    def _text(self, reply: Reply, message: str) -> str:
        if isinstance(reply, BaseException):
            raise reply
        text = reply(message) if callable(reply) else reply
        if not isinstance(text, str):
            raise TypeError(f"ScriptedAgent: reply {len(self.received)} returned "
                            f"{type(text).__name__}, not the reply text")
        return text

    def __repr__(self) -> str:
        streaming = f", pieces={self.pieces}, delay={self.delay:g}" if self.streams else ""
        return (f"ScriptedAgent(received={len(self.received)}, remaining={self.remaining}"
                f"{streaming})")


def split(text: str, pieces: int) -> list[str]:
    """``text`` in ``pieces`` consecutive pieces as even as can be (fewer, none empty, when it
    is shorter; none for an empty text).

        >>> split("abcdefg", 3)
        ['abc', 'de', 'fg']
    """
    count = min(pieces, len(text))
    size, longer = divmod(len(text), count) if count else (0, 0)
    out, start = [], 0
    for number in range(count):
        end = start + size + (number < longer)
        out.append(text[start:end])
        start = end
    return out
