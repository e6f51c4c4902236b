"""An action that finished is reported as finished, even when its say was cancelled.

Reporting "failed: Interrupted" for work that completed invites the agent to do it again: a
note added twice, a payment sent twice. A kernel interrupt (the say's task cancelled) while a
blocking run or an http step works on a worker thread must tell the agent what really happened.
"""

from __future__ import annotations

import asyncio
import http.server
import threading
from typing import Any

import pytest

from dial_notebook.dial import Step
from dial_notebook.domains import SchemaDomain
from dial_notebook.runtime import Conversation, http_executor, policy_human

from .runtime_doubles import ScriptedAgent, dial, outcomes_in, suggest, until


async def cancelled(task: asyncio.Task) -> None:
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


def slow_notes() -> tuple[SchemaDomain, threading.Event, threading.Event, list[str]]:
    """A schema domain whose add-note blocks until released, then really adds the note."""
    started, release = threading.Event(), threading.Event()
    notes: list[str] = []
    domain = SchemaDomain("notes")

    @domain.action(schema={"type": "object", "required": ["text"]},
                   preview="Add the note '{text}'", undo=lambda payload, result: notes.pop())
    def add_note(payload: dict[str, Any]) -> dict[str, Any]:
        started.set()
        release.wait(10)
        notes.append(payload["text"])
        return {"count": len(notes)}

    return domain, started, release, notes


async def test_a_blocking_run_that_completes_after_the_interrupt_is_reported_done():
    domain, started, release, notes = slow_notes()
    agent = ScriptedAgent([dial(suggest("add-note", {"text": "pay the rent"})),
                           dial("<dial-inform>Noted.</dial-inform>")])
    events: list[dict] = []
    conversation = Conversation(agent=agent, domain=domain, human=policy_human("accept"),
                                on_event=events.append)
    task = asyncio.ensure_future(conversation.say("add it"))
    await until(started.is_set)
    await cancelled(task)
    assert conversation.owed_outcomes == []  # still running: nothing is known yet
    release.set()
    await until(lambda: conversation.owed_outcomes)
    (outcome,) = conversation.owed_outcomes
    assert (outcome["status"], outcome["result"]) == ("done", {"count": 1})
    assert notes == ["pay the rent"]
    assert [r.action for r in domain.history] == ["add-note"]  # undo knows it happened
    assert [e["status"] for e in events if e["type"] == "outcome"] == ["done"]
    await conversation.say("")
    assert outcomes_in(agent.received[1]) == [
        {"action": "add-note", "status": "done", "result": {"count": 1}}]


async def test_a_blocking_run_that_fails_after_the_interrupt_is_reported_with_its_error():
    release = threading.Event()
    domain = SchemaDomain("d")

    @domain.action(schema={"type": "object"})
    def explode(payload):
        release.wait(10)
        raise ValueError("disk full")

    conversation = Conversation(agent=ScriptedAgent([dial(suggest("explode", {}))]),
                                domain=domain, human=policy_human("accept"))
    task = asyncio.ensure_future(conversation.say("go"))
    await asyncio.sleep(0.05)
    await cancelled(task)
    release.set()
    await until(lambda: conversation.owed_outcomes)
    (outcome,) = conversation.owed_outcomes
    assert (outcome["status"], outcome["error"]) == ("failed", "disk full")


# ---- execute steps -------------------------------------------------------------------------------

@pytest.fixture
def slow_server():
    """A local HTTP server whose /slow answers once released."""
    release = threading.Event()
    hits: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            hits.append(self.path)
            release.wait(10)
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"paid")

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", release, hits
    release.set()
    server.shutdown()
    server.server_close()


async def test_an_http_step_interrupted_mid_request_reports_the_response_it_really_got(slow_server):
    url, release, hits = slow_server
    reply = dial(f'<dial-execute id="pay"><step env="http" id="post">POST {url}/slow</step>'
                 "</dial-execute>")
    conversation = Conversation(agent=ScriptedAgent([reply]), domain=SchemaDomain("d"),
                                human=policy_human("accept"),
                                executors={"http": http_executor(timeout=10)})
    task = asyncio.ensure_future(conversation.say("pay"))
    await until(lambda: hits)
    await cancelled(task)
    release.set()
    await until(lambda: conversation.owed_outcomes)
    (outcome,) = conversation.owed_outcomes
    assert (outcome["id"], outcome["status"]) == ("post", "done")
    assert outcome["result"] == {"status": 200, "body": "paid"}


async def test_a_step_that_finished_before_the_interrupt_keeps_its_real_outcome():
    def quick(step: Step) -> dict[str, str]:
        return {"ran": step.id}

    async def hang(step: Step) -> None:
        await asyncio.Event().wait()

    reply = dial('<dial-execute id="op"><step env="quick" id="a">a</step>'
                 '<step env="hang" id="b">b</step></dial-execute>')
    conversation = Conversation(agent=ScriptedAgent([reply]), domain=SchemaDomain("d"),
                                human=policy_human("accept"),
                                executors={"quick": quick, "hang": hang})
    task = asyncio.ensure_future(conversation.say("go"))
    await until(lambda: any(o["id"] == "a" for o in conversation.owed_outcomes))
    await cancelled(task)
    statuses = {o["id"]: o["status"] for o in conversation.owed_outcomes}
    assert statuses == {"a": "done", "b": "failed"}


async def test_a_finished_but_unprocessed_step_is_not_called_interrupted():
    """The cancellation lands while the step's task is done but not yet read."""
    finished = asyncio.Event()

    async def fast(step: Step) -> dict[str, bool]:
        finished.set()
        return {"done": True}

    reply = dial('<dial-execute id="op"><step env="fast" id="a">a</step></dial-execute>')
    conversation = Conversation(agent=ScriptedAgent([reply, dial("")]), domain=SchemaDomain("d"),
                                human=policy_human("accept"), executors={"fast": fast})
    task = asyncio.ensure_future(conversation.say("go"))
    await finished.wait()
    task.cancel()  # the step's task has ended; the block has not looked at it yet
    with pytest.raises(asyncio.CancelledError):
        await task
    (outcome,) = conversation.owed_outcomes
    assert (outcome["status"], outcome["result"]) == ("done", {"done": True})
