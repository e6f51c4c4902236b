"""A conversation as plain JSON, and the strict reading of one back: snapshots are data.

    Conversation.snapshot() ─▶ {format, version, saved_at, full_dial, transcript, owed, context,
                                presence, ids, running, say, pending, agent[, surface]}
    read_snapshot(data)     ─▶ the same dict, checked key by key: a wrong or tampered file
                               raises SnapshotError naming what is wrong ("say.reply.resolved[2]
                               names item (0, 9), but the reply has 3 items in envelope 0")
    load_snapshot(path) / save_snapshot(snapshot, path)
                            ─▶ JSON only (never pickle), at most MAX_SNAPSHOT_BYTES, nested at
                               most MAX_DEPTH deep; written atomically (a temporary file beside
                               it, then one rename), so a crash mid-write leaves the previous
                               version whole; every save signed with the user's own Jupyter
                               secret (_trust.py)
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

from .._files import write_atomically
from .._json_kind import json_kind
from ..dial import MAX_REPLY_CHARS, STATUSES
from ..dial._elements import RESPONSE_TYPES, SIGNALS
from ._contract import shape_errors
from ._trust import KEY as SIGNATURE
from ._trust import signed, verify

FORMAT = "dial-notebook/conversation"
VERSION = 1
#: The largest snapshot file read (a conversation with many charts is a few MB).
MAX_SNAPSHOT_BYTES = 50 * 1024 * 1024
#: Most events a transcript may hold.
MAX_EVENTS = 200_000
#: Deepest nesting of lists and objects read anywhere in a snapshot.
MAX_DEPTH = 256

PHASES = ("composing", "sending", "handling")
_ID_KEYS = ("suggestions", "asks", "executes", "delegations", "replies")
_KEYS = {"format", "version", "saved_at", "full_dial", "transcript", "owed", "context",
         "presence", "ids", "running", "say", "pending", "agent", "surface", SIGNATURE}

#: The scopes a saved rule may have (``dial_notebook.domains.Rules``).
RULE_SCOPES = ("conversation", "notebook")
#: What an inform event's ``act`` may be: an element's kind, or a note of the runtime's.
INFORM_ACTS = ("inform", "acknowledge", "skipped", "addressed-elsewhere", "unread")
#: Enumerated fields of the events: (type, field) → the values they may take.
EVENT_ENUMS: dict[tuple[str, str], tuple[str, ...]] = {
    ("outcome", "status"): tuple(STATUSES), ("ask", "response_type"): RESPONSE_TYPES,
    ("inform", "act"): INFORM_ACTS, ("suggestion", "kind"): ("execute",),
    ("phatic", "signal"): SIGNALS,
}
_STRINGS = {
    "sent": ("message",), "reply": ("text",), "no-reply": ("error",), "declare": ("key",),
    "inform": ("text", "of", "render", "element", "reason", "addressed_to"),
    "ask": ("id", "text"), "suggestion": ("id", "action", "text", "preview", "rule"),
    "outcome": ("id", "action", "preview", "error", "rule", "reason", "block", "command", "to"),
    "delegate": ("id", "to", "text"), "undo-failed": ("id", "error"), "phatic": ("id",),
}
_BOOLEANS = {
    "reply": ("truncated",), "suggestion": ("destructive", "mutates", "confirmed", "allowable"),
    "outcome": ("edited", "resume"), "delegate": ("resume", "registered"),
}
_COUNTS = {
    "sent": ("turn",), "reply": ("turn", "chars"), "no-reply": ("turn",),
    "turn-limit": ("turns",), "suggestion": ("edits_left",),
}


class SnapshotError(ValueError):
    """A saved conversation that cannot be read back; the message says what is wrong.

        >>> from dial_notebook.runtime import read_snapshot
        >>> read_snapshot({"format": "something else"})
        Traceback (most recent call last):
        ...
        dial_notebook.SnapshotError: not a saved conversation: format is 'something else', expected 'dial-notebook/conversation'
    """


def _fail(where: str, what: str) -> SnapshotError:
    return SnapshotError(f"{where} {what}" if where else what)


def _dict(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _fail(where, f"must be an object, not {json_kind(value)}")
    return value


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise _fail(where, f"must be a list, not {json_kind(value)}")
    return value


def _str(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise _fail(where, f"must be a string, not {json_kind(value)}")
    return value


def _count(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise _fail(where, f"must be a whole number ≥ 0, not {value!r}")
    return value


def _outcome(value: Any, where: str) -> dict[str, Any]:
    outcome = _dict(value, where)
    for key in ("id", "action", "status", "preview"):
        _str(outcome.get(key), f"{where}.{key}")
    if outcome["status"] not in STATUSES:
        raise _fail(f"{where}.status", f"is {outcome['status']!r}, not an outcome status "
                                       f"({', '.join(STATUSES)})")
    return outcome


def _outcomes(value: Any, where: str) -> list[dict[str, Any]]:
    return [_outcome(o, f"{where}[{n}]") for n, o in enumerate(_list(value, where))]


def _one_of(value: Any, values: tuple[str, ...], where: str) -> None:
    if not isinstance(value, str) or value not in values:
        raise _fail(where, f"is {value!r}, not one of {', '.join(values)}")


def _event_values(event: dict[str, Any], where: str) -> None:
    """Every field of a known event with a value of its kind; enumerated ones in their set."""
    kind = event["type"]
    for key in _STRINGS.get(kind, ()):
        if key in event and event[key] is not None:
            _str(event[key], f"{where}.{key}")
    for key in _BOOLEANS.get(kind, ()):
        if key in event and not isinstance(event[key], bool):
            raise _fail(f"{where}.{key}", "must be true or false")
    for key in _COUNTS.get(kind, ()):
        if key in event:
            _count(event[key], f"{where}.{key}")
    for (of, key), values in EVENT_ENUMS.items():
        if of == kind and key in event:
            _one_of(event[key], values, f"{where}.{key}")
    if kind == "ask":
        for n, option in enumerate(_list(event["options"], f"{where}.options")):
            here = f"{where}.options[{n}]"
            _dict(option, here)
            for key in ("value", "label"):
                _str(option.get(key), f"{here}.{key}")
            for key in ("default", "disabled"):
                if not isinstance(option.get(key), bool):
                    raise _fail(f"{here}.{key}", "must be true or false")
    if kind == "outcome":
        for key in ("code", "field", "hint"):
            if event.get(key) is not None:
                _str(event[key], f"{where}.{key}")


def _transcript(value: Any) -> None:
    events = _list(value, "transcript")
    if len(events) > MAX_EVENTS:
        raise _fail("transcript", f"has {len(events):,} events; at most {MAX_EVENTS:,} are read")
    for n, event in enumerate(events):
        where = f"transcript[{n}]"
        _dict(event, where)
        if not isinstance(event.get("type"), str):
            raise _fail(where, "has no 'type'")
        errors = shape_errors(event)
        if errors:
            raise _fail(where, f"is not an event: {errors[0]}")
        _event_values(event, where)


def _depth(snapshot: dict[str, Any]) -> None:
    """``SnapshotError`` naming the top-level key under which ``snapshot`` nests deeper than
    MAX_DEPTH (walked without recursion, before anything else reads it)."""
    stack = [(value, 2, str(key)) for key, value in snapshot.items()
             if isinstance(value, dict | list)]
    while stack:
        value, depth, top = stack.pop()
        if depth > MAX_DEPTH:
            raise _fail(top, f"is nested more than {MAX_DEPTH} levels deep")
        for child in value.values() if isinstance(value, dict) else value:
            if isinstance(child, dict | list):
                stack.append((child, depth + 1, top))


def _surface(value: Any) -> None:
    surface = _dict(value, "surface")
    if surface.get("entries") is not None:
        for n, row in enumerate(_list(surface["entries"], "surface.entries")):
            where = f"surface.entries[{n}]"
            row = _list(row, where)
            if len(row) != 2:
                raise _fail(where, "must be [place, entry]")
            _count(row[0], f"{where}[0]")
            _str(_dict(row[1], f"{where}[1]").get("type"), f"{where}[1].type")
    if surface.get("rules") is not None:
        for n, rule in enumerate(_list(surface["rules"], "surface.rules")):
            where = f"surface.rules[{n}]"
            _dict(rule, where)
            for key in ("id", "action", "created"):
                _str(rule.get(key), f"{where}.{key}")
            _one_of(rule.get("scope"), RULE_SCOPES, f"{where}.scope")
            _count(rule.get("fired"), f"{where}.fired")
    for key in ("title", "unsent"):
        if surface.get(key) is not None:
            _str(surface[key], f"surface.{key}")


def _ids(value: Any) -> None:
    ids = _dict(value, "ids")
    for key in _ID_KEYS:
        _count(ids.get(key), f"ids.{key}")


def _running(value: Any) -> None:
    for n, entry in enumerate(_list(value, "running")):
        where = f"running[{n}]"
        _dict(entry, where)
        for key in ("id", "action", "preview"):
            _str(entry.get(key), f"{where}.{key}")
        _dict(entry.get("fields", {}), f"{where}.fields")
        if not isinstance(entry.get("begun", True), bool):
            raise _fail(f"{where}.begun", "must be true or false")
        if entry.get("reply") is not None:
            _count(entry["reply"], f"{where}.reply")
        if entry.get("item") is not None:
            _key(entry["item"], f"{where}.item")


def _key(value: Any, where: str) -> tuple[int, int]:
    pair = _list(value, where)
    if len(pair) != 2:
        raise _fail(where, "must be [envelope, position]")
    return _count(pair[0], f"{where}[0]"), _count(pair[1], f"{where}[1]")


def _pending_value(kind: Any, value: Any, where: str) -> None:
    data = _dict(value, where)
    _str(data.get("id"), f"{where}.id")
    if kind == "suggestion":
        _str(data.get("action"), f"{where}.action")
        left = data.get("edits_left")
        if left is not None and (isinstance(left, bool) or not isinstance(left, int)
                                 or left < 1):
            raise _fail(f"{where}.edits_left", f"must be a whole number ≥ 1, not {left!r}")
        if data.get("issue") is not None:
            _dict(data["issue"], f"{where}.issue")
    else:
        _str(data.get("text"), f"{where}.text")
        _one_of(data.get("response_type", "text"), RESPONSE_TYPES, f"{where}.response_type")
        for n, option in enumerate(_list(data.get("options", []), f"{where}.options")):
            _str(_dict(option, f"{where}.options[{n}]").get("value"),
                 f"{where}.options[{n}].value")


def _pending(value: Any) -> None:
    if value is None:
        return
    pending = _dict(value, "pending")
    kind = pending.get("kind")
    if kind not in ("suggestion", "ask"):
        raise _fail("pending.kind", f"must be 'suggestion' or 'ask', not {kind!r}")
    _pending_value(kind, pending.get("value"), "pending.value")


def _reply(value: Any) -> None:
    from ._reply import reply_items

    reply = _dict(value, "say.reply")
    _count(reply.get("serial"), "say.reply.serial")
    _count(reply.get("turn"), "say.reply.turn")
    text = _str(reply.get("text"), "say.reply.text")
    if len(text) > MAX_REPLY_CHARS:
        raise _fail("say.reply.text", f"is {len(text):,} characters, over the parser's limit")
    _count(reply.get("chars", len(text)), "say.reply.chars")
    groups = [len(items) for items in reply_items(text)]

    def item(pair: Any, where: str) -> tuple[int, int]:
        g, i = _key(pair, where)
        if g >= len(groups):
            raise _fail(where, f"names envelope {g}, but the reply has {len(groups)}")
        if i >= groups[g]:
            raise _fail(where, f"names item ({g}, {i}), but the reply has {groups[g]} items "
                               f"in envelope {g}")
        return g, i

    seen: set[tuple[int, int]] = set()
    for n, row in enumerate(_list(reply.get("resolved", []), "say.reply.resolved")):
        where = f"say.reply.resolved[{n}]"
        row = _list(row, where)
        if len(row) != 5:
            raise _fail(where, "must be [envelope, position, how, answer, note]")
        key = item(row[:2], where)
        if key in seen:
            raise _fail(where, f"resolves item {key} a second time")
        seen.add(key)
        for k, part in zip(("how", "answer", "note"), row[2:], strict=True):
            if part is not None:
                _str(part, f"{where}.{k}")
    for n, pair in enumerate(_list(reply.get("skipped", []), "say.reply.skipped")):
        item(pair, f"say.reply.skipped[{n}]")
    if reply.get("current") is not None:
        key = item(reply["current"], "say.reply.current")
        if key in seen:
            raise _fail("say.reply.current", f"is item {key}, which had already resolved")
        ids = _list(reply.get("current_ids"), "say.reply.current_ids")
        if len(ids) != 4:
            raise _fail("say.reply.current_ids", "must hold four counters")
        for n, count in enumerate(ids):
            _count(count, f"say.reply.current_ids[{n}]")
        if reply.get("current_from") is not None:
            _count(reply["current_from"], "say.reply.current_from")
    _outcomes(reply.get("outcomes", []), "say.reply.outcomes")
    for n, row in enumerate(_list(reply.get("answers", []), "say.reply.answers")):
        where = f"say.reply.answers[{n}]"
        row = _list(row, where)
        if len(row) != 2:
            raise _fail(where, "must be [ask, answer]")
        _pending_value("ask", row[0], f"{where}[0]")
        _str(row[1], f"{where}[1]")
    if reply.get("said") is not None:
        _str(reply["said"], "say.reply.said")


def _say(value: Any) -> None:
    if value is None:
        return
    say = _dict(value, "say")
    _count(say.get("turn"), "say.turn")
    if say.get("phase") not in PHASES:
        raise _fail("say.phase", f"must be one of {', '.join(PHASES)}, not {say.get('phase')!r}")
    _outcomes(say.get("reached", []), "say.reached")
    if say["phase"] == "handling":
        _reply(say.get("reply"))
    elif say.get("reply") is not None:
        raise _fail("say.reply", f"must be null while the say is {say['phase']}")
    if say.get("message") is not None:
        _str(say["message"], "say.message")
        if say["phase"] != "composing":
            raise _fail("say.message", f"must be null while the say is {say['phase']}")


def read_snapshot(data: Any) -> dict[str, Any]:
    """``data`` checked as a saved conversation (see the header); returns it unchanged.

    Raises ``SnapshotError`` naming the first thing that is wrong.

        >>> read_snapshot({"format": FORMAT, "version": 1, "transcript": "no"})
        Traceback (most recent call last):
        ...
        dial_notebook.SnapshotError: transcript must be a list, not text
    """
    snapshot = _dict(data, "the snapshot")
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
        raise _fail("", f"the snapshot has unknown keys: {', '.join(map(repr, unknown))}")
    if not isinstance(snapshot.get("full_dial", True), bool):
        raise _fail("full_dial", "must be true or false")
    _transcript(snapshot.get("transcript"))
    owed = _dict(snapshot.get("owed", {}), "owed")
    _outcomes(owed.get("outcomes", []), "owed.outcomes")
    for n, words in enumerate(_list(owed.get("words", []), "owed.words")):
        _str(words, f"owed.words[{n}]")
    _dict(snapshot.get("context", {}), "context")
    for signal, value in _dict(snapshot.get("presence", {}), "presence").items():
        _dict(value, f"presence.{signal}")
    _ids(snapshot.get("ids", dict.fromkeys(_ID_KEYS, 0)))
    _running(snapshot.get("running", []))
    _say(snapshot.get("say"))
    _pending(snapshot.get("pending"))
    if snapshot.get("pending") is not None and (snapshot.get("say") or {}).get(
            "phase") != "handling":
        raise _fail("pending", "is set, but no reply was being handled")
    if snapshot.get("agent") is not None:
        _dict(snapshot["agent"], "agent")
    if snapshot.get("surface") is not None:
        _surface(snapshot["surface"])
    if SIGNATURE in snapshot:
        _str(snapshot[SIGNATURE], SIGNATURE)
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
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SnapshotError(f"{file}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SnapshotError(f"{file}: cannot be read ({exc})") from None
    try:
        data = json.loads(text)
    except RecursionError:
        raise SnapshotError(f"{file}: is nested more than {MAX_DEPTH} levels deep") from None
    except ValueError as exc:
        raise SnapshotError(f"{file}: not JSON ({exc})") from None
    try:
        snapshot = read_snapshot(data)
    except SnapshotError as exc:
        raise SnapshotError(f"{file}: {exc}") from None
    trusted = SIGNATURE in snapshot and verify(text)
    snapshot.pop(SIGNATURE, None)
    return snapshot, trusted


def load_snapshot(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The saved conversation in the JSON file at ``path``, checked (``read_snapshot``), as
    data: whether it may act (its rules, its waiting card) is the surface's to ask
    (``read_session_file``).

    A missing, oversized, non-JSON or tampered file raises ``SnapshotError`` naming the file
    and what is wrong.
    """
    return read_session_file(path)[0]


def save_snapshot(snapshot: Mapping[str, Any], path: str | os.PathLike[str]) -> Path:
    """Write ``snapshot`` to ``path`` as JSON, atomically; returns the path.

    The folder is made when missing. A temporary file beside the target is written, flushed
    to disk and renamed over it, so a reader (or a crash) sees the old version or the new one,
    never half of one. The file is signed with this user's Jupyter secret (``_trust.py``): a
    file saved here is trusted when read back here.
    """
    unsigned = {key: value for key, value in snapshot.items() if key != SIGNATURE}
    text = json.dumps(unsigned, ensure_ascii=False, separators=(",", ":"), default=str)
    return write_atomically(path, signed(text))
