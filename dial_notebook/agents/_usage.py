"""Token usage, per completed turn, as the API reported it.

A turn's counts are what the server said (``None`` for what it did not say); an agent's
``usage`` adds up what is known:

    >>> usage = Usage()
    >>> usage.record(TurnUsage(input=12, output=30, total=42))
    >>> usage.record(TurnUsage(input=None, output=None, total=None))  # the server said nothing
    >>> summary = usage.summary()
    >>> summary["input"], summary["output"], summary["total"]
    (12, 30, 42)
    >>> summary["turns"][1]
    {'input': None, 'output': None, 'total': None}
"""

from __future__ import annotations

from typing import Any, TypedDict


class TurnUsage(TypedDict):
    """The tokens of one turn: the prompt's (``input``), the reply's, and both."""

    input: int | None
    output: int | None
    total: int | None


def unknown() -> TurnUsage:
    """A turn whose server reported nothing (yet)."""
    return TurnUsage(input=None, output=None, total=None)


def count(value: Any) -> int | None:
    """``value`` when it is a token count, else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def completed(turn: TurnUsage) -> TurnUsage:
    """``turn`` with its total made from input and output when the server gave none."""
    if turn["total"] is None and turn["input"] is not None and turn["output"] is not None:
        return TurnUsage(input=turn["input"], output=turn["output"],
                         total=turn["input"] + turn["output"])
    return TurnUsage(input=turn["input"], output=turn["output"], total=turn["total"])


class Usage:
    """The usage of every completed turn of one conversation, in order."""

    def __init__(self) -> None:
        self.turns: list[TurnUsage] = []

    def record(self, turn: TurnUsage) -> None:
        """Add a completed turn's usage."""
        self.turns.append(completed(turn))

    def clear(self) -> None:
        """Forget every turn."""
        self.turns.clear()

    def summary(self) -> dict[str, Any]:
        """``{"turns": [...], "input": sum, "output": sum, "total": sum}`` (sums of what is
        known), a copy."""
        turns = [TurnUsage(**turn) for turn in self.turns]
        return {"turns": turns,
                "input": sum(turn["input"] or 0 for turn in turns),
                "output": sum(turn["output"] or 0 for turn in turns),
                "total": sum(turn["total"] or 0 for turn in turns)}
