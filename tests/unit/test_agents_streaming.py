"""Streamed replies, one connection per event loop, closing, and token usage: OpenAIAgent and
AnthropicAgent for real over HTTP against the fake server on 127.0.0.1; ScriptedAgent's
streaming."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import textwrap

import pytest

from dial_notebook.agents import AgentError, ScriptedAgent

from .fake_llm_server import DEFAULT, cut, drop, reply, status
from .test_agents_sdk import AGENTS, KEY, SUGGEST, _only_local, make, server

__all__ = ["_only_local", "server"]  # the fixtures, shared with test_agents_sdk

LONG = "".join(f"<p>{n}</p>" for n in range(60))


async def until(check, timeout: float = 10.0) -> None:
    """Wait (on the loop) until ``check()`` is true."""
    async with asyncio.timeout(timeout):
        while not check():
            await asyncio.sleep(0.01)


async def wait_for(server, name: str, at_least: int) -> int:
    """The server's counter ``name`` once it reached ``at_least`` (or after 10 s)."""
    return await asyncio.to_thread(server.wait_for, name, at_least)


# -- stream_reply ------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", AGENTS)
async def test_stream_reply_yields_the_pieces_in_order_and_they_join_to_the_reply(kind, server):
    server.plan(reply(SUGGEST, chunks=5))
    seen: list[str] = []
    agent = make(kind, server, on_chunk=seen.append)
    pieces = [piece async for piece in agent.stream_reply("add a note: buy milk")]
    assert len(pieces) == 5 and "".join(pieces) == SUGGEST
    assert seen == pieces  # on_chunk still gets each piece
    assert server.requests[0].body["stream"] is True


@pytest.mark.parametrize("kind", AGENTS)
async def test_streaming_is_on_by_default_and_off_with_stream_false(kind, server):
    streaming, whole = make(kind, server), make(kind, server, stream=False)
    assert streaming.streams is True and whole.streams is False
    assert await whole.send("hi") == await streaming.send("hi")
    assert "stream" not in server.requests[0].body  # one whole reply, not a stream
    assert server.requests[1].body["stream"] is True
    streaming.stream = False
    assert streaming.streams is False


@pytest.mark.parametrize("kind", AGENTS)
async def test_the_history_after_a_stream_is_the_history_after_send(kind, server):
    server.plan(reply("first"), reply("second"), reply("first"), reply("second"))
    streamed, sent = make(kind, server), make(kind, server, stream=False)
    for message in ("one", "two"):
        assert "".join([p async for p in streamed.stream_reply(message)]) in ("first", "second")
    for message in ("one", "two"):
        await sent.send(message)
    assert streamed.history.turns == sent.history.turns == [
        {"role": "user", "content": "one"}, {"role": "assistant", "content": "first"},
        {"role": "user", "content": "two"}, {"role": "assistant", "content": "second"}]
    assert streamed.usage == sent.usage


@pytest.mark.parametrize("kind", AGENTS)
async def test_cancelling_mid_stream_closes_it_keeps_nothing_and_a_later_send_works(kind,
                                                                                    server):
    server.plan(reply("done", chunks=1), reply(LONG, chunks=60, delay=0.05), reply("again"))
    agent = make(kind, server)
    await agent.send("before")
    turns, usage = list(agent.history.turns), agent.usage
    got: list[str] = []

    async def read() -> None:
        async for piece in agent.stream_reply("a long one"):
            got.append(piece)

    task = asyncio.create_task(read())
    await until(lambda: len(got) >= 2)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await wait_for(server, "streams_cut_by_client", 1) == 1  # the server saw it end
    assert len(got) < 60
    assert agent.history.turns == turns and agent.usage == usage
    assert await agent.send("after") == "again"
    assert len(agent.history) == 4


