"""The observe/yield bookkeeping shared by an envelope's elements and an execute block's steps.

Nodes are numbered in order of appearance. Each observes zero or more events (``observe`` may
name several, space-separated: all of them must fire) and may yield events. The gate records
which events fired and how each node resolved, hands out the nodes that became ready (lowest
number first), and says — for a node that never became ready — why not, in words a person and
an agent can read:

    "nothing in the reply yields 'x'"
    "'x' did not happen: ask 'confirm-delete' was answered 'no'"
    "'x' would come from inform 'a', which never ran"   (a chain that never started, or a cycle)

Each node is handed out at most once and events are only ever added, so a scheduler built on
it ends after at most one pass per node: no cycle can make it loop, and nothing waits for
ever. The work is linear in nodes plus events (a heap of ready nodes, a count of the events
each still waits for), so a hostile reply with thousands of chained elements stays fast.

    >>> gate = Gate([(), ("a:done",)], [("a:done",), ()], ["first", "second"], "the reply")
    >>> gate.pop_ready(), gate.pop_ready()
    (0, None)
    >>> gate.resolve(0, "was shown", ("a:done",)); gate.pop_ready()
    1
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Sequence

#: Names listed in one reason at most (the rest are counted).
_NAMED = 3


def observed(observe: str | None) -> tuple[str, ...]:
    """The events an ``observe`` attribute waits for (space-separated; empty: none)."""
    return tuple(observe.split()) if observe else ()


class Gate:
    """Which nodes may activate, from the events fired so far."""

    def __init__(self, observes: Sequence[tuple[str, ...]], yields: Sequence[Iterable[str]],
                 names: Sequence[str], scope: str) -> None:
        self._observes = [tuple(dict.fromkeys(o)) for o in observes]
        self._names = list(names)
        self._scope = scope  # "the reply", "the block" — for reasons
        #: event → the nodes that could yield it
        self._yielders: dict[str, list[int]] = {}
        for index, events in enumerate(yields):
            for event in dict.fromkeys(events):
                self._yielders.setdefault(event, []).append(index)
        #: node → how many of its observed events have not fired
        self._missing = [len(o) for o in self._observes]
        #: event → the nodes still waiting for it
        self._waiting_on: dict[str, list[int]] = {}
        for index, events in enumerate(self._observes):
            for event in events:
                self._waiting_on.setdefault(event, []).append(index)
        self._ready = [i for i, m in enumerate(self._missing) if m == 0]  # already a heap
        self._taken: set[int] = set()
        #: every event fired so far
        self.fired: set[str] = set()
        #: node → how it resolved, in words ("was answered 'no'")
        self._resolved: dict[int, str] = {}
        self._reasons: dict[str, str] = {}

    def pop_ready(self) -> int | None:
        """The lowest-numbered ready node not handed out yet (now handed out), or None."""
        if not self._ready:
            return None
        index = heapq.heappop(self._ready)
        self._taken.add(index)
        return index

    def take_ready(self) -> list[int]:
        """Every ready node not handed out yet, in order (now handed out)."""
        taken = []
        while (index := self.pop_ready()) is not None:
            taken.append(index)
        return taken

    def never_ready(self) -> list[int]:
        """The nodes never handed out, in order."""
        return [i for i in range(len(self._observes)) if i not in self._taken]

    def resolve(self, index: int, how: str, events: Iterable[str]) -> None:
        """Node ``index`` resolved (``how``, in words) and fired ``events``."""
        self._resolved[index] = how
        for event in events:
            if event in self.fired:
                continue
            self.fired.add(event)
            for node in self._waiting_on.pop(event, ()):
                self._missing[node] -= 1
                if self._missing[node] == 0:
                    heapq.heappush(self._ready, node)

    def why_not(self, index: int) -> str:
        """Why node ``index`` never became ready (it waited for an event that never fired)."""
        reasons = [self._why(event) for event in self._observes[index]
                   if event not in self.fired]
        return "; ".join(reasons) or "it was never activated"

    def _why(self, event: str) -> str:
        if event not in self._reasons:
            self._reasons[event] = self._explain(event)
        return self._reasons[event]

    def _explain(self, event: str) -> str:
        yielders = self._yielders.get(event, [])
        if not yielders:
            return f"nothing in {self._scope} yields '{event}'"
        ran = [i for i in yielders if i in self._resolved]
        if ran:
            said = "; ".join(f"{self._names[i]} {self._resolved[i]}" for i in ran[:_NAMED])
            return f"'{event}' did not happen: {said}{_more(len(ran))}"
        names = ", ".join(self._names[i] for i in yielders[:_NAMED])
        return f"'{event}' would come from {names}{_more(len(yielders))}, which never ran"


def _more(count: int) -> str:
    return f" (and {count - _NAMED} more)" if count > _NAMED else ""
