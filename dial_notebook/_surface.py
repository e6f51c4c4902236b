"""The notebook surface's drawings, lent to a layer below it: a registry.

Layers point down (DESIGN.md): the evaluation may not import the widget, yet its report draws
each scenario's conversation as the widget's static copy does, and its progress shows as the
widget's bar. So the widget provides those drawings here when it is imported
(widget/_evaluation_views.py), and the evaluation asks for them here. The package's top says how
to load the surface when nothing has provided it yet (``load_with``, in dial_notebook/__init__.py),
so ``from dial_notebook.evaluation import evaluate`` alone still draws as the widget does.

    the widget is imported ─▶ provide(Drawings(conversation_html, style, progress_bar))
    the evaluation draws   ─▶ drawings(): those provided; else the loader runs first
                              (nothing provided even then: ImportError, the caller falls back)

    >>> lent = Registry()
    >>> lent.drawings()
    Traceback (most recent call last):
    ImportError: no notebook surface has provided its drawings (is dial_notebook.widget installed?)
    >>> lent.load_with(lambda: lent.provide(Drawings(
    ...     conversation_html=lambda transcript, title="": f"<p>{title}</p>", style="p {}",
    ...     progress_bar=lambda: None)))
    >>> lent.drawings().conversation_html([], title="add")
    '<p>add</p>'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Drawings:
    """What the surface draws for the layers below it.

    Args:
        conversation_html: ``(transcript, *, title) -> HTML``: a conversation drawn read-only
            (plain HTML, no script), its style sheet included.
        style: that style sheet (CSS), for a page that keeps one copy of it.
        progress_bar: ``() -> view``: a new progress view for ``evaluate`` (``start``,
            ``update``, ``end``: evaluation/_progress.py).
    """

    conversation_html: Callable[..., str]
    style: str
    progress_bar: Callable[[], Any]


class Registry:
    """The drawings provided, and how to load the surface that provides them."""

    def __init__(self) -> None:
        self._drawings: Drawings | None = None
        self._loader: Callable[[], object] | None = None

    def provide(self, drawings: Drawings) -> None:
        """The surface's drawings, from now on (the last provided wins)."""
        self._drawings = drawings

    def load_with(self, loader: Callable[[], object]) -> None:
        """``loader()`` imports the surface (which then provides its drawings)."""
        self._loader = loader

    def drawings(self) -> Drawings:
        """The drawings provided, loading the surface first when none were; ``ImportError``
        when there are none even then (the surface, or what it needs, is not installed)."""
        if self._drawings is None and self._loader is not None:
            self._loader()
        if self._drawings is None:
            raise ImportError("no notebook surface has provided its drawings "
                              "(is dial_notebook.widget installed?)")
        return self._drawings


#: The package's one registry.
_REGISTRY = Registry()
provide = _REGISTRY.provide
load_with = _REGISTRY.load_with
drawings = _REGISTRY.drawings
