"""``dial-notebook notebooks [DIR]``: the notebooks and the sample data the package ships,
copied into a folder (each file whole or not at all), and how to open them.

    >>> [shipped.name for shipped in shipped_files()][0]
    'quickstart.ipynb'
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import os
import shlex
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ._parsing import CliError, subcommand

#: The package's folder (dial_notebook/).
PACKAGE = Path(__file__).resolve().parent.parent
#: Where the notebooks are: inside an installed wheel (pyproject's force-include), else in the
#: checkout beside the package (an editable install, the source tree).
NOTEBOOK_FOLDERS = (PACKAGE / "_notebooks", PACKAGE.parent / "notebooks")
QUICKSTART = "quickstart.ipynb"
#: The quickstart as a marimo notebook (``marimo edit`` / ``marimo run``).
MARIMO_QUICKSTART = "quickstart_marimo.py"
#: The sample data set the package ships (``dial_notebook.load_sales`` reads it).
SALES = PACKAGE / "domains" / "data" / "sales.csv"
#: pyproject's optional dependencies that bring JupyterLab, and pandas for the EDA notebook.
LAB_EXTRA = "notebook"
DATA_EXTRA = "data"
#: The notebook that puts an agent on an MCP server, and the extra it needs.
MCP_NOTEBOOK = "mcp-tools.ipynb"
#: The notebook on a large Parquet data set, and the extra it needs (Ibis and DuckDB).
AT_SCALE_NOTEBOOK = "eda-at-scale.ipynb"
TABLES_EXTRA = "tables"
MCP_EXTRA = "mcp"


@dataclass(frozen=True)
class Shipped:
    """A file the package ships for people to copy: where it is and the name it gets."""

    source: Path
    name: str


def notebook_folder() -> Path:
    """The folder holding the notebooks: the wheel's ``dial_notebook/_notebooks``, else the
    checkout's ``notebooks/``."""
    for folder in NOTEBOOK_FOLDERS:
        if (folder / QUICKSTART).is_file():
            return folder
    raise CliError("this installation of dial-notebook has no notebooks (looked in "
                   f"{NOTEBOOK_FOLDERS[0]} and {NOTEBOOK_FOLDERS[1]}); reinstall it with "
                   "pip install --force-reinstall dial-notebook")


def shipped_files() -> list[Shipped]:
    """The notebooks (the quickstart first, its marimo version last) and the sample data, as
    they are copied."""
    folder = notebook_folder()
    notebooks = sorted(folder.glob("*.ipynb"), key=lambda p: (p.name != QUICKSTART, p.name))
    if (folder / MARIMO_QUICKSTART).is_file():
        notebooks.append(folder / MARIMO_QUICKSTART)
    if not SALES.is_file():
        raise CliError(f"the sample data {SALES} is missing; reinstall dial-notebook with "
                       "pip install --force-reinstall dial-notebook")
    return [*(Shipped(p, p.name) for p in notebooks), Shipped(SALES, SALES.name)]


def check_destination(folder: Path, *, force: bool) -> None:
    """Refuse a destination that is a file, or a folder with something in it (unless forced)."""
    if folder.exists() and not folder.is_dir():
        raise CliError(f"{folder} is a file, not a folder; name a new folder to copy the "
                       "notebooks into")
    if folder.is_dir() and not force and any(folder.iterdir()):
        raise CliError(f"{folder} already exists and is not empty; name another folder, or "
                       "add --force to overwrite the files of the same names (nothing else "
                       "in it is touched)")


def copy_file(source: Path, target: Path) -> None:
    """Copy ``source`` to ``target`` whole or not at all (a temporary file, then a rename; a
    symbolic link at ``target`` is replaced, never written through)."""
    if target.is_dir() and not target.is_symlink():
        raise CliError(f"{target} is a folder; move it away to copy {target.name} there")
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp",
                                         dir=target.parent)
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(source.read_bytes())
        os.chmod(temporary, 0o644)  # mkstemp makes it 0600
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def copy_shipped(folder: Path, *, force: bool) -> list[Path]:
    """Copy every shipped file into ``folder`` (made when missing); the paths written."""
    files = shipped_files()
    try:
        check_destination(folder, force=force)
        folder.mkdir(parents=True, exist_ok=True)
        written = []
        for shipped in files:
            copy_file(shipped.source, folder / shipped.name)
            written.append(folder / shipped.name)
    except OSError as exc:
        raise CliError(f"cannot write into {folder}: {exc.strerror or exc}; choose a folder "
                       "you can write to") from None
    return written


