# The `dial-notebook` command (and `python -m dial_notebook`): what someone who pip-installed
# the package, with no checkout, needs from a terminal — the notebooks copied out, the demo
# opened in JupyterLab, DIAL replies linted (in a prompt-engineering CI too), and a saved
# conversation exported as one HTML page. Each subcommand is one small function below; every
# error is one line on stderr saying what is wrong and what to do, with exit status 2.
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
import contextlib
import importlib.util
import os
import shlex
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

from dial_notebook._version import __version__
from dial_notebook.dial import Finding, lint

PROG = "dial-notebook"
PACKAGE = Path(__file__).resolve().parent
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
STDIN = "-"
STDIN_NAME = "<stdin>"
#: lint's exit statuses.
CLEAN, ERRORS_FOUND, USAGE = 0, 1, 2


class CliError(Exception):
    """Something the person can put right: printed as one line on stderr, exit status 2."""


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line (what is wrong, where the help is)."""

    def error(self, message: str) -> NoReturn:
        raise CliError(f"{message} (see {self.prog} --help)")


# ---- copying the notebooks -----------------------------------------------------------------

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


def cmd_notebooks(args: argparse.Namespace) -> int:
    """``dial-notebook notebooks [DIR]``."""
    folder = Path(args.dir)
    report_copies(folder, copy_shipped(folder, force=args.force))
    return 0


# ---- the demo ------------------------------------------------------------------------------

#: JupyterLab's own log kept to warnings: what it prints is then the address to open (its
#: token included) and anything that went wrong.
QUIET_LAB = ["--ServerApp.log_level=WARN", "--LabApp.log_level=WARN"]


def lab_argv(notebook: Path, extra: Sequence[str], *, root: bool) -> list[str]:
    """The command that opens ``notebook`` itself in JupyterLab (not the Launcher), served
    from its folder; as root it passes ``--allow-root`` (JupyterLab refuses to start
    otherwise), unless ``extra`` says otherwise.

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
    argv = lab_argv(notebook, extra, root=root)
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


# ---- lint ----------------------------------------------------------------------------------

def read_bytes(name: str) -> bytes:
    """The bytes of the file ``name`` (``-``: standard input)."""
    if name == STDIN:
        stream = getattr(sys.stdin, "buffer", None)
        return stream.read() if stream is not None else sys.stdin.read().encode("utf-8")
    path = Path(name)
    if path.is_dir():
        raise CliError(f"{name}: is a folder, not a reply; name the files in it "
                       f"(e.g. {shlex.quote(name.rstrip('/'))}/*.xml)")
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise CliError(f"{name}: no such file; check the path") from None
    except OSError as exc:
        raise CliError(f"{name}: cannot be read ({exc.strerror or exc})") from None


def read_reply(name: str) -> str:
    """The text of one reply file, decoded as UTF-8 (a leading byte-order mark dropped)."""
    label = STDIN_NAME if name == STDIN else name
    data = read_bytes(name)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CliError(f"{label}: not UTF-8 (byte 0x{data[exc.start]:02x} at offset "
                       f"{exc.start}); re-save it as UTF-8") from None
    return text.removeprefix("\ufeff")


def finding_line(label: str, finding: Finding) -> str:
    """One finding as one line: ``FILE:LINE:COL: SEVERITY [CODE] message``."""
    message = " ".join(str(finding.message).splitlines())
    return f"{label}:{finding.line}:{finding.column}: {finding.severity} [{finding.code}] {message}"


def lint_file(name: str) -> list[Finding]:
    """Lint one file as one DIAL reply, printing its findings; the findings."""
    label = STDIN_NAME if name == STDIN else name
    findings = lint(read_reply(name))
    for finding in findings:
        print(finding_line(label, finding))
    return findings


