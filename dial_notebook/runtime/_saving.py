"""A conversation written down as a snapshot: plain JSON, at any moment (_snapshot.py: format).

    snapshot ─▶ {format, version, saved_at, full_dial,
                 transcript   (with the events recorded and not yet told, saved as told),
                 owed         {outcomes, words},  context, presence,
                 ids          {suggestions, asks, executes, delegations, replies},
                 running      (the runs going),
                 say          the say that is going (_turns.Say): its text, turn, phase,
                              outcomes reached, the message announced and not yet handed
                              over, and the reply being handled — where it stands (the item
                              going, how each item resolved, the answers given);
                              None when no say goes, or the say is being stopped
                 pending      the card or question waiting for the person (while a reply
                              is being handled),
                 agent?       agent.snapshot(), when the agent keeps state of its own,
                 surface?     kept as the surface gave it}

It is exact whenever the conversation waits — for the person, the agent or a run — and at
every event (taken inside ``on_event``: each event is emitted only once what it reports is
recorded, _state.py). A reply too long to read is kept by its beginning (its length says so).
A conversation restored and not yet taken up is saved as it was read.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from ..dial import MAX_REPLY_CHARS
from ._reply import KEPT_OF_TOO_LONG
from ._snapshot import FORMAT, VERSION
from ._state import State
from ._turns import Say
from ._values import PendingAsk, Suggestion


def plain(data: Any) -> Any:
    """``data`` as plain JSON values (a deep copy); what JSON cannot write becomes its text.

        >>> plain({"when": (1, 2), "what": {3}})
        {'when': [1, 2], 'what': '{3}'}
    """
    return json.loads(json.dumps(data, ensure_ascii=False, default=str))


def snapshot_view(state: State, *, going: Say | None, carry: dict[str, Any] | None,
                  agent: Any, surface: Any = None) -> dict[str, Any]:
    """The snapshot of the conversation over ``state``, sharing its lists (not a copy):
    ``going`` is the say that is going, ``carry`` a restored say not yet taken up, ``agent``
    the agent object (its own ``snapshot()`` is saved when it has one)."""
    # events recorded and not yet told (a step that tells several, taken in the middle)
    # are saved as told: the transcript a restored conversation carries on from
    replying = going.reply if going is not None else None
    told = state.events.transcript
    data: dict[str, Any] = {
        "format": FORMAT, "version": VERSION,
        "saved_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "full_dial": state.full,
        "transcript": told + replying.queued if replying and replying.queued else told,
        "owed": {"outcomes": state.owed_outcomes, "words": state.owed_words},
        "context": state.context, "presence": state.presence,
        "ids": {"suggestions": state.assigned, "asks": state.asked,
                "executes": state.executed, "delegations": state.delegated,
                "replies": state.replies},
        "running": list(state.running.values()),
        "say": None, "pending": None,
    }
    if carry is not None:  # restored and not yet taken up: as it was read
        data["say"], data["pending"] = carry.get("say"), carry.get("pending")
    elif going is not None and not (going.reply and going.reply.stopped):
        data["say"] = say_record(going)  # (a stopped one is over: not saved)
        data["pending"] = pending_record(state.pending) if data["say"]["reply"] else None
    snapshot_of_agent = getattr(agent, "snapshot", None)
    if callable(snapshot_of_agent):
        data["agent"] = snapshot_of_agent()
    if surface is not None:
        data["surface"] = surface
    return data


def say_record(say: Say) -> dict[str, Any]:
    """What the snapshot's ``say`` holds of the say that is going."""
    reply = say.reply
    saved: dict[str, Any] = {"text": say.text, "turn": say.turn, "phase": say.phase,
                             "reached": say.reached, "reply": None}
    if say.phase == "composing" and say.message is not None:
        saved["message"] = say.message  # announced, not yet handed to the agent
    if reply is not None and say.phase == "handling":
        saved["reply"] = {
            "serial": reply.serial, "turn": reply.turn,
            # a reply too long to read is kept by its beginning: its length says so
            "text": (say.reply_text if say.reply_chars <= MAX_REPLY_CHARS
                     else say.reply_text[:KEPT_OF_TOO_LONG]),
            "chars": say.reply_chars,
            "resolved": [[g, i, r.how, r.answer, r.note]
                         for (g, i), r in reply.resolved.items()],
            "skipped": [list(key) for key in sorted(reply.skipped)],
            "current": list(reply.current) if reply.current else None,
            "current_ids": list(reply.current_ids) if reply.current_ids else None,
            "current_from": reply.current_from if reply.current else None,
            "outcomes": reply.outcomes,
            "answers": [[ask.to_dict(), answer] for ask, answer in reply.answers],
            "said": reply.said,
        }
    return saved


def pending_record(pending: Suggestion | PendingAsk | None) -> dict[str, Any] | None:
    """What the snapshot's ``pending`` holds: the card or question waiting for the person."""
    if isinstance(pending, Suggestion):
        return {"kind": "suggestion", "value": pending.to_dict()}
    if isinstance(pending, PendingAsk):
        return {"kind": "ask", "value": pending.to_dict()}
    return None
