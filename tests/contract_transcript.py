"""A transcript with every kind of event, made by a real ChatWidget and the real runtime: the
contract between the Python side and the front end, as data.

``python tests/contract_transcript.py`` writes it to ``js/test/fixtures/transcript.json``;
``tests/unit/test_contract.py`` checks that the committed file is what this makes, that every
entry fits its type (``runtime._contract``, ``widget._contract``), and that every kind is in it;
the front end's tests render the same file (node: the items; the browser: the whole view).

It writes too what the conversation shows, as display items (``widget._items``: the one
description every renderer follows), for that transcript and a few moments of it, to
``js/test/fixtures/items.json``: ``js/test/items.test.mjs`` checks that the front end's
``itemsOf`` makes the same items, and ``tests/unit/test_widget_items.py`` that the committed
file is current (``python tests/contract_transcript.py --items`` rewrites it alone, from the
committed transcript).

The conversation: a scripted agent replies by the person's words; the person's clicks are
delivered to the widget's message handler exactly as ipywidgets delivers a comm message.
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from dial_notebook.dial import MAX_REPLY_CHARS
from dial_notebook.domains import Rules
from dial_notebook.domains.notes import NotesDomain
from dial_notebook.runtime import python_executor
from dial_notebook.widget import ChatWidget, _vegalite
from dial_notebook.widget._items import COPY_KINDS, context_of, describe, transcript_items
from dial_notebook.widget._vegalite import VEGA_LITE_TYPE, for_front_end

FIXTURE = Path(__file__).resolve().parents[1] / "js" / "test" / "fixtures" / "transcript.json"
ITEMS = FIXTURE.with_name("items.json")
GIF = "data:image/gif;base64,R0lGODlhAQABAAAAACw="


#: A Vega-Lite chart without text (its PNG is the same on every machine with this vl-convert),
#: and one that names a URL (refused: the widget's chart entry says why).
CHART = {"width": 40, "height": 20, "data": {"values": [{"a": "x", "b": 1}, {"a": "y", "b": 2}]},
         "mark": "bar", "encoding": {"x": {"field": "a", "type": "nominal", "axis": None},
                                     "y": {"field": "b", "type": "quantitative", "axis": None}},
         "config": {"view": {"stroke": None}}}
REMOTE_CHART = {"mark": "bar", "data": {"url": "https://example.com/sales.csv"}}


def dial(*elements: str) -> str:
    return '<dial version="0.1" actor="agent">' + "".join(elements) + "</dial>"


def payload(value: Any, kind: str = "") -> str:
    typed = f' type="{kind}"' if kind else ""
    return f"<dial-payload{typed}>{json.dumps(value)}</dial-payload>"


REPLIES: dict[str, Any] = {
    "show": "Here you go." + dial(
        '<dial-phatic signal="typing"/>',
        '<dial-declare context-key="mood">' + payload({"tone": "calm"}) + "</dial-declare>",
        "<dial-inform>A plain inform.</dial-inform>",
        '<dial-inform render="table">Rows:' + payload([{"a": 1.23456789, "b": "x"}])
        + "</dial-inform>",
        '<dial-inform render="media">A dot:' + payload({"src": GIF, "alt": "dot"})
        + "</dial-inform>",
        '<dial-inform render="code">print("hi")</dial-inform>',
        '<dial-inform render="chart">Two bars:' + payload(CHART, VEGA_LITE_TYPE)
        + "</dial-inform>",
        '<dial-inform render="chart">From the web:' + payload(REMOTE_CHART, VEGA_LITE_TYPE)
        + "</dial-inform>",
        '<dial-inform observe="never">Waits for nothing that comes.</dial-inform>',
        '<dial-inform addressed-to="billing">For billing only.</dial-inform>',
        '<dial-delegate to="billing" intent="refund">Over to billing.'
        "<dial-context>" + payload({"charge": 1}) + "</dial-context></dial-delegate>"),
    "ask": dial(
        '<dial-ask id="which" response-type="choice">Which list?'
        '<dial-option value="home">Home</dial-option>'
        '<dial-option value="work">Work</dial-option></dial-ask>',
        '<dial-ask id="sure" response-type="confirm">Sure?'
        '<dial-option value="1">Ignored</dial-option></dial-ask>'),
    "propose": dial(
        '<dial-suggest id="add" action="add-note">Add it?' + payload({"text": "tea"})
        + "</dial-suggest>",
        '<dial-suggest id="rm" action="remove-note">Remove it?' + payload({"id": 1})
        + "</dial-suggest>",
        '<dial-suggest id="ls" action="list-notes">' + payload({}) + "</dial-suggest>",
        '<dial-suggest id="poll" action="open-poll">'
        + payload({"question": "Lunch?", "options": ["pizza", "salad"]}) + "</dial-suggest>",
        '<dial-suggest id="fly" action="fly">' + payload({}) + "</dial-suggest>",
        '<dial-suggest id="later" action="add-note" observe="never">' + payload({"text": "x"})
        + "</dial-suggest>"),
    "run": dial(
        '<dial-execute id="op"><step env="python" id="sum">1 + 1</step>'
        '<step env="python" id="odd" label="Looks harmless">print("safe") #\u2067</step>'
        "</dial-execute>"),
    "moved": dial('<dial-suggest id="skipme" action="add-note">' + payload({"text": "y"})
                  + "</dial-suggest>"),
    "thanks": dial('<dial-acknowledge of="rm">OK, I left that out.</dial-acknowledge>'),
    "huge": "x" * (MAX_REPLY_CHARS + 1),
    "keep": dial('<dial-suggest id="keep" action="add-note">And this?' + payload({"text": "jam"})
                 + "</dial-suggest>"),
    "again": dial('<dial-suggest id="again" action="add-note">' + payload({"text": "tea"})
                  + "</dial-suggest>"),
}

#: The person's rule: a note of just 'tea' needs no confirmation.
TEA = {"type": "object", "properties": {"text": {"const": "tea"}}, "required": ["text"],
       "additionalProperties": False}


class Agent:
    """Replies by the person's words (the message's last paragraph); hangs once, fails once,
    never replies to "slow" (the person stops it)."""

    def __init__(self) -> None:
        self.hung = False
        self.looping = False

    async def send(self, message: str) -> str:
        words = message.split("\n\n")[-1].strip()
        if self.looping and words.startswith("<"):  # only outcomes came: propose again
            words = "loop"
        self.looping = words == "loop"
        if words == "wait" and not self.hung:
            self.hung = True
            await asyncio.sleep(30)
        if words == "slow":
            await asyncio.sleep(30)  # stopped by the person before it replies
        if words == "fail":
            raise ConnectionError("the agent is unreachable")
        if words == "loop":
            return dial('<dial-suggest action="list-notes">' + payload({}) + "</dial-suggest>")
        return REPLIES.get(words, dial("<dial-inform>Noted.</dial-inform>"))


def click(chat: ChatWidget, **content: Any) -> None:
    chat._handle_custom_msg(content, [])


async def settled(chat: ChatWidget, task: asyncio.Future[Any]) -> None:
    """Let the conversation go until it waits for the person, or ends."""
    loop = asyncio.get_running_loop()
    end = loop.time() + 10
    while not task.done() and not chat.pending:
        assert loop.time() < end, "the conversation never settled"
        await asyncio.sleep(0.005)


async def charts_drawn(chat: ChatWidget) -> None:
    """Wait until no chart of ``chat`` is still being drawn (off the loop: _vegalite.py)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + _vegalite.START_SECONDS + 10
    while any(entry.get("chart") == {"error": _vegalite.DRAWING} for entry in chat.transcript):
        assert loop.time() < end, "a chart was never drawn"
        await asyncio.sleep(0.02)


