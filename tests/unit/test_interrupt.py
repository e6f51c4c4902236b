"""interrupt_wakes_loop: in a kernel's main thread, SIGINT runs the handler before it (as
ipykernel's does: it schedules a cancel without waking the loop) and then wakes the loop, so
the cancel happens at once; the handler before is put back after. Anywhere else it changes
nothing. (Whether the loop would have slept on without the wake depends on the loop; in a
real kernel it does: tests/kernel/test_evaluation_interrupt.py fails without it.)"""

from __future__ import annotations

import asyncio
import signal
import threading

import pytest

from dial_notebook import _interrupt


def interrupt_main_thread_after(seconds: float) -> None:
    """SIGINT to the main thread, from another, while the loop sleeps in its selector."""
    main = threading.main_thread().ident
    assert main is not None
    threading.Timer(seconds, signal.pthread_kill, (main, signal.SIGINT)).start()


async def awaiting_cell(wake: bool) -> str:
    """A cell awaiting 30 s under a handler like ipykernel's; how it ended."""
    task = asyncio.current_task()
    assert task is not None
    loop = asyncio.get_running_loop()

    def like_ipykernel(signum: int, frame: object) -> None:
        loop.call_soon(task.cancel)  # tornado's add_callback on the loop's own thread

    before = signal.signal(signal.SIGINT, like_ipykernel)
    try:
        with _interrupt.interrupt_wakes_loop() if wake else _nothing():
            interrupt_main_thread_after(0.05)
            try:
                await asyncio.wait_for(asyncio.sleep(30), 2)
            except TimeoutError:
                return "ran on"
            except asyncio.CancelledError:
                return "cancelled at once"
        return "finished"
    finally:
        assert signal.getsignal(signal.SIGINT) is like_ipykernel
        signal.signal(signal.SIGINT, before)


class _nothing:
    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc: object) -> None:
        pass


async def test_in_a_kernel_the_interrupt_cancels_the_awaiting_cell_at_once(monkeypatch):
    monkeypatch.setattr(_interrupt, "in_kernel", lambda: True)
    assert await awaiting_cell(wake=True) == "cancelled at once"


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
