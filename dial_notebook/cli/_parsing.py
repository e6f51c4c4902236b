"""The parts every subcommand of ``dial-notebook`` shares: its one kind of error (``CliError``),
the parser that turns a usage error into one, and the layout of every help text.

    >>> Parser(prog="dial-notebook").parse_args(["--colour"])
    Traceback (most recent call last):
    ...
    dial_notebook.cli.CliError: unrecognized arguments: --colour (see dial-notebook --help)
"""

from __future__ import annotations

import argparse
import textwrap
from collections.abc import Sequence
from typing import Any, NoReturn

PROG = "dial-notebook"


class CliError(Exception):
    """Something the person can put right: printed as one line on stderr, exit status 2."""


class Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line (what is wrong, where the help is)."""

    def error(self, message: str) -> NoReturn:
        raise CliError(f"{message} (see {self.prog} --help)")


def _formatter(prog: str) -> argparse.HelpFormatter:
    """Descriptions and examples as written (wrapped here), the options aligned."""
    return argparse.RawDescriptionHelpFormatter(prog, max_help_position=30)


def top_formatter(prog: str) -> argparse.HelpFormatter:
    """The command's own help: each subcommand and its summary on one line."""
    return argparse.RawDescriptionHelpFormatter(prog, max_help_position=16)


def described(summary: str, details: str = "") -> str:
    """A description: ``summary`` wrapped to the terminal's usual width, ``details`` as is."""
    return textwrap.fill(summary, 79, break_on_hyphens=False) + (f"\n\n{details}" if details else "")


def subcommand(commands: Any, name: str, summary: str, description: str,
               examples: Sequence[str], details: str = "") -> argparse.ArgumentParser:
    """A subcommand's parser: one line in the command's help, a description and examples."""
    return commands.add_parser(name, help=summary, description=described(description, details),
                               epilog="examples:\n" + "".join(f"  {e}\n" for e in examples),
                               formatter_class=_formatter)