async def play() -> list[dict[str, Any]]:
    """Play the conversation; the widget's transcript at the end."""
    _vegalite._worker.wait_ready(_vegalite.START_SECONDS)  # charts drawn at once, as when warm
    notes = NotesDomain(["buy milk"])
    chat = ChatWidget(agent=Agent(), domain=notes, timeout=0.3, max_turns=2,
                      executors={"python": python_executor({})},
                      rules=Rules(domain=notes))  # not the kernel's: its ids start at r1

    async def say(text: str) -> asyncio.Future[Any]:
        task = chat.say(text)
        await settled(chat, task)
        return task

    async def decide(decision: str, **extra: Any) -> None:
        click(chat, type="decide", token=chat.pending["token"], decision=decision, **extra)
        await asyncio.sleep(0.05)

    async def answer(value: str) -> None:
        click(chat, type="answer", token=chat.pending["token"], value=value)
        await asyncio.sleep(0.05)

    await (await say("show"))
    task = await say("ask")
    await answer("work")
    await settled(chat, task)
    await answer("yes")
    await task
    task = await say("propose")
    await decide("edit", payload={"text": ""})  # refused: issue and edits_left
    await settled(chat, task)
    await decide("edit", payload={"text": "green tea"},
                 comments=[{"field": "/text", "text": "Say which tea."}])
    await settled(chat, task)
    await decide("dismiss", reason="I still need it.",  # the removal
                 comments=[{"field": "", "text": "Ask before removing."}])
    await task
    task = await say("run")
    await decide("accept")
    await task
    task = await say("moved")
    await (await say("never mind"))  # words instead of deciding: superseded
    await task
    await (await say("thanks"))
    await (await say("wait"))  # no reply within the timeout
    await (await say("loop"))  # read-only outcomes every turn: the turn limit
    task = await say("fail")
    await asyncio.gather(task, return_exceptions=True)  # the widget's error entry
    await (await say("huge"))
    await chat.undo("add")  # Undo on a done card: its second outcome, undone
    task = await say("keep")
    await decide("accept")
    await task
    chat.domain.notes[:] = [n for n in chat.domain.notes if n["text"] != "jam"]
    await chat.undo("keep")  # the note went meanwhile: undo-failed, nothing changes
    chat.allow("add-note", TEA)
    await (await say("again"))  # accepted by the rule, without asking
    task = chat.say("slow")
    await asyncio.sleep(0.05)
    click(chat, type="stop")  # the Stop button: the widget's stopped entry
    await asyncio.gather(task, return_exceptions=True)
    with tempfile.TemporaryDirectory() as folder:  # carried on in a new widget: resumed
        saved = chat.save(Path(folder) / "session.json")
        again = ChatWidget.restore(saved, agent=Agent(), domain=NotesDomain(["buy milk"]),
                                   timeout=0.3, max_turns=2, rules=Rules())
        await charts_drawn(again)  # a restored widget draws its charts off the loop
        # as the front end gets it: a drawn chart without its copy (the static copy's)
        entries = json.loads(json.dumps([for_front_end(e) for e in again.transcript]))
    entries[-1].update(session=".dial/contract.json", saved_at="2026-12-01T17:00:00+00:00")
    return entries


