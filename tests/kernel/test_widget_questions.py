"""ChatWidget as the ``ask_user`` provider in a real kernel (jupyter_client), answered by the
same comm messages the panel sends: ``{"type": "questions", token, answers}`` as a custom
message. Code in the kernel asks in a task (as a tool or domain action would) and keeps the
``repr`` of what it receives, so the tests check the exact Answer or error Python got.

Runs on ipykernel 7.x and 6.x like tests/kernel/test_widget_comm.py (same interpreters)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest

from ._kernels import KERNELS, SCENARIO, Kernel, started_kernel

pytestmark = pytest.mark.kernel

SETUP = """\
import asyncio, json
from dial_notebook.interaction import active_provider, ask_user
from dial_notebook.widget import ChatWidget
chat = ChatWidget(agent=RuleAgent(), domain=notes_domain())
results = {}
def start(name, questions, signal=None):
    async def run():
        try:
            results[name] = repr(await ask_user(questions, signal=signal))
        except Exception as error:
            results[name] = repr(error)
    return asyncio.ensure_future(run())
chat"""

BATCH = """[
    {"id": "lang", "header": "Language", "question": "Which language?",
     "options": [{"label": "Python", "description": "most of us know it"}, "R"]},
    {"id": "fmt", "question": "Which formats?", "options": ["HTML", "PDF", "Markdown"],
     "multiSelect": True},
    {"id": "who", "question": "Who receives it?"}]"""


class Asking(Kernel):
    """The kernel helpers plus the panel's state and the results the asking code kept."""

    def panel(self) -> dict[str, Any]:
        return json.loads(self.run("print(json.dumps({'questions': chat.questions, "
                                   "'results': results, 'note': chat.provider_note}))"))

    def until(self, check: Any, timeout: float = 10.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            state = self.panel()
            if check(state):
                return state
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out; last state: {json.dumps(state)[:3000]}")
            time.sleep(0.05)

    def shown(self) -> dict[str, Any]:
        return self.until(lambda s: bool(s["questions"]))["questions"]

    def result(self, name: str) -> str:
        return self.until(lambda s: name in s["results"])["results"][name]


@pytest.fixture(scope="module", params=sorted(KERNELS))
def kernel(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory,
           ) -> Iterator[Asking]:
    with started_kernel(request.param, tmp_path_factory.mktemp("kernels")) as client:
        k = Asking(client)
        k.run(SCENARIO.read_text())
        k.run(SETUP)
        yield k


def test_the_displayed_chat_is_the_active_provider(kernel):
    assert kernel.run("print(active_provider() is chat)").strip() == "True"


def test_a_batch_answered_by_a_comm_message_reaches_the_caller_exactly(kernel):
    kernel.run(f"start('batch', {BATCH})")
    panel = kernel.shown()
    assert [q["id"] for q in panel["questions"]] == ["lang", "fmt", "who"]
    kernel.send({"type": "questions", "token": panel["token"], "answers": [
        {"id": "lang", "selected": [], "custom": "Julia"},
        {"id": "fmt", "selected": ["HTML", "Markdown"], "custom": "ePub"},
        {"id": "who", "selected": []}]})
    assert kernel.result("batch") == (
        "Answer(answers=(AnswerItem(id='lang', selected=(), custom='Julia'), "
        "AnswerItem(id='fmt', selected=('HTML', 'Markdown'), custom='ePub'), "
        "AnswerItem(id='who', selected=(), custom=None)))")
    assert kernel.panel()["questions"] == {}


def test_a_repeated_or_stale_message_is_ignored(kernel):
    kernel.run("start('first', [{'id': 'go', 'question': 'Go?', 'options': ['Yes', 'No']}])")
    first = kernel.shown()
    kernel.send({"type": "questions", "token": "q-stale", "answers": [
        {"id": "go", "selected": ["No"]}]})
    kernel.send({"type": "questions", "token": first["token"], "answers": [
        {"id": "go", "selected": ["Yes"]}]})
    kernel.send({"type": "questions", "token": first["token"], "answers": [
        {"id": "go", "selected": ["No"]}]})
    assert kernel.result("first") == (
        "Answer(answers=(AnswerItem(id='go', selected=('Yes',), custom=None),))")
    kernel.run("start('second', [{'id': 'go', 'question': 'Again?', 'options': ['Yes', 'No']}])")
    second = kernel.until(lambda s: s["questions"].get("token") not in (None, first["token"]))
    kernel.send({"type": "questions", "token": first["token"], "answers": [
        {"id": "go", "selected": ["Yes"]}]})
    kernel.send({"type": "questions", "token": second["questions"]["token"], "answers": [
        {"id": "go", "selected": ["No"]}]})
    assert kernel.result("second") == (
        "Answer(answers=(AnswerItem(id='go', selected=('No',), custom=None),))")


def test_a_plan_review_is_approved_with_its_approve_label(kernel):
    kernel.run("start('plan', [{'id': 'plan', 'question': 'Go ahead?', 'detail': '1. Clean',"
               " 'options': ['Approve', 'Revise'],"
               " 'intent': {'kind': 'plan-review', 'approve': 'Approve'}}])")
    panel = kernel.shown()
    assert panel["questions"][0]["intent"] == {"kind": "plan-review", "approve": "Approve"}
    kernel.send({"type": "questions", "token": panel["token"], "answers": [
        {"id": "plan", "selected": ["Approve"]}]})
    assert kernel.result("plan") == (
        "Answer(answers=(AnswerItem(id='plan', selected=('Approve',), custom=None),))")


def test_setting_the_signal_removes_the_panel_and_the_caller_gets_ask_aborted(kernel):
    kernel.run("stop = asyncio.Event()\n"
               "start('aborted', [{'id': 'go', 'question': 'Go?'}], signal=stop)")
    panel = kernel.shown()
    kernel.run("stop.set()")
    assert "code='ASK_ABORTED'" in kernel.result("aborted")
    assert kernel.panel()["questions"] == {}
    kernel.send({"type": "questions", "token": panel["token"], "answers": [
        {"id": "go", "custom": "too late"}]})
    assert "too late" not in kernel.run("print(chat.transcript)")


def test_closing_the_chat_while_questions_wait_cancels_them(kernel):
    kernel.run("start('closed', [{'id': 'go', 'question': 'Go?'}])")
    kernel.shown()
    kernel.run("chat.close()")
    assert "code='CANCELLED'" in kernel.result("closed")
    assert kernel.run("print(active_provider())").strip() == "None"
