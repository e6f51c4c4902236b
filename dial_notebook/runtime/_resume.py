"""Taking up a restored reply where it stood: the item that was going when the snapshot was
taken, and the runs the kernel never saw end.

    the item going at the snapshot
       ├─ a run of it had started (a suggestion's, a block's steps, a delegation)
       │     ─▶ never run again: a started one ends failed (code 'interrupted', "it may or may
       │        not have taken effect"), a block's step that had not started ends skipped;
       │        the item resolves 'failed'
       └─ otherwise it is handled again, as the domain is now, from the id counters it began
          with (so it gets the same ids): what it had shown before the snapshot (its card, its
          question, its report …: the transcript since it began) is not shown twice
          (``Events.already_shown``), and a proposal the person had edited comes back
          as they last saw it (``State.resumed``, taken up by ``person_decides``); a payload
          the domain now refuses, or an action it no longer has, ends ``invalid``
    a run outside the reply (one still going on a worker thread after a Stop) ─▶ the same
       interrupted outcome, owed to the agent with the next message

Nothing is run by itself: the only way an action runs after a restore is a person's decision
on its card. No rule accepts a proposal of a restored reply (the current item or the ones after
it): each comes back as a card (``reply.restored`` is set; _suggestion.py asks no rule).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from ._state import Reply, running_key
from ._yields import Resolution

#: The outcome of a run the kernel never saw end.
INTERRUPTED_ERROR = "The kernel stopped while it ran."
INTERRUPTED_HINT = "It may or may not have taken effect: check before trying it again."
NOT_STARTED_HINT = "Interrupted before it started: the kernel stopped."


def settle_interrupted(reply: Reply, entry: dict[str, Any]) -> None:
    """The one outcome of a run that was going when the kernel stopped (``State.running``)."""
    reply.state.running.pop(running_key(entry.get("reply"), entry["id"]), None)
    fields = dict(entry.get("fields") or {})
    edited = {"edited": True} if fields.pop("edited", False) else {}
    if entry.get("begun", True):
        reply.settle(entry["id"], entry["action"], "failed", entry["preview"], **fields,
                     error=INTERRUPTED_ERROR, code="interrupted", hint=INTERRUPTED_HINT,
                     **edited)
    else:
        reply.settle(entry["id"], entry["action"], "skipped", entry["preview"], **fields,
                     hint=NOT_STARTED_HINT, **edited)


@dataclass
class Restored:
    """How a restored reply takes up its current item (see the header)."""

    #: The item going at the snapshot, by (envelope, position); None once taken up.
    current: tuple[int, int] | None
    #: The id counters as they were when that item began.
    ids: tuple[int, int, int, int] | None
    #: The events the item had shown before the snapshot (not shown again).
    shown: list[dict[str, Any]]
    #: Where in the transcript the item began (None: a snapshot that did not say).
    since: int | None = None

    async def take_up(self, reply: Reply, handle: Callable[[], Awaitable[Resolution]],
                      ends: Callable[[Reply, dict[str, Any]], Any] | None = None) -> Resolution:
        """Handle the item that was going again (``handle``), or end its interrupted runs;
        ``ends``: how the outcome that ends it resolves it (_reply.ENDS)."""
        state = reply.state
        key, self.current = self.current, None
        reply.current, reply.current_ids, reply.current_from = key, self.ids, self.since
        reply.ends = ends
        mine = [entry for entry in list(state.running.values())
                if entry.get("reply") == reply.serial and entry.get("item") == list(key or ())]
        if mine:
            for entry in mine:
                settle_interrupted(reply, entry)
            return Resolution("failed")
        if self.ids is not None:
            state.set_ids(self.ids)
        state.events.already_shown(self.shown)
        try:
            return await handle()
        finally:
            state.events.already_shown(None)
