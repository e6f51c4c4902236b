# How far an evaluation has come while it runs: counts, the words for them, and where they go
# (a bar in a notebook, lines on stderr in a script, or nowhere).
"""``Progress``: what ``evaluate`` tells its view as each scenario ends.

    >>> import io
    >>> from dial_notebook.evaluation._report import ScenarioResult
    >>> out = io.StringIO()
    >>> progress = Progress(2, TextView(out))
    >>> progress.add(ScenarioResult(name="add", status="idle"))
    >>> progress.label()
    '1 of 2 scenarios · 1 passed · 0 failed'
    >>> print(out.getvalue().strip())
    [1/2] passed add (idle, 0.0 s)
"""

from __future__ import annotations

import sys
import time
from typing import Any, Literal, Protocol, TextIO

from .. import _surface
from .._interrupt import in_kernel

#: How an evaluation ended, for its view.
Ending = Literal["finished", "cancelled", "failed"]


class View(Protocol):
    """Where progress is shown."""

    def start(self, progress: Progress) -> None: ...

    def update(self, progress: Progress, result: Any) -> None: ...

    def end(self, progress: Progress, how: Ending) -> None: ...


class Progress:
    """The scenarios ended so far out of ``total``, passed and failed, and the time taken."""

    def __init__(self, total: int, view: View | None) -> None:
        self.total, self.view = total, view
        self.done = self.passed = 0
        self.started = time.perf_counter()
        if view is not None:
            view.start(self)

    @property
    def failed(self) -> int:
        """Scenarios ended that failed their expectations (or raised, or timed out)."""
        return self.done - self.passed

    @property
    def seconds(self) -> float:
        """Seconds since the evaluation started."""
        return time.perf_counter() - self.started

    def add(self, result: Any) -> None:
        """Count one ended scenario (a ``ScenarioResult``) and tell the view."""
        self.done += 1
        self.passed += bool(result.passed)
        if self.view is not None:
            self.view.update(self, result)

    def end(self, how: Ending) -> None:
        """The evaluation is over: every scenario ended, or it was cancelled, or it failed."""
        if self.view is not None:
            self.view.end(self, how)

    def label(self, how: Ending | None = None) -> str:
        """The counts in words (at the end: how it ended and how long it took)."""
        counts = f"{self.passed} passed · {self.failed} failed"
        plural = "" if self.total == 1 else "s"
        if how is None:
            return f"{self.done} of {self.total} scenario{plural} · {counts}"
        took = f"{self.seconds:.1f} s"
        if how == "finished":
            return f"{self.total} scenario{plural} · {counts} · {took}"
        stopped = "cancelled" if how == "cancelled" else "stopped by an error"
        return f"{stopped} after {self.done} of {self.total} scenario{plural} · {counts} · {took}"


class TextView:
    """A line per ended scenario, and one at the end, on ``stream`` (stderr by default)."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream

    def _write(self, line: str) -> None:
        stream = self.stream or sys.stderr
        stream.write(line + "\n")
        stream.flush()

    def start(self, progress: Progress) -> None:
        pass

    def update(self, progress: Progress, result: Any) -> None:
        width = len(str(progress.total))
        mark = "passed" if result.passed else "FAILED"
        self._write(f"[{progress.done:>{width}}/{progress.total}] {mark} {result.name} "
                    f"({result.status}, {result.seconds:.1f} s)")

    def end(self, progress: Progress, how: Ending) -> None:
        if how != "finished" or progress.total != 1:
            self._write(progress.label(how))


def choose_view(progress: bool | None) -> View | None:
    """The view for ``evaluate(progress=...)``: None → a bar in a kernel, else nothing;
    True → a bar in a kernel, else lines on stderr; False → nothing."""
    if progress is False:
        return None
    if in_kernel():
        try:  # the widget's bar, lent to the evaluation (dial_notebook/_surface.py)
            progress_bar = _surface.drawings().progress_bar
        except ImportError:  # no ipywidgets: say it in text instead
            return TextView() if progress else None
        return progress_bar()
    return TextView() if progress else None
