"""OpenAIAgent and AnthropicAgent, for real over HTTP, against a fake server on 127.0.0.1."""

from __future__ import annotations

import asyncio
import json
import socket
import time

import pytest

from dial_notebook.agents import AgentError, AnthropicAgent, OpenAIAgent, system_prompt
from dial_notebook.domains.notes import NotesDomain
from dial_notebook.runtime import Conversation, policy_human

from .fake_llm_server import FakeLLMServer, cut, hang, reply, status

KEY = "sk-test-SECRET-0123456789abcdef"
SUGGEST = ('<dial version="0.1" actor="agent"><dial-suggest action="add-note">Add it?'
           '<dial-payload>{"text": "buy milk"}</dial-payload></dial-suggest></dial>')
AGENTS = {"openai": OpenAIAgent, "anthropic": AnthropicAgent}


@pytest.fixture(autouse=True)
def _only_local(monkeypatch):
    """No key, URL or proxy from the environment may redirect or authorise these tests."""
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL",
                 "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy",
                 "all_proxy"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")


@pytest.fixture
def server():
    with FakeLLMServer() as running:
        yield running


def make(kind, server, **options):
    base = server.url + ("/v1" if kind == "openai" else "")
    options.setdefault("api_key", KEY)
    return AGENTS[kind](model="test-model", base_url=base, **options)


def sent_messages(kind, request):
    """The request's messages as (role, content), the system prompt first."""
    body = request.body
    messages = [(m["role"], m["content"]) for m in body["messages"]]
    if kind == "anthropic":
        return [("system", body["system"]), *messages]
    return messages


@pytest.mark.parametrize("kind", AGENTS)
async def test_the_system_prompt_goes_first_and_the_reply_comes_back(kind, server):
    notes = NotesDomain()
    server.plan(reply(SUGGEST))
    agent = make(kind, server, domain=notes)
    assert await agent.send("add a note: buy milk") == SUGGEST
    request = server.requests[0]
    assert sent_messages(kind, request) == [("system", system_prompt(notes)),
                                            ("user", "add a note: buy milk")]
    assert request.body["model"] == "test-model"
    assert request.path == ("/v1/chat/completions" if kind == "openai" else "/v1/messages")


@pytest.mark.parametrize("kind", AGENTS)
async def test_the_history_holds_every_completed_turn_in_order(kind, server):
    server.plan(reply("first"), reply("second"))
    agent = make(kind, server, system="Speak DIAL.")
    await agent.send("one")
    await agent.send("two")
    assert sent_messages(kind, server.requests[1]) == [
        ("system", "Speak DIAL."), ("user", "one"), ("assistant", "first"), ("user", "two")]


@pytest.mark.parametrize("kind", AGENTS)
async def test_streaming_hands_text_to_on_chunk_before_the_reply_is_complete(kind, server):
    server.plan(reply(SUGGEST, chunks=5, gate=True))
    pieces: list[str] = []

    def on_chunk(text):
        pieces.append(text)
        server.gate.set()  # the server holds the rest until the first piece arrived here

    agent = make(kind, server, stream=True, on_chunk=on_chunk)
    assert await agent.send("add a note: buy milk") == SUGGEST
    assert server.requests[0].body["stream"] is True
    assert not server.gate_timed_out
    assert len(pieces) == 5 and "".join(pieces) == SUGGEST


@pytest.mark.parametrize("kind", AGENTS)
async def test_an_async_on_chunk_is_awaited(kind, server):
    server.plan(reply("abcdef", chunks=3))
    seen: list[str] = []

    async def on_chunk(text):
        await asyncio.sleep(0)
        seen.append(text)

    agent = make(kind, server, stream=True, on_chunk=on_chunk)
    assert await agent.send("hi") == "abcdef"
    assert seen == ["ab", "cd", "ef"]


