"""A conversation as plain JSON, and the strict reading of one back: snapshots are data.

    Conversation.snapshot() ─▶ {format, version, saved_at, full_dial, transcript, owed, context,
                                presence, ids, running, say, pending, agent[, surface]}
    read_snapshot(data)     ─▶ the same dict, checked key by key: a wrong or tampered file
                               raises SnapshotError naming what is wrong ("say.reply.resolved[2]
                               names item (0, 9), but the reply has 3 items in envelope 0")
    load_snapshot(path) / save_snapshot(snapshot, path)
                            ─▶ JSON Lines (never pickle; _snapshot_text.py): a header, one
                               line per event, a state record, a signature; a save appends
                               what was added since this process's last save of the file
                               (_session_file.py) and a crash at any byte leaves the previous
                               save; at most MAX_SNAPSHOT_BYTES, nested at most MAX_DEPTH
                               deep; every save signed with the user's own Jupyter secret,
                               the HMAC chained over every byte (_trust.py). A file saved
                               before (one JSON object, signed last) reads as before and is
                               written as lines at its next save
    read_session_file(path) ─▶ (snapshot, trusted): trusted only when this user signed exactly
                               these bytes; a surface opens any other file read-only

What a snapshot holds (version 1):

    transcript        every event so far (each checked against its shape, _contract.py, and
                      every enumerated field against its values: a status, an act, a kind …)
    owed              {outcomes, words}: what the agent has not been told yet
    context, presence the declared session context and the latest channel signals
    ids               the id counters (suggestions, asks, executes, delegations, replies)
    running           runs started and not ended (State.running): restored, each ends failed
                      with code 'interrupted' — never run again
    say               null, or the say that was going: {turn, phase ('composing' | 'sending' |
                      'handling'), reached, reply, message (composed and announced by the
                      last 'sent' event, not yet handed to the agent)}; reply: {serial, turn,
                      text, chars, resolved [[envelope, position, how, answer, note]],
                      skipped, current, current_ids, current_from (where in the transcript
                      the current item began), outcomes, answers [[ask, answer]], said}
    pending           null, or {kind: 'suggestion' | 'ask', value}: the card as last shown
    agent             the agent's own state (``agent.snapshot()``), when it keeps one
    surface           what the surface saved with it (the ChatWidget's entries, the person's
                      rules): its shape checked here (entries [[place, {type …}]], each rule's
                      id, action and scope), its meaning by the surface

The checks of each part are in ``_snapshot_values`` (one value), ``_snapshot_events`` (the
transcript) and ``_snapshot_say`` (the say, its reply, the pending card).

Nothing in a snapshot can make an action run: statuses in it are only read as things that
already happened, a pending card goes back to the person (never to a rule: _suggestion.py), and
a run it says was going ends ``failed``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .._ports import RULE_SCOPES
from ._session_file import write_session
from ._session_lines import is_lines, read_lines
from ._snapshot_events import EVENT_ENUMS, INFORM_ACTS, MAX_EVENTS, check_transcript
from ._snapshot_say import PHASES, check_pending, check_say
from ._snapshot_values import (
    SnapshotError,
    as_count,
    as_dict,
    as_key,
    as_list,
    as_str,
    fail,
    one_of,
    outcomes,
)
from ._trust import KEY as SIGNATURE
from ._trust import verify

__all__ = ["EVENT_ENUMS", "FORMAT", "INFORM_ACTS", "MAX_DEPTH", "MAX_EVENTS", "MAX_SNAPSHOT_BYTES",
           "PHASES", "VERSION", "SnapshotError", "load_snapshot", "read_session_file",
           "read_snapshot", "save_snapshot"]

FORMAT = "dial-notebook/conversation"
VERSION = 1
#: The largest snapshot file read (a conversation with many charts is a few MB).
MAX_SNAPSHOT_BYTES = 50 * 1024 * 1024
#: Deepest nesting of lists and objects read anywhere in a snapshot.
MAX_DEPTH = 256

_ID_KEYS = ("suggestions", "asks", "executes", "delegations", "replies")
_KEYS = {"format", "version", "saved_at", "full_dial", "transcript", "owed", "context",
         "presence", "ids", "running", "say", "pending", "agent", "surface", SIGNATURE}


def _depth(snapshot: dict[str, Any]) -> None:
    """``SnapshotError`` naming the top-level key under which ``snapshot`` nests deeper than
    MAX_DEPTH (walked without recursion, before anything else reads it)."""
    stack = [(value, 2, str(key)) for key, value in snapshot.items()
             if isinstance(value, dict | list)]
    while stack:
        value, depth, top = stack.pop()
        if depth > MAX_DEPTH:
            raise fail(top, f"is nested more than {MAX_DEPTH} levels deep")
        for child in value.values() if isinstance(value, dict) else value:
            if isinstance(child, dict | list):
                stack.append((child, depth + 1, top))


def _surface(value: Any) -> None:
    surface = as_dict(value, "surface")
    if surface.get("entries") is not None:
        for n, row in enumerate(as_list(surface["entries"], "surface.entries")):
            where = f"surface.entries[{n}]"
            row = as_list(row, where)
            if len(row) != 2:
                raise fail(where, "must be [place, entry]")
            as_count(row[0], f"{where}[0]")
            as_str(as_dict(row[1], f"{where}[1]").get("type"), f"{where}[1].type")
    if surface.get("rules") is not None:
        for n, rule in enumerate(as_list(surface["rules"], "surface.rules")):
            where = f"surface.rules[{n}]"
            as_dict(rule, where)
            for key in ("id", "action", "created"):
                as_str(rule.get(key), f"{where}.{key}")
            one_of(rule.get("scope"), RULE_SCOPES, f"{where}.scope")
            as_count(rule.get("fired"), f"{where}.fired")
    for key in ("title", "unsent"):
        if surface.get(key) is not None:
            as_str(surface[key], f"surface.{key}")


def _ids(value: Any) -> None:
    ids = as_dict(value, "ids")
    for key in _ID_KEYS:
        as_count(ids.get(key), f"ids.{key}")


def _running(value: Any) -> None:
    for n, entry in enumerate(as_list(value, "running")):
        where = f"running[{n}]"
        as_dict(entry, where)
        for key in ("id", "action", "preview"):
            as_str(entry.get(key), f"{where}.{key}")
        as_dict(entry.get("fields", {}), f"{where}.fields")
        if not isinstance(entry.get("begun", True), bool):
            raise fail(f"{where}.begun", "must be true or false")
        if entry.get("reply") is not None:
            as_count(entry["reply"], f"{where}.reply")
        if entry.get("item") is not None:
            as_key(entry["item"], f"{where}.item")


def read_snapshot(data: Any) -> dict[str, Any]:
    """``data`` checked as a saved conversation (see the header); returns it unchanged.

    Raises ``SnapshotError`` naming the first thing that is wrong.

        >>> read_snapshot({"format": FORMAT, "version": 1, "transcript": "no"})
        Traceback (most recent call last):
        ...
        dial_notebook.SnapshotError: transcript must be a list, not text
    """
    snapshot = as_dict(data, "the snapshot")
    _depth(snapshot)
    if snapshot.get("format") != FORMAT:
        raise SnapshotError(f"not a saved conversation: format is {snapshot.get('format')!r}, "
                            f"expected {FORMAT!r}")
    version = snapshot.get("version")
    if version != VERSION:
        raise SnapshotError(f"version {version!r} of the saved conversation is not known here "
                            f"(this dial-notebook reads version {VERSION})")
    unknown = sorted(set(snapshot) - _KEYS)
    if unknown:
        raise fail("", f"the snapshot has unknown keys: {', '.join(map(repr, unknown))}")
    if not isinstance(snapshot.get("full_dial", True), bool):
        raise fail("full_dial", "must be true or false")
    check_transcript(snapshot.get("transcript"))
    owed = as_dict(snapshot.get("owed", {}), "owed")
    outcomes(owed.get("outcomes", []), "owed.outcomes")
    for n, words in enumerate(as_list(owed.get("words", []), "owed.words")):
        as_str(words, f"owed.words[{n}]")
    as_dict(snapshot.get("context", {}), "context")
    for signal, value in as_dict(snapshot.get("presence", {}), "presence").items():
        as_dict(value, f"presence.{signal}")
    _ids(snapshot.get("ids", dict.fromkeys(_ID_KEYS, 0)))
    _running(snapshot.get("running", []))
    check_say(snapshot.get("say"))
    check_pending(snapshot.get("pending"))
    if snapshot.get("pending") is not None and (snapshot.get("say") or {}).get(
            "phase") != "handling":
        raise fail("pending", "is set, but no reply was being handled")
    if snapshot.get("agent") is not None:
        as_dict(snapshot["agent"], "agent")
    if snapshot.get("surface") is not None:
        _surface(snapshot["surface"])
    if SIGNATURE in snapshot:
        as_str(snapshot[SIGNATURE], SIGNATURE)
    return snapshot


def read_session_file(path: str | os.PathLike[str]) -> tuple[dict[str, Any], bool]:
    """The saved conversation in the JSON file at ``path``, checked (``read_snapshot``), and
    whether this user signed it (exactly these bytes, with their own Jupyter secret:
    ``_trust.py``). The signature is not part of the snapshot returned.

    A missing, oversized, too deeply nested, non-JSON or malformed file raises
    ``SnapshotError`` naming the file and what is wrong.
    """
    file = Path(path)
    try:
        size = file.stat().st_size
        if size > MAX_SNAPSHOT_BYTES:
            raise SnapshotError(f"{file}: {size:,} bytes, over the limit of "
                                f"{MAX_SNAPSHOT_BYTES:,} for a saved conversation")
        data = file.read_bytes()
    except FileNotFoundError:
        raise SnapshotError(f"{file}: no such file") from None
    except OSError as exc:
        raise SnapshotError(f"{file}: cannot be read ({exc})") from None
    try:  # saved by appending (JSON Lines), or one JSON object (saved before)
        snapshot, trusted = read_lines(data) if is_lines(data) else _one_object(data)
        read_snapshot(snapshot)
    except SnapshotError as exc:
        raise SnapshotError(f"{file}: {exc}") from None
    snapshot.pop(SIGNATURE, None)
    return snapshot, trusted


def _one_object(data: bytes) -> tuple[dict[str, Any], bool]:
    """A session file as saved before issue 29: one JSON object, its signature last."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SnapshotError(f"cannot be read ({exc})") from None
    try:
        snapshot = json.loads(text)
    except RecursionError:
        raise SnapshotError(f"is nested more than {MAX_DEPTH} levels deep") from None
    except ValueError as exc:
        raise SnapshotError(f"not JSON ({exc})") from None
    return snapshot, isinstance(snapshot, dict) and SIGNATURE in snapshot and verify(text)


def load_snapshot(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The saved conversation in the JSON file at ``path``, checked (``read_snapshot``), as
    data: whether it may act (its rules, its waiting card) is the surface's to ask
    (``read_session_file``).

    A missing, oversized, non-JSON or tampered file raises ``SnapshotError`` naming the file
    and what is wrong.
    """
    return read_session_file(path)[0]


def save_snapshot(snapshot: Mapping[str, Any], path: str | os.PathLike[str]) -> Path:
    """Write ``snapshot`` to ``path`` as JSON Lines; returns the path.

    When this process saved ``path`` last and ``snapshot`` extends what it saved (its
    transcript grown), only what was added is written, at the end of the file, flushed to
    disk; else the file is written whole: a temporary file beside it, then one rename (the
    folder made when missing). Either way a reader (or a crash at any byte) sees the previous
    save or the new one, never half of one (``_session_file.py``). The file is signed with
    this user's Jupyter secret (``_trust.py``): a file saved here is trusted when read back
    here.
    """
    unsigned = {key: value for key, value in snapshot.items() if key != SIGNATURE}
    return write_session(unsigned, path)
