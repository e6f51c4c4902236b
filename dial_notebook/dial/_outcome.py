"""Outcome replies: how the agent is told what became of its proposals, in DIAL itself.

The text is fixed by the runtime document and its wire details, character for character::

    <dial>
      <dial-acknowledge of="sg-3" yield="sg-3:failed">Couldn't do it: X.</dial-acknowledge>
      <dial-declare context-key="outcome:sg-3">
        <dial-payload type="application/json">{"action":"…","status":"failed",…}</dial-payload>
      </dial-declare>
    </dial>

The JSON is written as JavaScript's ``JSON.stringify`` writes it (compact, non-ASCII as is,
``1.0`` as ``1``, ``1e+21``, NaN as ``null``) with every ``<`` as ``\\u003c``. Two additions to
the reference:

- a ``data:`` URL in a result longer than ``MAX_DATA_URL`` characters (a chart's PNG) is
  replaced by a short note, so an image is not sent to the agent as text;
- what the person said about the proposal follows ``edited``, written like the other fields:
  ``"reason"`` (why it was dismissed) and ``"comments"`` (``[{"field":"/text","text":"…"}]``,
  a JSON Pointer into the payload, ``""`` for the whole proposal). The acknowledgement's text
  is the runtime's, unchanged.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Any

#: Every outcome status and its acknowledgement text (X: the preview, or the action name).
STATUSES: dict[str, str] = {
    "done": "Done: {x}.",
    "failed": "Couldn't do it: {x}.",
    "invalid": "Not proposed to the user — the payload for {action} is invalid.",
    "dismissed": "The user dismissed: {x}.",
    "superseded": "The user moved on without deciding: {x}.",
    "handed-off": "Passed to the user in its own panel: {x}.",
    # not in the runtime spec (schema v0.1 run time): a proposal or step never reached because
    # what it observed did not happen, or it was addressed elsewhere; the hint says why
    "skipped": "Skipped: {x}.",
    # not in the runtime spec either: a done action the person took back (Undo), told as a
    # second, later outcome of the same suggestion
    "undone": "Undone: {x}.",
}

_JSON_KEYS = ("action", "status", "result", "error", "code", "field", "hint")
#: ``data:`` URLs longer than this (a plot's PNG) reach the agent as a short placeholder.
MAX_DATA_URL = 2048


def _elide_data_urls(value: Any) -> Any:
    """The value with long ``data:`` URLs replaced by a note; the person still sees them."""
    if isinstance(value, str):
        if len(value) > MAX_DATA_URL and value.startswith("data:"):
            head = value[: value.find(",") + 1] if "," in value[:200] else "data:"
            return f"{head}[{len(value):,} characters omitted: shown to the person]"
        return value
    if isinstance(value, Mapping):
        return {k: _elide_data_urls(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_elide_data_urls(v) for v in value]
    return value


def escape_text(text: str) -> str:
    """XML text escaping as the reference does it: ``&``, ``<``, ``>``."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def escape_attr(text: str) -> str:
    """Attribute escaping: the text escapes plus ``"`` (``'`` is left as is)."""
    return escape_text(text).replace('"', "&quot;")


def js_number(x: float | int) -> str:
    """A number as JavaScript's ``Number.prototype.toString`` writes it.

        >>> [js_number(v) for v in (1.0, 0.1, 1e21, 1e-7, 123456789012345680000.0)]
        ['1', '0.1', '1e+21', '1e-7', '123456789012345680000']
    """
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, int) and abs(x) < 10**21:
        return str(x)
    f = float(x)
    if not math.isfinite(f):
        return "null"
    if f == 0:
        return "0"
    sign = "-" if f < 0 else ""
    _, digit_tuple, exp = Decimal(repr(abs(f))).as_tuple()
    digits = "".join(map(str, digit_tuple)).rstrip("0") or "0"
    # value = 0.DIGITS × 10^n
    n = len("".join(map(str, digit_tuple))) + int(exp)
    k = len(digits)
    if k <= n <= 21:
        body = digits + "0" * (n - k)
    elif 0 < n <= 21:
        body = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        body = "0." + "0" * (-n) + digits
    else:
        e = n - 1
        mantissa = digits if k == 1 else digits[0] + "." + digits[1:]
        body = f"{mantissa}e{'+' if e >= 0 else '-'}{abs(e)}"
    return sign + body


