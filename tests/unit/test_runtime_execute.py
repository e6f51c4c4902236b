"""<dial-execute>: steps approved by the person, run by executors by env, reported per step."""

from __future__ import annotations

import asyncio
import http.server
import json
import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dial_notebook.dial import Step
from dial_notebook.runtime import (
    Conversation,
    StepError,
    http_executor,
    policy_human,
    python_executor,
    scripted_human,
    shell_executor,
)
from tests.hypothesis_profiles import examples

from .runtime_doubles import NotesDomain, ScriptedAgent, dial, outcomes_in
from .schema_examples import EXAMPLES

CONFIRM_GATED_EXAMPLE = EXAMPLES[-1]


class Recorder:
    """A harmless executor: records each command and returns what it was given."""

    def __init__(self, fail: set[str] = frozenset()):
        self.ran: list[str] = []
        self.fail = fail

    def __call__(self, step: Step):
        self.ran.append(step.command)
        if step.id in self.fail:
            raise StepError(f"{step.id} broke", code="broken", hint="try again")
        return {"ran": step.command}


def conversation_for(replies, human=None, **kw):
    agent = ScriptedAgent(replies)
    events: list[dict] = []
    kw.setdefault("full_dial", True)
    conversation = Conversation(agent=agent, domain=NotesDomain(context=False),
                                human=human or policy_human(), on_event=events.append, **kw)
    return conversation, agent, events


def block(*steps, attrs=' id="op" yield="op:done op:failed"'):
    return f"<dial-execute{attrs}>{''.join(steps)}</dial-execute>"


def step(command, *, id=None, env="shell", observe=None, yields=None, label=None):
    attrs = f' env="{env}"'
    for name, value in (("id", id), ("observe", observe), ("yield", yields), ("label", label)):
        if value:
            attrs += f' {name}="{value}"'
    return f"<step{attrs}>{command}</step>"


def outcomes_of(events):
    return [(e["id"], e["status"]) for e in events if e["type"] == "outcome"]


# ---- the schema's full example: execution with a confirmation gate -----------------------------

async def test_the_confirm_gated_example_offers_the_execute_on_yes_and_runs_it_once_accepted():
    shell = Recorder()
    human = scripted_human([{"answer": "yes"}, "accept"])
    conversation, agent, events = conversation_for(
        [CONFIRM_GATED_EXAMPLE, dial("<dial-inform>All gone.</dial-inform>")], human,
        executors={"shell": shell})
    result = await conversation.say("clear the 2024 archive")
    # the yes offers the card; the card, showing the commands, is what approves them
    assert [type(s).__name__ for s in human.seen] == ["PendingAsk", "Suggestion"]
    assert shell.ran == ["ls /home/user/archive/2024 | wc -l", "rm -rf /home/user/archive/2024/*"]
    assert [(o["id"], o["action"], o["status"]) for o in result.outcomes] == [
        ("count-files", "execute:shell", "done"), ("delete-files", "execute:shell", "done")]
    shown = [(e.get("act"), e.get("id") or e["text"]) for e in events if e["type"] == "inform"]
    assert shown[:2] == [("inform", "Done. Archive cleared."), ("skipped", "ack-cancel")]
    (card,) = [e for e in events if e["type"] == "suggestion"]
    assert (card["kind"], card["confirmed"]) == ("execute", True)
    assert outcomes_in(agent.received[1])[0] == {
        "action": "execute:shell", "status": "done",
        "result": {"ran": "ls /home/user/archive/2024 | wc -l"}}
    assert agent.received[1].endswith("\n\nyes")


async def test_the_confirm_gated_example_acknowledges_the_cancel_only_on_no_and_runs_nothing():
    shell = Recorder()
    conversation, agent, events = conversation_for(
        [CONFIRM_GATED_EXAMPLE, dial("<dial-inform>Kept.</dial-inform>")],
        scripted_human([{"answer": "no"}]), executors={"shell": shell})
    result = await conversation.say("clear the 2024 archive")
    assert shell.ran == []
    assert [e["text"] for e in events if e.get("act") == "acknowledge"] == [
        "Understood — no files were deleted."]
    assert [e["id"] for e in events if e.get("act") == "skipped"] == ["delete-op", "result-ok"]
    (outcome,) = result.outcomes
    assert (outcome["id"], outcome["action"], outcome["status"]) == (
        "delete-op", "execute", "skipped")
    assert "answered 'no'" in outcome["hint"]
    assert [e for e in events if e["type"] == "suggestion"] == []
    assert 'yield="delete-op:skipped"' in agent.received[1]


