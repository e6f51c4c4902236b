"""ScriptedAgent, system_prompt, AgentError's redaction, and the optional SDKs."""

from __future__ import annotations

import subprocess
import sys

import pytest

from dial_notebook.agents import (
    AgentError,
    ScriptedAgent,
    ScriptExhaustedError,
    system_prompt,
)
from dial_notebook.agents._errors import redact
from dial_notebook.agents._llm import retry_after
from dial_notebook.agents._prompt import example_payload
from dial_notebook.dial import parse
from dial_notebook.domains.dataframes import DataFramesDomain
from dial_notebook.domains.notes import NotesDomain
from dial_notebook.runtime import Conversation, policy_human


def test_a_scripted_agent_replays_strings_and_callables_in_order():
    agent = ScriptedAgent(["one", lambda message: message.upper()])
    assert agent.send("a") == "one"
    assert agent.send("shout") == "SHOUT"
    assert agent.received == ["a", "shout"] and agent.remaining == 0


def test_a_scripted_agent_that_runs_out_says_how_many_replies_it_had():
    agent = ScriptedAgent(["only"])
    agent.send("first")
    with pytest.raises(ScriptExhaustedError, match="it had 1 and was sent message 2: 'second'"):
        agent.send("second")


def test_a_scripted_agent_refuses_a_reply_that_is_not_text():
    with pytest.raises(TypeError, match="a str, a callable of the message, an exception or"):
        ScriptedAgent([3])


async def test_a_scripted_agent_drives_a_conversation():
    reply = ('<dial><dial-suggest action="add-note"><dial-payload>{"text": "milk"}'
             '</dial-payload></dial-suggest></dial>')
    notes = NotesDomain()
    agent = ScriptedAgent([reply, "<dial><dial-inform>Added.</dial-inform></dial>"])
    result = await Conversation(agent=agent, domain=notes, human=policy_human()).say("add")
    assert (result.status, result.turns) == ("idle", 2)
    assert '"status":"done"' in agent.received[1]


@pytest.mark.parametrize("make", [NotesDomain, lambda: DataFramesDomain({})],
                         ids=["notes", "dataframes"])
def test_the_system_prompt_teaches_dial_and_lists_every_action_with_its_schema(make):
    domain = make()
    prompt = system_prompt(domain)
    for taught in ("<dial-suggest", "<dial-payload", "<dial-ask", "<dial-inform",
                   "outcome:", "done:", "failed:", "invalid:", "dismissed:", "edited"):
        assert taught in prompt
    for action in domain.describe():
        assert f"### {action['name']}" in prompt
        assert '"type":"object"' in prompt
        if action["preview"]:
            assert action["preview"] in prompt
    assert "destructive" in prompt and "read-only" in prompt


def test_the_prompts_example_reply_is_dial_with_a_payload_the_domain_accepts():
    notes = NotesDomain()
    prompt = system_prompt(notes)
    example = prompt[prompt.index("## Example reply"):].split("\n", 1)[1]
    suggest = parse(example).elements[1]
    assert suggest.action == "add-note"
    assert notes.validate("add-note", suggest.payload.value)["ok"] is True
    assert suggest.payload.value == {"text": "…"}


def test_the_prompt_marks_destructive_hand_off_and_read_only_actions():
    prompt = system_prompt(NotesDomain())
    section = {block.split("\n", 1)[0]: block for block in prompt.split("\n\n")
               if block.startswith("### ")}
    assert "destructive" in section["### remove-note"]
    assert "hand-off" in section["### open-poll"]
    assert "read-only" in section["### list-notes"]
    assert "Add the note '{text}'" in section["### add-note"]


def test_a_plain_runtime_domain_is_listed_from_its_actions():
    class Plain:
        def __init__(self):
            self.actions = {"ping": {"mutates": False, "schema": {"type": "object"}}}

        def run(self, action, payload):
            return "pong"

    prompt = system_prompt(Plain())
    assert "### ping" in prompt and "read-only" in prompt


def test_the_prompt_teaches_a_vega_lite_chart_with_its_data_inline():
    prompt = system_prompt()
    assert '<dial-inform render="chart">' in prompt
    assert '<dial-payload type="application/vnd.vegalite+json">' in prompt
    assert 'inline as "values"' in prompt and 'a "url" is refused' in prompt
    reply = ('<dial version="0.1" actor="agent"><dial-inform render="chart">Sales<dial-payload '
             'type="application/vnd.vegalite+json">{"mark": "bar"}</dial-payload></dial-inform>'
             "</dial>")
    inform = parse(reply).elements[0]
    assert (inform.render, inform.payload.value) == ("chart", {"mark": "bar"})


def test_without_a_domain_the_prompt_teaches_dial_alone():
    assert "## The domain" not in system_prompt()


def test_an_example_payload_fills_required_fields_with_plain_values():
    schema = {"type": "object", "required": ["n", "kind", "tags"], "properties": {
        "n": {"type": "integer"}, "kind": {"enum": ["a", "b"]},
        "tags": {"type": "array", "minItems": 2, "items": {"type": "string"}}}}
    assert example_payload(schema) == {"n": 1, "kind": "a", "tags": ["…", "…"]}


def test_redaction_removes_the_key_and_the_masked_forms_servers_echo():
    key = "sk-proj-abcdefghijklmnop1234"
    text = redact(f"bad key {key}; also sk-pro****1234 and sk-proj-abc...", key)
    assert key not in text and "1234" not in text and "sk-proj" not in text
    assert text.count("[redacted]") == 3


def test_an_agent_error_has_a_known_kind():
    with pytest.raises(ValueError, match="kind"):
        AgentError("x", kind="nonsense")


def test_retry_after_reads_milliseconds_seconds_and_dates():
    assert retry_after({"retry-after-ms": "250"}) == 0.25
    assert retry_after({"retry-after": "3"}) == 3.0
    assert retry_after({"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}) == 0.0
    assert retry_after({}) is None


BLOCK = "import sys; sys.modules['openai'] = None; sys.modules['anthropic'] = None; "


@pytest.mark.parametrize(("agent", "extra"), [("OpenAIAgent", "openai"),
                                              ("AnthropicAgent", "anthropic")])
def test_without_its_sdk_the_package_imports_and_the_agent_names_the_extra(agent, extra):
    code = BLOCK + (
        "import dial_notebook, dial_notebook.agents as agents\n"
        "agents.DemoAgent(None); agents.system_prompt(None)\n"
        f"try:\n    agents.{agent}(model='m')\n"
        "except ImportError as error:\n    print(type(error).__name__, error)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=60)
    assert out.stdout.strip() == (
        f"MissingSDKError {agent} needs the {extra} package, which is not installed: "
        f'pip install "dial-notebook[{extra}]"')


def test_importing_the_agents_imports_no_sdk():
    code = ("import sys, dial_notebook.agents; "
            "print([m for m in ('openai', 'anthropic') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=60)
    assert out.stdout.strip() == "[]"


def test_the_agents_layer_exports_exactly_its_public_names():
    import dial_notebook.agents as agents

    public = {name for name in vars(agents) if not name.startswith("_")} - {"annotations"}
    public = {name for name in public if not isinstance(getattr(agents, name), type(sys))}
    assert set(agents.__all__) == public