def js_json(value: Any) -> str:
    """``value`` as ``JSON.stringify`` writes it (objects that are not JSON become strings)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return js_number(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, Mapping):
        return "{" + ",".join(
            json.dumps(str(k), ensure_ascii=False) + ":" + js_json(v) for k, v in value.items()
        ) + "}"
    if isinstance(value, list | tuple):
        return "[" + ",".join(js_json(v) for v in value) + "]"
    to_dict = getattr(value, "to_dict", None)
    if callable(to_dict):
        try:
            return js_json(to_dict())
        except Exception:  # a to_dict() that needs arguments, or fails: fall back to text
            pass
    return json.dumps(str(value), ensure_ascii=False)


def outcome_json(outcome: Mapping[str, Any]) -> str:
    """The outcome's payload JSON: key order of the spec, ``id``/``preview`` left out."""
    body: dict[str, Any] = {k: outcome[k] for k in _JSON_KEYS if k in outcome}
    if "result" in body:
        body["result"] = _elide_data_urls(body["result"])
    if "result" in body:
        for k in ("error", "code", "field", "hint"):
            body.pop(k, None)
    for k in ("error", "code", "field", "hint"):
        if k in body and body[k] is None:
            del body[k]
    if outcome.get("edited"):
        body["edited"] = True
    # this project's extension: what the person said about the proposal (see the header)
    if isinstance(outcome.get("reason"), str) and outcome["reason"]:
        body["reason"] = outcome["reason"]
    if isinstance(outcome.get("comments"), list) and outcome["comments"]:
        body["comments"] = [{"field": c.get("field", ""), "text": c.get("text", "")}
                            for c in outcome["comments"] if isinstance(c, Mapping)]
    return js_json(body).replace("<", "\\u003c")


def _ack(outcome: Mapping[str, Any]) -> str:
    status = outcome.get("status")
    if status not in STATUSES:
        raise ValueError(
            f"Unknown outcome status {status!r}; expected one of {', '.join(STATUSES)}."
        )
    action = str(outcome.get("action") or "")
    x = str(outcome.get("preview") or "") or action
    return STATUSES[status].format(x=x, action=action)


def outcome_reply(outcomes: Iterable[Mapping[str, Any]]) -> str:
    """The envelope that tells the agent what became of its suggestions.

        >>> print(outcome_reply([{"id": "sg-1", "action": "add-note", "status": "done",
        ...                       "preview": "Add the note 'milk'", "result": {"id": 1}}]))
        <dial>
          <dial-acknowledge of="sg-1" yield="sg-1:done">Done: Add the note 'milk'.</dial-acknowledge>
          <dial-declare context-key="outcome:sg-1">
            <dial-payload type="application/json">{"action":"add-note","status":"done","result":{"id":1}}</dial-payload>
          </dial-declare>
        </dial>
    """
    blocks: list[str] = []
    for outcome in outcomes:
        ack = escape_text(_ack(outcome))
        oid = escape_attr(str(outcome.get("id", "")))
        status = escape_attr(str(outcome["status"]))
        payload = escape_text(outcome_json(outcome))
        blocks.append(
            f'  <dial-acknowledge of="{oid}" yield="{oid}:{status}">{ack}</dial-acknowledge>\n'
            f'  <dial-declare context-key="outcome:{oid}">\n'
            f'    <dial-payload type="application/json">{payload}</dial-payload>\n'
            f"  </dial-declare>"
        )
    if not blocks:
        return ""
    return "<dial>\n" + "\n".join(blocks) + "\n</dial>"