# ---- approval ----------------------------------------------------------------------------------

async def test_an_ungated_block_is_shown_to_the_person_as_an_execute_proposal_before_it_runs():
    shell = Recorder()
    human = policy_human("accept")
    conversation, _, events = conversation_for(
        [dial(block(step("ls", id="list", label="List files"), step("pwd", env="python"))),
         dial("")], human, executors={"shell": shell, "python": Recorder()})
    await conversation.say("x")
    (shown,) = human.seen
    assert (shown.id, shown.action) == ("op", "execute")
    assert shown.payload == {"steps": [
        {"id": "list", "env": "shell", "label": "List files", "command": "ls"},
        {"id": "op.2", "env": "python", "label": "", "command": "pwd"}]}
    assert shown.preview == "Run 2 steps: List files; pwd"
    assert shown.destructive is True
    (card,) = [e for e in events if e["type"] == "suggestion"]
    assert card["schema"]["properties"]["steps"]["items"]["properties"]["command"] == {
        "type": "string", "minLength": 1, "format": "textarea", "title": "Command"}
    assert card["confirmed"] is False
    assert shell.ran == ["ls"]


async def test_a_python_only_block_is_marked_destructive_like_shell():
    human = policy_human("dismiss")
    conversation, *_ = conversation_for([dial(block(step("1 + 1", env="python")))], human)
    await conversation.say("x")
    assert human.seen[0].destructive is True


async def test_a_dismissed_block_runs_nothing_and_ends_dismissed():
    shell = Recorder()
    conversation, _, events = conversation_for(
        [dial(block(step("rm -rf x", id="rm"), attrs=' id="op" yield="op:done op:dismissed"'),
              '<dial-inform observe="op:dismissed">'
                                                "Fine.</dial-inform>")],
        policy_human("dismiss"), executors={"shell": shell})
    result = await conversation.say("x")
    assert shell.ran == []
    assert [e["text"] for e in events if e.get("act") == "inform"] == ["Fine."]
    assert [(o["id"], o["status"], o["preview"]) for o in result.outcomes] == [
        ("op", "dismissed", "Run 1 step: rm -rf x")]
    assert result.turns == 1


async def test_writing_instead_of_deciding_supersedes_the_block_and_the_words_go_next():
    shell = Recorder()
    conversation, agent, _ = conversation_for(
        [dial(block(step("ls"))), dial("")], scripted_human([{"say": "not now"}]),
        executors={"shell": shell})
    result = await conversation.say("x")
    assert shell.ran == []
    assert [o["status"] for o in result.outcomes] == ["superseded"]
    assert agent.received[1].endswith("not now")


async def test_an_edit_changes_the_commands_that_run_and_marks_the_steps_edited():
    shell = Recorder()
    edit = {"steps": [{"id": "list", "env": "shell", "label": "", "command": "ls -la"}]}
    conversation, _, _ = conversation_for([dial(block(step("ls", id="list"))), dial("")],
                                          scripted_human([{"edit": edit}]),
                                          executors={"shell": shell})
    result = await conversation.say("x")
    assert shell.ran == ["ls -la"]
    (outcome,) = result.outcomes
    assert (outcome["preview"], outcome["edited"]) == ("ls -la", True)


async def test_an_edit_that_changes_a_steps_env_is_shown_back_and_three_refusals_end_invalid():
    shell = Recorder()
    wrong = {"steps": [{"id": "list", "env": "python", "command": "ls"}]}
    human = scripted_human([{"edit": wrong}, {"edit": {"steps": []}}, {"edit": wrong}])
    conversation, _, _ = conversation_for([dial(block(step("ls", id="list"))), dial("")], human,
                                          executors={"shell": shell})
    result = await conversation.say("x")
    assert [s.issue and s.issue["field"] for s in human.seen] == [None, "steps/0", "steps"]
    assert human.seen[1].issue["hint"] == "Step 1 must keep its id 'list' and env 'shell'."
    assert shell.ran == []
    assert [(o["id"], o["status"]) for o in result.outcomes] == [("op", "invalid")]