def jupyterlab_installed() -> bool:
    """Whether JupyterLab can be imported here."""
    return importlib.util.find_spec("jupyterlab") is not None


def pandas_installed() -> bool:
    """Whether pandas (for the EDA notebook) can be imported here."""
    return importlib.util.find_spec("pandas") is not None


def mcp_installed() -> bool:
    """Whether the MCP SDK and the git server (for the MCP notebook) can be imported here."""
    return all(importlib.util.find_spec(name) is not None for name in ("mcp", "mcp_server_git"))


def tables_installed() -> bool:
    """Whether Ibis and DuckDB (for the at-scale notebook) can be imported here."""
    return all(importlib.util.find_spec(name) is not None for name in ("ibis", "duckdb"))


def lab_hint() -> str:
    """How to get JupyterLab (and pandas, for the EDA notebook)."""
    return f'pip install "dial-notebook[{LAB_EXTRA},{DATA_EXTRA}]"'


def extra_hint(tool: str) -> str:
    """'' when ``tool`` (voila, marimo: each the name of its extra) is installed here, else
    how to install it, to follow the command that needs it.

        >>> extra_hint("no-such-tool")
        ' (not installed here: pip install "dial-notebook[no-such-tool]")'
    """
    if importlib.util.find_spec(tool) is not None:
        return ""
    return f' (not installed here: pip install "dial-notebook[{tool}]")'


def report_copies(folder: Path, written: list[Path]) -> None:
    """Say what was written and how to open it."""
    print(f"Copied {len(written)} files into {folder}{os.sep}:")
    for path in written:
        print(f"  {path.name}")
    print("Open the quickstart (an offline demo agent: no API key needed) with:")
    print(f"  jupyter lab {shlex.quote(str(folder / QUICKSTART))}")
    print(f"or as an app, with no code showing: voila {shlex.quote(str(folder / QUICKSTART))}"
          f"{extra_hint('voila')}")
    if (folder / MARIMO_QUICKSTART).is_file():
        print(f"or in marimo: marimo edit {shlex.quote(str(folder / MARIMO_QUICKSTART))}"
              f"{extra_hint('marimo')}")
    if not jupyterlab_installed():
        print(f"JupyterLab is not installed here: {lab_hint()}")
    elif not pandas_installed():
        print(f'eda-assistant.ipynb needs pandas: pip install "dial-notebook[{DATA_EXTRA}]"')
    if not tables_installed():
        print(f'{AT_SCALE_NOTEBOOK} needs Ibis and DuckDB: pip install "dial-notebook[{TABLES_EXTRA}]"')
    if not mcp_installed():
        print(f"{MCP_NOTEBOOK} needs the MCP SDK and the git server: "
              f'pip install "dial-notebook[{MCP_EXTRA}]"')


def cmd_notebooks(args: argparse.Namespace) -> int:
    """``dial-notebook notebooks [DIR]``."""
    folder = Path(args.dir)
    report_copies(folder, copy_shipped(folder, force=args.force))
    return 0


def add_notebooks(commands: Any) -> None:
    parser = subcommand(
        commands, "notebooks", "copy the notebooks and the sample data into a folder",
        "Copy the notebooks (quickstart, eda-assistant, eda-at-scale, teaching-dial, "
        "prototyping-a-domain, "
        "evaluating-a-domain, mcp-tools, and the quickstart for marimo) "
        f"and the sample data ({SALES.name}) into DIR, then say how to open them. The "
        "quickstart needs no API key.",
        ["dial-notebook notebooks", "dial-notebook notebooks ~/dial --force",
         "jupyter lab dial-notebooks/quickstart.ipynb"])
    parser.add_argument("dir", nargs="?", default="dial-notebooks", metavar="DIR",
                        help="the folder to copy into (default: dial-notebooks, here)")
    parser.add_argument("--force", action="store_true",
                        help="copy into a folder that is not empty, overwriting the files of "
                             "the same names (nothing else is deleted)")
    parser.set_defaults(run=cmd_notebooks)
