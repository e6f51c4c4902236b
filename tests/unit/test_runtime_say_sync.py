"""say_sync: in a plain script, under a running event loop (a notebook cell), and interrupted."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from dial_notebook.runtime import BlockingSayError, Conversation, policy_human

from .runtime_doubles import NotesDomain, ScriptedAgent, dial, inform, outcome_ids_in, suggest

ROOT = Path(__file__).resolve().parents[2]

SCRIPT_PRELUDE = textwrap.dedent("""\
    import asyncio, sys
    from dial_notebook.runtime import Conversation, policy_human

    class Notes:
        actions = {"list-notes": {"mutates": False}}
        def run(self, action, payload):
            return {"notes": []}

    def dial(*parts):
        return "<dial>" + "".join(parts) + "</dial>"

    LIST = dial('<dial-suggest action="list-notes" id="ls"><dial-payload>{}</dial-payload>'
                '</dial-suggest>')
    OK = dial("<dial-inform>ok</dial-inform>")
""")


def run_script(body: str, *, interrupt_after: str | None = None) -> str:
    """Run a Python script in a fresh interpreter; optionally SIGINT it when it prints a line."""
    process = subprocess.Popen(
        [sys.executable, "-c", SCRIPT_PRELUDE + textwrap.dedent(body)], cwd=ROOT,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    lines = []
    if interrupt_after is not None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.append(line)
            if line.strip() == interrupt_after:
                process.send_signal(signal.SIGINT)
                break
    out, err = process.communicate(timeout=60)
    assert process.returncode == 0, err
    return "".join(lines) + out


class Sync:
    """A sync agent that records the messages it was sent."""

    def __init__(self, replies):
        self.replies = list(replies)
        self.sent = []

    def send(self, message):
        self.sent.append(message)
        return self.replies.pop(0)


def make(replies, human=None, **kw):
    agent = Sync(replies)
    conversation = Conversation(agent=agent, domain=NotesDomain(context=False),
                                human=human or policy_human(), **kw)
    return conversation, agent


def test_say_sync_works_in_a_plain_script_and_keeps_one_loop_across_calls():
    out = run_script("""\
        loops = []

        class Agent:
            def __init__(self):
                self.replies = [LIST, OK, OK]
            async def send(self, message):
                loops.append(asyncio.get_running_loop())
                return self.replies.pop(0)

        conversation = Conversation(agent=Agent(), domain=Notes(), human=policy_human())
        first = conversation.say_sync("list")
        second = conversation.say_sync("thanks")
        print(first.status, first.turns, second.status, len(set(map(id, loops))))
    """)
    assert out.split() == ["idle", "2", "idle", "1"]


def test_say_sync_works_while_an_event_loop_is_running_in_the_thread():
    conversation, agent = make([dial(suggest("list-notes", {})), dial(inform("ok"))])

    async def cell():
        asyncio.get_running_loop()  # a notebook cell: the kernel's loop is running
        return conversation.say_sync("list")

    result = asyncio.run(cell())
    assert (result.status, result.turns) == ("idle", 2)
    assert outcome_ids_in(agent.sent[1]) == ["sg-1"]


async def test_say_sync_works_from_inside_an_async_test():
    events = []
    conversation, _ = make([dial(inform("hi"))], on_event=events.append)
    result = conversation.say_sync("hello")
    assert result.status == "idle"
    assert [e["type"] for e in events] == ["sent", "reply", "inform"]


async def test_say_sync_works_from_a_callback_on_a_running_loop():
    conversation, _ = make([dial(inform("hi")), dial(inform("again"))])
    loop = asyncio.get_running_loop()
    done: asyncio.Future = loop.create_future()

    def callback():
        done.set_result([conversation.say_sync("one").status,
                         conversation.say_sync("two").status])

    loop.call_soon(callback)
    assert await done == ["idle", "idle"]


def test_say_sync_passes_on_a_send_error():
    conversation, _ = make([])
    with pytest.raises(IndexError):
        conversation.say_sync("x")


async def test_say_sync_refuses_a_human_that_answers_through_the_event_loop():
    class Widget:
        needs_event_loop = True

        def decide(self, suggestion):
            return asyncio.get_running_loop().create_future()

    conversation = Conversation(agent=ScriptedAgent([]), domain=NotesDomain(), human=Widget())
    with pytest.raises(BlockingSayError, match=r"it would hang.*await conversation.say"):
        conversation.say_sync("x")
    assert issubclass(BlockingSayError, RuntimeError)


def test_say_sync_takes_a_str():
    conversation, _ = make([])
    with pytest.raises(TypeError, match="say_sync"):
        conversation.say_sync(3)


def test_an_interrupted_say_sync_in_a_script_leaves_the_conversation_usable():
    out = run_script("""\
        class Agent:
            def __init__(self):
                self.replies = [LIST, "hang", OK]
                self.sent = []
            async def send(self, message):
                self.sent.append(message)
                reply = self.replies.pop(0)
                if reply == "hang":
                    print("waiting", flush=True)
                    await asyncio.sleep(30)
                return reply

        agent = Agent()
        conversation = Conversation(agent=agent, domain=Notes(), human=policy_human())
        try:
            conversation.say_sync("list")
        except KeyboardInterrupt:
            print("interrupted", [o["status"] for o in conversation.owed_outcomes],
                  conversation.busy)
        result = conversation.say_sync("again")
        print(result.status, 'of="ls"' in agent.sent[-1])
    """, interrupt_after="waiting")
    assert out.splitlines()[1:] == ["interrupted ['done'] False", "idle True"]


def test_an_interrupted_say_sync_under_a_running_loop_cancels_the_say_on_its_thread():
    out = run_script("""\
        class Agent:
            def __init__(self):
                self.replies = [LIST, "hang", OK]
                self.sent = []
            async def send(self, message):
                self.sent.append(message)
                reply = self.replies.pop(0)
                if reply == "hang":
                    print("waiting", flush=True)
                    try:
                        await asyncio.sleep(30)
                    except asyncio.CancelledError:
                        print("cancelled on the worker", flush=True)
                        raise
                return reply

        agent = Agent()
        conversation = Conversation(agent=agent, domain=Notes(), human=policy_human())

        async def cell():
            try:
                conversation.say_sync("list")
            except KeyboardInterrupt:
                print("interrupted", [o["status"] for o in conversation.owed_outcomes],
                      conversation.busy)
            result = conversation.say_sync("again")
            print(result.status, 'of="ls"' in agent.sent[-1])

        loop = asyncio.new_event_loop()  # as a kernel does: SIGINT raises KeyboardInterrupt
        loop.run_until_complete(cell())
        loop.close()
    """, interrupt_after="waiting")
    assert out.splitlines()[1:] == [
        "cancelled on the worker", "interrupted ['done'] False", "idle True"]
