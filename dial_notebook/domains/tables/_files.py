"""What a file source holds on disk, as a short token: a rewritten file gives another.

A tables domain reads its Parquet / CSV files lazily, so a file rewritten under the same path
changes what a table holds without changing its expression. ``files_version(path)`` is a token
of the files a path or glob matches now: their sorted paths with each one's size and
``mtime_ns``, hashed. It must stay cheap (it is read when a card is proposed and again before
it runs): past ``MAX_FILES`` matched files, or ``MAX_SECONDS`` spent, it gives the constant
``UNKNOWN`` instead of listing or statting more (a rewrite is then not seen; a card is never made stale
by the check itself).

    >>> files_version("/no/such/file.parquet")
    'absent'
    >>> files_version("/no/such/folder/*.parquet")
    'none matched'
"""

from __future__ import annotations

import fnmatch
import glob
import hashlib
import os
import re
import time
from collections.abc import Iterator

#: Most files statted for one version (past it: ``UNKNOWN``).
MAX_FILES = 1_000
#: Longest a version may take (past it: ``UNKNOWN``; the listing itself is the file system's).
MAX_SECONDS = 0.03
#: The token of files too many to check: the same every time, so never "changed".
UNKNOWN = "unknown (too many files to check quickly: a rewrite is not seen)"


def files_version(path: str) -> str:
    """A token of the files ``path`` (a file, or a glob) matches: ``absent`` / ``none matched``
    when none, ``UNKNOWN`` past the bounds, else a hash of their paths, sizes and mtimes."""
    if not glob.has_magic(path):
        try:
            stat = os.stat(path)
        except OSError:
            return "absent"
        return _digest([(path, stat.st_size, stat.st_mtime_ns)])
    seen: list[tuple[str, int, int]] = []
    walk = _Walk(time.perf_counter() + MAX_SECONDS)
    try:
        for found in walk.matches(path):
            if len(seen) >= MAX_FILES:
                return UNKNOWN
            try:
                stat = os.stat(found)
            except OSError:  # gone while listed
                continue
            seen.append((found, stat.st_size, stat.st_mtime_ns))
    except _TooSlow:
        return UNKNOWN
    return _digest(sorted(seen)) if seen else "none matched"


class _TooSlow(Exception):
    pass


class _Walk:
    """The files a glob matches, listed lazily (``os.scandir``) and given up at ``deadline``:
    unlike ``glob.iglob``, a folder of a million files is not listed whole before the first
    match. ``*``, ``?`` and ``[…]`` match within a name, ``**`` any folders (none too); names
    beginning with a dot only match a part that does."""

    def __init__(self, deadline: float) -> None:
        self._deadline = deadline

    def matches(self, path: str) -> Iterator[str]:
        parts = re.split(r"[\\/]", path)
        fixed = 0
        while fixed < len(parts) and not glob.has_magic(parts[fixed]):
            fixed += 1
        root = "/".join(parts[:fixed]) or ("/" if path.startswith("/") else ".")
        return self._walk(root, parts[fixed:])

    def _walk(self, folder: str, parts: list[str]) -> Iterator[str]:
        head, rest = parts[0], parts[1:]
        if head == "**":
            if rest:
                yield from self._walk(folder, rest)
            for entry in self._scan(folder):
                if not entry.name.startswith(".") and entry.is_dir():
                    yield from self._walk(entry.path, parts)
            return
        for entry in self._scan(folder):
            if entry.name.startswith(".") and not head.startswith("."):
                continue
            if fnmatch.fnmatchcase(entry.name, head):
                if rest:
                    if entry.is_dir():
                        yield from self._walk(entry.path, rest)
                elif entry.is_file():
                    yield entry.path

    def _scan(self, folder: str) -> Iterator[os.DirEntry[str]]:
        try:
            with os.scandir(folder) as entries:
                for entry in entries:
                    if time.perf_counter() > self._deadline:
                        raise _TooSlow
                    yield entry
        except (FileNotFoundError, NotADirectoryError, PermissionError):
            return


def _digest(files: list[tuple[str, int, int]]) -> str:
    digest = hashlib.blake2b(repr(files).encode(), digest_size=8).hexdigest()
    return f"{len(files)} files:{digest}"
