"""The TLS context every agent's HTTP client shares: built once per process (not ~30 ms of CPU
for each agent, which capped evaluate's concurrency), and verifying as the SDK's own default
does: a server whose certificate nobody trusts is refused; the certificates named by
SSL_CERT_FILE are trusted, and changing the variable takes effect."""

from __future__ import annotations

import ssl
from pathlib import Path
from typing import Any

import pytest

from dial_notebook.agents import AgentError, AnthropicAgent, OpenAIAgent, _tls

from .fake_llm_server import FakeLLMServer, reply

TLS = Path(__file__).resolve().parents[1] / "data" / "tls"
INFORM = '<dial version="0.1" actor="agent"><dial-inform>Over TLS.</dial-inform></dial>'
AGENTS = {"openai": (OpenAIAgent, "/v1"), "anthropic": (AnthropicAgent, "")}


@pytest.fixture(autouse=True)
def _fresh(monkeypatch):
    """No proxy, no certificate variables from outside; an empty cache of contexts."""
    for name in ("SSL_CERT_FILE", "SSL_CERT_DIR", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY",
                 "http_proxy", "https_proxy", "all_proxy", "OPENAI_BASE_URL",
                 "ANTHROPIC_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    monkeypatch.setattr(_tls, "_contexts", {})


@pytest.fixture
def https():
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(TLS / "cert.pem", TLS / "key.pem")
    with FakeLLMServer(tls=context) as server:
        yield server


def agent(kind: str, server: FakeLLMServer) -> Any:
    make, path = AGENTS[kind]
    return make(model="m", base_url=server.url + path, api_key="sk-test", stream=False)


def test_every_agent_s_client_is_built_with_the_one_shared_context():
    clients = [make(model="m", base_url="http://127.0.0.1:9/v1", api_key="k")._http_client()
               for make in (OpenAIAgent, OpenAIAgent, AnthropicAgent)]
    [context] = _tls._contexts.values()
    assert context.verify_mode == ssl.CERT_REQUIRED and context.check_hostname
    assert all(c._transport._pool._ssl_context is context for c in clients)


@pytest.mark.parametrize("kind", AGENTS)
async def test_a_certificate_nobody_trusts_is_refused(kind, https):
    https.plan(reply(INFORM))
    with pytest.raises(AgentError, match="CERTIFICATE_VERIFY_FAILED"):
        await agent(kind, https).send("hi")


@pytest.mark.parametrize("kind", AGENTS)
async def test_ssl_cert_file_is_honoured_and_a_change_of_it_takes_effect(kind, https,
                                                                        monkeypatch):
    monkeypatch.setenv("SSL_CERT_FILE", str(TLS / "cert.pem"))
    https.plan(reply(INFORM))
    trusting = agent(kind, https)
    assert await trusting.send("hi") == INFORM
    await trusting.aclose()
    monkeypatch.delenv("SSL_CERT_FILE")
    https.plan(reply(INFORM))
    with pytest.raises(AgentError, match="CERTIFICATE_VERIFY_FAILED"):
        await agent(kind, https).send("hi")
    assert len(_tls._contexts) == 2
