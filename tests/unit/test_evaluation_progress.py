"""evaluate's progress: on_result as each scenario ends, a bar in a notebook, lines on stderr
in a script when asked for, and how the bar ends (passed, some failed, cancelled)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from dial_notebook.evaluation import ScenarioResult, _progress, evaluate
from dial_notebook.widget._evaluation_progress import ProgressBar

from .test_evaluation import DONE, GOOD, SLOPPY, add, scripted, todo_domain

HOSTILE = "<img src=x onerror=alert(1)>"


class Delayed:
    """Answers DONE after the number of hundredths of a second its message names."""

    async def send(self, message: str) -> str:
        await asyncio.sleep(int(message) / 100)
        return DONE


async def test_on_result_hears_each_scenario_as_it_ends():
    heard: list[tuple[str, bool]] = []
    scenarios = [{"name": f"after {n}", "say": [str(n)]} for n in (30, 10, 20)]
    report = await evaluate(agent=Delayed, domain=todo_domain(), scenarios=scenarios,
                            on_result=lambda result: heard.append((result.name, result.passed)))
    assert heard == [("after 10", True), ("after 20", True), ("after 30", True)]
    assert [s.name for s in report.scenarios] == ["after 30", "after 10", "after 20"]


async def test_on_result_may_be_a_coroutine_function():
    heard: list[ScenarioResult] = []

    async def record(result: ScenarioResult) -> None:
        await asyncio.sleep(0)
        heard.append(result)

    report = await evaluate(agent=scripted(GOOD), domain=todo_domain(),
                            scenarios=[add("a"), add("b")], on_result=record)
    assert sorted(r.name for r in heard) == ["a", "b"]
    assert all(r in report.scenarios for r in heard)


async def test_what_on_result_raises_stops_the_evaluation_and_is_raised_as_itself():
    cancelled: list[str] = []

    class SlowOrFast:
        async def send(self, message: str) -> str:
            try:
                await asyncio.sleep(0 if message == "fast" else 30)
            except asyncio.CancelledError:
                cancelled.append(message)
                raise
            return DONE

    def fail(result: ScenarioResult) -> None:
        raise LookupError(f"no place for {result.name}")

    before = asyncio.all_tasks()
    with pytest.raises(LookupError, match="no place for quick"):
        await evaluate(agent=SlowOrFast, domain=todo_domain(), on_result=fail,
                       scenarios=[{"name": "quick", "say": ["fast"]},
                                  {"name": "slow", "say": ["slow"]}])
    assert cancelled == ["slow"]
    assert asyncio.all_tasks() - before == set()


async def test_bad_progress_arguments_are_refused_clearly():
    with pytest.raises(TypeError, match="on_result must be a function"):
        await evaluate(agent=scripted(GOOD), domain=todo_domain(), scenarios=[add()],
                       on_result="print")
    with pytest.raises(TypeError, match="progress must be True, False or None"):
        await evaluate(agent=scripted(GOOD), domain=todo_domain(), scenarios=[add()],
                       progress="bar")


async def test_a_script_is_quiet_unless_it_asks_then_gets_a_line_per_scenario(capsys):
    scenarios = [add("good"), {"name": "sloppy", "say": ["add milk"],
                               "expect": {"actions": ["list-todos"]}}]
    await evaluate(agent=scripted(GOOD), domain=todo_domain(), scenarios=scenarios)
    assert capsys.readouterr() == ("", "")
    await evaluate(agent=scripted(GOOD), domain=todo_domain(), scenarios=scenarios,
                   progress=True)
    out, err = capsys.readouterr()
    lines = err.splitlines()
    assert out == "" and len(lines) == 3
    assert sorted(line.split("] ")[1].split(" (")[0] for line in lines[:2]) == [
        "FAILED sloppy", "passed good"]
    assert lines[0].startswith("[1/2]") and lines[1].startswith("[2/2]")
    assert lines[2].startswith("2 scenarios · 1 passed · 1 failed · ")


class Handle:
    """Stands in for IPython's display handle: keeps the bundles shown, the last one last."""

    def __init__(self, bundle: dict[str, Any]) -> None:
        self.bundles = [bundle]

    def update(self, bundle: dict[str, Any], raw: bool = False) -> None:
        assert raw
        self.bundles.append(bundle)


