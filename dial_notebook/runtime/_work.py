"""Work that runs outside the turn loop's task: blocking calls on daemon threads, bounded in
time, and their real end known even when the say that started them is cancelled.

Defined once, in ``dial_notebook/_work.py`` (whose header draws the whole lifecycle), because
the evaluation judges scenarios off the loop with it too; the runtime's modules import it from
here.
"""

from __future__ import annotations

from .._work import STOP_GRACE, Report, TimedOut, in_thread, is_async, on_end, start, until_done

__all__ = ["STOP_GRACE", "Report", "TimedOut", "in_thread", "is_async", "on_end", "start",
           "until_done"]