def cmd_lint(args: argparse.Namespace) -> int:
    """``dial-notebook lint FILE…``: 2 when a file could not be read, else 1 when a finding is
    an error, else 0."""
    unreadable = errors = False
    for name in args.files:
        try:
            findings = lint_file(name)
        except CliError as exc:
            sys.stdout.flush()
            print(f"{PROG}: {exc}", file=sys.stderr)
            unreadable = True
            continue
        errors = errors or any(f.severity == "error" for f in findings)
    return USAGE if unreadable else ERRORS_FOUND if errors else CLEAN


# ---- export --------------------------------------------------------------------------------

def read_saved(session: Path) -> dict[str, Any]:
    """The saved conversation at ``session``, read with the runtime's checked loader."""
    from dial_notebook.runtime import SnapshotError, load_snapshot

    if session.is_dir():
        raise CliError(f"{session}: is a folder; name the saved conversation's .json file "
                       "(a ChatWidget session= file is in .dial/ beside its notebook)")
    try:
        return load_snapshot(session)
    except SnapshotError as exc:
        raise CliError(f"{exc}; nothing was written (give a file made by ChatWidget(session=…) "
                       "or chat.save())") from None


def conversation_page(saved: dict[str, Any]) -> tuple[str, int]:
    """The page ``ChatWidget.export_html`` writes for this conversation, and its events."""
    from dial_notebook.runtime import SnapshotError
    from dial_notebook.widget._session import widget_transcript
    from dial_notebook.widget._static import export_document

    try:
        transcript = widget_transcript(saved, draw_charts=True)  # not a kernel: may wait
    except SnapshotError as exc:
        raise CliError(f"{exc}; nothing was written") from None
    surface = saved.get("surface")
    title = surface.get("title") if isinstance(surface, dict) else None
    page = export_document(transcript, title=title if isinstance(title, str) else "")
    return page, len(transcript)


def check_output(out: Path, session: Path, *, force: bool) -> None:
    """Refuse an output that is a folder, the session itself, or a file (unless forced)."""
    if out.is_dir():
        raise CliError(f"{out} is a folder; name the HTML file to write, e.g. "
                       f"{out / 'conversation.html'}")
    if out.exists() and session.exists() and out.resolve() == session.resolve():
        raise CliError(f"{out} is the saved conversation itself; name another file for the HTML")
    if out.exists() and not force:
        raise CliError(f"{out} already exists; add --force to overwrite it, or name another file")


def cmd_export(args: argparse.Namespace) -> int:
    """``dial-notebook export SESSION.json --html OUT.html``."""
    from dial_notebook.widget._static import write_document

    session, out = Path(args.session), Path(args.html)
    check_output(out, session, force=args.force)
    page, events = conversation_page(read_saved(session))
    try:
        write_document(out, page)
    except OSError as exc:
        raise CliError(f"cannot write {out}: {exc.strerror or exc}; choose a folder you can "
                       "write to") from None
    print(f"Wrote {out}: the conversation ({events} entries) as one HTML page that needs no "
          "network and no script.")
    return 0


# ---- the parser ----------------------------------------------------------------------------

LINT_FORMAT = """\
output: one line per finding, in reply order:
  FILE:LINE:COL: SEVERITY [CODE] message
  SEVERITY is error, warning or info; standard input is shown as <stdin>; a clean
  reply prints nothing; a file that cannot be read is one line on stderr, and the
  other files are still linted.

exit status:
  0  no finding is an error (warnings and info may be printed)
  1  some finding is an error
  2  a file could not be read (missing, a folder, not UTF-8), or a usage error"""


def _formatter(prog: str) -> argparse.HelpFormatter:
    """Descriptions and examples as written (wrapped here), the options aligned."""
    return argparse.RawDescriptionHelpFormatter(prog, max_help_position=30)


def _top_formatter(prog: str) -> argparse.HelpFormatter:
    """The command's own help: each subcommand and its summary on one line."""
    return argparse.RawDescriptionHelpFormatter(prog, max_help_position=16)


