"""Work that runs outside the turn loop's task: blocking calls on daemon threads, bounded in
time, and their real end known even when the say that started them is cancelled.

    a blocking call (agent.send, domain.run, an ``in_thread`` executor such as http)
        ─▶ a daemon worker thread ─▶ a Future resolved on the loop (the kernel stays free)
    an async call (a coroutine function)
        ─▶ a task on the loop

    until_done(running, limit, clock) — the turn loop waits:
        the work ends in time     ─▶ its result, or its exception raised
        past ``limit`` seconds    ─▶ TimedOut: a task is cancelled; a thread cannot be, it goes
                                     on (the outcome says it may still take effect)
            the seconds are the run's ``clock`` (_clock.py): started in ``timed_by(clock)``,
            the run's task or thread carries it, and while the person answers a question
            the run put to them (ask_user) it is paused: that time is not counted
        the say is cancelled      ─▶ CancelledError; ``running`` is left as it is, so the
                                     caller can report what really happened (on_end)

    on_end(running, report, deadline) — report(ok, value) as soon as the work ends: at once
        when it already has, else later, on the loop. Nothing is cancelled: once a person
        approved it and it started, stopping the say stops the agent, not the work (its result
        is real and must not be reported as an interruption). Only its time limit still holds:
        a task still running at ``deadline`` (the loop's clock) is cancelled and reported
        TimedOut; a thread cannot be, and is reported when it ends. That deadline is fixed
        when the run starts: after a Stop, a person's answering time is not given back.

Shared by the runtime (agent sends, domain runs, executors) and the evaluation (judging a
scenario off the loop): defined once here, re-exported for the runtime's modules by
runtime/_work.py.

Not the loop's default executor: its threads are joined when ``asyncio.run`` ends and at exit,
so a call that never returns would hang the program after its time limit. These threads are
never joined; a new one starts whenever every other is busy.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import queue
import threading
from collections.abc import Callable
from typing import Any

from ._clock import Clock

#: Seconds a task past its time limit is given to end once it was cancelled.
STOP_GRACE = 1.0

#: report(ok, value): ``(True, result)``, ``(False, exception)``, or ``(False, None)`` when the
#: work was cut short before it could end.
Report = Callable[[bool, Any], None]


class TimedOut(Exception):
    """The work did not end within its time limit (``code`` and ``hint`` as a failed outcome
    carries them)."""

    code = "timeout"

    def __init__(self, seconds: float, *, stopped: bool) -> None:
        super().__init__(f"It did not finish within {seconds:g}s")
        self.seconds = seconds
        #: True when it was stopped (a task); False when it goes on (a thread).
        self.stopped = stopped

    @property
    def hint(self) -> str:
        return ("It was stopped; part of it may have taken effect: check before trying again."
                if self.stopped else
                "It may still be running, and may yet take effect: check before trying again.")


class _DaemonWorkers:
    """Daemon threads that run blocking calls, reused from one call to the next."""

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._idle = 0

    def submit(self, job: Callable[[], None]) -> None:
        with self._lock:
            if self._idle:
                self._idle -= 1
            else:
                threading.Thread(target=self._work, name="dial-worker", daemon=True).start()
        self._jobs.put(job)

    def _work(self) -> None:
        while True:
            self._jobs.get()()
            with self._lock:
                self._idle += 1


_WORKERS = _DaemonWorkers()


def in_thread(fn: Callable[..., Any], *args: Any) -> asyncio.Future[Any]:
    """Run ``fn(*args)`` on a daemon worker thread; the future resolves on this loop.

    Cancelling the future does not stop the thread: the call goes on and its end is dropped.
    """
    loop = asyncio.get_running_loop()
    future: asyncio.Future[Any] = loop.create_future()

    def settle(ok: bool, value: Any) -> None:
        if future.done():  # cancelled: nobody waits any more
            return
        if ok:
            future.set_result(value)
        else:
            future.set_exception(value)

    def job() -> None:
        try:
            outcome = (True, fn(*args))
        except BaseException as exc:  # handed to whoever waits
            outcome = (False, exc)
        # RuntimeError: the loop closed while the call was running, and nobody waits
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(settle, *outcome)

    _WORKERS.submit(job)
    return future


def is_async(fn: Any) -> bool:
    """Whether calling ``fn`` gives a coroutine (an async function, or an object whose
    ``__call__`` is one)."""
    return inspect.iscoroutinefunction(fn) or inspect.iscoroutinefunction(
        getattr(fn, "__call__", None)  # noqa: B004 - an object whose __call__ is async
    )


def start(fn: Callable[..., Any], *args: Any) -> asyncio.Future[Any]:
    """``fn(*args)`` started: a task when it is async, else on a worker thread. A blocking
    function that returns an awaitable (an async run behind a sync facade) has that awaited
    on the loop, in the same future."""
    if is_async(fn):
        return asyncio.ensure_future(fn(*args))
    return _then_await(in_thread(fn, *args))


def _then_await(thread: asyncio.Future[Any]) -> asyncio.Future[Any]:
    loop = asyncio.get_running_loop()
    future: asyncio.Future[Any] = loop.create_future()
    future.thread = thread  # type: ignore[attr-defined]  # on_end tells threads from tasks

    def finished(done: asyncio.Future[Any]) -> None:
        if future.done():
            return
        if done.cancelled():
            future.cancel()
            return
        error = done.exception()
        if error is not None:
            future.set_exception(error)
            return
        value = done.result()
        if not inspect.isawaitable(value):
            future.set_result(value)
            return
        task = asyncio.ensure_future(value)
        future.task = task  # type: ignore[attr-defined]
        task.add_done_callback(lambda t: _copy(t, future))

    thread.add_done_callback(finished)
    return future


def _copy(source: asyncio.Future[Any], target: asyncio.Future[Any]) -> None:
    if target.done():
        return
    if source.cancelled():
        target.cancel()
    elif source.exception() is not None:
        target.set_exception(source.exception())  # type: ignore[arg-type]
    else:
        target.set_result(source.result())


def _stoppable(running: asyncio.Future[Any]) -> asyncio.Future[Any] | None:
    """The task to cancel to stop ``running``, or None while it is on a thread."""
    if isinstance(running, asyncio.Task):
        return running
    return getattr(running, "task", None)


async def until_done(running: asyncio.Future[Any], limit: float | None,
                     clock: Clock | None = None) -> Any:
    """Wait for ``running`` (see the header): its result, TimedOut, or CancelledError.
    ``clock``: the run's (_clock.py), held by the context it was started in, so the time the
    person spends answering its questions is not counted; by default one nobody pauses."""
    clock = clock if clock is not None else Clock(limit)
    try:
        async with asyncio.timeout(limit) as bound:
            clock.start(bound)
            return await asyncio.shield(running)
    except TimeoutError:
        if running.done():  # it ended on the very deadline
            return running.result()
        task = _stoppable(running)
        if task is not None:
            task.cancel()
            await asyncio.wait([task], timeout=STOP_GRACE)  # let it clean up
        raise TimedOut(float(limit or 0), stopped=task is not None) from None


def on_end(running: asyncio.Future[Any], report: Report, *, deadline: float | None = None,
           limit: float = 0.0) -> None:
    """Report how ``running`` really ends (see the header), after its say was cancelled; a
    task still going at ``deadline`` (the loop's time) is stopped and reported TimedOut
    (``limit``: its time limit in seconds, for the report)."""
    if running.done():
        _report(running, report)
        return
    stop: asyncio.TimerHandle | None = None
    timed_out: list[TimedOut] = []

    def past_deadline() -> None:
        task = _stoppable(running)
        if task is not None and not running.done():
            timed_out.append(TimedOut(limit, stopped=True))
            task.cancel()

    def ended(done: asyncio.Future[Any]) -> None:
        if stop is not None:
            stop.cancel()
        if timed_out and done.cancelled():
            report(False, timed_out[0])
        else:
            _report(done, report)

    if deadline is not None:
        stop = asyncio.get_running_loop().call_at(deadline, past_deadline)
    running.add_done_callback(ended)


def _report(done: asyncio.Future[Any], report: Report) -> None:
    if done.cancelled():
        report(False, None)
    elif done.exception() is not None:
        report(False, done.exception())
    else:
        report(True, done.result())
