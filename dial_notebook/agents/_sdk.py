"""What an SDK agent hands its SDK: the module (imported when an agent is made, naming the
extra that installs it), the API key (kept in a ``Secret``), and an HTTP client.

The SDKs are optional extras: importing dial_notebook.agents imports neither; making an agent
without its SDK raises ``MissingSDKError`` with the ``pip install`` line. The HTTP client is
the SDK's own default one, keeping idle connections for ``KEEPALIVE_SECONDS`` (the SDKs' 5 s
is less than a person takes to click) and using the process's shared TLS context (_tls.py).
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from ._errors import MissingSDKError
from ._tls import shared_context

#: Seconds an idle connection is kept for the next request (the SDKs' default is 5 s, less
#: than a person takes to click; a connection the server closed meanwhile is not reused).
KEEPALIVE_SECONDS = 60.0


def import_sdk(module: str, agent: str, extra: str) -> ModuleType:
    """The SDK module, or ``MissingSDKError`` naming the extra that installs it.

        >>> try:
        ...     import_sdk("no_such_sdk", "OpenAIAgent", "openai")
        ... except MissingSDKError as error:
        ...     print(error)
        OpenAIAgent needs the no_such_sdk package, which is not installed: pip install "dial-notebook[openai]"
    """
    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingSDKError(
            f"{agent} needs the {module} package, which is not installed: "
            f'pip install "dial-notebook[{extra}]"'
        ) from None


class Secret:
    """An API key that does not show itself in ``repr``, ``str`` or ``vars()``.

        >>> Secret("sk-1234"), str(Secret("sk-1234")), Secret.of("")
        (Secret('***'), "Secret('***')", None)
    """

    __slots__ = ("value",)

    def __init__(self, value: str) -> None:
        self.value = value

    @classmethod
    def of(cls, value: str | None) -> Secret | None:
        return cls(value) if value else None

    def __repr__(self) -> str:
        return "Secret('***')"

    __str__ = __repr__


def keepalive_client(sdk: ModuleType) -> Any:
    """The SDK's own default HTTP client keeping idle connections longer, with the process's
    shared TLS context (None, for the SDK's default, when the SDK is too old to offer it)."""
    make = getattr(sdk, "DefaultAsyncHttpxClient", None)
    limits = getattr(sdk, "DEFAULT_CONNECTION_LIMITS", None)
    if make is None or limits is None:
        return None
    tls = shared_context()
    return make(limits=type(limits)(
        max_connections=limits.max_connections,
        max_keepalive_connections=limits.max_keepalive_connections,
        keepalive_expiry=KEEPALIVE_SECONDS), **({} if tls is None else {"verify": tls}))
