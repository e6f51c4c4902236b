"""Keyword options written once, as a ``TypedDict``, and still shown as real parameters.

Several functions take the same options (``SchemaDomain.action`` and ``add_action``; the two
LLM agents). Each takes ``**options: Unpack[SomeOptions]`` — one typed list, no copies — and
``keyword_signature`` gives it the signature a person expects in ``help()`` and an editor:
one keyword-only parameter per option, with its type and default.

    >>> from typing import TypedDict
    >>> class Colour(TypedDict, total=False):
    ...     red: int
    >>> def paint(wall: str, **options): ...
    >>> paint.__signature__ = keyword_signature(paint, Colour, {"red": 0})
    >>> import inspect; str(inspect.signature(paint))
    "(wall: 'str', *, red: 'int' = 0)"
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import Any


def keyword_signature(function: Callable[..., Any], options: type, defaults: Mapping[str, Any],
                      *, rest: str | None = None) -> inspect.Signature:
    """``function``'s signature with its ``**options`` replaced by the keys of ``options``
    (a TypedDict) as keyword-only parameters; ``rest`` keeps a ``**rest`` after them (options
    passed through, e.g. to an SDK)."""
    signature = inspect.signature(function)
    kept = [p for p in signature.parameters.values() if p.kind is not p.VAR_KEYWORD]
    annotations = {}
    for base in reversed(options.__mro__):  # a TypedDict's own and its bases' keys, in order
        annotations.update(getattr(base, "__annotations__", {}))
    named = [inspect.Parameter(key, inspect.Parameter.KEYWORD_ONLY,
                               default=defaults.get(key, inspect.Parameter.empty),
                               annotation=getattr(annotation, "__forward_arg__", annotation))
             for key, annotation in annotations.items()]
    tail = [inspect.Parameter(rest, inspect.Parameter.VAR_KEYWORD, annotation="Any")] if rest \
        else []
    return signature.replace(parameters=[*kept, *named, *tail])
