"""The checks of what a saved conversation says was going: the say (``check_say``), the reply
being handled (``check_reply``: every item it names is one of the reply's), and the card
waiting for the person (``check_pending``).

    >>> check_say({"turn": 1, "phase": "sending", "reply": None})
    >>> check_say({"turn": 1, "phase": "thinking"})
    Traceback (most recent call last):
    ...
    dial_notebook.SnapshotError: say.phase must be one of composing, sending, handling, not 'thinking'
"""

from __future__ import annotations

from typing import Any

from ..dial import MAX_REPLY_CHARS, RESPONSE_TYPES
from ._snapshot_values import (
    as_count,
    as_dict,
    as_key,
    as_list,
    as_str,
    fail,
    one_of,
    outcomes,
)

#: What a say may be doing: writing the message, sending it, handling the reply.
PHASES = ("composing", "sending", "handling")


def pending_value(kind: Any, value: Any, where: str) -> None:
    data = as_dict(value, where)
    as_str(data.get("id"), f"{where}.id")
    if kind == "suggestion":
        as_str(data.get("action"), f"{where}.action")
        left = data.get("edits_left")
        if left is not None and (isinstance(left, bool) or not isinstance(left, int)
                                 or left < 1):
            raise fail(f"{where}.edits_left", f"must be a whole number ≥ 1, not {left!r}")
        if data.get("issue") is not None:
            as_dict(data["issue"], f"{where}.issue")
    else:
        as_str(data.get("text"), f"{where}.text")
        one_of(data.get("response_type", "text"), RESPONSE_TYPES, f"{where}.response_type")
        for n, option in enumerate(as_list(data.get("options", []), f"{where}.options")):
            as_str(as_dict(option, f"{where}.options[{n}]").get("value"),
                   f"{where}.options[{n}].value")


def check_pending(value: Any) -> None:
    if value is None:
        return
    pending = as_dict(value, "pending")
    kind = pending.get("kind")
    if kind not in ("suggestion", "ask"):
        raise fail("pending.kind", f"must be 'suggestion' or 'ask', not {kind!r}")
    pending_value(kind, pending.get("value"), "pending.value")


def check_reply(value: Any) -> None:
    from ._reply import reply_items

    reply = as_dict(value, "say.reply")
    as_count(reply.get("serial"), "say.reply.serial")
    as_count(reply.get("turn"), "say.reply.turn")
    text = as_str(reply.get("text"), "say.reply.text")
    if len(text) > MAX_REPLY_CHARS:
        raise fail("say.reply.text", f"is {len(text):,} characters, over the parser's limit")
    as_count(reply.get("chars", len(text)), "say.reply.chars")
    groups = [len(items) for items in reply_items(text)]

    def item(pair: Any, where: str) -> tuple[int, int]:
        g, i = as_key(pair, where)
        if g >= len(groups):
            raise fail(where, f"names envelope {g}, but the reply has {len(groups)}")
        if i >= groups[g]:
            raise fail(where, f"names item ({g}, {i}), but the reply has {groups[g]} items "
                              f"in envelope {g}")
        return g, i

    seen: set[tuple[int, int]] = set()
    for n, row in enumerate(as_list(reply.get("resolved", []), "say.reply.resolved")):
        where = f"say.reply.resolved[{n}]"
        row = as_list(row, where)
        if len(row) != 5:
            raise fail(where, "must be [envelope, position, how, answer, note]")
        key = item(row[:2], where)
        if key in seen:
            raise fail(where, f"resolves item {key} a second time")
        seen.add(key)
        for k, part in zip(("how", "answer", "note"), row[2:], strict=True):
            if part is not None:
                as_str(part, f"{where}.{k}")
    for n, pair in enumerate(as_list(reply.get("skipped", []), "say.reply.skipped")):
        item(pair, f"say.reply.skipped[{n}]")
    if reply.get("current") is not None:
        key = item(reply["current"], "say.reply.current")
        if key in seen:
            raise fail("say.reply.current", f"is item {key}, which had already resolved")
        ids = as_list(reply.get("current_ids"), "say.reply.current_ids")
        if len(ids) != 4:
            raise fail("say.reply.current_ids", "must hold four counters")
        for n, count in enumerate(ids):
            as_count(count, f"say.reply.current_ids[{n}]")
        if reply.get("current_from") is not None:
            as_count(reply["current_from"], "say.reply.current_from")
    outcomes(reply.get("outcomes", []), "say.reply.outcomes")
    for n, row in enumerate(as_list(reply.get("answers", []), "say.reply.answers")):
        where = f"say.reply.answers[{n}]"
        row = as_list(row, where)
        if len(row) != 2:
            raise fail(where, "must be [ask, answer]")
        pending_value("ask", row[0], f"{where}[0]")
        as_str(row[1], f"{where}[1]")
    if reply.get("said") is not None:
        as_str(reply["said"], "say.reply.said")


def check_say(value: Any) -> None:
    if value is None:
        return
    say = as_dict(value, "say")
    as_count(say.get("turn"), "say.turn")
    if say.get("phase") not in PHASES:
        raise fail("say.phase", f"must be one of {', '.join(PHASES)}, not {say.get('phase')!r}")
    outcomes(say.get("reached", []), "say.reached")
    if say["phase"] == "handling":
        check_reply(say.get("reply"))
    elif say.get("reply") is not None:
        raise fail("say.reply", f"must be null while the say is {say['phase']}")
    if say.get("message") is not None:
        as_str(say["message"], "say.message")
        if say["phase"] != "composing":
            raise fail("say.message", f"must be null while the say is {say['phase']}")
