# What the widget lends the evaluation, which sits below it and may not import it.
"""The widget's drawings for the evaluation's report and progress, provided to
``dial_notebook._surface`` when the widget is imported: a conversation drawn read-only as the
static copy draws it (``conversation_html``, with its style sheet ``STATIC_CSS``) and the
progress bar ``evaluate`` shows in a notebook (``ProgressBar``).

    >>> from dial_notebook import _surface
    >>> _surface.drawings().style == STATIC_CSS
    True
"""

from __future__ import annotations

from typing import Any

from .. import _surface
from . import _evaluation_progress
from ._static import STATIC_CSS, conversation_html


def progress_bar() -> Any:
    """A new ``ProgressBar`` (looked up when called, so a test may stand in for the class)."""
    return _evaluation_progress.ProgressBar()


DRAWINGS = _surface.Drawings(conversation_html=conversation_html, style=STATIC_CSS,
                             progress_bar=progress_bar)
_surface.provide(DRAWINGS)