@pytest.mark.parametrize("kind", AGENTS)
async def test_a_refused_key_says_which_setting_to_check_and_never_shows_the_key(kind, server):
    server.plan(status(401, f"Incorrect API key provided: {KEY[:8]}****{KEY[-4:]}."))
    agent = make(kind, server)
    with pytest.raises(AgentError) as caught:
        await agent.send("hi")
    error = caught.value
    assert error.kind == "auth" and error.status == 401
    assert "refused the API key" in str(error) and agent.key_variable in str(error)
    assert KEY not in str(error) and KEY[-4:] not in str(error) and KEY[:8] not in str(error)
    assert error.__cause__ is None and error.__suppress_context__


@pytest.mark.parametrize("kind", AGENTS)
async def test_a_missing_key_for_the_hosted_api_is_said_before_any_request(kind):
    agent = AGENTS[kind](model="test-model")
    with pytest.raises(AgentError, match=f"No API key.*{agent.key_variable}") as caught:
        await agent.send("hi")
    assert caught.value.kind == "auth"


@pytest.mark.parametrize("kind", AGENTS)
async def test_a_local_server_that_wants_a_key_says_to_pass_one(kind, server):
    server.plan(status(401, "no key"))
    agent = make(kind, server, api_key=None)
    with pytest.raises(AgentError, match="needs an API key") as caught:
        await agent.send("hi")
    assert caught.value.kind == "auth"
    assert server.requests[0].headers  # the request was made, with a placeholder key


@pytest.mark.parametrize("kind", AGENTS)
async def test_an_unknown_model_is_named_with_what_to_check(kind, server):
    server.plan(status(404, "The model `test-model` does not exist."))
    agent = make(kind, server)
    with pytest.raises(AgentError) as caught:
        await agent.send("hi")
    assert caught.value.kind == "model-not-found"
    assert "Model 'test-model' was not found at " + server.url in str(caught.value)
    assert "does not exist" in str(caught.value)


@pytest.mark.parametrize("kind", AGENTS)
async def test_a_rate_limit_is_retried_after_the_delay_the_server_gives(kind, server):
    server.plan(status(429, retry_after_ms="300"), reply("finally"))
    agent = make(kind, server)
    started = time.monotonic()
    assert await agent.send("hi") == "finally"
    assert time.monotonic() - started >= 0.3
    assert len(server.requests) == 2


@pytest.mark.parametrize("kind", AGENTS)
async def test_a_rate_limit_gives_up_after_the_bounded_retries(kind, server):
    server.plan(*[status(429, "slow down", retry_after="0")] * 4)
    agent = make(kind, server, max_retries=2)
    with pytest.raises(AgentError, match=r"Rate limited.*after 2 retries") as caught:
        await agent.send("hi")
    assert caught.value.kind == "rate-limit" and len(server.requests) == 3
    assert agent.history.turns == []


@pytest.mark.parametrize("kind", AGENTS)
async def test_a_retry_delay_longer_than_allowed_is_not_waited(kind, server, monkeypatch):
    server.plan(status(429, retry_after="3600"))
    agent = make(kind, server, max_retry_wait=5)
    waits: list[float] = []
    real_sleep = asyncio.sleep

    async def sleep(delay, *args, **kwargs):  # counted, not timed: a busy machine is slow
        waits.append(delay)
        return await real_sleep(delay, *args, **kwargs)

    monkeypatch.setattr(asyncio, "sleep", sleep)
    with pytest.raises(AgentError, match="asks to wait 3600s") as caught:
        await agent.send("hi")
    assert caught.value.kind == "rate-limit"
    assert not [w for w in waits if w >= 0.5] and len(server.requests) == 1


@pytest.mark.parametrize("kind", AGENTS)
async def test_a_server_error_is_retried_then_explained(kind, server):
    server.plan(*[status(500, "boom", retry_after_ms="10")] * 2)
    agent = make(kind, server, max_retries=1)
    with pytest.raises(AgentError, match=r"failed \(500\).*boom") as caught:
        await agent.send("hi")
    assert caught.value.kind == "server" and len(server.requests) == 2


