# What an agent's run came to against the person's recorded decisions, decision by decision.
"""``decision_verdicts``: each recorded decision of a scenario met (or not) by the proposals of
its run, and the proposals that meet none (new).

    recorded   the run proposed                          verdict                 agrees
    accepted   the same action and payload               accepted again          yes
               nothing like it                           missed                  no
    corrected  what the person corrected it to           now right               yes
               what they had to correct, again           still needs the edit    yes
               nothing like either                       missed                  no
    dismissed  nothing like it                           not proposed again      yes
               the same again                            proposed again          yes
    —          a proposal the person never decided       new                     no

"Agrees" is the person's own decision met again: what they would decide about what the agent
proposes now is what they decided then (the same edit, the same dismissal). Each proposal the
person would decide (shown on a card or accepted by a rule; not read-only or hand-off runs,
not refusals) is matched once, in order, to the first recorded decision it is the same as
(``_decisions.Matcher``: normalised, within the tolerance); one the same as a decision already
met is a repeat, neither counted nor new.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ._decisions import Matcher

ACCEPTED_AGAIN = "accepted again"
MISSED = "missed"
NOW_RIGHT = "now right"
NEEDS_EDIT = "still needs the edit"
NOT_AGAIN = "not proposed again"
PROPOSED_AGAIN = "proposed again"
NEW = "new"
#: Every verdict, in the order a summary lists them; those that disagree with the person.
VERDICTS = (ACCEPTED_AGAIN, NOW_RIGHT, NEEDS_EDIT, NOT_AGAIN, PROPOSED_AGAIN, MISSED, NEW)
DISAGREES = frozenset({MISSED, NEW})

_MET = {("accepted", "payload"): ACCEPTED_AGAIN, ("corrected", "payload"): NOW_RIGHT,
        ("corrected", "original"): NEEDS_EDIT, ("dismissed", "payload"): PROPOSED_AGAIN}
_UNMET = {"accepted": MISSED, "corrected": MISSED, "dismissed": NOT_AGAIN}


def decided_proposals(transcript: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The proposals of a run a person would decide, as proposed: ``{id, action, payload}``
    (cards that ended done, failed or dismissed; no read-only, hand-off or execute ones)."""
    cards: dict[str, Mapping[str, Any]] = {}
    found: list[dict[str, Any]] = []
    for event in transcript:
        kind = event.get("type")
        if kind == "suggestion" and event.get("kind") != "execute":
            cards[str(event.get("id"))] = event
        elif kind == "outcome":
            card = cards.pop(str(event.get("id")), None)
            if (card is not None and card.get("mutates") is not False
                    and card.get("action") == event.get("action")
                    and event.get("status") in ("done", "failed", "dismissed")):
                found.append({"id": card.get("id"), "action": card.get("action"),
                              "payload": card.get("payload")})
    return found


def decision_verdicts(decisions: Iterable[Mapping[str, Any]],
                      transcript: Iterable[Mapping[str, Any]],
                      tolerance: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """One entry per recorded decision, in order (``{kind, action, verdict, agrees, id}``:
    the proposal that met it, or None), then one per new proposal (``kind`` ``new``, with
    its ``payload``).

        >>> made = [{"kind": "accepted", "action": "add", "payload": {"n": 1}}]
        >>> ran = [{"type": "suggestion", "id": "s1", "action": "add", "payload": {"n": 1.0}},
        ...        {"type": "outcome", "id": "s1", "action": "add", "status": "done"}]
        >>> [v["verdict"] for v in decision_verdicts(made, ran)]
        ['accepted again']
    """
    matcher = Matcher(decisions, tolerance)
    met: dict[int, tuple[str, Any]] = {}
    new: list[dict[str, Any]] = []
    everything = range(len(matcher.decisions))
    for proposal in decided_proposals(transcript):
        action, payload = str(proposal["action"]), proposal["payload"]
        unmet = [n for n in everything if n not in met]
        found = matcher.find(action, payload, unmet)
        if found is None:
            if matcher.find(action, payload, list(everything)) is None:
                new.append({"kind": NEW, "action": action, "verdict": NEW, "agrees": False,
                            "id": proposal["id"], "payload": payload})
            continue  # the same as a decision met already: a repeat
        n, decision, form = found
        met[n] = (_MET[(decision["kind"], form)], proposal["id"])
    verdicts = []
    for n, decision in enumerate(matcher.decisions):
        verdict, sid = met.get(n, (_UNMET[decision["kind"]], None))
        verdicts.append({"kind": decision["kind"], "action": decision["action"],
                         "verdict": verdict, "agrees": verdict not in DISAGREES, "id": sid})
    return verdicts + new


def tally(verdicts: Iterable[Mapping[str, Any]]) -> dict[str, int]:
    """Verdict → how many, every verdict present (0 when none), and ``decisions`` (the recorded
    ones) and ``agrees`` (those met again)."""
    counts = dict.fromkeys(VERDICTS, 0)
    decisions = agrees = 0
    for verdict in verdicts:
        counts[str(verdict["verdict"])] = counts.get(str(verdict["verdict"]), 0) + 1
        if verdict["kind"] != NEW:
            decisions += 1
            agrees += bool(verdict["agrees"])
    return {"decisions": decisions, "agrees": agrees, **counts}


def agreement_line(counts: Mapping[str, int]) -> str:
    """``agrees with the person on N of M decisions`` and what is worth knowing of the rest.

        >>> agreement_line({"decisions": 3, "agrees": 2, "missed": 1, "new": 2,
        ...                 "still needs the edit": 1})
        'agrees with the person on 2 of 3 decisions (1 still needs the edit; 1 missed, 2 new)'
    """
    m = counts.get("decisions", 0)
    line = f"agrees with the person on {counts.get('agrees', 0)} of {m} decision" + (
        "" if m == 1 else "s")
    notes = [f"{counts[v]} {v}" for v in (NEEDS_EDIT, PROPOSED_AGAIN) if counts.get(v)]
    wrong = [f"{counts[v]} {v}" for v in (MISSED, NEW) if counts.get(v)]
    said = "; ".join(part for part in (", ".join(notes), ", ".join(wrong)) if part)
    return line + (f" ({said})" if said else "")
