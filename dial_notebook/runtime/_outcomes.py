"""Outcomes: what became of a suggestion, as the plain dict the agent is told and events carry.

    {'id', 'action', 'status', 'preview', and, by status:
     done / handed-off   'result' (what run returned; absent when it returned None: a
                         Python function that returns nothing is JavaScript's undefined,
                         which the reference leaves out of the declare)
     failed              'error', 'code', 'field', 'hint' (the exception's, those present)
     invalid             'code', 'field', 'hint' (the domain's refusal, those present)
     + 'edited': True    when the person changed the payload
     + 'payload'         with 'edited': what the person changed it to (kept in the
                         transcript for learning from decisions; never told to the agent)
     + 'rule'            the id of the person's rule that accepted it without asking
     + 'reason'          why the person dismissed it (_feedback.py)
     + 'comments'        the person's comments, [{'field': JSON Pointer, 'text'}]}

'reason' and 'comments' reach the agent in the outcome's declare, after 'edited'; 'rule' does
not (to the agent, an accept by a rule is an accept).

Only done, failed and invalid make a turn follow at once (``NEEDS_REPLY``); dismissed,
superseded and handed-off wait for the person's next words.
"""

from __future__ import annotations

import json
from typing import Any

from ..dial import outcome_json

Outcome = dict[str, Any]

#: The statuses the agent should react to now.
NEEDS_REPLY = frozenset({"done", "failed", "invalid"})

#: The error of an action whose run was interrupted (the task was cancelled).
INTERRUPTED = "Interrupted before it finished."


def outcome(sid: str, action: str, status: str, preview: str, **fields: Any) -> Outcome:
    """One outcome dict, keys in the spec's order."""
    return {"id": sid, "action": action, "status": status, "preview": preview, **fields}


def failure(exc: BaseException) -> dict[str, Any]:
    """The fields of a ``failed`` outcome: the message, and the exception's code/field/hint."""
    fields: dict[str, Any] = {"error": str(exc) or type(exc).__name__}
    for key in ("code", "field", "hint"):
        value = getattr(exc, key, None)
        if value is not None:
            fields[key] = value if isinstance(value, str) else str(value)
    return fields


def interrupted() -> dict[str, Any]:
    """The fields of the ``failed`` outcome of a run that was cut short."""
    return {"error": INTERRUPTED}


def ended(ok: bool, value: Any, status: str = "done") -> dict[str, Any]:
    """The ``status`` and fields of work that ended as ``_work.on_end`` reports it: ``ok`` with
    its result, or not with its exception (None: it was cut short before it could end).

        >>> ended(True, {"id": 3}), ended(False, None)["error"]
        ({'status': 'done', 'result': {'id': 3}}, 'Interrupted before it finished.')
    """
    if ok:
        return {"status": status, **returned(value)}
    if value is None:
        return {"status": "failed", **interrupted()}
    return {"status": "failed", **failure(value)}


def timed_out(exc: Any) -> dict[str, Any]:
    """The fields of the ``failed`` outcome of a run past its time limit (a ``TimedOut``)."""
    hint = ("It was stopped; part of it may have taken effect: check before trying again."
            if exc.stopped else
            "It may still be running, and may yet take effect: check before trying again.")
    return {"error": str(exc), "code": "timeout", "hint": hint}


def returned(result: Any) -> dict[str, Any]:
    """The ``result`` field of an outcome: what the run returned, or nothing for ``None``.

        >>> returned(None), returned({"id": 3})
        ({}, {'result': {'id': 3}})
    """
    return {} if result is None else {"result": jsonable(result)}


def jsonable(result: Any) -> Any:
    """``result`` as it is when JSON can write it; otherwise as the agent is told it.

    A data frame or any other object becomes what ``outcome_reply`` writes for it (its
    ``to_dict()``, else its text), so events stay JSON-able and say what the agent heard.
    """
    try:
        json.dumps(result)
        return result
    except (TypeError, ValueError, RecursionError):
        pass
    try:
        return json.loads(outcome_json({"result": result}))["result"]
    except (TypeError, ValueError, RecursionError, KeyError):
        return str(result)
