"""Public classes show the module people import them from: ``dial_notebook.Conversation``,
not ``dial_notebook.runtime._conversation.Conversation`` (in reprs, tracebacks and help()).

Each layer's ``__init__`` calls ``shown_as_top_level`` on the classes the package exports at
its top, so the name is the same however the class was reached.

    >>> class Thing: ...
    >>> shown_as_top_level(Thing).__module__
    'dial_notebook'
"""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")


def shown_as_top_level(*classes: T) -> T:
    """Give each class ``__module__ = 'dial_notebook'``; returns the last (for decorating)."""
    for cls in classes:
        cls.__module__ = "dial_notebook"  # type: ignore[attr-defined]
    return classes[-1]
