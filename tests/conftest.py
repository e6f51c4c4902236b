"""Fixtures for every tier: the person's Jupyter secret (which signs session files) is a fresh
one in a temporary folder, never the real user's (JUPYTER_DATA_DIR, inherited by the kernels
and servers the tests start).

The stall watchdog (promise 3; tests/stall_watchdog.py: it fails an async test when anything
held its event loop longer than the limit, naming the function that held it) watches a test when

- it is async and lives in a hostile module (``test_hostile_*.py``,
  ``test_dial_hostile_input.py``): automatic;
- it carries ``@pytest.mark.stall_watchdog`` (optionally ``limit=0.5``); or
- it asks for the ``stall_watchdog`` fixture, which hands it the ``LoopWatch`` record.

Only the test's own body is watched (not its fixtures' set-up), on the loop pytest-asyncio runs
it on; a synchronous test (marker or fixture) is one hold of its thread (``watch_call``). ``budget_clock`` gives every budget of the kernel's time a virtual clock
(tests/work_clock.py), so a busy machine cannot change a budget test's verdict.

Hypothesis's profiles (tests/hypothesis_profiles.py) are registered here: ``ci`` under ``CI``
(the same examples every run, the failing example's blob printed), ``dev`` elsewhere, and the
fast tier's ``fast`` / ``ci-fast`` (a quarter of each count) through ``--hypothesis-profile``.
"""

from __future__ import annotations

import functools
import inspect
import os
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from dial_notebook.runtime._budget import using_clock
from tests import hypothesis_profiles
from tests.stall_watchdog import DEFAULT_LIMIT, LoopWatch, watch_call, watch_loop
from tests.work_clock import VirtualClock

hypothesis_profiles.register()  # before pytest_configure, which loads --hypothesis-profile

HOSTILE_MODULES = ("test_hostile_", "test_dial_hostile_input")


@pytest.fixture(scope="session", autouse=True)
def _jupyter_data_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    before = os.environ.get("JUPYTER_DATA_DIR")
    os.environ["JUPYTER_DATA_DIR"] = str(tmp_path_factory.mktemp("jupyter-data"))
    yield
    if before is None:
        os.environ.pop("JUPYTER_DATA_DIR", None)
    else:
        os.environ["JUPYTER_DATA_DIR"] = before


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "stall_watchdog(limit=2.0): fail the async test if anything holds its event "
                   "loop longer than limit seconds (tests/stall_watchdog.py)")


@pytest.fixture
def budget_clock() -> Iterator[VirtualClock]:
    """Every budget of the kernel's time reads this clock, which stands still unless the test
    advances it: a budget runs out when the test says so, never because the machine is busy."""
    clock = VirtualClock()
    with using_clock(clock):
        yield clock


@pytest.fixture
def regex_searches(monkeypatch: pytest.MonkeyPatch) -> list[float | None]:
    """The timeout given to every regex search a validation (or a rule) starts: the work,
    counted rather than timed (a search is the only step of a validation that can run long)."""
    from dial_notebook.domains import _keywords

    searches: list[float | None] = []
    real = _keywords.compiled

    class Counted:
        def __init__(self, pattern: Any) -> None:
            self.pattern = pattern

        def search(self, text: str, timeout: float | None = None) -> Any:
            searches.append(timeout)
            return self.pattern.search(text, timeout=timeout)

    monkeypatch.setattr(_keywords, "compiled", lambda pattern: Counted(real(pattern)))
    return searches


@pytest.fixture
def stall_watchdog() -> LoopWatch:
    """The watchdog's record for this (async) test: ``worst`` block, ``stack`` when one passed.

    Set ``stall_watchdog.limit`` in the test's first line to change the limit for the test.
    """
    return LoopWatch(limit=DEFAULT_LIMIT)


def _watched(item: pytest.Item) -> LoopWatch | None:
    """The record to fill when ``item`` is to be watched, else None: an async test of a hostile
    module, or any test (async or not) with the marker or the fixture."""
    if not isinstance(item, pytest.Function) or not callable(item.obj):
        return None
    if "stall_watchdog" in item.fixturenames:
        return item.funcargs["stall_watchdog"]
    marker = item.get_closest_marker("stall_watchdog")
    if marker is not None:
        return LoopWatch(limit=float(marker.kwargs.get("limit", DEFAULT_LIMIT)))
    module = getattr(item, "module", None)
    if (inspect.iscoroutinefunction(item.obj) and module is not None
            and module.__name__.rsplit(".", 1)[-1].startswith(HOSTILE_MODULES)):
        return LoopWatch(limit=DEFAULT_LIMIT)
    return None


def _under_watch(test: Callable[..., Any], watch: LoopWatch) -> Callable[..., Any]:
    """``test`` run under the watchdog: its loop (async), or its thread (a synchronous test is
    one hold of the kernel's thread: a parser's, a file reader's)."""
    if inspect.iscoroutinefunction(test):
        @functools.wraps(test)
        async def watched(*args: Any, **kwargs: Any) -> Any:
            async with watch_loop(watch.limit, watch=watch):
                return await test(*args, **kwargs)
        return watched

    @functools.wraps(test)
    def held(*args: Any, **kwargs: Any) -> Any:
        with watch_call(watch.limit, watch=watch):
            return test(*args, **kwargs)
    return held


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    watch = _watched(item)
    if watch is None:
        return (yield)
    assert isinstance(item, pytest.Function)
    original = item.obj
    item.obj = _under_watch(original, watch)
    try:
        return (yield)
    finally:
        item.obj = original
