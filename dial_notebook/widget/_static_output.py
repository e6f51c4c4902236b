"""StaticOutput: a notebook output that keeps a static HTML copy of something live current, so
that a notebook saved, reopened without a kernel or converted by nbconvert still shows it.

    show()     ──▶ display({'text/html': html(), …}, display_id=<its own>)
    changed()  ──▶ an update_display, debounced: at most one per ``interval`` seconds while
                   changes flow, and a trailing one after the last (on the asyncio loop show()
                   ran on, or the one running now; at once when none runs)
    flush()    ──▶ the update now (if anything changed since the last one): the ChatWidget
                   calls it when a say ends and when a card waits, so that a run that stops
                   then (a headless notebook) loses no update
    a cell has run (IPython's post_run_cell) ──▶ flush(force=True) when no page shows the live
                   view: a notebook run cell by cell (nbclient, papermill) saves each cell's copy
                   as it was when the cell ended; with a page, flush() (spaced as below)

Its cost stays flat however big the copy grows: each update is drawn and published whole, so
updates are spaced ``SPACING`` times as far apart as the last one took (at least ``interval``):
a copy that takes 20 ms to publish is updated at most every 200 ms, by changed() and by flush()
alike (a flush then is an update a little later, unless forced: when a cell has run). The page
pays too — it parses the whole copy again on each update, while the person uses the live widget
beside it — so a big copy is also spaced by its size (``PAGE_BYTES_PER_SECOND``): a 2.3 MB copy
(2,000 events) is updated at most every 23 s while the conversation goes on (a cell run in a
page that shows the live view included), and at once when a cell has run in a notebook run
headless. Both shares are then a fixed part of each side's time (the kernel's: about 0.3 ms a
second, the same for a 100-event copy updated every second as for a copy at its bound, 4 MB:
``_static.NOTEBOOK_LOG_CHARS``), so the copy costs as much at 20,000 events as at 100; the price
is that a long conversation's copy may be that many seconds behind while changes keep coming
(the saved widget state never is).

Without IPython (no shell: a script, a test) it does nothing. A failure to render or publish
is reported once as a warning and never reaches the caller: the live conversation must not
stop because its copy could not be drawn.
"""

from __future__ import annotations

import asyncio
import sys
import time
import uuid
import warnings
import weakref
from collections.abc import Callable
from typing import Any

__all__ = ["StaticOutput"]

Publish = Callable[..., Any]

#: Updates are at least this many times as far apart as the last one took (see the header).
SPACING = 10.0
#: An update that took less than this (seconds) is never put off by flush().
CHEAP = 0.005
#: The page's share: every update makes the page parse and sanitise the whole copy again (about
#: 0.1 s per MB in JupyterLab, measured: a long task that delays the live widget's next paint),
#: so a copy of N bytes is updated at most once every N / PAGE_BYTES_PER_SECOND seconds while
#: changes flow (2.3 MB, a 2,000-event conversation: every 23 s; 100 KB or less: the interval,
#: so the kernel's share per second is the same for a short copy as for a long one).
PAGE_BYTES_PER_SECOND = 100_000


