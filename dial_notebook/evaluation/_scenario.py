# Scenarios and their expectations: what to say to an agent, and what should come of it.
"""``Scenario`` and ``Expectation``, checked strictly as they are made, and ``load_scenarios``
(a list, or a ``.json`` / ``.yaml`` file holding one, read as data by ``_data_files``)."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referencing import Registry

from .._data_files import DataFileError, parse_json, parse_yaml, read_bytes, shown
from ..domains import PayloadValidator, check_schema
from ._decisions import check_decision

#: The statuses a say can end with (``SayResult.status``).
SAY_STATUSES = ("idle", "no-reply", "turn-limit")

#: The largest scenario file read: about 1,500 scenarios, read and checked in about a second
#: (tests/bench/bench_data_files.py).
MAX_SCENARIO_BYTES = 256 * 1024

_SCENARIO_KEYS = ("name", "say", "expect", "answers")
_EXPECT_KEYS = ("actions", "not_actions", "status", "max_turns", "payloads", "decisions")


def _names(value: Any, where: str, key: str) -> tuple[str, ...]:
    if isinstance(value, str) or not isinstance(value, Iterable) or isinstance(value, Mapping):
        raise ValueError(f"{where}: {key} must be a list of action names, not {shown(value)}")
    names = tuple(value)
    for name in names:
        if not isinstance(name, str) or not name:
            raise ValueError(f"{where}: {key} must hold action names (text), not {shown(name)}")
    return names


@dataclass(frozen=True)
class Expectation:
    """What a scenario should come to. Every part is optional.

    Args:
        actions: each must be proposed at least once.
        not_actions: none may be proposed.
        status: 'idle' or None. A scenario passes only when its conversation ended idle
            (a no-reply or a turn limit fails it, whatever is expected), so no other status
            can be expected.
        max_turns: the turns of all the scenario's says together must be at most this.
        payloads: action → a JSON Schema every proposed payload of that action must meet
            (checked with the validator of the schema's own draft).
        decisions: what a person decided about each proposal of a recorded session
            (``Scenario.from_session``): ``{kind: accepted | corrected | dismissed, action,
            payload, original?, reason?, comments?}`` (``_decisions.py``); the report says
            whether the agent meets each again.
    """

    actions: tuple[str, ...] = ()
    not_actions: tuple[str, ...] = ()
    status: str | None = None
    max_turns: int | None = None
    payloads: dict[str, dict[str, Any]] = field(default_factory=dict)
    decisions: tuple[dict[str, Any], ...] = ()

    def __post_init__(self) -> None:
        self._check("expect")

    def _check(self, where: str) -> None:
        object.__setattr__(self, "actions", _names(self.actions, where, "actions"))
        object.__setattr__(self, "not_actions", _names(self.not_actions, where, "not_actions"))
        both = sorted(set(self.actions) & set(self.not_actions))
        if both:
            raise ValueError(f"{where}: {shown(both[0])} is in both actions and not_actions")
        if self.status is not None and self.status not in SAY_STATUSES:
            raise ValueError(f"{where}: status must be one of {', '.join(SAY_STATUSES)}, "
                             f"not {shown(self.status)}")
        if self.status is not None and self.status != "idle":
            raise ValueError(f"{where}: status {self.status!r} can never pass: a scenario "
                             "passes only when its conversation ends idle (leave status out, "
                             "or write idle)")
        if self.max_turns is not None and (isinstance(self.max_turns, bool) or not isinstance(
                self.max_turns, int) or self.max_turns < 1):
            raise ValueError(f"{where}: max_turns must be a whole number ≥ 1, "
                             f"not {shown(self.max_turns)}")
        if not isinstance(self.payloads, Mapping):
            raise ValueError(f"{where}: payloads must map action names to JSON Schemas, "
                             f"not {type(self.payloads).__name__}")
        payloads: dict[str, dict[str, Any]] = {}
        for action, schema in self.payloads.items():
            if not isinstance(action, str) or not action:
                raise ValueError(f"{where}: payloads: {shown(action)} is not an action name")
            if not isinstance(schema, Mapping | bool):
                raise ValueError(f"{where}: payloads.{action} must be a JSON Schema (an "
                                 f"object), not {type(schema).__name__}")
            plain = dict(schema) if isinstance(schema, Mapping) else schema
            try:  # the domains' own check: its draft, its patterns, no $ref outside it
                check_schema(plain, Registry())
            except ValueError as exc:
                raise ValueError(f"{where}: payloads.{action} is not a valid JSON Schema: "
                                 f"{exc}") from None
            payloads[action] = plain  # type: ignore[assignment]
        object.__setattr__(self, "payloads", payloads)
        decisions = self.decisions
        if isinstance(decisions, str | Mapping) or not isinstance(decisions, Iterable):
            raise ValueError(f"{where}: decisions must be a list, not {shown(decisions)}")
        object.__setattr__(self, "decisions", tuple(
            check_decision(d, f"{where}: decisions[{n}]") for n, d in enumerate(decisions)))

    def payload_errors(self, action: str, payload: Any) -> list[str]:
        """Why ``payload`` does not meet the schema expected of ``action`` ([] when it does,
        or when nothing is expected of it).

        The payload is the agent's: it is checked as a domain checks one (``PayloadValidator``:
        the safe keywords, within the time budget, nothing fetched), in the domain's words.

            >>> Expectation(payloads={"add": {"required": ["due"]}}).payload_errors("add", {})
            ['due is required']
        """
        if action not in self.payloads:
            return []
        checked = PayloadValidator(self.payloads[action], registry=Registry()).validate(payload)
        return [] if checked.get("ok") else [str(e["message"]) for e in checked["errors"]]

    @classmethod
    def from_dict(cls, data: Any, *, where: str = "expect") -> Expectation:
        """An expectation from plain data (as a scenario file holds it); unknown keys and
        wrong types raise ``ValueError`` naming ``where`` and the field."""
        if not isinstance(data, Mapping):
            raise ValueError(f"{where}: must be a mapping, not {type(data).__name__}")
        unknown = [key for key in data if key not in _EXPECT_KEYS]
        if unknown:
            raise ValueError(f"{where}: unknown key {shown(unknown[0])} (known: "
                             f"{', '.join(_EXPECT_KEYS)})")
        made = cls.__new__(cls)
        values = {"actions": (), "not_actions": (), "status": None, "max_turns": None,
                  "payloads": {}, "decisions": ()} | dict(data)
        for key, value in values.items():
            object.__setattr__(made, key, value)
        made._check(where)
        return made

    def to_dict(self) -> dict[str, Any]:
        """The expectation as plain data (what ``from_dict`` reads): what it expects only, an
        empty or unset field left out (``from_dict`` reads it back as its default)."""
        data = {"actions": list(self.actions), "not_actions": list(self.not_actions),
                "status": self.status, "max_turns": self.max_turns,
                "payloads": dict(self.payloads),
                "decisions": [dict(d) for d in self.decisions]}
        return {key: value for key, value in data.items() if value not in (None, [], {})}


@dataclass(frozen=True)
class Scenario:
    """One scripted exchange: the person's messages (said in order) and what should come of it;
    ``answers``: question text → the person's answer (a recorded session's, for
    ``recorded_human``).

        >>> Scenario("greet", ("hello",)).say
        ('hello',)
    """

    name: str
    say: tuple[str, ...]
    expect: Expectation | None = None
    answers: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._check(f"scenario {shown(self.name)}")

    def _check(self, where: str) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise ValueError(f"{where}: name must be non-empty text, not {shown(self.name)}")
        say = (self.say,) if isinstance(self.say, str) else self.say
        if isinstance(say, Mapping) or not isinstance(say, Iterable):
            raise ValueError(f"{where}: say must be a list of messages, not {shown(self.say)}")
        say = tuple(say)
        if not say:
            raise ValueError(f"{where}: say must hold at least one message")
        for text in say:
            if not isinstance(text, str):
                raise ValueError(f"{where}: say must hold text, not {shown(text)}")
        object.__setattr__(self, "say", say)
        if self.expect is not None and not isinstance(self.expect, Expectation):
            raise ValueError(f"{where}: expect must be an Expectation, "
                             f"not {type(self.expect).__name__}")
        answers = self.answers
        if not isinstance(answers, Mapping) or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in answers.items()):
            raise ValueError(f"{where}: answers must map question texts to answers (text), "
                             f"not {shown(answers)}")
        object.__setattr__(self, "answers", dict(answers))

    @classmethod
    def from_session(cls, source: str | os.PathLike[str] | Mapping[str, Any], *,
                     name: str | None = None, drop: Iterable[str] = ()) -> Scenario:
        """The scenario a recorded session holds: the person's messages in order, their
        answers, and what they decided about each proposal (``expect.decisions``);
        ``drop`` names prose (``reason``, ``comments``, ``answers``) or payload fields left
        out everywhere. See ``scenario_from_session`` (``_from_session.py``)."""
        from ._from_session import scenario_from_session
        return scenario_from_session(source, name=name, drop=drop)

    @classmethod
    def from_dict(cls, data: Any, *, index: int | None = None) -> Scenario:
        """A scenario from plain data: ``{'name', 'say': [...], 'expect': {...}}``. Unknown
        keys, wrong types, an empty ``say`` or name raise ``ValueError`` naming the scenario
        (by its index and name) and the field."""
        where = "scenario" if index is None else f"scenario {index}"
        if not isinstance(data, Mapping):
            raise ValueError(f"{where}: must be a mapping with name and say, "
                             f"not {type(data).__name__}")
        if isinstance(data.get("name"), str) and data["name"]:
            where += f" ({shown(data['name'])})"
        unknown = [key for key in data if key not in _SCENARIO_KEYS]
        if unknown:
            raise ValueError(f"{where}: unknown key {shown(unknown[0])} (known: "
                             f"{', '.join(_SCENARIO_KEYS)})")
        for key in ("name", "say"):
            if key not in data:
                raise ValueError(f"{where}: missing {key}")
        expect = data.get("expect")
        if expect is not None:
            expect = Expectation.from_dict(expect, where=f"{where}: expect")
        made = cls.__new__(cls)
        for key, value in (("name", data["name"]), ("say", data["say"]), ("expect", expect),
                           ("answers", data.get("answers", {}))):
            object.__setattr__(made, key, value)
        made._check(where)
        return made

    def to_dict(self) -> dict[str, Any]:
        """The scenario as plain data (what ``from_dict`` reads)."""
        data = {"name": self.name, "say": list(self.say),
                "expect": None if self.expect is None else self.expect.to_dict()}
        if self.answers:
            data["answers"] = dict(self.answers)
        return data


def _read_file(path: Path) -> Any:
    """The data in a scenario file: at most ``MAX_SCENARIO_BYTES``, JSON or safe YAML without
    anchors or aliases, nested at most ``MAX_DEPTH`` (``_data_files``)."""
    suffix = path.suffix.lower()
    if suffix not in (".json", ".yaml", ".yml"):
        raise ValueError(f"load_scenarios: {path} is not a .json, .yaml or .yml file")
    try:
        data = read_bytes(path, max_bytes=MAX_SCENARIO_BYTES)
        if suffix == ".json":
            return parse_json(data, str(path))
        return parse_yaml(data, str(path))
    except DataFileError as exc:
        raise ValueError(f"load_scenarios: {exc}") from None
    except ImportError:
        raise ImportError('load_scenarios: reading YAML needs pyyaml: '
                          'pip install "dial-notebook[yaml]"') from None


def load_scenarios(source: Iterable[Scenario | Mapping[str, Any]] | str | os.PathLike[str]
                   ) -> list[Scenario]:
    """Scenarios from a list (of ``Scenario`` objects or dicts) or from the path of a
    ``.json`` / ``.yaml`` / ``.yml`` file holding a list of dicts. Names must be unique.

    A file is data: at most ``MAX_SCENARIO_BYTES``, nested at most ``MAX_DEPTH`` levels, YAML
    without anchors or aliases (refused before anything is built: no "billion laughs") and
    only JSON's kinds of value; every field is checked. A ``ValueError`` names the file and
    what is wrong: ``load_scenarios: s.yaml: scenario 0 ('a'): say must hold text, not 1``.

        >>> [s.name for s in load_scenarios([{"name": "hi", "say": ["hello"]}])]
        ['hi']
    """
    named = ""
    if isinstance(source, str | os.PathLike):
        path = Path(source)
        data = _read_file(path)
        if not isinstance(data, list):
            raise ValueError(f"load_scenarios: {path} must hold a list of scenarios, "
                             f"not {type(data).__name__}")
        named = f"{path}: "
    elif isinstance(source, Mapping) or not isinstance(source, Iterable):
        raise ValueError(f"load_scenarios: expected a list of scenarios or a file path, "
                         f"not {type(source).__name__}")
    else:
        data = list(source)
    try:
        scenarios = [item if isinstance(item, Scenario) else Scenario.from_dict(item, index=i)
                     for i, item in enumerate(data)]
    except ValueError as exc:  # the file named before the scenario and the field
        raise ValueError(f"load_scenarios: {named}{exc}") from None
    if not scenarios:
        raise ValueError(f"load_scenarios: {named}there are no scenarios")
    seen: set[str] = set()
    for i, scenario in enumerate(scenarios):
        if scenario.name in seen:
            raise ValueError(f"load_scenarios: {named}scenario {i}: the name "
                             f"{shown(scenario.name)} is used twice")
        seen.add(scenario.name)
    return scenarios
