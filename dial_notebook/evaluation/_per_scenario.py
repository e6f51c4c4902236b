# What each scenario of an evaluation has of its own: an agent made fresh (its tokens read and
# its connections closed after), and a domain and a human made for it when given as factories.
"""Making, reading and closing each scenario's own agent, domain and human.

    >>> make = maker({"run": 1}, ("run",))   # not a factory: one object shared by every scenario
    >>> make() is make()
    True
    >>> class Agent:
    ...     usage = {"input": 3, "output": 4.0, "total": -1}
    >>> tokens_of(Agent())
    {'input': 3, 'output': 4, 'total': None}
"""

from __future__ import annotations

import contextlib
import inspect
from collections.abc import Callable, Mapping
from typing import Any


def agent_factory(agent: Any) -> Callable[[], Any]:
    """``agent`` when it is a factory (each scenario gets an agent of its own); ``TypeError``
    for an agent object."""
    if not callable(agent) or (not isinstance(agent, type) and hasattr(agent, "send")):
        raise TypeError(
            "evaluate: agent must be a factory that makes a fresh agent for each scenario "
            f"(pass agent=lambda: MyAgent(...)), not {type(agent).__name__} object")
    return agent


def maker(value: Any, needs: tuple[str, ...]) -> Callable[[], Any]:
    """A function giving the object for one scenario: a factory is called each time (a class,
    or a callable lacking ``needs``), anything else is shared."""
    if isinstance(value, type) or (callable(value) and not any(hasattr(value, n)
                                                                for n in needs)):
        return value
    return lambda: value


def tokens_of(agent: Any) -> dict[str, Any] | None:
    """The agent's ``usage`` (input, output and total tokens), or None when it keeps none."""
    try:
        usage = getattr(agent, "usage", None)
    except Exception:
        return None
    if not isinstance(usage, Mapping):
        return None
    return {key: _count(usage.get(key)) for key in ("input", "output", "total")}


def _count(value: Any) -> int | None:
    """A token count as a whole number ≥ 0, or None (a server's odd value is not kept: the
    saved report must read back)."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


async def close_agent(agent: Any) -> None:
    """Close the scenario's agent (its HTTP client and connections), if it can be closed; a
    failure to close is not the scenario's outcome."""
    closer = getattr(agent, "aclose", None) or getattr(agent, "close", None)
    if not callable(closer):
        return
    with contextlib.suppress(Exception):
        done = closer()
        if inspect.isawaitable(done):
            await done
