"""A pattern's budget holds by the wall clock: the ``regex`` engine's timeout counts the search's
own time (CPU), which a loaded machine stretches, so ``_keywords.search`` runs it in slices and
reads the budget's clock between them (issue 29). The machine's load is played by a virtual
clock (the ``budget_clock`` fixture) that a fake search moves: no test here depends on how busy
the machine running it is."""

from __future__ import annotations

from typing import Any

import pytest

from dial_notebook.domains import SchemaDomain, _keywords, _validation
from dial_notebook.domains._keywords import search, time_budget

EVIL = "^(a|aa)+$"
ATTACK = "a" * 60 + "!"


class BusyMachine:
    """A search that needs ``needs`` seconds of its own time (None: forever) on a machine
    ``load`` times as busy: each second of it takes ``load`` seconds of wall time."""

    def __init__(self, clock: Any, *, load: float, needs: float | None = None) -> None:
        self.clock, self.load, self.needs = clock, load, needs
        self.timeouts: list[float] = []

    def search(self, text: str, timeout: float | None = None) -> Any:
        assert timeout is not None and timeout > 0
        self.timeouts.append(timeout)
        if self.needs is not None and self.needs <= timeout:
            self.clock.advance(self.load * self.needs)
            return object()  # found
        self.clock.advance(self.load * timeout)
        raise TimeoutError


@pytest.fixture
def busy(budget_clock: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    def make(**options: Any) -> BusyMachine:
        machine = BusyMachine(budget_clock, **options)
        monkeypatch.setattr(_keywords, "compiled", lambda _pattern: machine)
        return machine
    return make


@pytest.mark.parametrize("load", [1.0, 3.0, 10.0])
def test_a_search_that_never_ends_gives_up_when_the_wall_clock_says(busy, budget_clock, load):
    machine = busy(load=load)
    start = budget_clock()
    with time_budget(1.0):
        assert search(EVIL, ATTACK) is None
    assert budget_clock() - start <= 1.0 + 1e-9  # the old single search: `load` seconds
    assert len(machine.timeouts) > 1  # sliced, the clock read between the slices


def test_a_search_longer_than_its_first_slice_still_finds_its_match(busy, budget_clock):
    machine = busy(load=2.0, needs=0.15)
    with time_budget(1.0):
        assert search("a+", "aaa") is True
    assert machine.timeouts[:2] == [0.05, 0.1] and machine.timeouts[-1] >= 0.15


def test_a_validation_on_a_busy_machine_keeps_its_budget_and_says_why(busy, budget_clock):
    busy(load=5.0)
    domain = SchemaDomain("d")
    domain.add_action("a", schema={"type": "array",
                                   "items": {"type": "string", "pattern": EVIL}})
    start = budget_clock()
    verdict = domain.validate("a", [ATTACK] * 20)
    assert budget_clock() - start <= _validation.VALIDATION_BUDGET + 1e-9
    assert verdict["ok"] is False
    assert verdict["errors"][0]["message"] == "[0] could not be checked against its pattern in time"
