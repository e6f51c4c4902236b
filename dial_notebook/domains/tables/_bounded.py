"""An engine's query in bounded time: the caller waits at most ``seconds``, then the query is
cancelled on the engine and the caller told so.

A table's dry run or chart is a query that may take a second or an hour; the kernel must not
wait for it past its bound (the promise: nothing holds the kernel more than about two seconds).
``run_bounded`` runs the query in a worker thread and waits for it:

    run_bounded(work, seconds=1.0, backend=…)
      ├─ the backend's slot is busy (an earlier query still being cancelled) ─▶ wait for it
      │    at most ``seconds`` ─▶ still busy: "timed-out", and this query is never started
      ├─ worker thread: work() ─▶ its value ─▶ "done"  (an error ─▶ "failed", ``why`` one line)
      ├─ the run it is part of is cancelled (``_off_loop``: ``run_async`` awaited no more)
      │    ─▶ cancelled on the engine as below; a query of a cancelled run is never started
      └─ the bound passes ─▶ cancel on the engine ─▶ "timed-out" at once (the cancel is
         sent again until the worker ends: a query may reach the engine after the first)
           DuckDB   the connection's ``interrupt()``: the query fails, the connection serves on
           PySpark  the jobs of this query, tagged in the worker (``addJobTag``), cancelled
                    with ``cancelJobsWithTag`` (Spark Connect: ``addTag`` / ``interruptTag``)
           other    cannot be cancelled from here: it runs on in its thread, the caller is not
                    held, and ``why`` says so

One query of ours runs on a backend at a time (its slot is held until the worker ends, even
after the caller has left), so abandoned queries never pile up on an engine, and a cancel only
ever reaches the query it was meant for. ``work`` is an Ibis expression (run with
``backend.execute``, or its own ``execute`` without a backend) or a callable of no arguments
(several queries on ``backend``: the cancel reaches whichever is running).

    >>> run_bounded(lambda: 6 * 7, seconds=1.0, backend=None).value
    42
    >>> run_bounded(lambda: 1 / 0, seconds=1.0, backend=None).why
    'ZeroDivisionError: division by zero'
"""

from __future__ import annotations

import contextlib
import itertools
import threading
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from ._off_loop import current_scope

__all__ = ["Bounded", "run_bounded"]

Status = Literal["done", "timed-out", "failed"]
#: Longest ``why`` (an engine's error can be pages long; the agent is told the first line).
WHY_LENGTH = 200
#: Seconds between the cancels sent to a query that has not stopped yet.
RECANCEL_SECONDS = 0.2

_tags = itertools.count(1)
_slots_lock = threading.Lock()
#: One lock per backend (by id; dropped with the backend), held while a query of ours runs.
_slots: dict[int, threading.Lock] = {}


@dataclass(frozen=True)
class Bounded:
    """What became of a bounded query: ``value`` when ``status`` is ``"done"``; otherwise
    ``why`` says what happened, in one line. ``seconds``: how long the caller waited.

        >>> Bounded(3, "done", "", 0.01).status
        'done'
    """

    value: Any
    status: Status
    why: str
    seconds: float


def run_bounded(work: Any, *, seconds: float, backend: Any = None) -> Bounded:
    """``work`` (an Ibis expression, or a callable of no arguments) run on ``backend``, waited
    for at most ``seconds``; past that, cancelled on the engine where it can be.

        >>> import time
        >>> late = run_bounded(lambda: time.sleep(0.3), seconds=0.01, backend=None)
        >>> late.status, "could not be cancelled" in late.why
        ('timed-out', True)
    """
    started = time.perf_counter()
    call, engine = _callable(work, backend)
    scope = current_scope()  # the run this query is part of (_off_loop), if any
    if scope is not None and scope.cancelled:
        return Bounded(None, "failed", "the run was cancelled: this query was not started",
                       0.0)
    slot = _slot(engine)
    if not slot.acquire(timeout=max(0.0, seconds)):
        return Bounded(None, "timed-out", f"{_name(engine)} is still busy with an earlier query "
                       f"(one past its bound is being stopped); this one was not started after "
                       f"waiting {seconds:g} s", time.perf_counter() - started)
    canceller = _Canceller(engine)
    query = _Query(call, canceller, slot)
    try:
        threading.Thread(target=query.run, daemon=True, name="dial-notebook-query").start()
    except BaseException:
        slot.release()
        raise
    if scope is not None:
        scope.watch(query)  # the run cancelled (now or later): the query is abandoned
    try:
        finished = query.finished.wait(max(0.0, seconds - (time.perf_counter() - started)))
    except BaseException:  # the person interrupted the kernel: do not leave the query running
        query.abandon()
        raise
    if finished or not query.abandon():
        return query.result(time.perf_counter() - started)
    why = (f"the query ran past {seconds:g} s and was cancelled" if query.cancelled
           else f"the query ran past {seconds:g} s and could not be cancelled "
                f"(from here, {_name(engine)} cannot be told to stop it): it runs on in the "
                "background, and the next query on it waits for it")
    return Bounded(None, "timed-out", why, time.perf_counter() - started)