class Shown:
    """Stands in for IPython's display: keeps what was displayed."""

    def __init__(self) -> None:
        self.handles: list[Handle] = []
        self.bars: list[ProgressBar] = []

    def __call__(self) -> ProgressBar:
        bar = ProgressBar(display=self.show)
        self.bars.append(bar)
        return bar

    def show(self, bundle: dict[str, Any]) -> Handle:
        self.handles.append(Handle(bundle))
        return self.handles[-1]


@pytest.fixture
def kernel(monkeypatch) -> Shown:
    """As in a notebook's kernel: evaluate shows a ProgressBar (displayed into ``widgets``)."""
    shown = Shown()
    monkeypatch.setattr(_progress, "in_kernel", lambda: True)
    monkeypatch.setattr("dial_notebook.widget._evaluation_progress.ProgressBar",
                        lambda: shown())
    return shown


async def test_in_a_notebook_a_bar_is_shown_and_follows_every_scenario(kernel):
    seen: list[tuple[int, int, str]] = []

    def watch(result: ScenarioResult) -> None:
        bar = kernel.bars[0]
        seen.append((bar.bar.value, bar.bar.max, bar.text.value))

    scenarios = [add("one"), add("two"), add("three")]
    await evaluate(agent=scripted(GOOD), domain=todo_domain(), scenarios=scenarios,
                   on_result=watch)
    [bar] = kernel.bars
    [handle] = kernel.handles
    view = handle.bundles[0]["application/vnd.jupyter.widget-view+json"]
    assert view["model_id"] == bar.box.model_id
    assert [(value, top) for value, top, _ in seen] == [(1, 3), (2, 3), (3, 3)]
    assert seen[1][2].startswith("2 of 3 scenarios · 2 passed · 0 failed")
    assert bar.bar.value == 3 and bar.bar.bar_style == "success"
    assert bar.text.value.startswith("3 scenarios · 3 passed · 0 failed · ")
    # a notebook saved without widget state shows the last counts, not HBox(children=…)
    assert [b["text/plain"].split(" · ")[:2] for b in handle.bundles] == [
        ["0 of 3 scenarios", "0 passed"], ["3 scenarios", "3 passed"]]


async def test_the_bar_turns_amber_when_a_scenario_fails_and_escapes_its_name(kernel):
    scenarios = [{"name": HOSTILE, "say": ["add milk"], "expect": {"not_actions": ["add-todo"]}}]
    seen: list[str] = []
    await evaluate(agent=scripted(SLOPPY), domain=todo_domain(), scenarios=scenarios,
                   on_result=lambda result: seen.append(kernel.bars[0].text.value))
    [bar] = kernel.bars
    assert bar.bar.bar_style == "warning"
    assert "&lt;img src=x onerror=alert(1)&gt;" in seen[0] and "<img" not in seen[0]
    assert bar.text.value.startswith("1 scenario · 0 passed · 1 failed")


async def test_a_cancelled_evaluation_says_so_on_its_bar(kernel):
    started = asyncio.Event()

    class Slow:
        async def send(self, message: str) -> str:
            if message == "slow":
                started.set()
                await asyncio.sleep(30)
            return DONE

    task = asyncio.create_task(evaluate(
        agent=Slow, domain=todo_domain(), concurrency=1,
        scenarios=[{"name": "quick", "say": ["fast"]}, {"name": "slow", "say": ["slow"]},
                   {"name": "never", "say": ["fast"]}]))
    await started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    [bar] = kernel.bars
    assert bar.bar.bar_style == "danger" and bar.bar.value == 1
    assert bar.text.value.startswith("cancelled after 1 of 3 scenarios · 1 passed · 0 failed")


async def test_progress_false_shows_nothing_even_in_a_notebook(kernel):
    await evaluate(agent=scripted(GOOD), domain=todo_domain(), scenarios=[add()],
                   progress=False)
    assert kernel.bars == []


def test_without_a_kernel_there_is_no_bar():
    assert not _progress.in_kernel()
    assert _progress.choose_view(None) is None
    assert isinstance(_progress.choose_view(True), _progress.TextView)
