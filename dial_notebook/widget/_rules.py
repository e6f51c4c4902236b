"""The widget's side of the person's rules: the notebook's shared store, and the answer to a
rule being made on a card ("which earlier proposals would it have accepted?").

    NOTEBOOK_RULES   the 'notebook' rules of this kernel: every ChatWidget shares them (each
                     saves them in its session= file, and takes them back from it)
    draft_answer()   a RuleDraftMessage ─▶ RuleDraftResultMessage: whether the schema can be a
                     rule, the earlier proposals of the card's action it accepts (the card
                     itself left out), and whether it accepts the card; bounded by
                     DRAFT_SECONDS of kernel time in all

    >>> answer = draft_answer({"const": {"text": "milk"}}, "add-note", "sg-2",
    ...                       {"text": "milk"}, [], check_action=lambda action: None)
    >>> answer["error"], answer["card"], answer["total"]
    (None, True, 0)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from dial_notebook._budget import Budget, spending
from dial_notebook.domains import Rule, Rules

#: The rules of scope 'notebook' in this kernel, shared by every ChatWidget.
NOTEBOOK_RULES = Rules()
#: Kernel time one draft answer may take, every proposal checked included.
DRAFT_SECONDS = 1.0
#: How many matching proposals an answer lists (``total`` counts them all).
MAX_MATCHES = 20


def _statuses(transcript: Iterable[Mapping[str, Any]]) -> dict[str, tuple[str, bool]]:
    """Each proposal's latest outcome: its status, and whether the person edited it first."""
    statuses: dict[str, tuple[str, bool]] = {}
    for event in transcript:
        if event.get("type") == "outcome" and isinstance(event.get("id"), str):
            statuses[event["id"]] = (str(event.get("status") or ""), event.get("edited") is True)
    return statuses


def draft_answer(schema: Any, action: str, card_id: str, card_payload: Any,
                 transcript: list[Mapping[str, Any]], *,
                 check_action: Callable[[str], None]) -> dict[str, Any]:
    """The fields of the kernel's answer to a rule draft (see the header)."""
    answer: dict[str, Any] = {"error": None, "matches": [], "total": 0, "card": False}
    try:
        check_action(action)
        rule = Rule("r1", action, schema)
    except ValueError as exc:
        answer["error"] = str(exc)
        return answer
    statuses = _statuses(transcript)
    with spending(Budget(DRAFT_SECONDS)):
        answer["card"] = rule.accepts(card_payload)
        for event in transcript:
            if (event.get("type") != "suggestion" or event.get("action") != action
                    or event.get("kind") or event.get("id") == card_id):
                continue
            if not rule.accepts(event.get("payload")):
                continue
            answer["total"] += 1
            if len(answer["matches"]) < MAX_MATCHES:
                sid = str(event.get("id") or "")
                status, edited = statuses.get(sid, ("pending", False))
                match = {"id": sid, "preview": str(event.get("preview") or ""),
                         "status": status}
                answer["matches"].append({**match, "edited": True} if edited else match)
    return answer


def rules_for(domain: Any) -> Rules:
    """A new conversation's rules: its own, and the notebook's."""
    return Rules(domain=domain, shared=NOTEBOOK_RULES)