class _Query:
    """One query's worker: runs ``call`` with the canceller's tag, keeps what it gave, and
    releases the backend's slot when it ends."""

    def __init__(self, call: Callable[[], Any], canceller: _Canceller,
                 slot: threading.Lock) -> None:
        self._call = call
        self._canceller = canceller
        self._slot = slot
        self._lock = threading.Lock()  # orders "finished" against "abandoned"
        self._outcome: tuple[Status, Any, str] = ("failed", None, "the query did not end")
        self.finished = threading.Event()
        self.cancelled = False  # a cancel reached the engine

    def run(self) -> None:
        outcome: tuple[Status, Any, str]
        try:
            try:
                self._canceller.enter()
                outcome = ("done", self._call(), "")
            finally:
                self._canceller.leave()
        except BaseException as error:  # an engine's error, or its cancel
            outcome = ("failed", None, one_line(error))
        self._canceller.end_thread()
        with self._lock:
            self._outcome = outcome
            self.finished.set()
        self._slot.release()  # last: no query of ours is on the engine once it is free

    def abandon(self) -> bool:
        """Cancel the query unless it has finished; False when it had (use its result).

        The cancel is sent again every ``RECANCEL_SECONDS`` until the worker ends: a query
        that had not reached the engine yet (still being compiled, a job not yet submitted),
        or the next query of a callable, is stopped too."""
        with self._lock:
            if self.finished.is_set():
                return False
            self.cancelled = self._canceller.cancel()
        if self.cancelled:
            threading.Thread(target=self._keep_cancelling, daemon=True,
                             name="dial-notebook-cancel").start()
        return True

    def _keep_cancelling(self) -> None:
        try:
            while not self.finished.wait(RECANCEL_SECONDS):
                with self._lock:  # never once the worker ended: the slot may be another's
                    if self.finished.is_set() or not self._canceller.cancel():
                        return
        finally:
            self._canceller.end_thread()

    def result(self, seconds: float) -> Bounded:
        status, value, why = self._outcome
        return Bounded(value, status, why, seconds)


class _Canceller:
    """How to cancel a query on ``engine``: DuckDB's interrupt, Spark's job tags, or nothing."""

    def __init__(self, engine: Any) -> None:
        self._engine = engine
        self._tag = f"dial-notebook-query-{next(_tags)}"
        self._spark = getattr(engine, "_session", None) if _name(engine) == "pyspark" else None
        self._context = _spark_context(self._spark)
        duckdb = getattr(engine, "con", None) if _name(engine) == "duckdb" else None
        self._interrupt = getattr(duckdb, "interrupt", None)

    def enter(self) -> None:
        """In the worker thread, before the query: tag the Spark jobs it starts."""
        if self._context is not None:
            self._context.setInterruptOnCancel(True)
            self._context.addJobTag(self._tag)
        elif self._spark is not None:
            self._spark.addTag(self._tag)

    def leave(self) -> None:
        """In the worker thread, after the query: the tag taken off."""
        if self._context is not None:
            self._context.removeJobTag(self._tag)
        elif self._spark is not None:
            self._spark.removeTag(self._tag)

    def end_thread(self) -> None:
        """Last thing in a thread that talked to a classic Spark: close its py4j connection
        (each Python thread has its own; py4j would leave its socket for the collector)."""
        if self._context is None:
            return
        try:
            client = self._context._gateway._gateway_client
            connection = client.get_thread_connection()
            if connection is not None:
                with contextlib.suppress(ValueError):
                    client.deque.remove(connection)
                connection.close()
        except Exception:  # another py4j: its own clean-up stands
            return

    def cancel(self) -> bool:
        """Ask the engine to stop the query: True when the request reached it."""
        try:
            if self._context is not None:
                self._context.cancelJobsWithTag(self._tag)
            elif self._spark is not None:
                self._spark.interruptTag(self._tag)
            elif callable(self._interrupt):
                self._interrupt()
            else:
                return False
        except Exception:  # the engine is gone or refuses: the query is left to end
            return False
        return True


def one_line(error: BaseException) -> str:
    """``error`` as one line: its type and the first line of its message, cut short.

        >>> one_line(ValueError("bad\\nvery bad"))
        'ValueError: bad'
        >>> one_line(RuntimeError("An error occurred while calling o43.collect.\\n: SparkException"))
        'RuntimeError: SparkException'
    """
    lines = [line.strip(" :") for line in str(error).strip().splitlines()]
    if len(lines) > 1 and lines[0].startswith("An error occurred while calling"):
        lines = [line for line in lines[1:] if line]  # py4j's: the JVM's error is the next line
    text = f"{type(error).__name__}: {lines[0]}" if lines else type(error).__name__
    return text if len(text) <= WHY_LENGTH else text[:WHY_LENGTH - 1] + "…"


def _callable(work: Any, backend: Any) -> tuple[Callable[[], Any], Any]:
    """What the worker calls, and the backend it runs on (found from an expression)."""
    if type(work).__module__.startswith("ibis."):
        import ibis

        if isinstance(work, ibis.Expr):
            if backend is None:
                try:
                    backend = ibis.get_backend(work)
                except Exception:  # an unbound expression: its own execute says why
                    return work.execute, None
            return (lambda: backend.execute(work)), backend
    if not callable(work):
        raise TypeError(f"work must be an Ibis expression or a callable, not {type(work).__name__}")
    return work, backend


def _slot(engine: Any) -> threading.Lock:
    """The lock held while a query of ours runs on ``engine`` (one for all with no backend)."""
    key = id(engine)
    with _slots_lock:
        slot = _slots.get(key)
        if slot is None:
            slot = _slots[key] = threading.Lock()
            if engine is not None:
                with contextlib.suppress(TypeError):  # not weakly referenceable: kept
                    weakref.finalize(engine, _forget, key)
        return slot


def _forget(key: int) -> None:
    with _slots_lock:
        _slots.pop(key, None)


def _name(engine: Any) -> str:
    """The backend's name (``"duckdb"``, ``"pyspark"``…), or a phrase for none."""
    name = getattr(engine, "name", None)
    return name if isinstance(name, str) and name else "the engine"


def _spark_context(session: Any) -> Any:
    """A classic session's SparkContext (None for Spark Connect, which has none)."""
    if session is None:
        return None
    try:
        return session.sparkContext
    except Exception:  # Spark Connect: no SparkContext
        return None
