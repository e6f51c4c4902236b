"""A whole conversation through OpenAIAgent, the real Conversation and a scripted human,
checking exactly what the model's server received."""

from __future__ import annotations

import pytest

from dial_notebook.agents import OpenAIAgent, system_prompt
from dial_notebook.dial import outcome_reply
from dial_notebook.domains.notes import NotesDomain
from dial_notebook.runtime import Conversation, scripted_human

from .fake_llm_server import FakeLLMServer, reply

ADD = ('<dial version="0.1" actor="agent"><dial-suggest id="s1" action="add-note">Add it?'
       '<dial-payload type="application/json">{"text": "buy milk"}</dial-payload>'
       '</dial-suggest></dial>')
ADDED = ('<dial version="0.1" actor="agent"><dial-acknowledge of="s1">Added. You now have '
         '2 notes.</dial-acknowledge></dial>')
REMOVE = ('<dial version="0.1" actor="agent"><dial-suggest id="s2" action="remove-note">'
          'Remove it?<dial-payload type="application/json">{"id": 1}</dial-payload>'
          '</dial-suggest></dial>')
FINE = '<dial version="0.1" actor="agent"><dial-inform>OK, I kept it.</dial-inform></dial>'


@pytest.fixture(autouse=True)
def _only_local(monkeypatch):
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY",
                 "http_proxy", "https_proxy", "all_proxy"):
        monkeypatch.delenv(name, raising=False)


@pytest.mark.parametrize("stream", [False, True], ids=["json", "streamed"])
async def test_a_conversation_sends_the_system_prompt_first_and_outcomes_verbatim(stream):
    notes = NotesDomain(["call Sam"])
    pieces: list[str] = []
    with FakeLLMServer() as server:
        server.plan(reply(ADD), reply(ADDED), reply(REMOVE), reply(FINE))
        agent = OpenAIAgent(model="test-model", base_url=server.url + "/v1", api_key="sk-t",
                            domain=notes, stream=stream, on_chunk=pieces.append)
        human = scripted_human(["accept", "dismiss"])
        conversation = Conversation(agent=agent, domain=notes, human=human)

        first = await conversation.say("add a note: buy milk")
        second = await conversation.say("remove note 1")
        third = await conversation.say("never mind")

    assert [first.status, second.status, third.status] == ["idle"] * 3
    assert [first.turns, second.turns, third.turns] == [2, 1, 1]
    assert [note["text"] for note in notes.notes] == ["call Sam", "buy milk"]
    done, dismissed = first.outcomes[0], second.outcomes[0]
    assert (done["status"], dismissed["status"]) == ("done", "dismissed")

    sent = [e["message"] for e in conversation.transcript if e["type"] == "sent"]
    assert sent == [
        '<context notes="1"/>\n\nadd a note: buy milk',
        outcome_reply([done]) + '\n\n<context notes="2"/>',
        '<context notes="2"/>\n\nremove note 1',
        outcome_reply([dismissed]) + '\n\n<context notes="2"/>\n\nnever mind',
    ]
    assert '<dial-acknowledge of="s1" yield="s1:done">Done: Add the note \'buy milk\'.' \
        in sent[1]
    assert '{"action":"remove-note","status":"dismissed"}' in sent[3]

    replies = [ADD, ADDED, REMOVE, FINE]
    assert len(server.requests) == 4
    for n, request in enumerate(server.requests):
        messages = request.body["messages"]
        assert messages[0] == {"role": "system", "content": system_prompt(notes)}
        expected = []
        for message, answer in zip(sent[:n], replies[:n], strict=True):
            expected += [{"role": "user", "content": message},
                         {"role": "assistant", "content": answer}]
        assert messages[1:] == [*expected, {"role": "user", "content": sent[n]}]
        assert request.body.get("stream", False) is stream
    assert ("".join(pieces) == "".join(replies)) if stream else pieces == []
