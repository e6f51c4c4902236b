# The `dial-notebook` command (and `python -m dial_notebook`): what someone who pip-installed
# the package, with no checkout, needs from a terminal — the notebooks copied out, the demo
# opened in JupyterLab, DIAL replies linted (in a prompt-engineering CI too), and a saved
# conversation exported as one HTML page. Each subcommand is a module of this package (_notebooks,
# _lint, _export; the demo is here); every error is one line on stderr saying what is wrong and
# what to do, with exit status 2.
"""The ``dial-notebook`` command line.

    dial-notebook notebooks [DIR]              copy the notebooks and sample data into DIR
    dial-notebook demo [-- LAB-ARGS…]          open the quickstart in JupyterLab (no API key)
    dial-notebook lint FILE…                   lint DIAL replies: FILE:LINE:COL: SEVERITY [CODE] …
    dial-notebook export SESSION --html OUT    a saved conversation as one HTML page

``main(argv)`` runs it and returns the exit status (the console script passes it to
``sys.exit``); nothing here is imported by the package itself.

    >>> finding_line("reply.xml", Finding(2, 3, "unknown-element", "<dial-infrom> is unknown."))
    'reply.xml:2:3: error [unknown-element] <dial-infrom> is unknown.'
"""

from __future__ import annotations

import argparse
import importlib.util  # noqa: F401  (callers patch cli.importlib.util.find_spec)
import os
import shlex
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from dial_notebook._version import __version__
from dial_notebook.dial import Finding

from ._export import add_export, check_output, cmd_export, conversation_page, read_saved
from ._lint import (
    CLEAN,
    ERRORS_FOUND,
    LINT_FORMAT,
    STDIN,
    STDIN_NAME,
    USAGE,
    add_lint,
    cmd_lint,
    finding_line,
    lint_file,
    read_bytes,
    read_reply,
)
from ._notebooks import (
    DATA_EXTRA,
    LAB_EXTRA,
    MARIMO_QUICKSTART,
    NOTEBOOK_FOLDERS,
    PACKAGE,
    QUICKSTART,
    SALES,
    Shipped,
    add_notebooks,
    check_destination,
    cmd_notebooks,
    copy_file,
    copy_shipped,
    extra_hint,
    jupyterlab_installed,
    lab_hint,
    notebook_folder,
    pandas_installed,
    report_copies,
    shipped_files,
)
from ._parsing import PROG, CliError, Parser, described, subcommand, top_formatter

__all__ = [
    "CLEAN", "DATA_EXTRA", "ERRORS_FOUND", "LAB_EXTRA", "LINT_FORMAT", "MARIMO_QUICKSTART",
    "NOTEBOOK_FOLDERS", "PACKAGE", "PROG", "QUICKSTART", "QUIET_LAB", "SALES", "STDIN",
    "STDIN_NAME", "USAGE", "CliError", "Finding", "Shipped", "build_parser", "check_destination",
    "check_output", "cmd_demo", "cmd_export", "cmd_lint", "cmd_notebooks", "conversation_page",
    "copy_file", "copy_shipped", "extra_hint", "finding_line", "jupyterlab_installed",
    "lab_argv", "lab_hint", "launch_lab", "lint_file", "main", "notebook_folder",
    "pandas_installed", "parse", "read_bytes", "read_reply", "read_saved", "report_copies",
    "running_as_root", "shipped_files",
]

# defined in the subcommands' modules, shown (in tracebacks, help() and pickles) as this one's
CliError.__module__ = Shipped.__module__ = __name__


# ---- the demo ------------------------------------------------------------------------------

#: JupyterLab's own log kept to warnings: what it prints is then the address to open (its
#: token included) and anything that went wrong.
QUIET_LAB = ["--ServerApp.log_level=WARN", "--LabApp.log_level=WARN"]


def has_display() -> bool:
    """Whether a browser can open here: on Linux and the BSDs, an X or Wayland display; macOS
    and Windows always have one."""
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def lab_argv(notebook: Path, extra: Sequence[str], *, root: bool,
             display: bool = True) -> list[str]:
    """The command that opens ``notebook`` itself in JupyterLab (not the Launcher), served
    from its folder; as root it passes ``--allow-root`` (JupyterLab refuses to start
    otherwise), and without a display ``--no-browser`` (JupyterLab would warn that it found
    none), unless ``extra`` says otherwise.

        >>> lab_argv(Path("demo/quickstart.ipynb"), ["--no-browser"], root=False)[2:5]
        ['jupyterlab', 'quickstart.ipynb', '--LabApp.default_url=/lab/tree/quickstart.ipynb']
    """
    given = " ".join(extra)
    argv = [sys.executable, "-m", "jupyterlab", notebook.name]
    if "default_url" not in given:
        argv.append(f"--LabApp.default_url=/lab/tree/{notebook.name}")
    if "log_level" not in given:  # the address to open and errors; not every extension's news
        argv += QUIET_LAB
    if root and "allow-root" not in given:
        argv.append("--allow-root")
    if not display and "browser" not in given:
        argv.append("--no-browser")
    return [*argv, *extra]


