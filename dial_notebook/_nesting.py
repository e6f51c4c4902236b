"""How deeply a JSON-like value nests: the one measure every reader of untrusted JSON bounds.

Shared by the language layer (a payload's JSON, dial/_build.py), the readers of files
(_data_files.py) and the domains' validator: each refuses a value nested deeper than it reads.
"""

from __future__ import annotations

from typing import Any


def nesting_depth(value: Any, limit: int) -> int:
    """How deeply ``value`` nests (dicts, lists, tuples), counting up to ``limit + 1``.

    Level by level, without recursion, so a cyclic Python value stops at the limit too.

        >>> nesting_depth({"a": [1, {"b": 2}]}, 10), nesting_depth([[[[]]]], 2)
        (3, 3)
    """
    depth = 0
    level = [value]
    while level:
        nodes = [node for node in level if isinstance(node, dict | list | tuple)]
        if not nodes:
            break
        depth += 1
        if depth > limit:
            break
        level = []
        for node in nodes:
            level.extend(node.values() if isinstance(node, dict) else node)
    return depth
