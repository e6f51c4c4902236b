"""Reference mode (``full_dial=False``) is the reference: ``on_event`` receives exactly the
event types of the runtime document (spec/dial-runtime.md, "Events"), with their fields; what
a surface needs beyond them (``progress``, ``running``) comes through ``on_signal``, in both
modes.

The cases are the reference runtime's own tests (wity-dial packages/dial-runtime/test/
conversation.test.js), recorded as data — replies, decisions, and where the reference test
recorded it, the sequence of event types — each played with a blocking, an async and a
streaming agent."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from dial_notebook.runtime import Conversation, policy_human, scripted_human

from .runtime_doubles import NotesDomain, ScriptedAgent, ask, dial, inform, suggest

#: The document's event types and the fields each has (in snake_case; ``act`` only on an
#: element's inform; the outcome's own fields vary by status).
SPEC_FIELDS = {
    "sent": {"turn", "message"},
    "reply": {"turn", "text"},
    "inform": {"text"},
    "ask": {"text", "response_type", "options"},
    "suggestion": {"id", "action", "text", "payload", "preview", "destructive", "mutates"},
    "outcome": {"id", "action", "status", "preview"},
    "no-reply": {"turn", "error"},
    "turn-limit": {"turns"},
}

#: What an event may carry beyond those: the inform's act, the outcome's own fields, and the
#: ask's id (documented in runtime/_events.py; a restored conversation finds its question by it);
#: an edited outcome's payload (issue 32: what the person changed it to; never on the wire).
MAY_CARRY = {"inform": {"act"}, "ask": {"id"},
             "outcome": {"result", "error", "code", "field", "hint", "edited", "payload"}}


class Hanging:
    """An agent that never replies."""

    async def send(self, message: str) -> str:
        await asyncio.Event().wait()
        return ""


#: (name, replies, decisions for scripted_human or a policy, the recorded event types or None,
#: options)
CASES: list[tuple[str, list[str] | None, Any, list[str] | None, dict[str, Any]]] = [
    ("accepted-runs-and-the-agent-is-told",
     [dial(inform("Adding it."), suggest("add-note", {"text": "Strong brand"},
                                         "Add 'Strong brand'?")),
      dial("<dial-acknowledge>Done — added.</dial-acknowledge>")], "accept",
     ["sent", "reply", "inform", "suggestion", "outcome", "sent", "reply", "inform"], {}),
    ("invalid-payload-is-never-shown",
     [dial(suggest("add-note", {"text": ""})), dial(suggest("add-note", {"text": "Fixed"})),
      dial(inform("ok"))], "accept", None, {}),
    ("unknown-action-is-invalid", [dial(suggest("fly", {})), dial(inform("sorry"))], "accept",
     None, {}),
    ("read-only-runs-unasked-and-failures-carry-code",
     [dial(suggest("list-notes", {}), suggest("remove-note", {"index": 7})),
      dial(inform("ok"))], "accept", None, {}),
    ("dismissed-spends-no-turn", [dial(suggest("add-note", {"text": "a"}))], "dismiss",
     ["sent", "reply", "suggestion", "outcome"], {}),
    ("a-dismissal-next-to-a-run",
     [dial(suggest("add-note", {"text": "a"}), suggest("add-note", {"text": "b"})),
      dial("<dial-acknowledge>ok</dial-acknowledge>")], ["accept", "dismiss"], None, {}),
    ("an-edit-refused-then-accepted",
     [dial(suggest("add-note", {"text": "draft"})), dial(inform("ok"))],
     [{"edit": {"text": ""}}, {"edit": {"text": "Final"}}], None, {}),
    ("the-person-says-something-else",
     [dial(suggest("add-note", {"text": "a"}), suggest("add-note", {"text": "b"})),
      dial(inform("Got it."))], [{"say": "actually, add c instead"}], None, {}),
    ("an-ask-answered", [dial(ask("Which zone?")), dial(inform("Thanks"))],
     [{"answer": "Strengths"}], None, {}),
    ("no-reply-in-time", None, "accept", ["sent", "no-reply"], {"timeout": 0.05}),
    ("turn-limit", [dial(suggest("list-notes", {}))] * 10, "accept", None, {"max_turns": 3}),
    ("plain-text", ["Just text."], "accept", ["sent", "reply", "inform"], {}),
    ("hand-off-runs-unasked", [dial(suggest("open-poll", {"question": "Lunch?"}))], [],
     ["sent", "reply", "suggestion", "outcome"], {}),
    # not a reference test: the rest of DIAL, which the reference ignores
    ("the-rest-of-dial-is-ignored",
     [dial('<dial-declare context-key="k">{"a": 1}</dial-declare>',
           '<dial-phatic signal="typing"/>',
           '<dial-delegate to="billing" intent="refund">Over to billing.</dial-delegate>',
           '<dial-execute id="ex"><step env="python" id="s">1 + 1</step></dial-execute>',
           '<dial-inform addressed-to="billing">For billing.</dial-inform>')], "accept",
     ["sent", "reply", "inform"], {}),
]


class Streamed(ScriptedAgent):
    """The same replies, in pieces (a streaming transport: progress events)."""

    streams = True

    async def stream_reply(self, message: str) -> AsyncIterator[str]:
        reply = self.send(message)
        for start in range(0, len(reply), 5):
            yield reply[start:start + 5]


class AsyncRuns(NotesDomain):
    async def run(self, action: str, payload: Any) -> Any:
        await asyncio.sleep(0)
        return super().run(action, payload)


def _agent(replies: list[str] | None, kind: str) -> Any:
    if replies is None:
        return Hanging()
    return Streamed(list(replies)) if kind == "streamed" else ScriptedAgent(list(replies))


async def play(case: tuple, kind: str, *, full_dial: bool = False,
               on_signal: bool = False) -> tuple[list[dict], list[dict], Conversation]:
    _, replies, decisions, _, options = case
    events: list[dict] = []
    signals: list[dict] = []
    human = policy_human(decisions) if isinstance(decisions, str) else scripted_human(decisions)
    domain = AsyncRuns() if kind == "async" else NotesDomain()
    extra = {"on_signal": signals.append} if on_signal else {}
    conversation = Conversation(agent=_agent(replies, kind), domain=domain, human=human,
                                on_event=events.append, full_dial=full_dial, **options, **extra)
    await conversation.say("go")
    return events, signals, conversation


@pytest.mark.parametrize("kind", ["blocking", "async", "streamed"])
@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
async def test_in_reference_mode_on_event_gets_exactly_the_documents_events(case, kind):
    events, _, conversation = await play(case, kind)
    for event in events:
        assert event["type"] in SPEC_FIELDS, event
        assert SPEC_FIELDS[event["type"]] <= set(event), event
        extra = set(event) - SPEC_FIELDS[event["type"]] - {"type"}
        assert extra <= MAY_CARRY.get(event["type"], set()), event
    if case[3] is not None:
        assert [e["type"] for e in events] == case[3]
    assert events == conversation.transcript  # what the observer got is the record, exactly


@pytest.mark.parametrize("full_dial", [False, True])
async def test_progress_and_running_reach_on_signal_in_both_modes(full_dial):
    case = CASES[0]
    events, signals, _ = await play(case, "streamed", full_dial=full_dial, on_signal=True)
    assert {e["type"] for e in signals} == {"progress", "running"}
    assert not {e["type"] for e in events} & {"progress", "running"}
    assert [e["id"] for e in signals if e["type"] == "running"] == ["sg-1"]


async def test_in_full_mode_without_on_signal_on_event_still_gets_them():
    events, _, _ = await play(CASES[0], "streamed", full_dial=True)
    assert {"progress", "running"} <= {e["type"] for e in events}


def test_on_signal_must_be_a_plain_callable():
    with pytest.raises(TypeError, match="on_signal"):
        Conversation(agent=ScriptedAgent([]), domain=NotesDomain(), human=policy_human(),
                     on_signal="print")
