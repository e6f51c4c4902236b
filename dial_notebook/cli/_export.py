"""``dial-notebook export SESSION --html OUT``: a saved conversation, read with the runtime's
checked loader, written as the one self-contained HTML page ``ChatWidget.export_html`` writes.

    >>> from pathlib import Path
    >>> check_output(Path("."), Path("session.json"), force=False)
    Traceback (most recent call last):
    ...
    dial_notebook.cli.CliError: . is a folder; name the HTML file to write, e.g. conversation.html
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ._parsing import CliError, subcommand


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
    from dial_notebook.widget import export_document, widget_transcript

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
    from dial_notebook.widget import write_document

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


def add_export(commands: Any) -> None:
    parser = subcommand(
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
