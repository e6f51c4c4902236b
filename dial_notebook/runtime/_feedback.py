"""What the person says about a proposal while deciding: comments on its fields, and the
reason for a dismissal. They reach the agent with the proposal's outcome.

    decide(suggestion) ─▶ {'dismiss': True, 'reason': 'we have one already'}
                          {'edit': payload, 'comments': [{'field': '/text', 'text': 'shorter'}]}
                          {'accept': True, 'comments': [...]}
        ─▶ the outcome  {..., 'reason': …, 'comments': [{'field', 'text'}]}
        ─▶ its declare  {"action":…,"status":"dismissed","reason":"…","comments":[…]}

A comment's ``field`` is a JSON Pointer into the payload (``/text``, ``/tags/0``); ``""`` is
the whole proposal. Comments made across the decisions on one card (an edit refused, then
another) are all kept, in order, each once. A malformed comment is an error that says what is
wrong (a scripted human's typo should not pass silently); texts are trimmed and capped.

    >>> read_feedback({"dismiss": True, "reason": "  dup  "})
    {'reason': 'dup'}
    >>> read_feedback({"accept": True, "comments": [{"field": "/text", "text": "ok"}]})
    {'comments': [{'field': '/text', 'text': 'ok'}]}
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .._json_kind import json_kind

#: At most this many comments on one proposal.
MAX_COMMENTS = 20
#: A comment or a reason is cut to this many characters.
MAX_TEXT = 2000
#: A JSON Pointer (RFC 6901): empty, or ``/``-separated tokens with ``~`` escaped as ``~0``/``~1``.
_POINTER = re.compile(r"(?:/(?:[^~/]|~[01])*)*")
_MAX_POINTER = 500


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{what} must be text, not {json_kind(value)}")
    text = value.strip()
    return text if len(text) <= MAX_TEXT else text[:MAX_TEXT - 1].rstrip() + "…"


def read_comment(comment: Any) -> dict[str, str]:
    """One comment as ``{'field': pointer, 'text': text}``, or ``ValueError`` saying why not.

        >>> read_comment({"field": "", "text": "Good idea"})
        {'field': '', 'text': 'Good idea'}
    """
    if not isinstance(comment, Mapping):
        raise ValueError(f"a comment is {{'field': '/name', 'text': '…'}}, not {comment!r}")
    unknown = sorted(set(comment) - {"field", "text"})
    if unknown:
        raise ValueError(f"a comment has only 'field' and 'text', not {', '.join(unknown)}")
    field = comment.get("field", "")
    if not isinstance(field, str) or len(field) > _MAX_POINTER or not _POINTER.fullmatch(field):
        raise ValueError(f"a comment's field is a JSON Pointer such as '/text' ('' for the "
                         f"whole proposal), not {field!r}")
    text = _text(comment.get("text"), "a comment's text")
    if not text:
        raise ValueError("a comment's text is empty")
    return {"field": field, "text": text}


def read_feedback(decision: Mapping[str, Any]) -> dict[str, Any]:
    """The ``reason`` (a dismissal's) and ``comments`` of a decision, those given."""
    feedback: dict[str, Any] = {}
    if decision.get("reason") is not None:
        if not decision.get("dismiss"):
            raise ValueError("a reason goes with a dismissal: {'dismiss': True, 'reason': …}")
        reason = _text(decision["reason"], "a dismissal's reason")
        if reason:
            feedback["reason"] = reason
    comments = decision.get("comments")
    if comments is not None:
        if not isinstance(comments, list | tuple):
            raise ValueError(f"comments are a list of {{'field', 'text'}}, not "
                             f"{json_kind(comments)}")
        if len(comments) > MAX_COMMENTS:
            raise ValueError(f"at most {MAX_COMMENTS} comments on one proposal, not "
                             f"{len(comments)}")
        read = [read_comment(comment) for comment in comments]
        if read:
            feedback["comments"] = read
    return feedback


def merged(earlier: list[dict[str, str]], later: list[dict[str, str]]) -> list[dict[str, str]]:
    """The comments of two decisions on one card, in order, each once, at most MAX_COMMENTS.

        >>> merged([{"field": "", "text": "a"}], [{"field": "", "text": "a"},
        ...                                       {"field": "/x", "text": "b"}])
        [{'field': '', 'text': 'a'}, {'field': '/x', 'text': 'b'}]
    """
    kept: list[dict[str, str]] = []
    for comment in [*earlier, *later]:
        if comment not in kept:
            kept.append(comment)
    return kept[:MAX_COMMENTS]