@pytest.mark.parametrize("kind", AGENTS)
async def test_closing_the_stream_early_raises_nothing_and_keeps_nothing(kind, server):
    server.plan(reply(LONG, chunks=60, delay=0.05))
    agent = make(kind, server)
    stream = agent.stream_reply("a long one")
    assert await anext(stream)
    await stream.aclose()  # as the runtime's `async for` does when it stops early
    assert await wait_for(server, "streams_cut_by_client", 1) == 1
    assert agent.history.turns == [] and agent.usage["turns"] == []


@pytest.mark.parametrize("kind", AGENTS)
async def test_a_rate_limit_before_the_first_piece_is_retried_for_a_stream(kind, server):
    server.plan(status(429, retry_after="0"), status(503, retry_after_ms="10"),
                reply("finally", chunks=3))
    agent = make(kind, server)
    assert [p async for p in agent.stream_reply("hi")] == ["fin", "all", "y"]
    assert len(server.requests) == 3 and len(agent.history) == 2


@pytest.mark.parametrize("kind", AGENTS)
async def test_a_stream_that_breaks_after_the_first_piece_is_a_connection_error(kind, server):
    server.plan(cut(SUGGEST))
    agent = make(kind, server)
    got: list[str] = []
    with pytest.raises(AgentError, match="broke while the reply was arriving") as caught:
        async for piece in agent.stream_reply("hi"):
            got.append(piece)
    assert caught.value.kind == "connection" and got and agent.history.turns == []
    assert len(server.requests) == 1  # not sent again: text had arrived


# -- one connection --------------------------------------------------------------------------

@pytest.mark.parametrize("stream", [True, False], ids=["streamed", "whole"])
@pytest.mark.parametrize("kind", AGENTS)
async def test_five_sends_use_one_connection(kind, stream, server):
    agent = make(kind, server, stream=stream)
    for number in range(5):
        await agent.send(f"message {number}")
    assert len(server.requests) == 5
    assert server.connections == 1 and server.closed == 0


@pytest.mark.parametrize("kind", AGENTS)
def test_the_same_agent_works_from_two_event_loops_one_after_the_other(kind, server):
    server.plan(reply("one"), reply("two"))
    agent = make(kind, server)
    assert asyncio.run(agent.send("a")) == "one"
    assert server.wait_for("closed", 1) == 1  # its loop's end closed the first connection
    assert asyncio.run(agent.send("b")) == "two"
    assert server.connections == 2 and server.wait_for("closed", 2) == 2
    assert [turn["content"] for turn in agent.history.turns] == ["a", "one", "b", "two"]


@pytest.mark.parametrize("kind", AGENTS)
async def test_async_with_closes_the_connection_on_the_way_out(kind, server):
    async with make(kind, server) as agent:
        await agent.send("hi")
        await agent.send("again")
        assert server.closed == 0
    assert await wait_for(server, "closed", 1) == 1 and server.connections == 1


@pytest.mark.parametrize("kind", AGENTS)
async def test_aclose_closes_the_connection_and_the_agent_stays_usable(kind, server):
    agent = make(kind, server)
    await agent.send("hi")
    await agent.aclose()
    assert await wait_for(server, "closed", 1) == 1
    await agent.send("again")  # a new connection
    assert server.connections == 2 and len(agent.history) == 4
    await agent.aclose()
    await agent.aclose()  # twice is fine


@pytest.mark.parametrize("kind", AGENTS)
async def test_close_inside_a_running_loop_closes_once_the_loop_runs(kind, server):
    agent = make(kind, server)
    await agent.send("hi")
    agent.close()  # as from a notebook cell: the loop runs the closing after this
    assert await wait_for(server, "closed", 1) == 1


@pytest.mark.parametrize("kind", AGENTS)
def test_close_from_sync_code_closes_an_idle_loops_connection_at_once(kind, server):
    agent = make(kind, server)
    with asyncio.Runner() as runner:
        runner.run(agent.send("hi"))
        agent.close()
        assert server.wait_for("closed", 1) == 1
        runner.run(agent.send("again"))
        assert server.connections == 2 and len(agent.history) == 4


