"""The exception a domain raises when an action cannot run, and the refusal dict validation returns.

The runtime turns an exception raised by ``run`` into a ``failed`` outcome carrying the message
and, when present, the exception's ``code``, ``field`` and ``hint``; ``ActionError`` is the
exception that has them.

    >>> raise ActionError("no such note", code="not-found", field="id", hint="list the notes first")
    Traceback (most recent call last):
    ...
    dial_notebook.ActionError: no such note
"""

from __future__ import annotations

from typing import Any


class ActionError(Exception):
    """An action could not be validated or run, with what the agent needs to correct itself.

    Args:
        message: what went wrong, in a sentence.
        code: a short machine-readable code, e.g. ``"not-found"``.
        field: the path of the field at fault (``"columns[1].name"``), ``""`` for the payload.
        hint: how to fix it, in a sentence; the message when not given.

        >>> ActionError("there is no note 4", code="not-found", field="id").hint
        'there is no note 4'
    """

    def __init__(
        self,
        message: str,
        *,
        code: str = "action-failed",
        field: str | None = None,
        hint: str | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.field = field
        self.hint = hint if hint is not None else message


def refusal(
    errors: list[dict[str, str]],
    *,
    code: str = "invalid-payload",
    hint: str | None = None,
    total: int | None = None,
) -> dict[str, Any]:
    """The dict ``validate`` returns to refuse a payload: ``ok``, ``code``, ``field``, ``hint``,
    ``errors``. ``field`` is the first error's field; ``hint`` joins the first three messages
    and says how many more there are (``total`` counts errors left out of the capped list).

        >>> refusal([{"field": "text", "message": "text must not be empty"}])["hint"]
        'text must not be empty'
    """
    if hint is None:
        count = max(total or 0, len(errors))
        hint = "; ".join(error["message"] for error in errors[:3])
        if count > 3:
            hint += f"; and {count - 3} more"
    return {
        "ok": False,
        "code": code,
        "field": errors[0]["field"] if errors else "",
        "hint": hint,
        "errors": errors,
    }
