"""A conversation carried on from a snapshot: read back (restore), then the say that was going
taken up where it stood (resume).

    Conversation.restore(snapshot) ─▶ read and checked, every field (_snapshot.py)
        ─▶ the agent's own state (agent.restore), the transcript, what is owed, the context,
           the presence, the id counters and the runs going: back in the new conversation
        ─▶ a say was going, or a run: carried until resume() takes it up
    resume() ─▶ a run going outside the reply being handled ─▶ failed 'interrupted' (_resume.py)
        ├─ no say was going ─────────────▶ idle
        ├─ it waited for the agent's reply ─▶ 'no-reply' (what it carried is still owed)
        ├─ it was composing its message ──▶ the turn again (a message the transcript shows
        │                                  announced is handed over as it was announced)
        └─ it was handling a reply ───────▶ the reply rebuilt as it stood (how each item
               resolved, the answers, the item going and what it had shown, the card the
               person was deciding as they last saw it), taken up by the turn loop
               (_turns.py), its item going by _resume.py; then the turns as usual

Nothing in a snapshot can make an action run: a run that had started is never run again, and
a card comes back to the person (re-checked against the domain as it is now).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from ._resume import Restored, settle_interrupted
from ._review import done_changes
from ._saving import plain
from ._snapshot import SnapshotError, load_snapshot, read_snapshot
from ._state import Reply, State, running_key
from ._suggestion import MAX_EDIT_ATTEMPTS
from ._turns import Say, SayResult, Turns
from ._values import PendingAsk, Suggestion
from ._yields import Resolution


def read_checked(snapshot: Mapping[str, Any] | str | os.PathLike[str]) -> dict[str, Any]:
    """The snapshot (a dict, or the path of a JSON file), checked, as plain JSON values."""
    if isinstance(snapshot, str | os.PathLike):
        return plain(load_snapshot(snapshot))
    return plain(read_snapshot(snapshot))


def restore_agent(agent: Any, saved: Any) -> None:
    """The agent's own state back (``agent.restore``), when it keeps one and one was saved."""
    restore = getattr(agent, "restore", None)
    if saved is not None and callable(restore):
        try:
            restore(saved)
        except ValueError as exc:
            raise SnapshotError(f"agent: {exc}") from None


def fill(state: State, data: dict[str, Any]) -> dict[str, Any] | None:
    """Put the snapshot ``data`` back into a new conversation's ``state``; the say (or runs)
    that were going, for ``take_up``, or None when nothing was."""
    state.events.transcript.extend(data["transcript"])
    state.earlier_done.update(done_changes(data["transcript"]))
    owed = data.get("owed") or {}
    state.owed_outcomes.extend(owed.get("outcomes") or [])
    state.owed_words.extend(owed.get("words") or [])
    state.context.update(data.get("context") or {})
    state.presence.update(data.get("presence") or {})
    ids = data.get("ids") or {}
    state.set_ids((ids.get("suggestions", 0), ids.get("asks", 0), ids.get("executes", 0),
                   ids.get("delegations", 0)))
    state.replies = ids.get("replies", 0)
    state.running.update({running_key(entry.get("reply"), entry["id"]): entry
                          for entry in data.get("running") or []})
    saying = data.get("say") or {}
    if saying.get("message") is not None:  # announced: the last event says so
        last = data["transcript"][-1] if data["transcript"] else {}
        if last != {"type": "sent", "turn": saying["turn"], "message": saying["message"]}:
            raise SnapshotError("say.message is not the message the transcript's last "
                                "'sent' event announced")
    if data.get("say") is not None or state.running:
        return {"say": data.get("say"), "pending": data.get("pending")}
    return None


async def take_up(turns: Turns, carry: dict[str, Any]) -> SayResult:
    """Carry on with what ``fill`` carried: the runs the kernel never saw end, then the say."""
    state = turns.state
    saved = carry.get("say")
    say = Say(text="") if saved is None else Say(
        text=saved.get("text", ""), turn=saved["turn"], phase=saved["phase"],
        reached=list(saved.get("reached") or []))
    replying = saved.get("reply") if saved is not None else None
    serial = replying["serial"] if replying else None
    detached = Reply(state, say.reached)
    for entry in list(state.running.values()):
        if serial is None or entry.get("reply") != serial:
            settle_interrupted(detached, entry)  # a run outside the reply being handled
    if saved is None:
        return SayResult("idle", 0, say.reached)
    if say.phase == "sending":
        state.events.emit({"type": "no-reply", "turn": say.turn,
                           "error": "The kernel stopped before the agent replied; what "
                                    "the message carried goes with the next one."})
        return SayResult("no-reply", say.turn, say.reached)
    if say.phase == "composing":
        if saved.get("message") is not None:  # announced (fill checked): handed over now
            return await turns.run(say, announced=saved["message"])
        say.turn -= 1  # the turn starts again
        return await turns.run(say)
    reply = restored_reply(state, say, replying or {}, carry.get("pending"))
    return await turns.run(say, reply)


def restored_reply(state: State, say: Say, saved: dict[str, Any],
                   pending: dict[str, Any] | None) -> Reply:
    """The reply that was being handled, as the snapshot's ``say.reply`` and ``pending``
    recorded it (``say`` gets its text)."""
    reply = Reply(state, say.reached, turn=saved["turn"], serial=saved["serial"])
    say.reply, say.reply_text = reply, saved["text"]
    say.reply_chars = saved.get("chars", len(saved["text"]))
    reply.outcomes = list(saved.get("outcomes") or [])
    try:
        reply.answers = [(PendingAsk(**ask), answer)
                         for ask, answer in saved.get("answers") or []]
    except TypeError as exc:
        raise SnapshotError(f"say.reply.answers: {exc}") from None
    reply.said = saved.get("said")
    reply.resolved = {(g, i): Resolution(how, answer, note)
                      for g, i, how, answer, note in saved.get("resolved") or []}
    reply.skipped = {(g, i) for g, i in saved.get("skipped") or []}
    current = saved.get("current")
    ids = saved.get("current_ids")
    since = saved.get("current_from") if current else None
    # what the item going at the snapshot had shown: the transcript since it began (a
    # snapshot that does not say where: the card or question waiting for the person)
    shown = list(state.events.transcript[since:]) if isinstance(since, int) else []
    if pending is not None:
        value = pending["value"]
        kinds = ("suggestion",) if pending["kind"] == "suggestion" else ("ask",)
        card = next((e for e in reversed(state.events.transcript)
                     if e.get("type") in kinds and e.get("id") == value.get("id")), None)
        if since is None and card is not None:
            shown = [card]
        if pending["kind"] == "suggestion" and value.get("edits_left") is not None:
            try:
                card = Suggestion(**value)
            except TypeError as exc:
                raise SnapshotError(f"pending.value: {exc}") from None
            state.resumed[card.id] = (card, MAX_EDIT_ATTEMPTS - int(card.edits_left or 0))
    reply.restored = Restored(current=tuple(current) if current else None,  # type: ignore[arg-type]
                              ids=tuple(ids) if ids else None,  # type: ignore[arg-type]
                              shown=shown, since=since)
    return reply
