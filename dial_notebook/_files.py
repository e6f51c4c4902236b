"""Writing a file so that no reader, and no crash, ever sees half of it: the one way the
package writes the files a person keeps (session files, HTML exports).

    write_atomically(path, text)   a temporary file beside it, then one rename over it
    append_durably(path, data)     bytes added at its end, flushed to disk; a failed write is
                                   cut off again (a killed process may leave part of it: the
                                   reader of such a file ignores an unfinished end, and the next
                                   save of the file rewrites it whole)
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def write_atomically(path: str | os.PathLike[str], text: str) -> Path:
    """Write ``text`` to ``path`` as UTF-8: a temporary file beside it, flushed to disk, then
    one rename over it. A reader (or a crash) sees the old file or the new one; a failed write
    leaves the old one. The folder is made when missing; a new file is readable by all (0644),
    an existing one keeps its mode.

        >>> import tempfile, pathlib
        >>> folder = pathlib.Path(tempfile.mkdtemp())
        >>> write_atomically(folder / "a" / "b.txt", "hi").read_text()
        'hi'
    """
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    folder.mkdir(parents=True, exist_ok=True)
    mode = target.stat().st_mode & 0o777 if target.exists() else 0o644
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp",
                                         dir=folder)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(temporary, mode)  # mkstemp makes it 0600
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    return target


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def append_durably(path: str | os.PathLike[str], data: bytes) -> os.stat_result:
    """Add ``data`` at the end of the existing file ``path``, flushed to disk; returns the
    file's status after. When the write fails, the file is cut back to its size before and
    the error raised.

        >>> import tempfile, pathlib
        >>> file = pathlib.Path(tempfile.mkdtemp()) / "log.txt"
        >>> _ = file.write_text("a\\n")
        >>> append_durably(file, b"b\\n").st_size, file.read_text()
        (4, 'a\\nb\\n')
    """
    fd = os.open(path, os.O_WRONLY | os.O_APPEND)
    try:
        size = os.fstat(fd).st_size
        try:
            _write_all(fd, data)
            getattr(os, "fdatasync", os.fsync)(fd)  # the data and the size, not the times
        except BaseException:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, size)
            raise
        return os.fstat(fd)
    finally:
        os.close(fd)