async def test_a_block_is_not_gated_by_an_event_that_did_not_come_from_a_confirmed_ask():
    human = scripted_human(["accept"])
    conversation, _, _ = conversation_for(
        [dial('<dial-inform yield="shown">Here.</dial-inform>',
              block(step("1", env="python"), attrs=' observe="shown"')), dial("")], human)
    await conversation.say("x")
    assert [s.action for s in human.seen] == ["execute"]


# ---- running ------------------------------------------------------------------------------------

async def test_steps_without_observe_run_concurrently():
    started = {"a": asyncio.Event(), "b": asyncio.Event()}

    async def meet(step):
        started[step.id].set()
        other = "b" if step.id == "a" else "a"
        await asyncio.wait_for(started[other].wait(), 2)  # only ends if both run at once
        return step.id

    conversation, _, _ = conversation_for([dial(block(step("x", id="a", env="async"),
                                                      step("y", id="b", env="async"))),
                                           dial("")], executors={"async": meet})
    result = await conversation.say("x")
    assert sorted((o["id"], o["status"], o["result"]) for o in result.outcomes) == [
        ("a", "done", "a"), ("b", "done", "b")]


async def test_a_step_with_observe_waits_for_the_yield_of_the_step_it_observes():
    order: list[str] = []

    async def slow(step):
        await asyncio.sleep(0.02 if step.id == "first" else 0)
        order.append(step.id)

    conversation, *_ = conversation_for([dial(block(
        step("b", id="second", env="async", observe="one:done"),
        step("a", id="first", env="async", yields="one:done"))), dial("")],
        executors={"async": slow})
    await conversation.say("x")
    assert order == ["first", "second"]


async def test_a_failed_step_stops_its_dependants_which_are_reported_skipped():
    shell = Recorder(fail={"count"})
    conversation, agent, events = conversation_for([dial(
        block(step("ls | wc -l", id="count", yields="count:done"),
              step("rm *", id="delete", observe="count:done"),
              step("date", id="other")),
        '<dial-inform observe="op:failed">It failed.</dial-inform>',
        '<dial-inform observe="op:done">It worked.</dial-inform>'), dial("")],
        executors={"shell": shell})
    result = await conversation.say("x")
    assert shell.ran == ["ls | wc -l", "date"]
    statuses = {o["id"]: o for o in result.outcomes}
    assert statuses["count"]["status"] == "failed"
    assert (statuses["count"]["error"], statuses["count"]["code"]) == ("count broke", "broken")
    assert statuses["other"]["status"] == "done"
    assert statuses["delete"]["status"] == "skipped"
    assert statuses["delete"]["hint"] == (
        "It did not run: 'count:done' did not happen: step 'count' failed.")
    assert [e["text"] for e in events if e.get("act") == "inform"] == ["It failed."]
    assert {o["id"] for o in outcomes_in_all(agent.received[1])} == {"count", "other", "delete"}


def outcomes_in_all(message):
    from dial_notebook.dial import parse

    return [{"id": el.context_key.removeprefix("outcome:")} for el in parse(message).elements
            if el.kind == "declare"]


async def test_a_step_yield_fires_only_when_the_step_succeeds_and_the_block_yield_reaches_out():
    conversation, _, events = conversation_for([dial(
        block(step("1 + 1", id="sum", env="python", yields="sum:ok")),
        '<dial-inform observe="op:done">All ran.</dial-inform>'), dial("")])
    result = await conversation.say("x")
    assert [e["text"] for e in events if e.get("act") == "inform"] == ["All ran."]
    assert result.outcomes[0]["result"] == {"value": "2"}


