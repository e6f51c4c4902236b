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

``snapshot()`` says how many replies were used; ``restore`` takes a new agent with the same
script to that point, so it goes on with the next reply:

    >>> first = ScriptedAgent(["one", "two"])
    >>> first.send("hi")
    'one'
    >>> again = ScriptedAgent(["one", "two"])
    >>> again.restore(first.snapshot())
    >>> again.send("hi")
    'two'
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Callable, Iterable
from typing import Any, ClassVar

from . import _saved

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
        # the replies taken so far, in order, and which of them are still being given (a
        # send in flight): a snapshot counts only those before the first one in flight
        self._used: list[Reply] = []
        self._giving: set[int] = set()
        self._lock = threading.Lock()

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
        reply, number = self._next(message)
        if reply is ScriptedAgent.HANG:
            threading.Event().wait()  # for ever: the send runs on a daemon worker thread
        try:
            return self._text(reply, message)
        finally:
            self._given(number)

    async def stream_reply(self, message: str) -> AsyncIterator[str]:
        """The next reply, in ``pieces`` pieces (one without ``pieces``), ``delay`` seconds
        apart; ``HANG`` waits for ever (until cancelled), an exception is raised."""
        reply, number = self._next(message)
        if reply is ScriptedAgent.HANG:
            await asyncio.Event().wait()
        try:
            text = self._text(reply, message)
            for index, piece in enumerate(split(text, self.pieces or 1)):
                if index and self.delay:
                    await asyncio.sleep(self.delay)
                yield piece
        finally:  # given, failed, or stopped: used, as an uninterrupted agent would count it
            self._given(number)

    # -- saving ---------------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """How far the script is, as plain JSON: ``{"kind": "scripted", "version": 1,
        "used": 2}``. ``used`` counts the replies given (or raised) before the first one
        still being given: a snapshot taken while a reply is in flight is the point before
        that send, and a restored agent gives that reply again to the same message. A
        ``HANG`` counts as used as soon as it is taken (it never ends by itself).

            >>> agent = ScriptedAgent(["a", "b", "c"])
            >>> agent.send("hi")
            'a'
            >>> agent.snapshot()
            {'kind': 'scripted', 'version': 1, 'used': 1}
        """
        with self._lock:
            used = min(self._giving) if self._giving else len(self._used)
        return {**_saved.header("scripted"), "used": used}

    def restore(self, data: Any) -> None:
        """Go to the point of a ``snapshot()`` of an agent with the same script: the first
        ``used`` replies are taken as given (put back first, if this agent had gone further),
        the next send gives the one after them. ``received`` is left as it is. A wrong
        ``data`` raises ``ValueError`` naming what is wrong, and changes nothing.
        """
        saved = _saved.Saved(data, "scripted", "ScriptedAgent")
        saved.fields("used")
        used = saved.count("used")
        with self._lock:
            script = [*self._used, *self.replies]
            if used > len(script):
                saved.fail(f"used is {used}, but this script has {len(script)} "
                           f"repl{'y' if len(script) == 1 else 'ies'}")
            if self._giving:
                saved.fail("a reply is being given (restore an agent that is not sending)")
            self._used[:] = script[:used]
            self.replies[:] = script[used:]

    # -- internals ------------------------------------------------------------------------

    def _next(self, message: str) -> tuple[Reply, int]:
        with self._lock:
            if not self.replies:
                shown = message if len(message) <= 80 else message[:77] + "..."
                had = len(self._used)
                raise ScriptExhaustedError(
                    f"ScriptedAgent ran out of replies: it had {had} and was sent "
                    f"message {had + 1}: {shown!r}"
                )
            self.received.append(message)
            reply = self.replies.pop(0)
            number = len(self._used)
            self._used.append(reply)
            if reply is not ScriptedAgent.HANG:
                self._giving.add(number)
            return reply, number

    def _given(self, number: int) -> None:
        with self._lock:
            self._giving.discard(number)

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
