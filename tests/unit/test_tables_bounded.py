"""run_bounded: an engine's query waited for at most its bound, then cancelled on the engine.

Pure tests use fake engines (a DuckDB-like one whose ``interrupt`` stops the work, one that
cannot be cancelled); the engine tests run a deliberately slow DuckDB query (a cross join of
10⁵ rows with themselves, 10¹⁰ rows), the spark test the same on a local Spark. "Returned in
time" is asserted as behaviour: the query was stopped by the cancel, never finished, and the
connection answers the next query.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from typing import Any

import pytest

from dial_notebook.domains.tables._bounded import Bounded, run_bounded
from tests.spark_session import spark  # noqa: F401  (the session fixture)
from tests.tables_data import ENGINE_WARNINGS

pytestmark = ENGINE_WARNINGS  # Ibis 12's own deprecation warnings on DuckDB 2 (tables_data)
#: PySpark 4's own, on pandas 3 and in its collect (not ours; the results are unchanged): its
#: ``astype(copy=False)``, and the local socket a collect leaves to the garbage collector.
SPARK_WARNINGS = [
    pytest.mark.filterwarnings("ignore:The copy keyword is deprecated"),
    pytest.mark.filterwarnings("ignore:unclosed <socket.socket:ResourceWarning"),
]
#: Longest a test waits for a cancelled query's thread to end (a bound on the wait, not a speed).
ENDS_WITHIN = 60.0
ROWS = 10**5
SUM_OF_ROWS = ROWS * (ROWS - 1) // 2


class Interrupted(Exception):
    pass


class _Stop(threading.Event):
    """An engine's stop signal: the work waiting on it fails as interrupted."""


class FakeConnection:
    """A DuckDB-like connection: ``interrupt()`` stops the work waiting on it (after
    ``ignored`` interrupts that arrive "before the query reached the engine")."""

    def __init__(self, *, ignored: int = 0, broken: bool = False) -> None:
        self.interrupts = 0
        self.stop = _Stop()
        self._ignored = ignored
        self._broken = broken

    def interrupt(self) -> None:
        self.interrupts += 1
        if self._broken:
            raise RuntimeError("connection closed")
        if self.interrupts > self._ignored:
            self.stop.set()


class FakeEngine:
    def __init__(self, name: str, con: Any = None) -> None:
        self.name = name
        self.con = con


class Work:
    """A query that runs until ``release`` (or its engine's stop): what became of it is kept."""

    def __init__(self, stop: threading.Event | None = None) -> None:
        self.release = stop or threading.Event()
        self.started = threading.Event()
        self.ended = threading.Event()
        self.outcome: str | None = None

    def __call__(self) -> str:
        self.started.set()
        try:
            if not self.release.wait(ENDS_WITHIN):
                raise AssertionError("never released")
            if isinstance(self.release, _Stop):
                raise Interrupted("INTERRUPT Error: Interrupted!")
            self.outcome = "finished"
            return "rows"
        except Interrupted:
            self.outcome = "interrupted"
            raise
        finally:
            self.ended.set()


def duck(**options: Any) -> FakeEngine:
    return FakeEngine("duckdb", FakeConnection(**options))


# Pure: fake engines


def test_work_done_in_time_gives_its_value_and_is_never_cancelled():
    engine = duck()
    result = run_bounded(lambda: {"rows": 3}, seconds=5.0, backend=engine)
    assert result == Bounded({"rows": 3}, "done", "", result.seconds)
    assert engine.con.interrupts == 0


def test_an_error_fails_with_one_line_why():
    def broken() -> None:
        raise ValueError("Binder Error: no column 'x'\nLINE 1: SELECT x FROM t\n" + "^" * 500)

    result = run_bounded(broken, seconds=5.0, backend=None)
    assert (result.status, result.value) == ("failed", None)
    assert result.why == "ValueError: Binder Error: no column 'x'"


def test_work_that_is_neither_an_expression_nor_callable_is_refused():
    with pytest.raises(TypeError, match="Ibis expression or a callable"):
        run_bounded(42, seconds=1.0, backend=None)


def test_past_its_bound_a_duckdb_query_is_interrupted_and_the_caller_told_at_once():
    engine = duck()
    work = Work(engine.con.stop)
    result = run_bounded(work, seconds=0.05, backend=engine)
    assert result.status == "timed-out" and result.value is None
    assert "ran past 0.05 s and was cancelled" in result.why
    assert work.ended.wait(ENDS_WITHIN) and work.outcome == "interrupted"
    assert engine.con.interrupts >= 1
    assert run_bounded(lambda: 1, seconds=5.0, backend=engine).status == "done"  # serves on


def test_the_cancel_is_sent_again_until_the_query_stops():
    engine = duck(ignored=2)  # the query reached the engine after the first two interrupts
    work = Work(engine.con.stop)
    result = run_bounded(work, seconds=0.05, backend=engine)
    assert result.status == "timed-out"
    assert work.ended.wait(ENDS_WITHIN) and work.outcome == "interrupted"
    assert engine.con.interrupts == 3  # and none once the worker had ended
    time.sleep(0.5)
    assert engine.con.interrupts == 3


def test_without_a_way_to_cancel_the_caller_is_not_held():
    engine = FakeEngine("elsewhere")
    work = Work()
    result = run_bounded(work, seconds=0.05, backend=engine)
    assert result.status == "timed-out"
    assert not work.ended.is_set()  # returned while the query was still running
    assert "could not be cancelled" in result.why and "elsewhere" in result.why
    work.release.set()
    assert work.ended.wait(ENDS_WITHIN) and work.outcome == "finished"


