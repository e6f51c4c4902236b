"""ScriptedAgent: replays replies in order — for tests, teaching and demos.

A reply is a string, or a callable of the message (so a script can react to what the runtime
sent, e.g. read an outcome). Every message received is kept in ``received``.

    >>> agent = ScriptedAgent(["<dial><dial-inform>hi</dial-inform></dial>",
    ...                        lambda message: f"You said {len(message)} characters."])
    >>> agent.send("hello")
    '<dial><dial-inform>hi</dial-inform></dial>'
    >>> agent.send("hello")
    'You said 5 characters.'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

Reply = str | Callable[[str], str]


class ScriptExhaustedError(LookupError):
    """A ``ScriptedAgent`` was sent more messages than it has replies."""


class ScriptedAgent:
    """An agent that answers each message with the next scripted reply.

    Args:
        replies: strings, or callables ``reply(message) -> str``, used in order.

    Raises ``ScriptExhaustedError`` (naming how many replies it had and the message it could
    not answer) when sent more messages than it has replies.
    """

    def __init__(self, replies: Iterable[Reply]) -> None:
        self.replies: list[Reply] = list(replies)
        for reply in self.replies:
            if not (isinstance(reply, str) or callable(reply)):
                raise TypeError(
                    f"ScriptedAgent: each reply is a str or a callable of the message, "
                    f"not {type(reply).__name__}"
                )
        #: Every message received, in order.
        self.received: list[str] = []

    @property
    def remaining(self) -> int:
        """Replies not used yet."""
        return len(self.replies) - len(self.received)

    def send(self, message: str) -> str:
        """The next reply (called with ``message`` when it is a callable)."""
        used = len(self.received)
        if used >= len(self.replies):
            shown = message if len(message) <= 80 else message[:77] + "..."
            raise ScriptExhaustedError(
                f"ScriptedAgent ran out of replies: it had {len(self.replies)} and was sent "
                f"message {used + 1}: {shown!r}"
            )
        self.received.append(message)
        reply = self.replies[used]
        text = reply(message) if callable(reply) else reply
        if not isinstance(text, str):
            raise TypeError(f"ScriptedAgent: reply {used + 1} returned "
                            f"{type(text).__name__}, not the reply text")
        return text

    def __repr__(self) -> str:
        return f"ScriptedAgent(replies={len(self.replies)}, remaining={self.remaining})"
