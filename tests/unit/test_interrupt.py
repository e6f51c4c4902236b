"""interrupt_wakes_loop: in a kernel's main thread, SIGINT runs the handler before it (as
ipykernel's does: it schedules a cancel without waking the loop) and then wakes the loop, so
the cancel happens at once; the handler before is put back after. Anywhere else it changes
nothing.

The wake matters when the loop sleeps in its selector with no timer due (a cell awaiting an
agent that has not answered): then a cancel scheduled without a wake waits until something else
wakes the loop. The control below shows exactly that (without the wake, the cancel runs only
when another thread wakes the loop late); with a timer due soon the cancel would run at that
timer, which is why the cell here awaits with no time-out. In a real kernel:
tests/kernel/test_interrupting_a_cell.py."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import threading

import pytest

from dial_notebook import _interrupt

#: how long the main thread may take to run the interrupt's cancel and still count as "at once"
#: (generous: it takes microseconds; only a starved machine comes near)
AT_ONCE = 10.0
#: when the control (no wake) gives up waiting and wakes the loop itself
GIVE_UP = 0.5
#: how long after the cell starts the interrupt comes: by then its loop sleeps in its selector
#: (it has microseconds of work left; the margin is for a busy machine's scheduler)
ASLEEP = 0.25


def interrupt_then_wake_late(loop: asyncio.AbstractEventLoop, cancelled: threading.Event,
                             wait: float, woke_late: list[bool]) -> threading.Thread:
    """From another thread: SIGINT to the main thread while its loop sleeps in its selector;
    then, if the cell was not cancelled within ``wait`` seconds, wake the loop (as an agent's
    late answer would) and note it in ``woke_late``."""
    main = threading.main_thread().ident
    assert main is not None

    def run() -> None:
        # the cell is asleep by now: it started this thread just before it awaits, with nothing
        # else to do (were the loop still awake, the cancel would run with or without the wake)
        if cancelled.wait(ASLEEP):
            return
        signal.pthread_kill(main, signal.SIGINT)
        if not cancelled.wait(wait):
            woke_late.append(True)
            loop.call_soon_threadsafe(lambda: None)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


async def awaiting_cell(wake: bool, wait: float = AT_ONCE) -> str:
    """A cell awaiting an agent that never answers (no timer due) under a handler like
    ipykernel's; how its interrupt ended: "cancelled at once", or "cancelled only when the loop
    was woken late" (by another thread, after ``wait`` seconds)."""
    task = asyncio.current_task()
    assert task is not None
    loop = asyncio.get_running_loop()
    cancelled = threading.Event()
    woke_late: list[bool] = []

    def like_ipykernel(signum: int, frame: object) -> None:
        loop.call_soon(task.cancel)  # tornado's add_callback on the loop's own thread

    before = signal.signal(signal.SIGINT, like_ipykernel)
    try:
        with _interrupt.interrupt_wakes_loop() if wake else contextlib.nullcontext():
            waker = interrupt_then_wake_late(loop, cancelled, wait, woke_late)
            try:
                await loop.create_future()  # the agent's answer, which never comes
            except asyncio.CancelledError:
                cancelled.set()
                waker.join()
                if woke_late:
                    return "cancelled only when the loop was woken late"
                return "cancelled at once"
        return "finished"
    finally:
        assert signal.getsignal(signal.SIGINT) is like_ipykernel
        signal.signal(signal.SIGINT, before)


async def test_in_a_kernel_the_interrupt_cancels_the_awaiting_cell_at_once(monkeypatch):
    monkeypatch.setattr(_interrupt, "in_kernel", lambda: True)
    assert await awaiting_cell(wake=True) == "cancelled at once"


async def test_without_the_wake_the_cancel_waits_for_something_else_to_wake_the_loop(
        monkeypatch):
    """The control: the same cell and handler without interrupt_wakes_loop is not cancelled
    until the loop is woken late, so the test above fails when the wake is gone."""
    monkeypatch.setattr(_interrupt, "in_kernel", lambda: True)
    assert await awaiting_cell(wake=False, wait=GIVE_UP) == \
        "cancelled only when the loop was woken late"


async def test_outside_a_kernel_or_off_the_main_thread_nothing_changes(monkeypatch):
    before = signal.getsignal(signal.SIGINT)
    with _interrupt.interrupt_wakes_loop():
        assert signal.getsignal(signal.SIGINT) is before
    monkeypatch.setattr(_interrupt, "in_kernel", lambda: True)
    seen: list[object] = []

    def elsewhere() -> None:
        async def inside() -> None:
            with _interrupt.interrupt_wakes_loop():
                seen.append(signal.getsignal(signal.SIGINT))

        asyncio.run(inside())

    thread = threading.Thread(target=elsewhere)
    thread.start()
    thread.join()
    assert seen == [before]


def test_without_a_running_loop_nothing_changes(monkeypatch):
    monkeypatch.setattr(_interrupt, "in_kernel", lambda: True)
    before = signal.getsignal(signal.SIGINT)
    with _interrupt.interrupt_wakes_loop():
        assert signal.getsignal(signal.SIGINT) is before


async def test_the_default_handler_still_raises_keyboard_interrupt(monkeypatch):
    monkeypatch.setattr(_interrupt, "in_kernel", lambda: True)
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with _interrupt.interrupt_wakes_loop(), pytest.raises(KeyboardInterrupt):
            signal.raise_signal(signal.SIGINT)
    finally:
        signal.signal(signal.SIGINT, before)
