"""``dial-notebook lint FILE…``: each file linted as one DIAL reply (``dial_notebook.lint``),
one line per finding, and an exit status a CI can read.

    >>> finding_line("reply.xml", Finding(2, 3, "unknown-element", "<dial-infrom> is unknown."))
    'reply.xml:2:3: error [unknown-element] <dial-infrom> is unknown.'
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path
from typing import Any

from dial_notebook.dial import Finding, lint

from ._parsing import PROG, CliError, subcommand

STDIN = "-"
STDIN_NAME = "<stdin>"
#: lint's exit statuses.
CLEAN, ERRORS_FOUND, USAGE = 0, 1, 2


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


def add_lint(commands: Any) -> None:
    parser = subcommand(
        commands, "lint", "lint DIAL replies: FILE:LINE:COL: SEVERITY [CODE] message",
        "Lint each FILE as one agent reply in DIAL, as dial_notebook.lint() does; - reads "
        "standard input.",
        ["dial-notebook lint reply.xml", "dial-notebook lint replies/*.xml",
         "my-agent --once | dial-notebook lint -"],
        LINT_FORMAT)
    parser.add_argument("files", nargs="+", metavar="FILE",
                        help="a reply file (UTF-8), or - for standard input")
    parser.set_defaults(run=cmd_lint)
