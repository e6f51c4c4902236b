# The bar an evaluation shows in a notebook while its scenarios run.
"""``ProgressBar``: an ipywidgets bar and a line of counts under the cell running
``await evaluate(...)``; green when every scenario passed, amber when some failed, red when
cancelled or stopped by an error. The scenario names shown are escaped. Its plain-text
fallback (what a notebook saved without widget state shows) is the final line of counts.

    >>> from dial_notebook.evaluation._progress import Progress
    >>> shown = []
    >>> bar = ProgressBar(display=shown.append)
    >>> progress = Progress(3, bar)
    >>> bar.bar.max, bar.text.value, shown[0]["text/plain"]
    (3, '0 of 3 scenarios · 0 passed · 0 failed', '0 of 3 scenarios · 0 passed · 0 failed')
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import ipywidgets


def _display(bundle: dict[str, Any]) -> Any:
    from IPython.display import display

    return display(bundle, raw=True, display_id=True)


class ProgressBar:
    """The evaluation's progress as a bar (``bar``) and its counts with the last scenario
    ended (``text``), in one row (``box``), displayed when the evaluation starts.

    ``display`` shows a MIME bundle and may return a handle whose ``update(bundle, raw=True)``
    replaces it (IPython's ``display(..., display_id=True)``, the default)."""

    def __init__(self, display: Callable[[dict[str, Any]], Any] = _display) -> None:
        self.bar = ipywidgets.IntProgress(value=0, min=0, max=1)
        self.text = ipywidgets.HTML()
        self.box = ipywidgets.HBox([self.bar, self.text],
                                   layout=ipywidgets.Layout(align_items="center"))
        self.box.add_class("dial-evaluation-progress")
        self._display = display
        self._handle: Any = None

    def _bundle(self, label: str) -> dict[str, Any]:
        return {**self.box._repr_mimebundle_(), "text/plain": label}

    def start(self, progress: Any) -> None:
        self.bar.max = max(progress.total, 1)
        self.text.value = html.escape(progress.label())
        self._handle = self._display(self._bundle(progress.label()))

    def update(self, progress: Any, result: Any) -> None:
        self.bar.value = progress.done
        if progress.failed:
            self.bar.bar_style = "warning"
        last = f"{'passed' if result.passed else 'failed'}: {result.name}"
        self.text.value = (f"{html.escape(progress.label())} "
                           f"<span style='opacity:0.7'>— {html.escape(last)}</span>")

    def end(self, progress: Any, how: str) -> None:
        if how == "finished":
            self.bar.value = self.bar.max
            self.bar.bar_style = "warning" if progress.failed else "success"
        else:
            self.bar.bar_style = "danger"  # cancelled, or stopped by an error
        label = progress.label(how)
        self.text.value = html.escape(label)
        if hasattr(self._handle, "update"):
            self._handle.update(self._bundle(label), raw=True)
