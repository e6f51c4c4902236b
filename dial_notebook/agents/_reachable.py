"""How the person can reach an object from their notebook: the name it is bound to there.

The offline demo agents tell the person how to take a change back (``notes.undo_last()``);
the hint must name a variable that exists. In a kernel the notebook's namespace is IPython's
``user_ns``; elsewhere (a script, a test) there is no such name and a description stands in.

    >>> undo_hint(object())
    "the domain's undo_last()"
"""

from __future__ import annotations

import sys
from typing import Any


def notebook_name(value: Any) -> str | None:
    """The notebook variable bound to ``value`` (a public name), or None."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    namespace = getattr(shell, "user_ns", None)
    if not isinstance(namespace, dict):
        return None
    return next((name for name, bound in list(namespace.items())
                 if bound is value and not name.startswith("_")), None)


def undo_hint(domain: Any) -> str:
    """``notes.undo_last()`` when the domain is the notebook's ``notes``, else a description."""
    name = notebook_name(domain)
    return f"{name}.undo_last()" if name else "the domain's undo_last()"