def test_close_before_any_request_does_nothing(server):
    agent = make("openai", server)
    agent.close()
    asyncio.run(agent.aclose())
    assert server.connections == 0


@pytest.mark.parametrize("stream", [True, False], ids=["streamed", "whole"])
@pytest.mark.parametrize("kind", AGENTS)
async def test_a_connection_closed_before_any_answer_is_tried_once_more(kind, stream, server):
    server.plan(drop(), reply("ok"))  # as a kept connection the server had just closed
    agent = make(kind, server, stream=stream)
    assert await agent.send("hi") == "ok"
    assert len(server.requests) == 2 and server.connections == 2


@pytest.mark.parametrize("kind", AGENTS)
async def test_a_server_that_keeps_closing_is_a_connection_error_after_one_more_try(kind,
                                                                                   server):
    server.plan(drop(), drop(), reply("never read"))
    agent = make(kind, server)
    with pytest.raises(AgentError) as caught:
        await agent.send("hi")
    assert caught.value.kind == "connection" and len(server.requests) == 2
    assert agent.history.turns == []


@pytest.mark.parametrize("kind", AGENTS)
def test_an_interpreter_exits_with_an_agents_connection_still_open(kind, server):
    """No thread, no atexit waits for a client: exiting with one open (as a kernel shutting
    down does) does not hang."""
    base = server.url + ("/v1" if kind == "openai" else "")
    script = textwrap.dedent(f"""
        import asyncio
        from dial_notebook.agents import {AGENTS[kind].__name__} as Agent
        agent = Agent(model="m", base_url={base!r}, api_key="sk-test")
        loop = asyncio.new_event_loop()  # left running nowhere, never closed
        print(loop.run_until_complete(agent.send("hi")), flush=True)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == DEFAULT
    assert server.connections == 1 and len(server.requests) == 1


# -- usage -----------------------------------------------------------------------------------

@pytest.mark.parametrize("stream", [True, False], ids=["streamed", "whole"])
@pytest.mark.parametrize("kind", AGENTS)
async def test_usage_is_recorded_per_turn_and_summed(kind, stream, server):
    server.plan(reply("one", usage=(120, 7)), reply("two", usage=(140, 9)))
    agent = make(kind, server, stream=stream)
    assert agent.usage == {"turns": [], "input": 0, "output": 0, "total": 0}
    await agent.send("a")
    await agent.send("b")
    assert agent.usage == {
        "turns": [{"input": 120, "output": 7, "total": 127},
                  {"input": 140, "output": 9, "total": 149}],
        "input": 260, "output": 16, "total": 276}
    agent.usage["turns"].clear()  # a copy
    assert len(agent.usage["turns"]) == 2
    agent.reset()
    assert agent.usage == {"turns": [], "input": 0, "output": 0, "total": 0}
    assert agent.history.turns == []


@pytest.mark.parametrize("stream", [True, False], ids=["streamed", "whole"])
@pytest.mark.parametrize("kind", AGENTS)
async def test_a_turn_the_server_reported_no_usage_for_has_nones(kind, stream, server):
    server.plan(reply("one", usage=None), reply("two", usage=(5, 3)))
    agent = make(kind, server, stream=stream)
    await agent.send("a")
    await agent.send("b")
    assert agent.usage == {
        "turns": [{"input": None, "output": None, "total": None},
                  {"input": 5, "output": 3, "total": 8}],
        "input": 5, "output": 3, "total": 8}


async def test_openai_asks_for_the_usage_of_a_stream_only(server):
    streamed, whole = make("openai", server), make("openai", server, stream=False)
    await streamed.send("hi")
    await whole.send("hi")
    assert server.requests[0].body["stream_options"] == {"include_usage": True}
    assert "stream_options" not in server.requests[1].body
    quiet = make("openai", server, stream_options=None)  # for a server that refuses it
    await quiet.send("hi")
    assert "stream_options" not in server.requests[2].body
    assert quiet.usage["turns"] == [{"input": None, "output": None, "total": None}]


async def test_anthropic_counts_the_prompt_cache_in_the_input(server):
    from dial_notebook.agents._anthropic import _add_usage
    from dial_notebook.agents._usage import unknown

    class Reported:
        input_tokens, cache_creation_input_tokens, cache_read_input_tokens = 10, 200, 30
        output_tokens = 4

    usage = unknown()
    _add_usage(usage, Reported())
    assert usage == {"input": 240, "output": 4, "total": None}


# -- the key ---------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", AGENTS)
async def test_the_key_is_in_no_repr_or_error_of_a_streaming_agent(kind, server):
    server.plan(reply("ok"), status(401, f"Incorrect API key provided: {KEY}"),
                cut(SUGGEST))
    agent = make(kind, server)
    await agent.send("hi")
    errors = []
    for _ in range(2):
        with pytest.raises(AgentError) as caught:
            _ = [piece async for piece in agent.stream_reply("hi")]
        errors.append(caught.value)
    seen = [repr(agent), str(vars(agent)), repr(vars(agent._clients)),
            *(str(error) for error in errors), *(repr(error) for error in errors),
            json.dumps(agent.usage), repr(agent.history.turns)]
    assert [error.kind for error in errors] == ["auth", "connection"]
    assert not any(KEY in text or KEY[-4:] in text for text in seen)


# -- ScriptedAgent ---------------------------------------------------------------------------

async def test_a_scripted_agent_with_pieces_streams_each_reply_in_that_many(monkeypatch):
    slept: list[float] = []
    real_sleep = asyncio.sleep

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        await real_sleep(0)

    monkeypatch.setattr("dial_notebook.agents._scripted.asyncio.sleep", sleep)
    agent = ScriptedAgent(["abcdefgh", lambda message: message.upper(), "xy"], pieces=4,
                          delay=0.05)
    assert agent.streams is True
    assert [p async for p in agent.stream_reply("one")] == ["ab", "cd", "ef", "gh"]
    assert slept == [0.05, 0.05, 0.05]  # between the pieces
    assert [p async for p in agent.stream_reply("hello")] == ["HE", "L", "L", "O"]
    assert [p async for p in agent.stream_reply("three")] == ["x", "y"]  # shorter: fewer
    assert agent.received == ["one", "hello", "three"] and agent.remaining == 0
    assert "pieces=4" in repr(agent)


async def test_a_scripted_agent_without_pieces_does_not_stream_but_can_be_read_so():
    agent = ScriptedAgent(["whole", "reply"])
    assert agent.streams is False  # the runtime calls send
    assert agent.send("a") == "whole"
    assert [p async for p in agent.stream_reply("b")] == ["reply"]
    assert repr(agent) == "ScriptedAgent(received=2, remaining=0)"


async def test_a_streaming_scripted_agent_raises_hangs_and_runs_out_as_send_does():
    agent = ScriptedAgent([ValueError("down"), ScriptedAgent.HANG], pieces=2)
    with pytest.raises(ValueError, match="down"):
        _ = [p async for p in agent.stream_reply("a")]

    async def read() -> list[str]:
        return [p async for p in agent.stream_reply("b")]

    task = asyncio.create_task(read())
    await asyncio.sleep(0.05)
    assert not task.done()  # HANG: no piece, ever
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    with pytest.raises(LookupError, match="ran out of replies"):
        _ = [p async for p in agent.stream_reply("c")]
    assert agent.received == ["a", "b"]


@pytest.mark.parametrize("pieces, delay", [(0, 0.0), (-1, 0.0), (2.5, 0.0), (True, 0.0),
                                           (2, -1.0), (2, "fast")])
def test_a_scripted_agent_refuses_pieces_and_delays_that_mean_nothing(pieces, delay):
    with pytest.raises(ValueError):
        ScriptedAgent(["x"], pieces=pieces, delay=delay)