def _described(summary: str, details: str = "") -> str:
    """A description: ``summary`` wrapped to the terminal's usual width, ``details`` as is."""
    return textwrap.fill(summary, 79, break_on_hyphens=False) + (f"\n\n{details}" if details else "")


def _subcommand(commands: Any, name: str, summary: str, description: str,
                examples: Sequence[str], details: str = "") -> argparse.ArgumentParser:
    """A subcommand's parser: one line in the command's help, a description and examples."""
    return commands.add_parser(name, help=summary, description=_described(description, details),
                               epilog="examples:\n" + "".join(f"  {e}\n" for e in examples),
                               formatter_class=_formatter)


def _add_notebooks(commands: Any) -> None:
    parser = _subcommand(
        commands, "notebooks", "copy the notebooks and the sample data into a folder",
        "Copy the notebooks (quickstart, eda-assistant, teaching-dial, prototyping-a-domain, "
        "evaluating-a-domain, and the quickstart for marimo) "
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


def _add_demo(commands: Any) -> None:
    parser = _subcommand(
        commands, "demo", "open the quickstart notebook in JupyterLab (no API key)",
        "Copy the notebooks into a new temporary folder and open the quickstart in JupyterLab "
        f"(an offline demo agent: no API key). Needs JupyterLab: {lab_hint()}. Arguments "
        "after -- go to JupyterLab.",
        ["dial-notebook demo", "dial-notebook demo -- --no-browser --port 8899"])
    parser.add_argument("lab_args", nargs="*", metavar="-- LAB-ARGS",
                        help="arguments for jupyter lab, after --")
    parser.set_defaults(run=cmd_demo)


def _add_lint(commands: Any) -> None:
    parser = _subcommand(
        commands, "lint", "lint DIAL replies: FILE:LINE:COL: SEVERITY [CODE] message",
        "Lint each FILE as one agent reply in DIAL, as dial_notebook.lint() does; - reads "
        "standard input.",
        ["dial-notebook lint reply.xml", "dial-notebook lint replies/*.xml",
         "my-agent --once | dial-notebook lint -"],
        LINT_FORMAT)
    parser.add_argument("files", nargs="+", metavar="FILE",
                        help="a reply file (UTF-8), or - for standard input")
    parser.set_defaults(run=cmd_lint)


def _add_export(commands: Any) -> None:
    parser = _subcommand(
        commands, "export", "write a saved conversation as one self-contained HTML page",
        "Write a saved conversation (a ChatWidget session= file, kept in .dial/ beside its "
        "notebook, or a chat.save() file) as one HTML page, as chat.export_html() writes it: "
        "it needs no network and no script. A card still waiting when the file was saved is "
        "shown as proposed.",
        ["dial-notebook export .dial/eda.json --html eda.html",
         "dial-notebook export monday.json --html monday.html --force"])
    parser.add_argument("session", metavar="SESSION.json", help="the saved conversation")
    parser.add_argument("--html", required=True, metavar="OUT.html",
                        help="the HTML file to write")
    parser.add_argument("--force", action="store_true", help="overwrite OUT.html if it exists")
    parser.set_defaults(run=cmd_export)


def build_parser() -> argparse.ArgumentParser:
    """The command's parser, with a subparser for each subcommand."""
    parser = _Parser(
        prog=PROG, formatter_class=_top_formatter,
        description=_described(
            "A conversation with an AI agent that speaks DIAL, inside a Jupyter notebook: "
            "copy its notebooks, open the demo, lint DIAL replies, export a saved "
            "conversation as HTML. Every error is one line on stderr, with exit status 2."),
        epilog="examples:\n  dial-notebook demo\n  dial-notebook notebooks my-notebooks\n"
               "  dial-notebook lint reply.xml\n"
               "  dial-notebook export .dial/eda.json --html eda.html\n\n"
               "Each command's help: dial-notebook COMMAND --help")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    commands = parser.add_subparsers(dest="command", parser_class=_Parser)
    for add in (_add_notebooks, _add_demo, _add_lint, _add_export):
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