def test_a_cancel_the_engine_refuses_is_reported_as_not_cancelled():
    engine = duck(broken=True)
    work = Work()
    result = run_bounded(work, seconds=0.05, backend=engine)
    assert result.status == "timed-out" and "could not be cancelled" in result.why
    work.release.set()
    assert work.ended.wait(ENDS_WITHIN)


def test_no_second_query_queues_behind_an_abandoned_one():
    engine, other = FakeEngine("elsewhere"), FakeEngine("elsewhere")
    stuck = Work()
    assert run_bounded(stuck, seconds=0.05, backend=engine).status == "timed-out"
    second = Work()
    second.release.set()
    waited = run_bounded(second, seconds=0.1, backend=engine)
    assert waited.status == "timed-out" and "still busy with an earlier query" in waited.why
    assert not second.started.is_set()  # never started, so never left running either
    assert run_bounded(lambda: "free", seconds=5.0, backend=other).value == "free"
    stuck.release.set()
    assert stuck.ended.wait(ENDS_WITHIN)
    assert run_bounded(second, seconds=5.0, backend=engine).value == "rows"  # the slot is free


def test_importing_it_does_not_import_ibis():
    code = ("import sys, dial_notebook.domains.tables._bounded, "
            "dial_notebook.domains.tables._engine_charts; print('ibis' in sys.modules)")
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True)
    assert found.stdout.strip() == "False"


# Engines: a query slow on purpose


def slow_query(table: Any) -> Any:
    """Rows of ``table`` paired with every row (10¹⁰ pairs), counted where a sum is odd."""
    other = table.view().rename(j="i")
    return table.cross_join(other).filter(lambda t: (t.i + t.j) % 2 == 1).count()


def stopped_or_finished(backend: Any, query: Any) -> tuple[Work, Any]:
    """A callable running ``query`` on ``backend`` that records whether it finished or was
    stopped by the engine (and with what)."""
    work = Work()

    def run() -> Any:
        work.started.set()
        try:
            value = backend.execute(query)
            work.outcome = "finished"
            return value
        except Exception as error:
            work.outcome = f"stopped: {type(error).__name__}: {error}"
            raise
        finally:
            work.ended.set()

    return work, run


@pytest.fixture
def duckdb_backend() -> Any:
    import ibis

    backend = ibis.duckdb.connect()
    backend.con.execute(f"CREATE TABLE r AS SELECT range AS i FROM range({ROWS})")
    yield backend
    backend.disconnect()


@pytest.mark.engine
@pytest.mark.parametrize("delay", [0.0, 0.6])  # 0.6: the query reaches DuckDB after the bound
def test_a_slow_duckdb_query_is_interrupted_at_its_bound_and_the_connection_serves_on(
        duckdb_backend, delay):
    table = duckdb_backend.table("r")
    work, run = stopped_or_finished(duckdb_backend, slow_query(table))
    result = run_bounded(lambda: (time.sleep(delay), run())[1], seconds=0.3,
                         backend=duckdb_backend)
    assert result.status == "timed-out" and "was cancelled" in result.why
    assert work.ended.wait(ENDS_WITHIN)
    assert work.outcome is not None and work.outcome.startswith("stopped: InterruptException")
    answered = run_bounded(table.i.sum(), seconds=30.0, backend=duckdb_backend)
    assert (answered.status, answered.value) == ("done", SUM_OF_ROWS)
    assert duckdb_backend.execute(table.count()) == ROWS


@pytest.mark.engine
def test_an_expression_finds_its_backend_and_is_cancelled_on_it(duckdb_backend):
    table = duckdb_backend.table("r")
    result = run_bounded(slow_query(table), seconds=0.3)
    assert result.status == "timed-out" and "was cancelled" in result.why
    answered = run_bounded(table.i.max(), seconds=30.0)  # waits for the cancelled one to end
    assert (answered.status, answered.value) == ("done", ROWS - 1)


@pytest.mark.engine
def test_an_engine_error_fails_with_one_line(duckdb_backend):
    import ibis

    words = ibis.memtable({"s": ["12", "twelve"]})
    result = run_bounded(words.s.cast("int64").sum(), seconds=30.0, backend=duckdb_backend)
    assert result.status == "failed" and "\n" not in result.why
    assert result.why.startswith("ConversionException") and "twelve" in result.why


@pytest.mark.spark
@SPARK_WARNINGS[0]
@SPARK_WARNINGS[1]
def test_a_slow_spark_query_is_cancelled_at_its_bound_and_the_session_serves_on(spark):  # noqa: F811
    import ibis

    backend = ibis.pyspark.connect(spark)
    spark.range(0, ROWS).toDF("i").createOrReplaceTempView("bounded_r")
    table = backend.table("bounded_r")
    work, run = stopped_or_finished(backend, slow_query(table))
    result = run_bounded(run, seconds=1.0, backend=backend)
    assert result.status == "timed-out" and "was cancelled" in result.why
    assert work.ended.wait(ENDS_WITHIN)
    assert work.outcome is not None and "cancelled" in work.outcome.lower()
    answered = run_bounded(table.i.sum(), seconds=60.0, backend=backend)
    assert (answered.status, answered.value) == ("done", SUM_OF_ROWS), answered.why
