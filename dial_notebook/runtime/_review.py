"""Review before it runs, and a way back after: a proposal's dry run, and Undo → ``undone``.

    a valid, mutating proposal ─▶ domain.dry_run(action, payload), when the domain has one
        ─▶ {ok: true, summary, effect, code?, note?} on its 'suggestion' event (the card shows
           what it will do before the person decides); an edit in the card asks again
           (``Conversation.dry_run``)
        raises, takes over DRY_RUN_SECONDS, returns what is not an object, or is too large
        ─▶ {ok: false, error}: shown as unavailable; it never blocks the decision
    a done run of a mutating action is remembered (its payload and what run returned)
    Conversation.undo(id) ─▶ domain.undoable(…) says it is still exact ─▶ marked as being
        undone (a second Undo meanwhile is refused: KeyError) ─▶ domain.undo(…)
        ├─ it ran ─▶ a second, later outcome of the same suggestion: 'undone' (owed to the
        │            agent, told with the next message: "Undone: <preview>.")
        ├─ not exact any more, or the undo raised ─▶ an 'undo-failed' event {id, error}; the
        │            suggestion stays done, nothing changes
        └─ not over within UNDO_SECONDS ─▶ undo() returns None and the undo goes on; how it
                     really ends is reported then ('undone' said quietly, or 'undo-failed'),
                     as a run's is (_work.on_end)

A restored conversation's done changes were made in an earlier kernel: their runs are not
remembered here, and ``undoable`` says why they cannot be undone (``EARLIER_KERNEL``).

A dry run works on a worker thread (a blocking one) or as a task, so the kernel stays free; one
that runs past its bound goes on there, but its answer is no longer waited for.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from dataclasses import dataclass
from typing import Any

from ._outcomes import Outcome, failure, jsonable
from ._state import Reply, State
from ._work import TimedOut, on_end, start, until_done

#: Seconds a dry run may take before it is shown as unavailable.
DRY_RUN_SECONDS = 1.0
#: Most characters of JSON a dry run may return (its samples are small tables).
MAX_DRY_RUN_CHARS = 200_000
#: Seconds an undo may take.
UNDO_SECONDS = 30.0


def _unavailable(error: str) -> dict[str, Any]:
    return {"ok": False, "error": error}


async def dry_run(state: State, action: str, payload: Any) -> dict[str, Any] | None:
    """What the domain says ``payload`` would do, bounded; None when it has no dry run (or
    none for this action)."""
    dry = state.domain.dry_run_of
    if dry is None:
        return None
    try:
        result = await until_done(start(dry, action, payload), DRY_RUN_SECONDS)
    except TimedOut:
        return _unavailable(f"it took longer than {DRY_RUN_SECONDS:g}s to work out")
    except Exception as exc:
        return _unavailable(failure(exc)["error"])
    if result is None:
        return None
    if not isinstance(result, dict):
        return _unavailable(f"the domain's dry run gave {type(result).__name__}, not an object")
    shown = jsonable(result)
    if not isinstance(shown, dict):
        return _unavailable("the domain's dry run could not be read")
    if len(json.dumps(shown, default=str)) > MAX_DRY_RUN_CHARS:
        return _unavailable(f"the domain's dry run is over {MAX_DRY_RUN_CHARS:,} characters")
    return {"ok": True, **shown}


@dataclass(frozen=True)
class DoneRun:
    """A done run of a mutating action, remembered so that it can be undone."""

    action: str
    payload: Any
    result: Any
    preview: str
    #: Its undo has started and not ended (not offered, a second Undo is refused).
    undoing: bool = False


def remember_done(state: State, sid: str, run: DoneRun) -> None:
    state.done_runs[sid] = run


#: Why a change done before the conversation was restored cannot be undone.
EARLIER_KERNEL = ("it was done before the kernel restarted (this conversation carried on from "
                  "its file): what it changed is not in this kernel's data")


def done_changes(transcript: list[Any]) -> set[str]:
    """The ids of the changes ``transcript`` shows done and not undone (mutating proposals,
    not execute blocks): a restored conversation's, which no Undo here can take back.

        >>> done_changes([{"type": "suggestion", "id": "a", "mutates": True},
        ...               {"type": "outcome", "id": "a", "status": "done"}])
        {'a'}
    """
    changes = {str(e.get("id")) for e in transcript if isinstance(e, dict)
               and e.get("type") == "suggestion" and e.get("mutates")
               and e.get("kind") != "execute"}
    done: set[str] = set()
    for event in transcript:
        if isinstance(event, dict) and event.get("type") == "outcome" \
                and str(event.get("id")) in changes:
            if event.get("status") == "done":
                done.add(str(event.get("id")))
            elif event.get("status") == "undone":
                done.discard(str(event.get("id")))
    return done


def undoable(state: State) -> dict[str, bool | str]:
    """Suggestion id → True when Undo would take it back exactly now, else why it no longer
    can (a change done before the conversation was restored: ``EARLIER_KERNEL``); a run the
    domain says never could be undone (``False``) is left out: no word on it."""
    domain = state.domain
    if domain.undo_of is None:
        return {}
    shown: dict[str, bool | str] = dict.fromkeys(
        state.earlier_done - state.done_runs.keys(), EARLIER_KERNEL)
    for sid, run in state.done_runs.items():
        if run.undoing:
            continue
        if domain.undoable_of is None:
            shown[sid] = True
            continue
        try:
            verdict = domain.undoable_of(run.action, run.payload, run.result)
        except Exception as exc:
            verdict = failure(exc)["error"]
        if verdict is False:
            continue
        shown[sid] = True if verdict is True else str(verdict or "it cannot be undone")
    return shown


async def undo(state: State, sid: str) -> Outcome | None:
    """Take the done run ``sid`` back; its 'undone' outcome, or None when it could not be (an
    'undo-failed' event says why) or is not over yet (see the header). Raises KeyError when
    there is no such done run, or it is being undone already."""
    run = state.done_runs.get(sid)
    if run is None:
        raise KeyError(f"there is no done action {sid!r} to undo")
    if run.undoing:
        raise KeyError(f"{sid!r} is being undone already")
    why_not = undoable(state).get(sid, "the domain cannot undo it")
    if why_not is not True:
        state.events.emit({"type": "undo-failed", "id": sid, "error": str(why_not)})
        return None
    undo_of = state.domain.undo_of
    assert undo_of is not None  # undoable() said yes
    state.done_runs[sid] = dataclasses.replace(run, undoing=True)  # before anything awaits
    try:
        running = start(undo_of, run.action, run.payload, run.result)
    except Exception as exc:
        return _undo_ended(state, sid, run, False, exc)
    try:
        await asyncio.wait([running], timeout=UNDO_SECONDS)  # never cancels the undo
    except BaseException:  # the caller was cancelled: the undo still ends, and is reported
        on_end(running, lambda ok, value: _undo_ended(state, sid, run, ok, value, quiet=True))
        raise
    if not running.done():  # slow: reported when it really ends
        on_end(running, lambda ok, value: _undo_ended(state, sid, run, ok, value, quiet=True))
        return None
    error = None if running.cancelled() else running.exception()
    ok = not running.cancelled() and error is None
    return _undo_ended(state, sid, run, ok, None if ok else error)


def _undo_ended(state: State, sid: str, run: DoneRun, ok: bool, value: Any, *,
                quiet: bool = False) -> Outcome | None:
    """How an undo really ended: 'undone' (once), or 'undo-failed' and the run stays done."""
    if state.done_runs.get(sid) is not None and state.done_runs[sid].undoing:
        if ok:
            del state.done_runs[sid]
        else:
            state.done_runs[sid] = run
    if ok:
        return Reply(state, []).settle(sid, run.action, "undone", run.preview, quiet=quiet)
    error = failure(value)["error"] if isinstance(value, BaseException) else (
        "the undo was cut short before it ended")
    event = {"type": "undo-failed", "id": sid, "error": error}
    if quiet:
        state.events.emit_quietly(event)
    else:
        state.events.emit(event)
    return None
