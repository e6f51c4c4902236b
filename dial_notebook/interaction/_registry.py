"""The one active provider: registering, disposing, and the ``use_provider`` block.

Only one provider is active at a time; registering a second while one is active is an error
(``PROVIDER_ACTIVE``). The notebook widget registers itself while displayed and disposes of
its handle when closed.

    >>> from dial_notebook.interaction import ScriptedProvider
    >>> with use_provider(ScriptedProvider([])) as handle:
    ...     handle.active
    True
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Protocol

from ._errors import UserInteractionError


class Provider(Protocol):
    """Shows a request's questions to the person and returns their Answer (sync or async)."""

    def ask(self, request: Any) -> Any: ...


_active: list[Any] = []  # at most one provider


class ProviderHandle:
    """Returned by ``register_provider``; ``dispose()`` unregisters (twice is harmless)."""

    def __init__(self, provider: Any) -> None:
        self.provider = provider

    @property
    def active(self) -> bool:
        return bool(_active) and _active[0] is self.provider

    def dispose(self) -> None:
        if self.active:
            _active.clear()

    def __enter__(self) -> ProviderHandle:
        return self

    def __exit__(self, *exc: object) -> None:
        self.dispose()


def register_provider(provider: Any) -> ProviderHandle:
    """Make ``provider`` the active one. Raises ``PROVIDER_ACTIVE`` if another is active."""
    if not callable(getattr(provider, "ask", None)):
        raise TypeError(f"A provider needs an ask(request) method; {type(provider).__name__} "
                        "has none.")
    if _active:
        if _active[0] is provider:
            return ProviderHandle(provider)
        raise UserInteractionError(
            f"A provider ({type(_active[0]).__name__}) is already active; dispose of its handle "
            "(or close its widget) before registering another.", "PROVIDER_ACTIVE")
    _active.append(provider)
    return ProviderHandle(provider)


@contextmanager
def use_provider(provider: Any) -> Iterator[ProviderHandle]:
    """``provider`` is the active one inside the block."""
    handle = register_provider(provider)
    try:
        yield handle
    finally:
        handle.dispose()


def active_provider() -> Any | None:
    """The provider questions go to now, or None."""
    return _active[0] if _active else None
