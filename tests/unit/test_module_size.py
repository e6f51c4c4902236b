"""Every module of the package stays small enough to read in one sitting (issue 28): at most
``MAX_LINES`` lines, split by job (a module per responsibility) when it grows past that.

``WAITING`` lists the modules still over the limit, each with why it may be for now. The list
must shrink to empty: a module leaves it when it is split, and the second test fails as soon as
a listed module is within the limit (or gone), so the list cannot go stale.
"""

from __future__ import annotations

from pathlib import Path

import dial_notebook

PACKAGE = Path(dial_notebook.__file__).parent
#: Most lines a module of the package may have.
MAX_LINES = 400

#: Modules over the limit for now, relative to the package, each with who splits it, e.g.
#: ``"widget/_chat_widget.py": "until <who> splits it"``. Empty today: keep it empty, or
#: shrinking (the second test says when an entry is no longer needed).
WAITING: dict[str, str] = {}


def lines_of(module: Path) -> int:
    """How many lines ``module`` has (as ``wc -l`` counts them for a file ending in a newline)."""
    return len(module.read_text(encoding="utf-8").splitlines())


def sizes() -> dict[str, int]:
    """Every module of the package, relative to it, with its number of lines."""
    return {
        path.relative_to(PACKAGE).as_posix(): lines_of(path)
        for path in sorted(PACKAGE.rglob("*.py"))
    }


def test_every_module_is_at_most_400_lines():
    over = {name: count for name, count in sizes().items()
            if count > MAX_LINES and name not in WAITING}
    assert not over, (
        f"modules over {MAX_LINES} lines: split each by job (a module per responsibility, the "
        "original kept as the public face re-exporting its names):\n"
        + "\n".join(f"dial_notebook/{name}: {count} lines" for name, count in over.items())
    )


def stale(waiting: dict[str, str], found: dict[str, int]) -> list[str]:
    """The entries of ``waiting`` whose module is within the limit, or gone, said why."""
    return [
        f"dial_notebook/{name}: " + (f"{found[name]} lines" if name in found else "no such module")
        for name in waiting
        if found.get(name, 0) <= MAX_LINES
    ]


def test_every_module_waiting_to_be_split_is_still_over_the_limit():
    gone = stale(WAITING, sizes())
    assert not gone, (
        "remove these from WAITING in tests/unit/test_module_size.py (split, or gone):\n"
        + "\n".join(gone)
    )


def test_an_entry_is_stale_once_its_module_is_within_the_limit_or_gone():
    waiting = {"small.py": "split", "gone.py": "deleted", "big.py": "still to split"}
    found = {"small.py": MAX_LINES, "big.py": MAX_LINES + 1}
    assert stale(waiting, found) == ["dial_notebook/small.py: 400 lines",
                                     "dial_notebook/gone.py: no such module"]


def test_lines_are_counted_as_wc_counts_them(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("a = 1\n\nb = 2\n", encoding="utf-8")
    assert lines_of(module) == 3
