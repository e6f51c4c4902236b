# A recorded session as a regression scenario: the person's words, answers and decisions.
"""``scenario_from_session`` (``Scenario.from_session``) and ``scenarios_from_sessions``.

    a session file (ChatWidget(session=…), either format) or a snapshot dict
        ─▶ read and checked by the runtime's reader (read_session_file / read_snapshot):
           a file too big, cut, foreign or malformed is a ValueError naming it; nothing made
        ─▶ says: the person's messages in order (the widget's 'person' entries; without them,
           the words at the end of each say's first message)
           answers: question text → the person's answer
           decisions, one per proposal the person (or their rule) decided:
               accepted as it was          ─▶ accepted  {payload}            (by: rule)
               accepted after their edit   ─▶ corrected {payload, original}  (the edit kept
                                                                              in the outcome)
               dismissed                   ─▶ dismissed {payload, reason?}
               (read-only and hand-off runs, refusals, superseded cards: no decision)
        ─▶ drop: prose (reason, comments, answers) or payload fields, by name, everywhere
        ─▶ Scenario(name, say, Expectation(actions, decisions), answers)

Only what the session held goes in (its transcript and the widget's entries: never its agent
state, a key or a system prompt); payloads stay data (JSON values), never read as code.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from .._data_files import shown
from ..runtime import SnapshotError, read_session_file, read_snapshot
from ._decisions import STRUCTURE, without
from ._scenario import MAX_SCENARIO_BYTES, Expectation, Scenario

#: Prose a ``drop`` may name (besides payload fields).
PROSE = ("reason", "comments", "answers")


def _snapshot(source: Any, where: str) -> dict[str, Any]:
    if isinstance(source, Mapping):
        try:
            return read_snapshot(dict(source))
        except SnapshotError as exc:
            raise ValueError(f"{where}: {exc}") from None
    if not isinstance(source, str | os.PathLike):
        raise ValueError(f"{where}: expected a session file's path or a snapshot, "
                         f"not {type(source).__name__}")
    try:
        return read_session_file(source)[0]
    except SnapshotError as exc:
        raise ValueError(f"{where}: {exc}") from None


def _merged(snapshot: Mapping[str, Any], where: str) -> list[dict[str, Any]] | None:
    """The widget's transcript: the runtime's events with its own entries in their places
    (None: the snapshot has none of the widget's)."""
    surface = snapshot.get("surface")
    if not isinstance(surface, Mapping):
        return None
    if isinstance(surface.get("transcript"), list):
        return [e for e in surface["transcript"] if isinstance(e, Mapping)]
    entries = surface.get("entries")
    if not isinstance(entries, list):
        return None
    merged: list[dict[str, Any]] = list(snapshot.get("transcript") or [])
    for n, row in enumerate(entries):
        if (not isinstance(row, list) or len(row) != 2 or isinstance(row[0], bool)
                or not isinstance(row[0], int) or not isinstance(row[1], Mapping)):
            raise ValueError(f"{where}: surface.entries[{n}] is not [place, entry]")
        merged.insert(min(max(row[0], 0), len(merged)), dict(row[1]))
    return merged


def _words_sent(transcript: list[dict[str, Any]]) -> list[str]:
    """The person's words of each say, from its first message: what follows the outcome
    reply and a context given as markup (a snapshot without the widget's entries)."""
    says = []
    for event in transcript:
        if event.get("type") != "sent" or event.get("turn") != 1:
            continue
        parts = str(event.get("message", "")).split("\n\n")
        while parts and parts[0].lstrip().startswith("<") and parts[0].rstrip().endswith(">"):
            parts.pop(0)
        words = "\n\n".join(parts).strip()
        if words:
            says.append(words)
    return says


def person_words(snapshot: Mapping[str, Any], where: str) -> tuple[list[str], dict[str, str]]:
    """(the person's messages in order, question text → their answer)."""
    merged = _merged(snapshot, where)
    if merged is None:
        return _words_sent(list(snapshot.get("transcript") or [])), {}
    says: list[str] = []
    answers: dict[str, str] = {}
    for entry in merged:
        if entry.get("type") != "person" or not isinstance(entry.get("text"), str):
            continue
        to = entry.get("answer_to")
        if isinstance(to, int) and not isinstance(to, bool) and 0 <= to < len(merged):
            asked = merged[to]
            if asked.get("type") == "ask" and isinstance(asked.get("text"), str):
                answers[asked["text"]] = entry["text"]
        elif to is None and "questions" not in entry and entry["text"].strip():
            says.append(entry["text"])
    return says, answers


def recorded_decisions(transcript: Iterable[Mapping[str, Any]]
                       ) -> tuple[list[dict[str, Any]], list[str]]:
    """(one decision per proposal the person or their rule decided, in order; the actions
    that ran without asking: read-only and hand-off)."""
    cards: dict[str, Mapping[str, Any]] = {}
    decisions: list[dict[str, Any]] = []
    unasked: list[str] = []
    for event in transcript:
        kind = event.get("type")
        if kind == "suggestion" and event.get("kind") != "execute":
            cards[str(event.get("id"))] = event
            continue
        if kind != "outcome":
            continue
        card = cards.pop(str(event.get("id")), None)
        if card is None or card.get("action") != event.get("action"):
            continue  # refused before it was shown, a block's step, or a second outcome
        action, status = str(event["action"]), event.get("status")
        if card.get("mutates") is False or status == "handed-off":
            if status in ("done", "handed-off"):
                unasked.append(action)
            continue
        decision: dict[str, Any]
        if status in ("done", "failed") and event.get("edited"):
            decision = {"kind": "corrected", "action": action}
            if "payload" in event:  # a session saved before the edit was kept has none
                decision["payload"] = event["payload"]
            decision["original"] = card.get("payload")
        elif status in ("done", "failed"):
            decision = {"kind": "accepted", "action": action, "payload": card.get("payload")}
            if isinstance(event.get("rule"), str):
                decision["by"] = "rule"
        elif status == "dismissed":
            decision = {"kind": "dismissed", "action": action, "payload": card.get("payload")}
            if isinstance(event.get("reason"), str) and event["reason"]:
                decision["reason"] = event["reason"]
        else:
            continue  # superseded, invalid after refused edits: the person decided nothing
        if isinstance(event.get("comments"), list) and event["comments"]:
            decision["comments"] = [dict(c) for c in event["comments"]]
        decisions.append(decision)
    return decisions, unasked


def _keys(value: Any) -> set[str]:
    """Every key of ``value``, at any depth."""
    if isinstance(value, Mapping):
        return set(value).union(*(_keys(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(_keys(v) for v in value))
    return set()


def _dropped(decision: dict[str, Any], names: frozenset[str]) -> dict[str, Any]:
    kept = {k: v for k, v in decision.items() if k not in names or k in STRUCTURE}
    gone: set[str] = set()
    for form in ("payload", "original"):
        if form in kept:
            gone |= names & _keys(kept[form])
            kept[form] = without(kept[form], names)
    if gone:
        kept["dropped"] = sorted(gone)
    return kept


def _drop_names(drop: Iterable[str], where: str) -> frozenset[str]:
    if isinstance(drop, str) or not isinstance(drop, Iterable):
        raise ValueError(f"{where}: drop must be a list of field names, not {shown(drop)}")
    names = frozenset(drop)
    for name in names:
        if not isinstance(name, str) or not name:
            raise ValueError(f"{where}: drop must hold field names (text), not {shown(name)}")
    structural = sorted(names & (STRUCTURE - {"dropped"}))
    if structural:
        raise ValueError(f"{where}: {structural[0]!r} cannot be dropped: a decision needs it "
                         f"(drop prose — {', '.join(PROSE)} — or payload fields)")
    return names


def scenario_from_session(source: str | os.PathLike[str] | Mapping[str, Any], *,
                          name: str | None = None, drop: Iterable[str] = ()) -> Scenario:
    """The scenario a recorded session holds (see the header). ``source``: a session file's
    path (``ChatWidget(session=…)``; either format) or a snapshot (``conversation.snapshot()``).
    ``name``: the scenario's (default: the file's name without its suffix, or ``session``).

    A file that cannot be read as a session, one without the person's words, or a scenario
    over ``MAX_SCENARIO_BYTES`` raises ``ValueError`` naming the file; nothing is made.

        >>> scenario_from_session({"format": "dial-notebook/conversation", "version": 1,
        ...                        "transcript": [{"type": "sent", "turn": 1,
        ...                                        "message": "hello"}]}).say
        ('hello',)
    """
    where = "Scenario.from_session" + (f": {source}" if not isinstance(source, Mapping) else "")
    names = _drop_names(drop, where)
    snapshot = _snapshot(source, where)
    transcript = list(snapshot.get("transcript") or [])
    says, answers = person_words(snapshot, where)
    if not says:
        raise ValueError(f"{where}: the session holds no words of the person to say")
    decisions, unasked = recorded_decisions(transcript)
    decisions = [_dropped(d, names) for d in decisions]
    if "answers" in names:
        answers = {}
    actions = [d["action"] for d in decisions if d["kind"] != "dismissed"] + unasked
    if name is None:
        name = "session" if isinstance(source, Mapping) else Path(source).stem or "session"
    try:
        scenario = Scenario(name, tuple(says), Expectation(
            actions=tuple(dict.fromkeys(actions)), decisions=tuple(decisions)), answers)
    except ValueError as exc:
        raise ValueError(f"{where}: {exc}") from None
    size = len(json.dumps(scenario.to_dict(), ensure_ascii=False, default=str).encode())
    if size > MAX_SCENARIO_BYTES:
        raise ValueError(f"{where}: its scenario would be {size:,} bytes, over the "
                         f"{MAX_SCENARIO_BYTES:,} a scenario file may hold (split the session, "
                         "or drop large fields)")
    return scenario


def scenarios_from_sessions(paths: Iterable[str | os.PathLike[str] | Mapping[str, Any]], *,
                            drop: Iterable[str] = ()) -> list[Scenario]:
    """One scenario per session (``scenario_from_session``), named after its file (a name
    used twice gets `` (2)``, `` (3)`` …). The first session that cannot be read stops it,
    naming that file: nothing is returned half made.

        >>> day = {"format": "dial-notebook/conversation", "version": 1,
        ...        "transcript": [{"type": "sent", "turn": 1, "message": "hi"}]}
        >>> [s.name for s in scenarios_from_sessions([day, day])]
        ['session', 'session (2)']
    """
    if isinstance(paths, str | os.PathLike | Mapping) or not isinstance(paths, Iterable):
        raise ValueError(f"scenarios_from_sessions: expected a list of session files, "
                         f"not {shown(paths)}")
    made: list[Scenario] = []
    seen: dict[str, int] = {}
    for source in paths:
        scenario = scenario_from_session(source, drop=drop)
        seen[scenario.name] = seen.get(scenario.name, 0) + 1
        if seen[scenario.name] > 1:
            scenario = Scenario(f"{scenario.name} ({seen[scenario.name]})", scenario.say,
                                scenario.expect, scenario.answers)
        made.append(scenario)
    if not made:
        raise ValueError("scenarios_from_sessions: there are no sessions")
    return made


def save_scenarios(scenarios: Iterable[Scenario], path: str | os.PathLike[str]) -> Path:
    """Write ``scenarios`` as a ``.json`` or ``.yaml`` file ``load_scenarios`` reads back
    (plain, readable: one scenario after another, indented).

        >>> import tempfile
        >>> from dial_notebook.evaluation import load_scenarios
        >>> folder = tempfile.mkdtemp()
        >>> [s.say for s in load_scenarios(save_scenarios([Scenario("a", ("hi",))],
        ...                                               f"{folder}/s.json"))]
        [('hi',)]
    """
    target = Path(path)
    data = [s.to_dict() for s in scenarios]
    suffix = target.suffix.lower()
    if suffix == ".json":
        text = json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    elif suffix in (".yaml", ".yml"):
        try:
            import yaml
        except ImportError:
            raise ImportError('save_scenarios: writing YAML needs pyyaml: '
                              'pip install "dial-notebook[yaml]"') from None
        text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
    else:
        raise ValueError(f"save_scenarios: {target} is not a .json, .yaml or .yml file")
    target.write_text(text, encoding="utf-8")
    return target
