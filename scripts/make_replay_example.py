"""Write dial_notebook/widget/replays/notes.json: the conversation ``Replay.EXAMPLE`` replays.

    .venv/bin/python scripts/make_replay_example.py

A real ChatWidget and the real runtime over the notes domain; the agent is scripted and the
person's clicks reach the widget's message handler as ipywidgets delivers them. What a class
sees in it: the agent's prose beside its envelope, a card accepted and acknowledged, a question
answered by value, a destructive card dismissed (no turn follows; the agent hears it with the
person's next words), a payload the domain refuses (the agent is told at once, no card), and a
card edited before it runs. tests/unit/test_replay.py checks that the file is what this makes.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from dial_notebook.agents import ScriptedAgent
from dial_notebook.domains import NotesDomain
from dial_notebook.widget import ChatWidget, Replay

OUT = Replay.EXAMPLE
SAVED_AT = "2026-01-15T10:00:00+00:00"


def dial(*elements: str) -> str:
    return '<dial version="0.1" actor="agent">' + "".join(elements) + "</dial>"


def suggest(sid: str, action: str, text: str, payload: dict[str, Any]) -> str:
    return (f'<dial-suggest id="{sid}" action="{action}">{text}'
            f"<dial-payload>{json.dumps(payload)}</dial-payload></dial-suggest>")


REPLIES = [
    # 1: prose before the envelope is shown too; the suggest becomes a card
    "Sure, here is the note for you to check." + dial(
        suggest("milk", "add-note", "Shall I add it?", {"text": "buy milk"})),
    # 2: after the outcome reply (milk:done)
    dial('<dial-acknowledge of="milk">Added “buy milk”. You have 2 notes now.'
         "</dial-acknowledge>"),
    # 3: a choice: the person answers with a value
    dial('<dial-ask id="which" response-type="choice">Which note should go?'
         '<dial-option value="1">call Sam</dial-option>'
         '<dial-option value="2">buy milk</dial-option></dial-ask>'),
    # 4: the answer came back as "1": a destructive card
    dial(suggest("rm", "remove-note", "Remove “call Sam”? This cannot be undone here.",
                 {"id": 1})),
    # 5: the dismissal came with the person's next words; a payload the domain refuses
    dial(suggest("later", "add-note", "I will add the new one.", {"text": ""})),
    # 6: told at once that it was invalid: the payload fixed
    dial(suggest("later", "add-note", "Sorry, here it is with its text.",
                 {"text": "call Sam at 5"})),
    # 7: after the edited card ran
    dial('<dial-acknowledge of="later">Added your note as you wrote it.</dial-acknowledge>'),
]


def click(chat: ChatWidget, **content: Any) -> None:
    chat._handle_custom_msg(content, [])


async def settled(chat: ChatWidget, task: asyncio.Future[Any]) -> None:
    """Let the conversation go until it waits for the person, or ends."""
    loop = asyncio.get_running_loop()
    end = loop.time() + 10
    while not task.done() and not chat.pending:
        if loop.time() > end:
            raise RuntimeError("the conversation never settled")
        await asyncio.sleep(0.005)


async def play() -> tuple[ChatWidget, list[dict[str, Any]]]:
    """Play the conversation; the widget and the runtime's transcript at the end."""
    agent = ScriptedAgent(REPLIES)
    chat = ChatWidget(agent=agent, domain=NotesDomain(["call Sam"]), title="Notes, with a class")

    async def step(decision: dict[str, Any], task: asyncio.Future[Any]) -> None:
        click(chat, token=chat.pending["token"], **decision)
        await asyncio.sleep(0.02)
        await settled(chat, task)

    task = chat.say("add a note: buy milk")
    await settled(chat, task)
    await step({"type": "decide", "decision": "accept"}, task)
    await task
    task = chat.say("remove one of my notes")
    await settled(chat, task)
    await step({"type": "answer", "value": "1"}, task)
    await step({"type": "decide", "decision": "dismiss"}, task)
    await task
    task = chat.say("no, keep it. Add a note to call Sam at 5 instead")
    await settled(chat, task)
    await step({"type": "decide", "decision": "edit", "payload": {"text": "call Sam at 5pm"}},
               task)
    await task
    return chat, list(chat._conversation.transcript)


def build() -> dict[str, Any]:
    """The snapshot, as ``conversation.snapshot()`` and a ChatWidget's session file hold it."""
    chat, runtime = asyncio.run(play())
    snapshot = {"format": "dial-notebook/conversation", "version": 1, "saved_at": SAVED_AT,
                "transcript": runtime,
                "surface": {"transcript": chat.transcript, "title": chat.title}}
    return json.loads(json.dumps(snapshot))


def text() -> str:
    return json.dumps(build(), indent=1, ensure_ascii=False) + "\n"


def write() -> Path:
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text(), encoding="utf-8")
    return OUT


if __name__ == "__main__":
    print(f"wrote {write()}")
