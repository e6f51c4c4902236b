"""A chart the widget could not draw is told to the agent: a result ``{"vega_lite": spec}``
drawn late (off the loop) or at once, that ends in an error, puts one line in the next message
the person sends — exactly once, and nothing is sent by itself. A fake renderer that raises
stands in for vl-convert (no process, no V8: the unit tier)."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from dial_notebook import Conversation, policy_human
from dial_notebook.widget import ChatWidget, _vegalite
from dial_notebook.widget._vegalite import DRAWING
from tests.unit.runtime_doubles import ScriptedAgent, dial, inform, suggest, until

SPEC = {"mark": "bar", "data": {"values": [{"a": 1}]},
        "encoding": {"x": {"field": "a", "type": "nominal"}}}
LINE = ("Not from the user: the chart of sg-1 (plot) was not drawn, so the user does not see "
        "it — RuntimeError: V8 ran out of memory.")


class ChartDomain:
    """One read-only action, ``plot``, whose result is a Vega-Lite spec (and what ``extra``
    adds to it)."""

    def __init__(self, extra: dict[str, Any] | None = None) -> None:
        self.actions = {"plot": {"mutates": False}}
        self.extra = extra or {}

    def validate(self, action: str, payload: Any) -> dict[str, Any]:
        return {"ok": True}

    def preview(self, action: str, payload: Any) -> str:
        return "Plot a"

    def run(self, action: str, payload: Any) -> Any:
        return {"vega_lite": SPEC, **self.extra}

    def context(self) -> str:
        return ""


class FakeRenderer:
    """The chart worker, faked: ``ready`` or starting; its drawing raises (or answers)."""

    def __init__(self, *, ready: bool, fails: bool = True) -> None:
        self.ready = ready
        self.failed: str | None = None
        self.fails = fails
        self.draws = 0
        #: The drawing waits for this (set by a test that holds it: a slow chart).
        self.release = threading.Event()
        self.release.set()

    def warm(self) -> None:
        pass

    def wait_ready(self, seconds: float) -> bool:
        return True

    def draw(self, spec: Any, seconds: float, *, blocking: bool) -> dict[str, Any]:
        self.draws += 1
        self.release.wait(10)
        if self.fails:
            raise RuntimeError("V8 ran out of memory")
        return {"png": "iVBORw0KGgo=", "width": 10, "height": 10}


@pytest.fixture
def renderer(monkeypatch: pytest.MonkeyPatch):
    def install(**options: Any) -> FakeRenderer:
        fake = FakeRenderer(**options)
        monkeypatch.setattr(_vegalite, "installed", lambda: True)
        monkeypatch.setattr(_vegalite, "_worker", fake)
        monkeypatch.setattr(_vegalite, "_clock", _vegalite._Clock())
        return fake
    return install


def replies() -> list[str]:
    return [dial(suggest("plot", {})), dial(inform("Here is the chart above.")),
            dial(inform("Sorry.")), dial(inform("Ok."))]


def chart_of(chat: ChatWidget) -> dict[str, Any]:
    return next(e for e in chat.transcript if e["type"] == "outcome")["result"]["chart"]


async def test_a_chart_that_fails_late_is_told_once_with_the_next_message(renderer):
    fake = renderer(ready=False)  # starting: drawn off the loop, after the outcome was told
    fake.release.clear()
    agent = ScriptedAgent(replies())
    chat = ChatWidget(agent=agent, domain=ChartDomain())
    await chat.say("plot a")
    assert chart_of(chat) == {"error": DRAWING}
    assert "not drawn" not in agent.received[1]  # the outcome went before the drawing ended
    fake.release.set()
    await until(lambda: chart_of(chat) != {"error": DRAWING}, 10)
    assert chart_of(chat)["error"].startswith("The chart could not be drawn: RuntimeError")
    assert fake.draws == 1
    await asyncio.sleep(0.05)
    assert len(agent.received) == 2  # nothing was sent by itself
    await chat.say("why is it blank?")
    assert agent.received[2] == LINE + "\n\nwhy is it blank?"
    await chat.say("ok")
    assert agent.received[3] == "ok"  # told exactly once
    chat.close()


async def test_a_chart_that_fails_at_once_rides_with_its_outcome(renderer):
    renderer(ready=True)
    agent = ScriptedAgent(replies())
    chat = ChatWidget(agent=agent, domain=ChartDomain())
    await chat.say("plot a")
    assert chart_of(chat)["error"].startswith("The chart could not be drawn: RuntimeError")
    assert agent.received[1].endswith("</dial>\n\n" + LINE)
    await chat.say("next")
    assert agent.received[2] == "next"
    chat.close()


async def test_a_drawn_chart_and_one_the_outcome_already_said_undrawn_add_nothing(renderer):
    renderer(ready=True, fails=False)
    agent = ScriptedAgent(replies())
    chat = ChatWidget(agent=agent, domain=ChartDomain())
    await chat.say("plot a")
    assert "src" in chart_of(chat)
    await chat.say("next")
    assert agent.received[2] == "next"
    chat.close()

    renderer(ready=True)
    agent = ScriptedAgent(replies())
    said = ChartDomain({"drawn": False, "why": "vl-convert-python is not installed"})
    chat = ChatWidget(agent=agent, domain=said)
    await chat.say("plot a")
    await chat.say("next")
    assert agent.received[2] == "next" and "Not from the user" not in agent.received[1]
    chat.close()


async def test_the_runtime_tells_a_chart_once_and_only_its_own_outcomes():
    conversation = Conversation(agent=ScriptedAgent(replies()), domain=ChartDomain(),
                                human=policy_human("accept"))
    await conversation.say("plot a")
    outcome = next(e for e in conversation.transcript if e["type"] == "outcome")
    assert conversation.chart_not_drawn(dict(outcome), "no") is False  # not its own event
    assert conversation.chart_not_drawn(outcome, "The chart was not drawn: too big.") is True
    assert conversation.chart_not_drawn(outcome, "again") is False
    assert conversation.owed_words == [
        "Not from the user: the chart of sg-1 (plot) was not drawn, so the user does not "
        "see it — too big."]


def test_the_demo_agent_does_not_read_the_line_as_the_persons_words():
    from dial_notebook.agents import DemoAgent
    from dial_notebook.agents._demo_base import read_message
    from dial_notebook.domains.notes import NotesDomain

    message = read_message(LINE + "\n\nshow the first rows")
    assert message.words == "show the first rows" and message.notes == [LINE]
    reply = DemoAgent(NotesDomain()).send(LINE + "\n\nhello")
    assert "Sorry: the chart of sg-1 (plot) was not drawn after all" in reply
    assert "plot" not in reply.split("after all")[1]  # the line is not read as a request


def test_a_renderers_long_error_is_cut_before_it_reaches_the_agent():
    """A renderer's error can quote the spec (the agent's own text, up to the spec's cap): the
    line owed to the agent says why in a few hundred characters, not the whole error."""
    from dial_notebook.runtime._told_later import MAX_WHY, chart_not_drawn_line

    event = {"type": "outcome", "id": "sg-1", "action": "plot", "result": {"vega_lite": {}}}
    line = chart_not_drawn_line(event, "The chart could not be drawn: ValueError: " + "x" * 500_000)
    assert line is not None and line.endswith("….")
    assert len(line) < MAX_WHY + 200