def transcript() -> list[dict[str, Any]]:
    return asyncio.run(play())


def item_cases(entries: list[dict[str, Any]]) -> dict[str, Any]:
    """What the transcript shows, as items (``describe``: events named by their index), whole
    and at a few moments: a card, an execute block or a question waiting, a block running, a
    turn the agent did not reply to (its note offers Retry); and which kinds only the static
    copy draws as items (the front end makes all the others)."""
    def at(type_: str, **fields: Any) -> int:
        return next(i for i, e in enumerate(entries) if e.get("type") == type_
                    and all(e.get(k) == v for k, v in fields.items()))

    ask = at("ask", id="which")
    moments = [
        ("the whole conversation, nothing waiting", len(entries), {}),
        ("a card waiting for the person", at("suggestion", id="rm") + 1,
         {"kind": "decide", "id": "rm", "token": "d1", "payload": {"id": 1}}),
        ("an execute block waiting", at("suggestion", kind="execute") + 1,
         {"kind": "decide", "id": "op", "token": "d2"}),
        ("an execute block running", at("outcome", id="sum") + 1, {}),
        ("a question waiting", ask + 1, {"kind": "answer", "index": ask, "token": "a1"}),
        ("the agent did not reply", at("no-reply") + 1, {}),
    ]
    cases = []
    for name, end, pending in moments:
        shown = entries[:end]
        cases.append({"name": name, "events": end, "pending": pending,
                      "items": describe(transcript_items(shown, pending), shown),
                      "context": [list(pair) for pair in context_of(shown)]})
    return {"copy_kinds": sorted(COPY_KINDS), "cases": cases}


def write_items(entries: list[dict[str, Any]]) -> Path:
    ITEMS.write_text(json.dumps(item_cases(entries), indent=1, ensure_ascii=False) + "\n",
                     encoding="utf-8")
    return ITEMS


def write() -> Path:
    FIXTURE.parent.mkdir(parents=True, exist_ok=True)
    entries = transcript()
    FIXTURE.write_text(json.dumps(entries, indent=1, ensure_ascii=False) + "\n",
                       encoding="utf-8")
    write_items(json.loads(FIXTURE.read_text(encoding="utf-8")))
    return FIXTURE


if __name__ == "__main__":
    if sys.argv[1:] == ["--items"]:
        sys.exit(print(write_items(json.loads(FIXTURE.read_text(encoding="utf-8")))))
    sys.exit(print(write()))