def running_as_root() -> bool:
    """Whether this process runs as root (containers, cloud notebooks, CI images)."""
    return hasattr(os, "geteuid") and os.geteuid() == 0


def launch_lab(notebook: Path, extra: Sequence[str]) -> int:
    """Open ``notebook`` in JupyterLab, served from its folder; on POSIX this process becomes
    JupyterLab (so Ctrl-C and its prompts are its own), elsewhere it waits for it to exit."""
    root = running_as_root()
    if root and "allow-root" not in " ".join(extra):
        print("Running as root: JupyterLab is started with --allow-root.")
    print("Open the address JupyterLab prints below; stop it with Ctrl-C, twice.")
    argv = lab_argv(notebook, extra, root=root, display=has_display())
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        if os.name != "posix":
            return subprocess.call(argv, cwd=notebook.parent)
        os.chdir(notebook.parent)
        os.execv(sys.executable, argv)  # this process becomes JupyterLab: it does not return
        return 0
    except OSError as exc:
        raise CliError(f"could not start JupyterLab ({exc}); run it yourself: "
                       f"jupyter lab {shlex.quote(str(notebook))}") from None


def cmd_demo(args: argparse.Namespace) -> int:
    """``dial-notebook demo [-- LAB-ARGS…]``."""
    if not jupyterlab_installed():
        raise CliError(f"the demo opens JupyterLab, which is not installed here: {lab_hint()}, "
                       "then run dial-notebook demo again")
    folder = Path(tempfile.mkdtemp(prefix="dial-notebook-demo-"))
    copy_shipped(folder, force=True)
    print(f"The notebooks are in {folder} (kept after JupyterLab exits); opening "
          f"{QUICKSTART} in JupyterLab — no API key needed.")
    extra = list(args.lab_args)
    if extra[:1] == ["--"]:
        extra = extra[1:]
    return launch_lab(folder / QUICKSTART, extra)


def _add_demo(commands: Any) -> None:
    parser = subcommand(
        commands, "demo", "open the quickstart notebook in JupyterLab (no API key)",
        "Copy the notebooks into a new temporary folder and open the quickstart in JupyterLab "
        f"(an offline demo agent: no API key). Needs JupyterLab: {lab_hint()}. Arguments "
        "after -- go to JupyterLab.",
        ["dial-notebook demo", "dial-notebook demo -- --no-browser --port 8899"])
    parser.add_argument("lab_args", nargs="*", metavar="-- LAB-ARGS",
                        help="arguments for jupyter lab, after --")
    parser.set_defaults(run=cmd_demo)


def build_parser() -> argparse.ArgumentParser:
    """The command's parser, with a subparser for each subcommand."""
    parser = Parser(
        prog=PROG, formatter_class=top_formatter,
        description=described(
            "A conversation with an AI agent that speaks DIAL, inside a Jupyter notebook: "
            "copy its notebooks, open the demo, lint DIAL replies, export a saved "
            "conversation as HTML. Every error is one line on stderr, with exit status 2."),
        epilog="examples:\n  dial-notebook demo\n  dial-notebook notebooks my-notebooks\n"
               "  dial-notebook lint reply.xml\n"
               "  dial-notebook export .dial/eda.json --html eda.html\n\n"
               "Each command's help: dial-notebook COMMAND --help")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    commands = parser.add_subparsers(dest="command", parser_class=Parser)
    for add in (add_notebooks, _add_demo, add_lint, add_export):
        add(commands)
    return parser


def parse(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> argparse.Namespace:
    """The arguments, or a CliError naming what is wrong and the help to read."""
    args, unknown = parser.parse_known_args(argv)
    if args.command is None:
        raise CliError(f"name a command: notebooks, demo, lint or export (see {PROG} --help)")
    if unknown:
        after = " (arguments for JupyterLab go after --)" if args.command == "demo" else ""
        raise CliError(f"unrecognized arguments: {' '.join(unknown)}{after} "
                       f"(see {PROG} {args.command} --help)")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command with ``argv`` (default: the process's arguments); the exit status."""
    try:
        args = parse(build_parser(), argv)
        return args.run(args)
    except SystemExit as exc:  # --help, --version
        return exc.code if isinstance(exc.code, int) else 0
    except (CliError, OSError) as exc:  # OSError: a file-system failure not foreseen above
        sys.stdout.flush()
        print(f"{PROG}: {exc}", file=sys.stderr)
        return USAGE
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