async def test_a_step_whose_env_has_no_executor_fails_with_a_clear_message():
    conversation, _, _ = conversation_for([dial(block(step("ls", id="a"),
                                                      step("x", id="b", env="ftp"))), dial("")])
    result = await conversation.say("x")
    failed = {o["id"]: o for o in result.outcomes}
    assert failed["a"]["error"] == "shell steps are off here, so this step did not run."
    assert failed["a"]["hint"] == (
        "Enable them with Conversation(..., executors={'shell': shell_executor(timeout=30)}).")
    assert failed["b"]["error"] == (
        "No executor is registered for env 'ftp' (registered: python).")
    assert failed["b"]["code"] == "no-executor"


async def test_python_can_be_turned_off_with_none():
    conversation, *_ = conversation_for([dial(block(step("1", env="python"))), dial("")],
                                        executors={"python": None})
    result = await conversation.say("x")
    assert result.outcomes[0]["code"] == "no-executor"


async def test_a_step_without_id_in_a_block_without_id_gets_ex_n_dot_position():
    human = policy_human("dismiss")
    conversation, *_ = conversation_for([dial(block(step("1", env="python"), attrs=""),
                                              block(step("2", env="python"), attrs=""))], human)
    await conversation.say("x")
    assert [(s.id, s.payload["steps"][0]["id"]) for s in human.seen] == [
        ("ex-1", "ex-1.1"), ("ex-2", "ex-2.1")]


async def test_interrupting_a_running_step_fails_it_and_skips_the_rest_all_owed():
    gate = asyncio.Event()

    async def hang(step):
        gate.set()
        await asyncio.Event().wait()

    conversation, *_ = conversation_for([dial(block(
        step("a", id="a", env="hang", yields="a"), step("b", id="b", env="hang", observe="a")))],
        executors={"hang": hang})
    task = asyncio.ensure_future(conversation.say("x"))
    await asyncio.wait_for(gate.wait(), 2)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert [(o["id"], o["status"]) for o in conversation.owed_outcomes] == [
        ("a", "failed"), ("b", "skipped")]
    assert conversation.owed_outcomes[0]["error"] == "Interrupted before it finished."


async def test_without_full_dial_an_execute_is_ignored_and_executors_are_refused():
    human = policy_human()
    conversation, _, events = conversation_for([dial(block(step("1", env="python")))], human,
                                               full_dial=False)
    await conversation.say("x")
    assert human.seen == [] and [e["type"] for e in events] == ["sent", "reply"]
    with pytest.raises(ValueError, match="full_dial=True"):
        Conversation(agent=lambda m: "", domain=NotesDomain(), human=human, full_dial=False,
                     executors={"shell": shell_executor()})


def test_an_executor_that_is_not_callable_is_refused_at_once():
    with pytest.raises(TypeError, match="executor for env 'shell'"):
        Conversation(agent=lambda m: "", domain=NotesDomain(), human=policy_human(),
                     full_dial=True, executors={"shell": "bash"})


# ---- the python executor ------------------------------------------------------------------------

async def test_python_steps_run_in_the_conversations_namespace_outside_a_notebook():
    conversation, *_ = conversation_for([
        dial(block(step("data = [3, 1, 2]", id="make", env="python"))), dial(""),
        dial(block(step("print('n =', len(data))\nsorted(data)", id="use", env="python"))),
        dial("")])
    await conversation.say("x")
    result = await conversation.say("y")
    assert conversation.namespace["data"] == [3, 1, 2]
    assert result.outcomes[0]["result"] == {"value": "[1, 2, 3]", "stdout": "n = 3\n"}


async def test_a_python_executor_changes_a_data_frame_in_the_namespace_it_was_given():
    import pandas as pd

    namespace = {"df": pd.DataFrame({"price": [10, 20]})}
    conversation, *_ = conversation_for(
        [dial(block(step("df['vat'] = df['price'] * 0.2\ndf.shape", id="vat", env="python"))),
         dial("")], executors={"python": python_executor(namespace)})
    result = await conversation.say("x")
    assert list(namespace["df"].columns) == ["price", "vat"]
    assert result.outcomes[0]["result"] == {"value": "(2, 2)"}


