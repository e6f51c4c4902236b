"""The suite's Hypothesis profiles (tests/hypothesis_profiles.py): CI runs the same examples
every time and prints a failing example's blob; no profile judges time; the fast tier runs a
quarter of each count and the full run all of it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import settings

from tests import hypothesis_profiles
from tests.hypothesis_profiles import examples


@pytest.fixture
def profile_kept() -> Iterator[None]:
    """Whatever a test loads, the run goes on with the profile it had."""
    before = settings.get_current_profile_name()
    yield
    settings.load_profile(before)


@pytest.mark.parametrize(("ci", "loaded"), [("1", "ci"), ("", "dev")])
def test_ci_loads_the_ci_profile_and_elsewhere_dev(monkeypatch, profile_kept, ci, loaded):
    monkeypatch.setenv("CI", ci)
    hypothesis_profiles.register()
    assert settings.get_current_profile_name() == loaded


@pytest.mark.parametrize("name", ["ci", "ci-fast"])
def test_under_ci_a_failure_is_reproducible_anywhere(name):
    profile = settings.get_profile(name)
    assert profile.derandomize and profile.print_blob and profile.database is None


@pytest.mark.parametrize("name", ["dev", "ci", "fast", "ci-fast"])
def test_no_profile_fails_a_property_for_a_busy_machine(name):
    assert settings.get_profile(name).deadline is None


def test_the_fast_tier_runs_a_quarter_of_each_count_and_the_full_run_all():
    for name in ("fast", "ci-fast"):
        assert examples(200, settings.get_profile(name)) == 50
        assert examples(1, settings.get_profile(name)) == 1  # never none
    for name in ("dev", "ci"):
        assert examples(150, settings.get_profile(name)) == 150
