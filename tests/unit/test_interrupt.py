"""interrupt_cancels_task: in a kernel's main thread SIGINT cancels the awaiting task (and the
handler before it is put back); anywhere else it changes nothing."""

from __future__ import annotations

import asyncio
import signal
import threading

import pytest

from dial_notebook import _interrupt


async def test_in_a_kernel_sigint_cancels_the_awaiting_task_and_the_handler_is_put_back(
        monkeypatch):
    monkeypatch.setattr(_interrupt, "in_kernel", lambda: True)
    before = signal.getsignal(signal.SIGINT)
    cleaned: list[str] = []

    async def cell() -> None:
        with _interrupt.interrupt_cancels_task():
            assert signal.getsignal(signal.SIGINT) is not before
            asyncio.get_running_loop().call_later(0.05, signal.raise_signal, signal.SIGINT)
            try:
                await asyncio.sleep(30)
            finally:
                cleaned.append("cleaned")

    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(asyncio.create_task(cell()), 5)
    assert cleaned == ["cleaned"]
    assert signal.getsignal(signal.SIGINT) is before


async def test_outside_a_kernel_or_off_the_main_thread_nothing_changes(monkeypatch):
    before = signal.getsignal(signal.SIGINT)
    with _interrupt.interrupt_cancels_task():
        assert signal.getsignal(signal.SIGINT) is before
    monkeypatch.setattr(_interrupt, "in_kernel", lambda: True)
    seen: list[object] = []

    def elsewhere() -> None:
        async def inside() -> None:
            with _interrupt.interrupt_cancels_task():
                seen.append(signal.getsignal(signal.SIGINT))

        asyncio.run(inside())

    thread = threading.Thread(target=elsewhere)
    thread.start()
    thread.join()
    assert seen == [before]


def test_without_a_running_loop_nothing_changes(monkeypatch):
    monkeypatch.setattr(_interrupt, "in_kernel", lambda: True)
    before = signal.getsignal(signal.SIGINT)
    with _interrupt.interrupt_cancels_task():
        assert signal.getsignal(signal.SIGINT) is before