@pytest.mark.parametrize("kind", AGENTS)
async def test_a_server_error_then_success_returns_the_reply(kind, server):
    server.plan(status(500, "boom", retry_after="0"), reply("ok"))
    assert await make(kind, server).send("hi") == "ok"


@pytest.mark.parametrize("kind", AGENTS)
async def test_a_refused_connection_names_the_url(kind):
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    agent = AGENTS[kind](model="m", base_url=f"http://127.0.0.1:{port}/v1", api_key=KEY)
    with pytest.raises(AgentError) as caught:
        await agent.send("hi")
    assert caught.value.kind == "connection"
    assert f"Could not connect to http://127.0.0.1:{port}/v1" in str(caught.value)
    assert "is the server running" in str(caught.value)


@pytest.mark.parametrize("kind", AGENTS)
async def test_a_hanging_server_becomes_the_runtimes_no_reply(kind, server):
    server.plan(hang())
    agent = make(kind, server)
    conversation = Conversation(agent=agent, domain=NotesDomain(), human=policy_human(),
                                timeout=0.5)
    result = await conversation.say("hi")
    assert result.status == "no-reply"
    assert conversation.transcript[-1]["type"] == "no-reply"
    assert agent.history.turns == []  # the unanswered message is not kept


@pytest.mark.parametrize("kind", AGENTS)
async def test_the_agents_own_timeout_is_explained(kind, server):
    server.plan(hang())
    agent = make(kind, server, timeout=0.3)
    with pytest.raises(AgentError, match=r"No answer from .* within 0\.3s") as caught:
        await agent.send("hi")
    assert caught.value.kind == "timeout"


@pytest.mark.parametrize("kind", AGENTS)
async def test_the_key_is_in_no_message_repr_or_transcript(kind, server):
    server.plan(status(404, f"unknown model for key {KEY}"), reply(SUGGEST), reply("ok"))
    agent = make(kind, server)
    with pytest.raises(AgentError) as caught:
        await agent.send("hi")
    conversation = Conversation(agent=agent, domain=NotesDomain(), human=policy_human())
    await conversation.say("add a note: buy milk")
    seen = [str(caught.value), repr(caught.value), repr(agent), str(vars(agent)),
            json.dumps(conversation.transcript)]
    assert not any(KEY in text for text in seen)
    assert "[redacted]" in str(caught.value)
    auth = server.requests[0].headers.get("authorization") or server.requests[0].headers.get(
        "x-api-key")
    assert KEY in auth  # the key did go to the server, and only there


@pytest.mark.parametrize("kind", AGENTS)
async def test_the_agent_works_again_on_a_new_event_loop(kind, server):
    server.plan(reply("one"), reply("two"))
    agent = make(kind, server)
    conversation = Conversation(agent=agent, domain=NotesDomain(), human=policy_human())
    assert (await agent.send("a")) == "one"
    result = await asyncio.to_thread(conversation.say_sync, "b")  # its own loop, in a thread
    assert result.status == "idle" and len(agent.history) == 4
    assert server.connections == 2  # one client per loop
    # both loops' connections, the idle private loop's too (closed on a helper thread): the
    # conversation closes that loop when it is collected, and a loop closed while this
    # thread runs another cannot shut down what it holds
    await agent.aclose()
    assert await asyncio.to_thread(server.wait_for, "closed", 2) == 2


@pytest.mark.parametrize("kind", AGENTS)
async def test_a_stream_cut_half_way_is_a_connection_error_and_keeps_no_turn(kind, server):
    server.plan(cut(SUGGEST))
    agent = make(kind, server, stream=True)
    with pytest.raises(AgentError, match="broke while the reply was arriving") as caught:
        await agent.send("hi")
    assert caught.value.kind == "connection" and agent.history.turns == []
