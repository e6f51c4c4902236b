"""A Conversation's options: checked, then wired into the state every part of it shares.

    Conversation(agent=…, domain=…, human=…, on_event=…, timeout=…, max_turns=…, …)
        ─▶ check_options: each timeout a positive number of seconds or None, max_turns a
           whole number ≥ 1, executors and actors only with full_dial, actors a mapping
           (ValueError / TypeError naming the option, before anything is made)
        ─▶ the agent's port (the Conversation's, _ports.py), then make_state: the events
           (on_event, on_signal), the domain's and the human's ports (each checked for the
           methods it needs), the executors, actors, run_timeout (default: timeout), rules
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ._events import Events, OnEvent
from ._executors import Executors
from ._ports import Domain, DomainPort, Human, HumanPort
from ._rules import RulesPort
from ._state import State


def check_options(*, timeout: Any, run_timeout: Any, max_turns: Any, full_dial: Any,
                  executors: Any, actors: Any) -> None:
    """Raise ``ValueError`` / ``TypeError`` for an option that makes no sense.

        >>> check_options(timeout=0, run_timeout=None, max_turns=8, full_dial=True,
        ...               executors=None, actors=None)
        Traceback (most recent call last):
        ValueError: Conversation: timeout must be a positive number of seconds or None, not 0
    """
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


def make_state(*, domain: Domain, human: Human, on_event: OnEvent | None,
               on_signal: OnEvent | None, full_dial: bool, executors: Mapping[str, Any] | None,
               actors: Mapping[str, Any] | None, rules: Any, timeout: float | None,
               run_timeout: float | None) -> State:
    """The state of a new conversation, over its checked options."""
    events = Events(on_event, on_signal, signals_to_on_event=bool(full_dial))
    return State(DomainPort(domain), HumanPort(human), events,
                 full=bool(full_dial), executors=Executors(executors),
                 actors=dict(actors or {}), run_timeout=_seconds(run_timeout, timeout),
                 rules=None if rules is None else RulesPort(rules))


def _seconds(limit: float | None, default: float | None) -> float | None:
    chosen = limit if limit is not None else default
    return None if chosen is None else float(chosen)
