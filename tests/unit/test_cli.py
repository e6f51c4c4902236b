"""The ``dial-notebook`` command (dial_notebook/cli.py), run in-process with ``cli.main``:
the notebooks copied byte for byte, the demo handed to a launcher (no JupyterLab started), lint's
one line per finding and exit statuses, a saved conversation exported as the widget exports
it — and every error one line on stderr, exit status 2."""

from __future__ import annotations

import asyncio
import io
import json
import subprocess
import sys
import tempfile
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from dial_notebook import cli
from dial_notebook.domains.notes import NotesDomain
from dial_notebook.runtime import load_snapshot
from dial_notebook.widget import ChatWidget

from .runtime_doubles import until

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))
MARIMO = "quickstart_marimo.py"
SALES = Path(str(resources.files("dial_notebook.domains").joinpath("data", "sales.csv")))
COPIED = [*NOTEBOOKS, MARIMO, "sales.csv"]

CLEAN = '<dial version="0.1" actor="agent"><dial-inform>hi</dial-inform></dial>\n'
BROKEN = ('<dial version="0.1" actor="agent">\n'
          '  <dial-inform colour="red">hi</dial-inform>\n'
          '  <dial-suggest id="add" action="add-note">Add it?<dial-payload>{"text": }'
          "</dial-payload></dial-suggest>\n"
          "</dial>\n")
BROKEN_LINES = [
    "2:3: warning [unknown-attribute] <dial-inform> has no attribute 'colour' in DIAL v0.1; a "
    "runtime ignores it.",
    "3:51: error [invalid-json] The <dial-payload> is declared as application/json but is not "
    "valid JSON. Not valid JSON: Expecting value (line 1, column 10). Check quotes (JSON needs "
    "double quotes) and trailing commas.",
]
WARNED = '<dial version="0.1" actor="agent"><dial-inform colour="red">hi</dial-inform></dial>'

REPLY = ('<dial version="0.1" actor="agent"><dial-inform>One note coming up.</dial-inform>'
         '<dial-suggest id="add" action="add-note">Add it?'
         '<dial-payload>{"text": "buy milk"}</dial-payload></dial-suggest></dial>')
