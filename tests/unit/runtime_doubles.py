"""Test doubles for the runtime's tests: a notes domain, reply builders, and the public
``ScriptedAgent`` (re-exported here: one scripted agent for every test); and ``click``, a
front-end message delivered to a widget as ipywidgets delivers it."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from dial_notebook.agents import ScriptedAgent
from dial_notebook.dial import Declare, lint, parse

__all__ = ["LintChecked", "NoteError", "NotesDomain", "ScriptedAgent", "SendFailed", "ask",
           "click", "dial", "inform", "outcome_ids_in", "outcomes_in", "said", "suggest", "until"]


class NoteError(Exception):
    def __init__(self, message: str, *, code: str | None = None, hint: str | None = None):
        super().__init__(message)
        self.code = code
        self.hint = hint


class NotesDomain:
    """A list of notes. add-note needs text; remove-note is destructive; list-notes reads;
    open-poll is handed off."""

    def __init__(self, context: bool = True) -> None:
        self.notes: list[str] = []
        self.ran: list[tuple[str, Any]] = []
        self.contexts = 0
        self._context = context
        self.actions = {
            "add-note": {"mutates": True},
            "remove-note": {"mutates": True, "destructive": True},
            "list-notes": {"mutates": False},
            "open-poll": {"mutates": False, "handoff": True},
        }

    def validate(self, action: str, payload: Any) -> dict[str, Any]:
        if action == "add-note" and not (isinstance(payload, dict)
                                         and isinstance(payload.get("text"), str)
                                         and payload["text"].strip()):
            return {"ok": False, "code": "invalid-payload", "field": "text",
                    "hint": "text is required"}
        if action == "remove-note" and not (isinstance(payload, dict)
                                            and isinstance(payload.get("index"), int)):
            return {"ok": False, "code": "invalid-payload", "field": "index",
                    "hint": "index must be a number"}
        return {"ok": True}

    def preview(self, action: str, payload: Any) -> str:
        if action == "add-note":
            return f"Add the note '{payload['text']}'"
        if action == "remove-note":
            return f"Remove note {payload['index']}"
        if action == "open-poll":
            return "Open a poll"
        return "List the notes"

    def run(self, action: str, payload: Any) -> Any:
        self.ran.append((action, payload))
        if action == "add-note":
            self.notes.append(payload["text"])
            return {"count": len(self.notes)}
        if action == "remove-note":
            if not 0 <= payload["index"] < len(self.notes):
                raise NoteError(f"No note {payload['index']}", code="not-found",
                                hint="list-notes gives the indices")
            return {"removed": self.notes.pop(payload["index"])}
        if action == "open-poll":
            return None
        return {"notes": list(self.notes)}

    def context(self) -> str:
        self.contexts += 1
        return f'<context notes="{len(self.notes)}"/>' if self._context else ""


class SendFailed(Exception):
    """The transport failed (a network error, say)."""


def dial(*parts: str) -> str:
    return "<dial>" + "".join(parts) + "</dial>"


def suggest(action: str, payload: Any = None, text: str = "Shall I?", id: str | None = None,
            *, via: str = "declare") -> str:
    """A <dial-suggest>, its payload in a following <dial-declare> (text) or its own."""
    attrs = f' action="{action}"' + (f' id="{id}"' if id else "")
    body = json.dumps(payload if payload is not None else {})
    if via == "payload":
        return (f"<dial-suggest{attrs}>{text}<dial-payload type=\"application/json\">"
                f"{body}</dial-payload></dial-suggest>")
    return (f"<dial-suggest{attrs}>{text}</dial-suggest>"
            f'<dial-declare context-key="x">{body}</dial-declare>')


def inform(text: str) -> str:
    return f"<dial-inform>{text}</dial-inform>"


def ask(text: str, id: str | None = None, options: tuple[str, ...] = ()) -> str:
    attrs = f' id="{id}"' if id else ""
    rtype = ' response-type="choice"' if options else ""
    opts = "".join(f'<dial-option value="{o}">{o.title()}</dial-option>' for o in options)
    return f"<dial-ask{attrs}{rtype}>{text}{opts}</dial-ask>"


def outcomes_in(message: str) -> list[dict[str, Any]]:
    """The outcome payloads an outcome reply in ``message`` carries, in order."""
    envelope = parse(message)
    if envelope is None:
        return []
    return [el.payload.value for el in envelope.elements
            if isinstance(el, Declare) and el.payload is not None]


def outcome_ids_in(message: str) -> list[str]:
    envelope = parse(message)
    if envelope is None:
        return []
    return [el.context_key.removeprefix("outcome:") for el in envelope.elements
            if isinstance(el, Declare) and (el.context_key or "").startswith("outcome:")]


async def until(condition: Any, seconds: float = 5.0) -> None:
    """Wait until ``condition()`` holds (domain runs end on worker threads: real time passes)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while not condition():
        if loop.time() > end:
            raise AssertionError("the condition never held")
        await asyncio.sleep(0.001)


class LintChecked:
    """An agent whose every reply is checked to be DIAL without lint errors as it is sent."""

    def __init__(self, agent: Any) -> None:
        self.agent = agent
        self.replies: list[str] = []

    def send(self, message: str) -> str:
        text = self.agent.send(message)
        errors = [f for f in lint(text) if f.severity == "error"]
        assert errors == [], (text, errors)
        self.replies.append(text)
        return text


def said(conversation: Any, since: int = 0) -> list[str]:
    """What the person read from the agent (informs and questions), from event ``since``."""
    return [e["text"] for e in conversation.transcript[since:] if e["type"] in ("inform", "ask")]


def click(widget: Any, **content: Any) -> None:
    """Deliver ``content`` to ``widget`` as a message from its front end (a person's click)."""
    widget._handle_custom_msg(content, [])


class Wire:
    """A comm that keeps what the widget sends (``data`` of each comm message)."""

    kernel = object()
    comm_id = "wire"

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    def send(self, data: dict[str, Any], buffers: Any = None) -> None:
        self.sent.append(json.loads(json.dumps(data)))

    def on_msg(self, callback: Any) -> None:
        pass

    def close(self, *args: Any, **kwargs: Any) -> None:
        pass

    def custom(self, kind: str) -> list[dict[str, Any]]:
        """The custom messages of type ``kind`` sent so far."""
        return [m["content"] for m in self.sent
                if m.get("method") == "custom" and m["content"].get("type") == kind]

    def updates(self, key: str) -> list[Any]:
        """The values of trait ``key`` sent in state updates so far."""
        return [m["state"][key] for m in self.sent
                if m.get("method") == "update" and key in m["state"]]
