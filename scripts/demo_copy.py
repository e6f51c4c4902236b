"""The demo's working copy of the notebooks: ``./scripts/dev demo`` serves ``.demo/`` (in the
checkout, git-ignored), never ``notebooks/``, so what the demo runs and saves (outputs, your
edits) stays out of the tracked notebooks and out of a wheel built from the checkout.

    python scripts/demo_copy.py [SOURCE [TARGET]]        (default: notebooks .demo)

Each notebook of SOURCE (``*.ipynb`` and the marimo quickstart) is copied into TARGET when it
is missing there; refreshed when SOURCE has a newer one and you have not changed the copy
(its bytes are still those copied, recorded in ``TARGET/.copied.json``); kept when you have
changed it (ran and saved it, edited it), with a line saying how to take the new one. Delete
``.demo/`` to start afresh.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

#: What is copied: the notebooks and the quickstart's marimo version.
PATTERNS = ("*.ipynb", "quickstart_marimo.py")
RECORD = ".copied.json"


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def copy_notebooks(source: Path, target: Path) -> list[str]:
    """Bring ``target`` up to date with ``source`` (see the header); the names written.

        >>> copy_notebooks(Path("notebooks"), Path(".demo"))  # doctest: +SKIP
        ['quickstart.ipynb', …]
    """
    target.mkdir(parents=True, exist_ok=True)
    record_path = target / RECORD
    try:
        copied = json.loads(record_path.read_text())
        copied = copied if isinstance(copied, dict) else {}
    except (OSError, ValueError):
        copied = {}
    written = []
    for path in sorted(p for pattern in PATTERNS for p in source.glob(pattern)):
        mine = target / path.name
        new = _digest(path)
        if mine.is_file() and not mine.is_symlink():
            now = _digest(mine)
            if now == new:
                copied[path.name] = new
                continue
            if now != copied.get(path.name):  # the person changed it: theirs stays
                if new != copied.get(path.name):  # and there is a newer one to say
                    print(f"{target.name}/{path.name}: kept your copy; {source.name}/ has a "
                          f"newer one (delete {target / path.name} to take it)")
                continue
        temporary = mine.with_name(f".{path.name}.tmp")
        temporary.write_bytes(path.read_bytes())
        os.replace(temporary, mine)
        copied[path.name] = new
        written.append(path.name)
    record_path.write_text(json.dumps(copied, indent=1, sort_keys=True) + "\n")
    return written


if __name__ == "__main__":
    arguments = sys.argv[1:]
    copy_notebooks(Path(arguments[0] if arguments else "notebooks"),
                   Path(arguments[1] if len(arguments) > 1 else ".demo"))