def test_a_python_error_fails_with_its_type_message_and_line():
    run = python_executor({})
    with pytest.raises(StepError) as caught:
        run(Step(command="print('before')\nx = 1 / 0", env="python"))
    assert str(caught.value) == "ZeroDivisionError: division by zero (line 2)"
    assert (caught.value.code, caught.value.hint) == ("python-error", "It printed: before\n")
    with pytest.raises(StepError, match="SyntaxError"):
        run(Step(command="def", env="python"))


# ---- the shell executor -------------------------------------------------------------------------

async def test_the_shell_executor_runs_the_command_and_captures_its_output():
    run = shell_executor(timeout=10)
    assert await run(Step(command="echo hi; echo err >&2")) == {
        "exit_status": 0, "stdout": "hi\n", "stderr": "err\n"}


async def test_the_shell_executor_fails_on_a_non_zero_exit_status():
    with pytest.raises(StepError) as caught:
        await shell_executor()(Step(command="echo nope >&2; exit 3"))
    assert (str(caught.value), caught.value.code) == ("Exit status 3: nope", "exit-status")


async def test_the_shell_executor_stops_a_command_at_its_timeout():
    loop = asyncio.get_running_loop()
    start = loop.time()
    with pytest.raises(StepError, match=r"Timed out after 0\.2s"):
        await shell_executor(timeout=0.2)(Step(command="sleep 60"))
    # stopped, not waited for: far under the command's 60 s however busy the machine
    assert loop.time() - start < 30


# ---- the http executor --------------------------------------------------------------------------

@pytest.fixture
def local_server():
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            code = 404 if self.path == "/missing" else 200
            self.send_response(code)
            self.end_headers()
            self.wfile.write(b"not here" if code == 404 else b"hello")

        def do_POST(self):
            body = self.rfile.read(int(self.headers["Content-Length"]))
            self.send_response(200)
            self.end_headers()
            self.wfile.write(body.upper())

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_the_http_executor_sends_the_described_request(local_server):
    run = http_executor(timeout=5)  # blocking: the runtime runs it on a worker thread
    assert run.in_thread is True
    assert run(Step(command=f"GET {local_server}/hi", env="http")) == {
        "status": 200, "body": "hello"}
    spec = json.dumps({"method": "POST", "url": f"{local_server}/echo", "body": "abc"})
    assert run(Step(command=spec, env="http"))["body"] == "ABC"


def test_the_http_executor_fails_on_an_error_status_and_refuses_other_schemes(local_server):
    with pytest.raises(StepError, match="HTTP 404"):
        http_executor()(Step(command=f"GET {local_server}/missing", env="http"))
    with pytest.raises(StepError, match="Only http and https"):
        http_executor()(Step(command="GET file:///etc/passwd", env="http"))


# ---- properties ---------------------------------------------------------------------------------

NAMES = ["a", "b", "c", "d"]


@st.composite
def step_graphs(draw):
    steps = []
    for n in range(draw(st.integers(1, 5))):
        observe = draw(st.one_of(st.none(), st.sampled_from(NAMES)))
        yields = draw(st.lists(st.sampled_from(NAMES), max_size=2, unique=True))
        steps.append(step(f"s{n}", id=f"s{n}", env="sim", observe=observe,
                          yields=" ".join(yields) or None))
    fails = draw(st.sets(st.sampled_from([f"s{n}" for n in range(len(steps))])))
    return steps, fails


@settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(step_graphs())
def test_any_step_graph_ends_with_exactly_one_outcome_per_step(graph):
    steps, fails = graph

    async def sim(step):
        await asyncio.sleep(0)
        if step.id in fails:
            raise StepError("no")
        return step.id

    async def run():
        conversation, *_ = conversation_for([dial(block(*steps)), dial(""), dial("")],
                                            executors={"sim": sim})
        result = await asyncio.wait_for(conversation.say("x"), 5)
        assert sorted(o["id"] for o in result.outcomes) == sorted(f"s{n}" for n in range(len(steps)))
        observing = {f"s{n}" for n, text in enumerate(steps) if "observe=" in text}
        for o in result.outcomes:
            ran = "failed" if o["id"] in fails else "done"
            assert o["status"] == ran or (o["status"] == "skipped" and o["id"] in observing)

    asyncio.run(run())
