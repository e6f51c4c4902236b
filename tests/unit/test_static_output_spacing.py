"""The static copy's updates stay a flat share of the kernel's time however big the copy grows
(issue 29): each update is drawn and published whole, so updates are spaced SPACING times as far
apart as the last one took; a say's end waits for that spacing too, while a cell that has run
(IPython's post_run_cell) updates the copy at once. Time is a virtual clock that a costly
drawing moves, so nothing here depends on the machine."""

from __future__ import annotations

import asyncio
from typing import Any

from dial_notebook.widget import _static_output
from dial_notebook.widget._static_output import PAGE_BYTES_PER_SECOND, SPACING, StaticOutput
from tests.work_clock import VirtualClock


class Costly:
    """A copy whose drawing takes ``cost`` seconds of the clock."""

    def __init__(self, clock: VirtualClock, cost: float) -> None:
        self.clock, self.cost, self.n = clock, cost, 0
        self.updated: list[str] = []

    def html(self) -> str:
        self.clock.advance(self.cost)
        return f"<p>{self.n}</p>"

    def publish(self, bundle: dict[str, str], **_options: Any) -> None:
        self.updated.append(bundle["text/html"])


def costly(cost: float) -> tuple[StaticOutput, Costly, VirtualClock]:
    clock = VirtualClock()
    copy = Costly(clock, cost)
    static = StaticOutput(copy.html, interval=1.0, display=copy.publish,
                          update_display=copy.publish, clock=clock)
    return static, copy, clock


def test_a_costly_copy_flushed_again_at_once_waits_for_its_spacing():
    async def main() -> None:
        static, copy, clock = costly(0.2)  # 0.2 s to draw: 2 s apart at SPACING 10
        static.show()
        copy.n = 1
        static.changed()
        static.flush()  # a say ended a moment after the copy was drawn
        assert copy.updated == ["<p>0</p>"]  # not drawn again yet
        assert static._timer is not None
        wait = static._timer.when() - asyncio.get_running_loop().time()
        assert wait >= SPACING * 0.2 - 0.2 - 0.01  # the clock moved 0.2 s while drawing
        static.flush(force=True)  # a cell has run: now
        assert copy.updated == ["<p>0</p>", "<p>1</p>"]
        clock.advance(SPACING * 0.2 + 0.01)
        copy.n = 2
        static.changed()
        static.flush()  # far enough apart: at once
        assert copy.updated[-1] == "<p>2</p>"

    asyncio.run(main())


def test_a_cheap_copy_is_flushed_at_once_every_time():
    async def main() -> None:
        static, copy, _clock = costly(0.001)
        static.show()
        for n in range(1, 4):
            copy.n = n
            static.changed()
            static.flush()
        assert copy.updated == ["<p>0</p>", "<p>1</p>", "<p>2</p>", "<p>3</p>"]

    asyncio.run(main())


def test_a_big_copy_cheap_to_draw_is_spaced_by_its_size_for_the_pages_sake():
    """The page parses the whole copy again on each update (a long task beside the live
    widget): a 2.5 MB copy is updated at most every 10 s while changes flow, however cheap the
    kernel finds it; a cell that has run still updates it at once."""
    async def main() -> None:
        clock = VirtualClock()
        published: list[str] = []
        state = {"n": 0}

        def html() -> str:
            return f"<p>{state['n']}</p>" + "x" * (10 * PAGE_BYTES_PER_SECOND)

        static = StaticOutput(html, interval=1.0, display=lambda b, **_: published.append(b["text/html"]),
                              update_display=lambda b, **_: published.append(b["text/html"]),
                              clock=clock)
        static.show()
        clock.advance(2.0)  # past the interval, and past any spacing by the kernel's cost
        state["n"] = 1
        static.changed()
        static.flush()  # a say ended: the page parsed this copy 2 s ago
        assert len(published) == 1
        wait = static._timer.when() - asyncio.get_running_loop().time()
        assert 7.9 <= wait <= 8.1  # 10 s after the last update
        static.flush(force=True)  # a cell has run: now
        assert len(published) == 2 and published[-1].startswith("<p>1</p>")

    asyncio.run(main())


class Events:
    """IPython's shell events, as far as StaticOutput uses them (post_run_cell)."""

    def __init__(self) -> None:
        self.callbacks: list[Any] = []

    def register(self, name: str, callback: Any) -> None:
        assert name == "post_run_cell"
        self.callbacks.append(callback)

    def unregister(self, name: str, callback: Any) -> None:
        self.callbacks.remove(callback)


def fake_ipython(monkeypatch: Any) -> Events:
    """A shell whose events StaticOutput hooks; its ``callbacks`` run "a cell has run"."""
    events = Events()

    class Shell:
        pass

    Shell.events = events  # type: ignore[attr-defined]

    class IPython:
        @staticmethod
        def get_ipython() -> Shell:
            return Shell()

    monkeypatch.setitem(_static_output.sys.modules, "IPython", IPython)
    return events


def test_after_each_cell_ipython_runs_the_copy_is_flushed(monkeypatch):
    events = fake_ipython(monkeypatch)
    static, copy, _clock = costly(0.2)
    static.show()
    static.show()  # a second copy of the output: still one hook
    assert len(events.callbacks) == 1
    copy.n = 1
    static._dirty = True  # changed on a loop that has not run the update yet
    events.callbacks[0]()
    assert copy.updated[-1] == "<p>1</p>"
    del static
    import gc

    gc.collect()
    events.callbacks[0]()  # the widget is gone: the hook goes too
    assert events.callbacks == []


def test_with_a_page_showing_the_live_view_a_cell_run_waits_for_the_spacing(monkeypatch):
    """The person runs cells beside a long conversation: each would make the page parse the whole
    copy again. While a page shows the live view, a cell that has run updates the copy only
    when its spacing allows (the timer brings it later); headless, at once (the test above)."""
    events = fake_ipython(monkeypatch)

    async def main() -> None:
        clock = VirtualClock()
        copy = Costly(clock, 0.2)
        viewed = {"now": True}
        static = StaticOutput(copy.html, interval=1.0, display=copy.publish,
                              update_display=copy.publish, clock=clock,
                              viewed=lambda: viewed["now"])
        static.show()
        copy.n = 1
        static.changed()
        events.callbacks[-1]()  # a cell ran a moment after the copy was drawn
        assert copy.updated == ["<p>0</p>"]
        assert static._timer is not None  # the update comes at its spacing
        viewed["now"] = False  # no page any more (a headless run): a cell forces it
        events.callbacks[-1]()
        assert copy.updated == ["<p>0</p>", "<p>1</p>"]

    asyncio.run(main())