THANKS = '<dial version="0.1" actor="agent"><dial-acknowledge>Added.</dial-acknowledge></dial>'


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``dial-notebook argv…`` in-process: its exit status, stdout and stderr."""
    status = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def one_line(err: str) -> str:
    """The error as printed: exactly one line, no traceback."""
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert "Traceback" not in err
    assert err.startswith("dial-notebook: ")
    return err.strip()


def assert_copied(folder: Path) -> None:
    assert sorted(p.name for p in folder.iterdir()) == sorted(COPIED)
    for name in [*NOTEBOOKS, MARIMO]:
        assert (folder / name).read_bytes() == (ROOT / "notebooks" / name).read_bytes(), name
    assert (folder / "sales.csv").read_bytes() == SALES.read_bytes()


# ---- notebooks -------------------------------------------------------------------------------

def test_the_notebooks_the_marimo_quickstart_and_the_sales_data_are_shipped():
    assert NOTEBOOKS == ["eda-assistant.ipynb", "eda-at-scale.ipynb", "evaluating-a-domain.ipynb",
                         "mcp-tools.ipynb", "prototyping-a-domain.ipynb", "quickstart.ipynb",
                         "teaching-dial.ipynb"]
    assert (ROOT / "notebooks" / MARIMO).is_file()
    assert SALES.is_file() and cli.SALES.read_bytes() == SALES.read_bytes()


def test_notebooks_copies_them_byte_for_byte_and_says_how_to_open_them(tmp_path, capsys):
    folder = tmp_path / "mine"
    status, out, err = run(capsys, "notebooks", folder)
    assert (status, err) == (0, "")
    assert_copied(folder)
    assert out.splitlines()[:4] == [f"Copied 9 files into {folder}/:", "  quickstart.ipynb",
                                    "  eda-assistant.ipynb", "  eda-at-scale.ipynb"]
    assert out.splitlines()[8:10] == [f"  {MARIMO}", "  sales.csv"]
    assert f"jupyter lab {folder}/quickstart.ipynb" in out
    assert f"voila {folder}/quickstart.ipynb" in out
    assert f"marimo edit {folder}/{MARIMO}" in out
    assert "no API key" in out


@pytest.mark.parametrize("missing", [(), ("mcp",), ("mcp_server_git",)])
def test_notebooks_says_what_the_mcp_notebook_needs_when_it_is_not_installed(
        tmp_path, capsys, monkeypatch, missing):
    found = cli.importlib.util.find_spec
    monkeypatch.setattr(cli.importlib.util, "find_spec",
                        lambda name, *rest: None if name in missing else found(name, *rest))
    status, out, _ = run(capsys, "notebooks", tmp_path / "mine")
    assert status == 0
    said = 'mcp-tools.ipynb needs the MCP SDK and the git server: pip install "dial-notebook[mcp]"'
    assert (said in out) == bool(missing), out


@pytest.mark.parametrize("missing", [(), ("ibis",), ("duckdb",)])
def test_notebooks_says_what_the_at_scale_notebook_needs_when_it_is_not_installed(
        tmp_path, capsys, monkeypatch, missing):
    found = cli.importlib.util.find_spec
    monkeypatch.setattr(cli.importlib.util, "find_spec",
                        lambda name, *rest: None if name in missing else found(name, *rest))
    status, out, _ = run(capsys, "notebooks", tmp_path / "mine")
    assert status == 0
    said = 'eda-at-scale.ipynb needs Ibis and DuckDB: pip install "dial-notebook[tables]"'
    assert (said in out) == bool(missing), out


@pytest.mark.parametrize("missing", [(), ("voila",), ("marimo",), ("voila", "marimo")])
def test_notebooks_names_the_extra_of_a_tool_it_suggests_that_is_not_installed(
        tmp_path, capsys, monkeypatch, missing):
    found = cli.importlib.util.find_spec
    monkeypatch.setattr(cli.importlib.util, "find_spec",
                        lambda name, *rest: None if name in missing else found(name, *rest))
    folder = tmp_path / "mine"
    status, out, _ = run(capsys, "notebooks", folder)
    assert status == 0
    voila = next(line for line in out.splitlines() if "voila " in line)
    marimo = next(line for line in out.splitlines() if "marimo edit" in line)
    for tool, line in (("voila", voila), ("marimo", marimo)):
        install = f'pip install "dial-notebook[{tool}]"'
        assert (install in line) == (tool in missing), line


def test_notebooks_defaults_to_a_dial_notebooks_folder_here(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    status, out, _ = run(capsys, "notebooks")
    assert status == 0
    assert_copied(tmp_path / "dial-notebooks")
    assert "jupyter lab dial-notebooks/quickstart.ipynb" in out


def test_an_empty_existing_folder_is_used(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    assert run(capsys, "notebooks", tmp_path / "empty")[0] == 0
    assert_copied(tmp_path / "empty")


def test_a_folder_with_something_in_it_is_refused_and_force_overwrites_only_same_names(
        tmp_path, capsys):
    folder = tmp_path / "busy"
    folder.mkdir()
    (folder / "quickstart.ipynb").write_text("my own edits")
    (folder / "notes.txt").write_text("keep me")
    status, out, err = run(capsys, "notebooks", folder)
    assert (status, out) == (2, "")
    line = one_line(err)
    assert f"{folder} already exists and is not empty" in line
    assert "another folder" in line and "--force" in line
    assert (folder / "quickstart.ipynb").read_text() == "my own edits"  # nothing touched

    assert run(capsys, "notebooks", folder, "--force")[0] == 0
    assert (folder / "notes.txt").read_text() == "keep me"  # nothing else deleted
    (folder / "notes.txt").unlink()
    assert_copied(folder)


def test_a_destination_that_is_a_file_is_refused(tmp_path, capsys):
    target = tmp_path / "file.txt"
    target.write_text("x")
    for extra in ([], ["--force"]):
        status, _, err = run(capsys, "notebooks", target, *extra)
        assert status == 2
        assert f"{target} is a file, not a folder" in one_line(err)
    assert target.read_text() == "x"


def test_force_does_not_replace_a_folder_of_the_same_name(tmp_path, capsys):
    (tmp_path / "quickstart.ipynb").mkdir()
    status, _, err = run(capsys, "notebooks", tmp_path, "--force")
    assert status == 2
    assert "quickstart.ipynb is a folder" in one_line(err)
    assert (tmp_path / "quickstart.ipynb").is_dir()


# ---- demo ------------------------------------------------------------------------------------

def test_demo_copies_into_a_new_temporary_folder_and_launches_the_quickstart(
        tmp_path, capsys, monkeypatch):
    launched: list[tuple[Path, list[str]]] = []
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # mkdtemp makes it here
    monkeypatch.setattr(cli, "jupyterlab_installed", lambda: True)
    monkeypatch.setattr(cli, "launch_lab",
                        lambda notebook, extra: launched.append((notebook, list(extra))) or 0)
    status, out, err = run(capsys, "demo", "--", "--no-browser", "--port", "8899")
    assert (status, err) == (0, "")
    [(notebook, extra)] = launched
    assert notebook.name == "quickstart.ipynb"
    assert notebook.parent.parent == tmp_path
    assert notebook.parent.name.startswith("dial-notebook-demo-")
    assert_copied(notebook.parent)
    assert extra == ["--no-browser", "--port", "8899"]
    assert str(notebook.parent) in out and "no API key" in out

    assert run(capsys, "demo")[0] == 0  # a second demo: another new folder
    assert launched[1][0].parent != notebook.parent and launched[1][1] == []


def captured_launch(monkeypatch, tmp_path, *, root: bool) -> list[list[str]]:
    """launch_lab with the process replacement caught: the argv it would exec."""
    execs: list[list[str]] = []
    monkeypatch.setattr(cli, "running_as_root", lambda: root)
    monkeypatch.setattr(cli.os, "execv", lambda _exe, argv: execs.append(list(argv)))
    monkeypatch.setattr(cli.os, "chdir", lambda _folder: None)
    monkeypatch.setattr(cli.os, "name", "posix")
    cli.launch_lab(tmp_path / "quickstart.ipynb", ["--no-browser"])
    return execs


def test_demo_opens_the_quickstart_itself_not_the_launcher(tmp_path, monkeypatch, capsys):
    [argv] = captured_launch(monkeypatch, tmp_path, root=False)
    assert argv[2:4] == ["jupyterlab", "quickstart.ipynb"]
    assert "--LabApp.default_url=/lab/tree/quickstart.ipynb" in argv
    assert "--allow-root" not in argv and argv[-1] == "--no-browser"
    assert "--ServerApp.log_level=WARN" in argv  # the address and errors, not every extension
    assert capsys.readouterr().out.splitlines() == [
        "Open the address JupyterLab prints below; stop it with Ctrl-C, twice."]


def test_demo_as_root_passes_allow_root_and_says_so_in_one_line(tmp_path, monkeypatch, capsys):
    [argv] = captured_launch(monkeypatch, tmp_path, root=True)
    assert "--allow-root" in argv
    assert capsys.readouterr().out.splitlines()[0] == (
        "Running as root: JupyterLab is started with --allow-root.")


def test_demo_keeps_what_the_person_passed_to_jupyterlab():
    argv = cli.lab_argv(Path("q.ipynb"), ["--allow-root", "--LabApp.default_url=/lab"], root=True)
    assert argv.count("--allow-root") == 1
    assert [a for a in argv if "default_url" in a] == ["--LabApp.default_url=/lab"]


def test_demo_without_a_display_opens_no_browser_and_keeps_what_the_person_passed():
    """Headless (a container, ssh, CI): JupyterLab would warn "No web browser found"."""
    argv = cli.lab_argv(Path("q.ipynb"), [], root=False, display=False)
    assert "--no-browser" in argv
    assert "--no-browser" not in cli.lab_argv(Path("q.ipynb"), [], root=False, display=True)
    argv = cli.lab_argv(Path("q.ipynb"), ["--ServerApp.open_browser=True"], root=False,
                        display=False)
    assert "--no-browser" not in argv


def test_a_display_is_seen_on_linux_by_its_variables(monkeypatch):
    monkeypatch.setattr(cli.sys, "platform", "linux")
    for name in ("DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    assert not cli.has_display()
    monkeypatch.setenv("WAYLAND_DISPLAY", "wayland-0")
    assert cli.has_display()
    monkeypatch.setattr(cli.sys, "platform", "darwin")
    monkeypatch.delenv("WAYLAND_DISPLAY")
    assert cli.has_display()


def test_demo_without_jupyterlab_names_the_extra_to_install(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setattr(cli, "jupyterlab_installed", lambda: False)
    monkeypatch.setattr(cli, "launch_lab", lambda *a: pytest.fail("JupyterLab was launched"))
    status, out, err = run(capsys, "demo")
    assert (status, out) == (2, "")
    line = one_line(err)
    assert "JupyterLab" in line and 'pip install "dial-notebook[notebook' in line
    assert list(tmp_path.iterdir()) == []  # nothing copied


def test_jupyterlab_is_found_by_its_import_check(monkeypatch):
    monkeypatch.setattr(cli.importlib.util, "find_spec",
                        lambda name: None if name == "jupyterlab" else object())
    assert cli.jupyterlab_installed() is False


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX: the process becomes JupyterLab")
def test_the_launcher_runs_jupyterlab_with_this_python_in_the_notebooks_folder(
        tmp_path, monkeypatch):
    calls: list[Any] = []
    monkeypatch.setattr(cli.os, "chdir", lambda path: calls.append(("chdir", Path(path))))
    monkeypatch.setattr(cli.os, "execv", lambda exe, argv: calls.append(("execv", exe, argv)))
    monkeypatch.setattr(cli.subprocess, "call", lambda *a, **k: pytest.fail("Lab was started"))
    monkeypatch.setattr(cli, "running_as_root", lambda: False)
    cli.launch_lab(tmp_path / "quickstart.ipynb", ["--no-browser"])
    assert calls == [("chdir", tmp_path),
                     ("execv", sys.executable,
                      [sys.executable, "-m", "jupyterlab", "quickstart.ipynb",
                       "--LabApp.default_url=/lab/tree/quickstart.ipynb", *cli.QUIET_LAB,
                       "--no-browser"])]


# ---- lint ------------------------------------------------------------------------------------

def test_lint_of_a_clean_reply_prints_nothing_and_exits_0(tmp_path, capsys):
    (tmp_path / "ok.xml").write_text(CLEAN)
    assert run(capsys, "lint", tmp_path / "ok.xml") == (0, "", "")


def test_lint_prints_one_line_per_finding_and_exits_1_on_an_error(tmp_path, capsys):
    reply = tmp_path / "reply.xml"
    reply.write_text(BROKEN)
    status, out, err = run(capsys, "lint", reply)
    assert (status, err) == (1, "")
    assert out.splitlines() == [f"{reply}:{line}" for line in BROKEN_LINES]


def test_lint_of_warnings_only_prints_them_and_exits_0(tmp_path, capsys):
    (tmp_path / "w.xml").write_text(WARNED)
    status, out, _ = run(capsys, "lint", tmp_path / "w.xml")
    assert status == 0
    assert out.startswith(f"{tmp_path / 'w.xml'}:1:35: warning [unknown-attribute] ")
    assert out.count("\n") == 1


def test_lint_reads_standard_input_as_stdin(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(BROKEN.encode()),
                                                       encoding="utf-8"))
    status, out, _ = run(capsys, "lint", "-")
    assert status == 1
    assert out.splitlines() == [f"<stdin>:{line}" for line in BROKEN_LINES]


def test_lint_of_a_utf8_file_with_a_byte_order_mark(tmp_path, capsys):
    (tmp_path / "bom.xml").write_bytes(b"\xef\xbb\xbf" + CLEAN.encode())
    assert run(capsys, "lint", tmp_path / "bom.xml") == (0, "", "")


def test_unreadable_files_are_one_line_each_exit_2_and_the_others_are_still_linted(
        tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("latin.xml").write_bytes(b'<dial version="0.1" actor="agent">caf\xe9</dial>')
    Path("folder").mkdir()
    Path("ok.xml").write_text(CLEAN)
    Path("reply.xml").write_text(BROKEN)
    status, out, err = run(capsys, "lint", "missing.xml", "folder", "latin.xml", "ok.xml",
                           "reply.xml")
    assert status == 2
    assert out.splitlines() == [f"reply.xml:{line}" for line in BROKEN_LINES]
    assert err.splitlines() == [
        "dial-notebook: missing.xml: no such file; check the path",
        "dial-notebook: folder: is a folder, not a reply; name the files in it (e.g. "
        "folder/*.xml)",
        "dial-notebook: latin.xml: not UTF-8 (byte 0xe9 at offset 37); re-save it as UTF-8",
    ]


def test_lint_needs_a_file(capsys):
    status, out, err = run(capsys, "lint")
    assert (status, out) == (2, "")
    assert "required: FILE (see dial-notebook lint --help)" in one_line(err)


# ---- export ----------------------------------------------------------------------------------

class Agent:
    """The note proposal, then thanks."""

    def send(self, message: str) -> str:
        return THANKS if "outcome:" in message else REPLY


async def saved_session(tmp_path: Path) -> tuple[Path, ChatWidget]:
    """A conversation kept in a session= file by a real ChatWidget: proposed, accepted, done."""
    path = tmp_path / ".dial" / "notes.json"
    chat = ChatWidget(agent=Agent(), domain=NotesDomain([]), session=path, title="My notes")
    task = chat.say("add a note: buy milk")
    await until(lambda: chat.pending.get("kind") == "decide")
    chat._handle_custom_msg({"type": "decide", "token": chat.pending["token"],
                             "decision": "accept"}, [])
    await task
    await asyncio.sleep(0.01)  # the say's last save runs once its step is done
    return path, chat


async def test_export_writes_the_page_the_widget_exports(tmp_path, capsys):
    path, chat = await saved_session(tmp_path)
    out = tmp_path / "notes.html"
    status, printed, err = run(capsys, "export", path, "--html", out)
    assert (status, err) == (0, "")
    assert printed.startswith(f"Wrote {out}: ")
    page = out.read_text(encoding="utf-8")
    for text in ("add a note: buy milk", "One note coming up.", "Added.", "My notes"):
        assert text in page, text
    assert "<script" not in page
    assert page == chat.export_html(tmp_path / "widget.html").read_text(encoding="utf-8")


async def test_export_of_a_chat_save_file(tmp_path, capsys):
    _, chat = await saved_session(tmp_path)
    saved = chat.save(tmp_path / "monday.json")
    assert run(capsys, "export", saved, "--html", tmp_path / "monday.html")[0] == 0
    assert "buy milk" in (tmp_path / "monday.html").read_text(encoding="utf-8")


async def test_an_existing_output_is_overwritten_only_with_force(tmp_path, capsys):
    path, _ = await saved_session(tmp_path)
    out = tmp_path / "notes.html"
    out.write_text("mine")
    status, printed, err = run(capsys, "export", path, "--html", out)
    assert (status, printed) == (2, "")
    assert f"{out} already exists; add --force" in one_line(err)
    assert out.read_text() == "mine"
    assert run(capsys, "export", path, "--html", out, "--force")[0] == 0
    assert "buy milk" in out.read_text(encoding="utf-8")


def test_a_tampered_session_is_a_clear_error_and_nothing_is_written(tmp_path, capsys):
    path = tmp_path / "eda.json"
    path.write_text(json.dumps({"format": "dial-notebook/conversation", "version": 1,
                                "transcript": [{"type": "outcome", "id": "x"}]}))
    out = tmp_path / "eda.html"
    status, printed, err = run(capsys, "export", path, "--html", out)
    assert (status, printed) == (2, "")
    line = one_line(err)
    assert f"{path}: transcript[0] is not an event" in line and "nothing was written" in line
    assert not out.exists()


async def test_tampered_widget_entries_are_a_clear_error(tmp_path, capsys):
    path, _ = await saved_session(tmp_path)
    data = load_snapshot(path)
    data["surface"]["entries"] = [[0, {"type": "suggestion"}]]
    path.write_text(json.dumps(data))  # as one JSON object (the form saved before issue 29)
    status, _, err = run(capsys, "export", path, "--html", tmp_path / "x.html")
    assert status == 2
    assert "surface.entries[0] is a 'suggestion'" in one_line(err)
    assert not (tmp_path / "x.html").exists()


def test_export_of_a_missing_file_a_folder_or_not_json(tmp_path, capsys):
    (tmp_path / "bad.json").write_text("{not json")
    cases = {tmp_path / "missing.json": "missing.json: no such file",
             tmp_path: "is a folder",
             tmp_path / "bad.json": "bad.json: not JSON"}
    for session, said in cases.items():
        status, _, err = run(capsys, "export", session, "--html", tmp_path / "o.html")
        assert status == 2
        assert said in one_line(err)
    assert not (tmp_path / "o.html").exists()


def test_export_needs_html_and_refuses_a_folder_as_output(tmp_path, capsys):
    status, _, err = run(capsys, "export", "s.json")
    assert status == 2 and "required: --html" in one_line(err)
    status, _, err = run(capsys, "export", "s.json", "--html", tmp_path)
    assert status == 2 and f"{tmp_path} is a folder" in one_line(err)


# ---- the command itself ----------------------------------------------------------------------

def test_usage_errors_are_one_line_with_exit_2(capsys):
    for argv, said in ([[], "name a command"],
                       [["notebooks", "--frce"], "unrecognized arguments: --frce (see "
                                                 "dial-notebook notebooks --help)"],
                       [["demo", "--port", "1"], "arguments for JupyterLab go after --"],
                       [["frobnicate"], "invalid choice: 'frobnicate'"]):
        status, out, err = run(capsys, *argv)
        assert (status, out) == (2, ""), argv
        assert said in one_line(err), argv


def test_version_and_every_help_with_an_example(capsys):
    from dial_notebook import __version__

    assert run(capsys, "--version") == (0, f"dial-notebook {__version__}\n", "")
    for command in ("notebooks", "demo", "lint", "export"):
        status, out, _ = run(capsys, command, "--help")
        assert status == 0
        assert f"usage: dial-notebook {command}" in out
        assert f"examples:\n  dial-notebook {command}" in out
    _, out, _ = run(capsys, "lint", "--help")
    assert "FILE:LINE:COL: SEVERITY [CODE] message" in out and "exit status:" in out


def test_python_m_dial_notebook_help(tmp_path):
    done = subprocess.run([sys.executable, "-m", "dial_notebook", "--help"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: dial-notebook ")
    for command in ("notebooks", "demo", "lint", "export"):
        assert f"\n    {command} " in done.stdout


def test_lint_says_when_findings_were_cut(tmp_path, capsys):
    from dial_notebook.dial._lint import MAX_FINDINGS

    reply = tmp_path / "many.xml"
    reply.write_text('<dial version="0.1" actor="agent">\n'
                     + "<dial-infrom>x</dial-infrom>\n" * (MAX_FINDINGS + 3) + "</dial>")
    status, out, _ = run(capsys, "lint", reply)
    lines = out.splitlines()
    assert status == 1 and len(lines) == MAX_FINDINGS + 1
    assert lines[-1] == (f"{reply}:{MAX_FINDINGS + 2}:1: info [more-findings] 3 more findings "
                         f"are not listed (at most {MAX_FINDINGS} are).")
