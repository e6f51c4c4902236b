"""What the schema demo remembers of each proposal, and how it answers each proposal's outcome.

The base of ``SchemaBrain`` (``_demo_schema.py``, which reads the person's requests): every
suggestion it makes goes through ``_suggest``, which records a ``Proposal`` under the
suggestion's id; when the outcome comes back, ``on_<status>`` finds it there and says only
what the outcome says (the table in ``_demo_schema.py``). The proposals, and how many broken
payloads it made of each action, are its saved state.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .._json_kind import json_kind
from ..dial import Element, Inform
from . import _saved
from ._demo_base import Brain, Elements, ack
from ._demo_schema_words import domain_said, has_form, quote, returned_text, unstop
from ._schema_payloads import Made, PayloadMaker


@dataclass
class Proposal:
    """What one of its suggestions was meant to be, for when the outcome comes back."""

    action: str
    payload: Any
    kind: str  # "valid" | "broken" | "yours"
    preview: str
    what: str = ""  # a broken one: the change, in words
    retried: bool = False  # a valid one already proposed again after a refusal


class SchemaOutcomes(Brain):
    """The schema brain's memory of its proposals and its answers to their outcomes."""

    def __init__(self, domain: Any) -> None:
        super().__init__(domain)
        name = re.sub(r"[^A-Za-z0-9]+", "-", str(getattr(domain, "name", "") or "")).strip("-")
        self.prefix = name.lower() or "demo"
        self.maker = PayloadMaker(domain)
        self.proposals: dict[str, Proposal] = {}
        self._breaks: dict[str, int] = {}

    # -- saving ---------------------------------------------------------------------------

    state_keys = (*Brain.state_keys, "proposals", "breaks")

    def state(self) -> dict[str, Any]:
        """``Brain.state()``, ``proposals`` (each id it gave: ``{"action", "payload",
        "kind", "preview", "what", "retried"}``) and ``breaks`` (per action, how many
        broken payloads it made: the next one breaks it the next way)."""
        proposals = {sid: {"action": p.action, "payload": _saved.plain(p.payload),
                           "kind": p.kind, "preview": p.preview, "what": p.what,
                           "retried": p.retried} for sid, p in self.proposals.items()}
        return {**super().state(), "proposals": proposals, "breaks": dict(self._breaks)}

    def read_state(self, saved: _saved.Saved) -> dict[str, Any]:
        names = {"action", "payload", "kind", "preview", "what", "retried"}

        def proposal(value: Any, where: str) -> Proposal:
            if not isinstance(value, dict):
                saved.fail(f"{where} must be an object, not {json_kind(value)}")
            _saved.keys(saved, value, where, names, names)
            if value["kind"] not in ("valid", "broken", "yours"):
                saved.fail(f"{where}.kind must be 'valid', 'broken' or 'yours'")
            return Proposal(
                str(_saved.string(saved, value["action"], f"{where}.action", most=1000)),
                _saved.json_value(saved, value["payload"], f"{where}.payload"),
                str(value["kind"]),
                str(_saved.string(saved, value["preview"], f"{where}.preview")),
                str(_saved.string(saved, value["what"], f"{where}.what")),
                _saved.flag(saved, value["retried"], f"{where}.retried"))

        return {**super().read_state(saved), "proposals": saved.mapping("proposals", proposal),
                "breaks": saved.mapping("breaks", lambda value, where: _saved.count(
                    saved, value, where))}

    def load_state(self, state: dict[str, Any]) -> None:
        super().load_state(state)
        self.proposals = dict(state["proposals"])
        self._breaks = dict(state["breaks"])

    # -- proposing -----------------------------------------------------------------------

    def _preview(self, action: str, payload: Any) -> str:
        try:
            return str(self.domain.preview(action, payload)) or action
        except Exception:  # a preview that fails still leaves the action's name
            return action

    def _suggest(self, action: str, payload: Any, text: str, kind: str, what: str = "",
                 retried: bool = False) -> Element:
        element = self.suggest(action, payload, text)
        self.proposals[str(element.id)] = Proposal(
            action, payload, kind, self._preview(action, payload), what, retried)
        return element

    def _cannot(self, action: str, made: Made) -> str:
        why = made.why or {}
        if why.get("code") == "not-generated" or made.candidate is None:
            return (f"I couldn't make a payload for {action} that fits its schema: "
                    f"{why.get('hint')}. Write one yourself: {action} {{…}}")
        return (f"I couldn't make a payload for {action} that the domain accepts: I tried "
                f"{quote(made.candidate)}, and it said {domain_said(why)}. Write one yourself, "
                f"e.g. {action} {quote(made.candidate)} changed to what the domain expects.")

    # -- reactions ------------------------------------------------------------------------

    def _proposal(self, outcome: dict[str, Any]) -> Proposal | None:
        return self.proposals.get(str(outcome.get("id")))

    def on_done(self, outcome: dict[str, Any]) -> Elements:
        proposal = self._proposal(outcome)
        action = str(outcome.get("action") or "")
        returned = returned_text(outcome)
        if outcome.get("edited"):
            return [ack(outcome, f"Done, with your edit: {action}.{returned}")]
        if proposal is not None and proposal.kind == "broken":
            return [ack(outcome, f"{action} ran: the domain accepted the payload I had broken "
                                 f"on purpose ({proposal.what}), though it refused it when I "
                                 f"checked it a moment before.{returned}")]
        what = proposal.preview if proposal is not None else action
        return [ack(outcome, f"Done: {unstop(what)}.{returned}")]

    def on_failed(self, outcome: dict[str, Any]) -> Elements:
        proposal = self._proposal(outcome)
        action = str(outcome.get("action") or "")
        what = proposal.preview if proposal is not None and not outcome.get("edited") else action
        error = str(outcome.get("error") or "it failed")
        details = []
        if outcome.get("field"):
            details.append(f"field {outcome['field']}")
        if outcome.get("hint") and outcome.get("hint") != error:
            details.append(str(outcome["hint"]))
        if outcome.get("code"):
            details.append(f"code {outcome['code']}")
        more = f" ({'; '.join(unstop(d) for d in details)})" if details else ""  # no ".;"
        edited = " (your edited version)" if outcome.get("edited") else ""
        return [ack(outcome, f"{unstop(what)}{edited} failed: {unstop(error)}{more}.")]

    def on_invalid(self, outcome: dict[str, Any]) -> Elements:
        proposal = self._proposal(outcome)
        action = str(outcome.get("action") or "")
        said = domain_said(outcome)
        if proposal is None:
            return [Inform(text=f"A proposal for {action} was refused before it reached you: "
                                f"{said}.")]
        if proposal.kind == "broken":
            opening = (f"As expected, the domain refused my broken {action} ({proposal.what}) "
                       f"before it reached you. It said: {said}.")
            return self._correct(action, proposal, opening)
        if proposal.kind == "yours":
            return [Inform(text=f"The domain refused your payload for {action} before it "
                                f"reached a card. It said: {said}. Fix it and send it again, "
                                f"or say '{action}' for a valid one.")]
        if outcome.get("code") == "time-budget":
            return [Inform(text=f"The domain ran out of time checking my {action}: {said}.")]
        now = self.maker.validate(action, proposal.payload)
        if now.get("ok"):
            return [Inform(text=f"The card for {action} ended invalid: {said}. The payload I "
                                "proposed still passes the domain's check, so what it refused "
                                "was your edited version (a card ends invalid after three "
                                f"refused edits). Say '{action}' for a fresh card.")]
        opening = (f"The domain refused my {action}: {said}. It passed the domain's check "
                   "when I made it, so something in the domain changed.")
        if proposal.retried:
            return [Inform(text=f"{opening} I'll stop proposing it; say '{action}' to try "
                                "again.")]
        made = self.maker.valid(action)
        if made.payload is None:
            return [Inform(text=f"{opening} {self._cannot(action, made)}")]
        element = self._suggest(action, made.payload, f"A new {action}: "
                                f"{quote(made.payload)}", "valid", retried=True)
        return [Inform(text=f"{opening} Here is a new one."), element]

    def _correct(self, action: str, proposal: Proposal, opening: str) -> Elements:
        made = self.maker.valid(action)
        if made.payload is None:
            return [Inform(text=f"{opening} {self._cannot(action, made)}")]
        where = "open the JSON tab, " if has_form(self.maker.schema(action)) else ""
        text = (f"A valid {action} instead: {quote(made.payload)}. To see the edit form "
                f"refuse the same mistake from you: click Edit, {where}change the payload "
                f"the same way ({proposal.what}) and click Save.")
        return [Inform(text=opening), self._suggest(action, made.payload, text, "valid")]

    def on_dismissed(self, outcome: dict[str, Any]) -> Elements:
        proposal = self._proposal(outcome)
        what = proposal.preview if proposal is not None else str(outcome.get("action") or "")
        return [ack(outcome, f"OK, I left that out: {unstop(what)}.")]

    def on_handed_off(self, outcome: dict[str, Any]) -> Elements:
        proposal = self._proposal(outcome)
        what = proposal.preview if proposal is not None else str(outcome.get("action") or "")
        return [ack(outcome, f"{unstop(what)}: passed to you in its own panel."
                             f"{returned_text(outcome)}")]

