"""The conversation as a model sees it: the system prompt, then user / assistant turns in order.

A turn is kept only once its reply arrived, so a send that failed, timed out or was cancelled
leaves the history as it was (the runtime sends what was owed again with the next turn).

    >>> history = History("You speak DIAL.")
    >>> history.commit("add a note: milk", "<dial>…</dial>")
    >>> [m["role"] for m in history.openai_messages("and another")]
    ['system', 'user', 'assistant', 'user']
"""

from __future__ import annotations

from typing import Any

Message = dict[str, Any]


class History:
    """The system prompt and the completed turns of one conversation with a model."""

    def __init__(self, system: str) -> None:
        self.system = system
        #: Completed turns: ``{"role": "user" | "assistant", "content": text}`` in order.
        self.turns: list[Message] = []

    def openai_messages(self, message: str) -> list[Message]:
        """Chat-completions messages for sending ``message``: the system prompt first."""
        system = [{"role": "system", "content": self.system}] if self.system else []
        return [*system, *self.turns, {"role": "user", "content": message}]

    def anthropic_messages(self, message: str) -> list[Message]:
        """Messages-API messages for sending ``message`` (the system prompt goes separately)."""
        return [*self.turns, {"role": "user", "content": message}]

    def commit(self, message: str, reply: str) -> None:
        """Record a completed turn: what was sent and what came back."""
        self.turns.append({"role": "user", "content": message})
        self.turns.append({"role": "assistant", "content": reply})

    def clear(self) -> None:
        """Forget every turn (the system prompt stays)."""
        self.turns.clear()

    def __len__(self) -> int:
        return len(self.turns)
