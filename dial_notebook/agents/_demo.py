"""DemoAgent: an offline agent that speaks correct DIAL for the ready domains — no key needed.

    message ─▶ read_message: outcomes + the person's words
            ─▶ brain.react(outcome) for each outcome     (acknowledge / correct / ask)
            ─▶ brain.answer(words)                       (suggest / ask / inform)
            ─▶ one envelope (to_xml), or an inform saying what it can do

The brain is chosen by the domain: notes (``_demo_notes.py``), data frames
(``_demo_frames.py``), any other ``SchemaDomain`` (``_demo_schema.py``: payloads made from its
actions' schemas), or for a domain without schemas a brain that lists the domain's actions. It is
what the quickstart uses: it understands a few plain requests, asks when a request is
ambiguous, and reacts to every outcome it is told. ``SchemaDemoAgent`` (``_demo_schema.py``)
is the same agent with a brain for any ``SchemaDomain``.

    >>> from dial_notebook.domains.notes import NotesDomain
    >>> agent = DemoAgent(NotesDomain(["buy milk"]))
    >>> print(agent.send("add a note: call Sam"))
    <dial version="0.1" actor="agent">
      <dial-suggest id="note-1" action="add-note">Add a note saying 'call Sam'?
        <dial-payload type="application/json">{"text": "call Sam"}</dial-payload>
      </dial-suggest>
    </dial>
"""

from __future__ import annotations

from typing import Any

from ..dial import Element, Envelope, Inform, to_xml
from ._demo_base import Brain, Elements, read_message
from ._demo_notes import NotesBrain


class _AnyDomainBrain(Brain):
    """For a domain the demo does not know: it says which actions exist and proposes none."""

    def respond(self, words: str) -> Elements:
        if not words.strip():
            return []
        names = ", ".join(getattr(self.domain, "actions", {}) or {}) or "none"
        return [Inform(text="I'm the offline demo agent, and this domain gives me no JSON "
                            f"Schemas to make payloads from. Its actions are: {names}. Describe "
                            "them with a SchemaDomain to try them offline (the demo agent, or "
                            "SchemaDemoAgent(domain), then proposes from their schemas), or "
                            "connect a model (OpenAIAgent or AnthropicAgent).")]


def _brain_for(domain: Any) -> Brain:
    actions = getattr(domain, "actions", None) or {}
    if "add-note" in actions and "remove-note" in actions:
        return NotesBrain(domain)
    if "filter-rows" in actions and callable(getattr(domain, "frames", None)):
        from ._demo_frames import FramesBrain  # imports nothing heavy; pandas is the domain's

        return FramesBrain(domain)
    if callable(getattr(domain, "schema", None)) and callable(getattr(domain, "validate", None)):
        from ._demo_schema import SchemaBrain  # any schema domain: payloads from its schemas

        return SchemaBrain(domain)
    return _AnyDomainBrain(domain)


class DemoAgent:
    """An offline agent for the notes and dataframes domains; it needs no key and no network.

    Args:
        domain: the domain the conversation acts on (the demo reads its state to answer).

    ``send`` is synchronous and fast; the runtime runs it like any agent.
    """

    def __init__(self, domain: Any) -> None:
        self.domain = domain
        self.brain = self._brain(domain)

    def _brain(self, domain: Any) -> Brain:
        """The brain that answers for ``domain`` (a subclass may choose another)."""
        return _brain_for(domain)

    def send(self, message: str) -> str:
        """The demo's DIAL reply to one runtime message."""
        incoming = read_message(message)
        elements: list[Element] = []
        for outcome in incoming.outcomes:
            elements += self.brain.react(outcome)
        if incoming.words:
            elements += self.brain.answer(incoming.words)
        if not elements and not incoming.outcomes:
            elements = self.brain.help()
        return to_xml(Envelope(elements=elements)) if elements else to_xml(Envelope())

    def __repr__(self) -> str:
        return f"DemoAgent({type(self.brain).__name__})"
