"""Hypothesis profiles for every tier, and ``examples``: a test's example count in the tier.

    dev       (the default)  random examples, the local database, failures shrunk
    ci        (CI is set)    the same examples on every run (derandomized), no database (CI's
                             would be thrown away), the failing example's blob printed so that
                             ``@reproduce_failure`` replays it anywhere
    fast, ci-fast            the fast tier (./scripts/dev test fast): a quarter of each count

No profile has a deadline: a busy machine must not fail a property (the suite judges time by
the work, tests/work_clock.py). A test names its full count with ``examples(n)``; the fast
profiles scale it (``--hypothesis-profile=fast``), every other profile runs it as written:

    >>> examples(200, settings.get_profile("fast")), examples(2, settings.get_profile("fast"))
    (50, 1)
    >>> examples(200, settings.get_profile("ci"))
    200
"""

from __future__ import annotations

import os

from hypothesis import settings

#: The example count of a profile that runs every count as written (Hypothesis's default).
FULL = 100
#: The fast tier's share of each count.
FAST = FULL // 4


def register() -> None:
    """Register the profiles and load ``ci`` under CI, else ``dev`` (``--hypothesis-profile``
    chooses another)."""
    settings.register_profile("dev", deadline=None, max_examples=FULL)
    settings.register_profile("ci", settings.get_profile("dev"), derandomize=True,
                              database=None, print_blob=True)
    settings.register_profile("fast", settings.get_profile("dev"), max_examples=FAST)
    settings.register_profile("ci-fast", settings.get_profile("ci"), max_examples=FAST)
    settings.load_profile("ci" if os.environ.get("CI") else "dev")


def examples(count: int, profile: settings | None = None) -> int:
    """``count`` examples in a full run; the fast tier's share of them (at least one), as the
    loaded profile (or ``profile``) says."""
    scale = (profile or settings.default).max_examples
    return max(1, count * scale // FULL)

