"""DemoAgent: an offline agent that speaks correct DIAL for the ready domains — no key needed.

    message ─▶ read_message: outcomes + the person's words
            ─▶ brain.react(outcome) for each outcome     (acknowledge / correct / ask)
            ─▶ brain.answer(words)                       (suggest / ask / inform)
            ─▶ one envelope (to_xml), or an inform saying what it can do

The brain is chosen by the domain: notes (``_demo_notes.py``), data frames
(``_demo_frames.py``), any other ``SchemaDomain`` (``_demo_schema.py``: payloads made from its
actions' schemas), or for a domain without schemas a brain that lists the domain's actions. It is
what the quickstart uses: it understands a few plain requests, asks when a request is
ambiguous, and reacts to every outcome it is told. ``SchemaDemoAgent`` is the same agent with
the schema brain for any ``SchemaDomain``.

Imports point one way: this module (the agents) imports the brains, each brain imports
``_demo_base.py`` and nothing of the agents (tests/unit/test_agents_imports.py checks it).

    >>> from dial_notebook.domains.notes import NotesDomain
    >>> agent = DemoAgent(NotesDomain(["buy milk"]))
    >>> print(agent.send("add a note: call Sam"))
    <dial version="0.1" actor="agent">
      <dial-suggest id="note-1" action="add-note">Add a note saying 'call Sam'?
        <dial-payload type="application/json">{"text": "call Sam"}</dial-payload>
      </dial-suggest>
    </dial>

``snapshot()`` saves what the brain keeps between turns (the ids it gave and what each
proposed, its open question …) as plain JSON; ``restore`` takes a new agent for the same
domain back to it (the domain's own state is the domain's to save):

    >>> again = DemoAgent(NotesDomain(["buy milk"]))
    >>> again.restore(agent.snapshot())
    >>> 'id="note-2"' in again.send("add a note: call Mum")
    True
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any

from ..dial import Element, Envelope, Inform, to_xml
from . import _saved
from ._demo_base import Brain, Elements, noted, read_message
from ._demo_frames import FramesBrain
from ._demo_notes import NotesBrain
from ._demo_schema import SchemaBrain


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
        return FramesBrain(domain)  # pandas is the domain's: the brain imports nothing heavy
    if callable(getattr(domain, "schema", None)) and callable(getattr(domain, "validate", None)):
        return SchemaBrain(domain)  # any schema domain: payloads from its schemas
    return _AnyDomainBrain(domain)


class DemoAgent:
    """An offline agent for the notes and dataframes domains; it needs no key and no network.

    Args:
        domain: the domain the conversation acts on (the demo reads its state to answer).
        values: for a schema domain (an ``McpDomain`` too), field values put in every payload
            whose schema has that field — what a model would take from your words or the
            domain's context, e.g. ``{"repo_path": "/path/to/repo"}`` for a git server.

    ``send`` is synchronous and fast; the runtime runs it like any agent.

        >>> from dial_notebook.domains import SchemaDomain
        >>> git = SchemaDomain("git")
        >>> @git.action(schema={"type": "object", "required": ["repo", "files"], "properties": {
        ...     "repo": {"type": "string"},
        ...     "files": {"type": "array", "items": {"type": "string"}, "minItems": 1}}})
        ... def add(payload):
        ...     return payload
        >>> 'payload type="application/json">{"repo": "/src", "files": ["notes.txt"]}' in (
        ...     DemoAgent(git, values={"repo": "/src"}).send("add notes.txt"))
        True
    """

    def __init__(self, domain: Any, *, values: Mapping[str, Any] | None = None) -> None:
        self.domain = domain
        self.brain = self._brain(domain)
        if values:
            if not isinstance(self.brain, SchemaBrain):
                raise TypeError(f"values= fills schema payloads; the {self.brain.kind} demo "
                                "makes its own")
            self.brain.values = {str(k): v for k, v in values.items()}
        # a send changes the brain on the runtime's worker thread: a snapshot taken meanwhile
        # is the state from before that send (``_before``)
        self._lock = threading.Lock()
        self._sending = 0
        self._before: dict[str, Any] | None = None

    def _brain(self, domain: Any) -> Brain:
        """The brain that answers for ``domain`` (a subclass may choose another)."""
        return _brain_for(domain)

    @property
    def kind(self) -> str:
        """What ``snapshot()["kind"]`` says: ``"demo-"`` and the brain's kind (``notes``,
        ``frames``, ``schema``, ``any``)."""
        return f"demo-{self.brain.kind}"

    def snapshot(self) -> dict[str, Any]:
        """What the demo keeps between turns, as plain JSON::

            {"kind": "demo-notes", "version": 1, "count": 1,
             "proposed": {"note-1": {"action": "add-note", "payload": {"text": "call Sam"}}},
             "question": null}

        ``question`` is the open question (``{"options": [[value, label], …], "then":
        {"name": …, "args": […]}}``); the data frames brain adds ``current`` (the frame
        last used), the schema brain ``proposals`` and ``breaks``. Taken while a send is in
        flight, it is the state from before that send.
        """
        with self._lock:
            state = self._before if self._before is not None else self.brain.state()
            return {**_saved.header(self.kind), **_saved.plain(state)}

    def restore(self, data: Any) -> None:
        """Take the brain back to a ``snapshot()`` of a demo agent of the same kind. ``data``
        is untrusted: anything wrong raises ``ValueError`` naming it, and changes nothing.
        """
        saved = _saved.Saved(data, self.kind, type(self).__name__)
        saved.fields(*self.brain.state_keys)
        state = self.brain.read_state(saved)
        with self._lock:
            if self._sending:
                saved.fail("a send is in flight (restore an agent that is not sending)")
            self.brain.load_state(state)

    def send(self, message: str) -> str:
        """The demo's DIAL reply to one runtime message."""
        with self._lock:
            if not self._sending:
                self._before = self.brain.state()
            self._sending += 1
        try:
            return self._reply(message)
        finally:
            with self._lock:
                self._sending -= 1
                if not self._sending:
                    self._before = None

    def _reply(self, message: str) -> str:
        incoming = read_message(message)
        elements: list[Element] = []
        for outcome in incoming.outcomes:
            elements += self.brain.react(outcome)
        elements += noted(incoming.notes)  # a chart not drawn after all, owned
        if incoming.words:
            elements += self.brain.answer(incoming.words)
        if not elements and not incoming.outcomes:
            elements = self.brain.help()
        return to_xml(Envelope(elements=elements)) if elements else to_xml(Envelope())

    def __repr__(self) -> str:
        return f"DemoAgent({type(self.brain).__name__})"


class SchemaDemoAgent(DemoAgent):
    """An offline agent for any ``SchemaDomain``: it proposes payloads made from each
    action's JSON Schema — valid ones, and on request ones broken on purpose — and reacts to
    every outcome truthfully. No model, no key, no network; the same words give the same
    replies.

    Args:
        domain: the domain whose actions it proposes (its ``validate`` checks every payload
            before it is proposed).

    Say ``help`` to it for what it understands (the table in ``_demo_schema.py``).

        >>> from dial_notebook.domains.notes import NotesDomain
        >>> agent = SchemaDemoAgent(NotesDomain())
        >>> "invalid add-note" in agent.send("help")
        True
    """

    def _brain(self, domain: Any) -> Brain:
        return SchemaBrain(domain)

    def __repr__(self) -> str:
        return f"SchemaDemoAgent({getattr(self.domain, 'name', type(self.domain).__name__)!r})"
