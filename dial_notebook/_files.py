"""Writing a file so that no reader, and no crash, ever sees half of it: the one way the
package writes the files a person keeps (session files, HTML exports)."""

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