class StaticOutput:
    """The static copy of a live view, kept current in a notebook output of its own.

    Args:
        html: returns the current HTML (called at most once per update).
        interval: seconds between two updates while changes flow.
        label: the output's text/plain (what a terminal shows).
        display, update_display: IPython's functions of those names by default (looked up when
            called); given, they stand in for IPython (a test counts the updates).
        viewed: whether a page shows the live view now: then a cell that has run does not
            force an update (the page would parse a big copy after every cell the person runs);
            with no page (nbclient, papermill) it does, so each cell's saved copy is current.

        static = StaticOutput(lambda: conversation_html(chat.transcript))
        static.show()      # in a notebook cell: the copy appears
        static.changed()   # after each change: at most one update a second, and a last one
    """

    def __init__(self, html: Callable[[], str], *, interval: float = 1.0,
                 label: str = "(a static copy of the conversation)",
                 display: Publish | None = None, update_display: Publish | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 viewed: Callable[[], bool] = lambda: False) -> None:
        if not callable(html):
            raise TypeError(f"StaticOutput: html must be a callable returning HTML, not "
                            f"{type(html).__name__}")
        self._html = html
        self.interval = float(interval)
        self.label = label
        self._display = display
        self._update_display = update_display
        self._clock = clock
        self._viewed = viewed
        #: The display id every copy of this output shares (update_display updates them all).
        self.display_id = f"dial-static-{uuid.uuid4().hex}"
        #: Updates sent so far (show() not counted).
        self.updates = 0
        self._shown = False
        self._dirty = False
        self._sent = ""  # the HTML last published
        self._last = 0.0  # when it was published (the clock's time)
        self._cost = 0.0  # how long the last update took (the clock's seconds)
        self._timer: asyncio.TimerHandle | None = None
        self._loop: asyncio.AbstractEventLoop | None = None  # the loop show() ran on
        self._warned = False
        self._hooked = False  # flushed after each cell IPython runs

    @property
    def shown(self) -> bool:
        """Whether ``show()`` has displayed the copy (updates go only to a shown copy)."""
        return self._shown

    def show(self) -> None:
        """Display the copy now, with this output's display id (again: a second copy, kept
        current with the first)."""
        publish = self._publisher("display")
        if publish is None:
            return
        started = self._clock()
        try:
            html = self._html()
            publish(self._bundle(html), raw=True, display_id=self.display_id)
        except Exception as error:
            self._warn(error)
            return
        self._shown, self._dirty, self._sent = True, False, html
        self._last = self._clock()
        self._cost = self._last - started
        self._loop = _running_loop()  # in a notebook, the kernel's: updates are scheduled there
        _after_each_cell(self)

    def changed(self) -> None:
        """What the copy shows has changed: update it soon (debounced, see the header)."""
        if not self._shown:
            return  # show() draws the current state
        self._dirty = True
        current = _running_loop()
        home = self._loop if self._loop is not None and self._loop.is_running() else None
        if home is not None and current is not home:
            # a change made on another thread (a worker's loop): scheduled on the kernel's loop,
            # where the updates are debounced, rather than on a loop that may end first
            home.call_soon_threadsafe(self.changed)
            return
        loop = home or current
        if loop is None:
            self.flush(force=True)
            return
        if self._timer is not None:
            return  # an update is due already; it will draw this change too
        wait = max(0.0, self._last + max(self.interval, self._gap()) - self._clock())
        self._timer = loop.call_later(wait, self._due)

    def _gap(self) -> float:
        """The least time between two updates that are not forced: the kernel's share (SPACING
        times the last update's cost) and the page's (the copy's size, PAGE_BYTES_PER_SECOND)."""
        return max(SPACING * self._cost, len(self._sent) / PAGE_BYTES_PER_SECOND)

    def flush(self, *, force: bool = False) -> None:
        """Update the copy now, if anything changed since the last update; a costly copy
        updated a moment ago is updated a little later instead (see the header), unless
        ``force``."""
        if not self._shown or not self._dirty:
            return
        if (not force and (self._cost > CHEAP or len(self._sent) > PAGE_BYTES_PER_SECOND)
                and self._clock() < self._last + self._gap()):
            self.changed()  # the update due at the spacing draws it
            return
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        publish = self._publisher("update_display")
        if publish is None:
            return
        self._dirty = False
        started = self._clock()
        try:
            html = self._html()
            if html != self._sent:
                publish(self._bundle(html), raw=True, display_id=self.display_id)
                self._sent = html
                self.updates += 1
        except Exception as error:
            self._warn(error)
        self._last = self._clock()
        self._cost = self._last - started

    def _due(self) -> None:
        self._timer = None
        self.flush(force=True)  # the timer kept the spacing

    def _bundle(self, html: str) -> dict[str, str]:
        return {"text/html": html, "text/plain": self.label}

    def _publisher(self, name: str) -> Publish | None:
        given = self._display if name == "display" else self._update_display
        if given is not None:
            return given
        ipython = sys.modules.get("IPython")
        if ipython is None or ipython.get_ipython() is None:
            return None  # not in IPython: nothing to display into
        from IPython import display as displays

        return getattr(displays, name)  # type: ignore[no-any-return]

    def _warn(self, error: Exception) -> None:
        if not self._warned:
            self._warned = True
            warnings.warn(f"dial-notebook: the static copy of the conversation could not be "
                          f"updated ({type(error).__name__}: {error})", RuntimeWarning,
                          stacklevel=3)


def _after_each_cell(static: StaticOutput) -> None:
    """``static`` flushed (forced) each time IPython has run a cell, while it lives."""
    if static._hooked:
        return
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    events = getattr(shell, "events", None)
    if events is None:
        return
    held = weakref.ref(static)

    def cell_ran(*_args: Any) -> None:
        live = held()
        if live is None:
            events.unregister("post_run_cell", cell_ran)
        else:
            live.flush(force=not live._viewed())

    events.register("post_run_cell", cell_ran)
    static._hooked = True


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None
