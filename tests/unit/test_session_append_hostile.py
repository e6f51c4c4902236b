"""A hostile session file in the appended form (issue 29) is refused, or read within the
budgets every session file has (``MAX_SNAPSHOT_BYTES``, ``MAX_EVENTS``, ``MAX_DEPTH``): huge
lines, deep nesting, a million lines, a header claiming another form; and every reader of a
session file reads the new form (the command line's export, ``ChatWidget(session=…)``,
``ChatWidget.restore``, "Trust this file")."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from dial_notebook.domains.notes import NotesDomain
from dial_notebook.runtime import _session_file
from dial_notebook.runtime._snapshot import (
    MAX_EVENTS,
    MAX_SNAPSHOT_BYTES,
    SnapshotError,
    read_session_file,
    save_snapshot,
)
from dial_notebook.widget import ChatWidget

from .runtime_doubles import until

HEADER = '{"format":"dial-notebook/session-lines","version":1}\n'
STATE = ('{"state":{"format":"dial-notebook/conversation","version":1},"events":%d,'
         '"entries":null}\n')


def write(path: Path, *lines: str) -> Path:
    path.write_text("".join(lines), encoding="utf-8")
    return path


def test_a_header_claiming_another_version_is_refused(tmp_path):
    path = write(tmp_path / "v.json", HEADER.replace("1}", "9}"), STATE % 0)
    with pytest.raises(SnapshotError, match=r"v\.json: version 9 of the session file"):
        read_session_file(path)


def test_a_header_claiming_another_format_is_not_read_as_one(tmp_path):
    path = write(tmp_path / "f.json", '{"format":"something-else","version":1}\n', STATE % 0)
    with pytest.raises(SnapshotError, match=r"f\.json: not JSON"):
        read_session_file(path)


def test_a_line_of_another_kind_is_refused_naming_it(tmp_path):
    path = write(tmp_path / "k.json", HEADER, '{"exec":"rm -rf /"}\n', STATE % 0)
    with pytest.raises(SnapshotError, match=r"k\.json: line 2 is not a record"):
        read_session_file(path)


def test_a_deeply_nested_event_is_one_clear_error(tmp_path):
    deep = "[" * 100_000 + "]" * 100_000
    path = write(tmp_path / "d.json", HEADER, '{"event":{"type":"inform","payload":' + deep
                 + '}}\n', STATE % 1)
    with pytest.raises(SnapshotError, match=r"d\.json: .*nested more than"):
        read_session_file(path)
    nested = "[" * 300 + "]" * 300
    write(path, HEADER, '{"event":{"type":"inform","text":"","act":"inform","payload":'
          + nested + '}}\n', STATE % 1)
    with pytest.raises(SnapshotError, match=r"nested more than 256 levels"):
        read_session_file(path)


def test_a_broken_line_is_named(tmp_path):
    path = write(tmp_path / "b.json", HEADER, '{"event":{"type":"sent","turn":1,"message":"m"}}\n',
                 '{"event":{"type":"sent",\n', STATE % 2)
    with pytest.raises(SnapshotError, match=r"b\.json: line 3 is not JSON"):
        read_session_file(path)


def test_a_million_lines_are_refused_before_they_are_parsed(tmp_path):
    path = write(tmp_path / "m.json", HEADER, '{"event":{}}\n' * 1_000_000, STATE % 1_000_000)
    with pytest.raises(SnapshotError, match=rf"m\.json: .*{MAX_EVENTS:,} are read"):
        read_session_file(path)


def test_a_huge_file_is_refused_by_its_size(tmp_path):
    path = tmp_path / "h.json"
    with path.open("w", encoding="utf-8") as file:
        file.write(HEADER + '{"event":{"type":"inform","text":"')
        file.truncate(MAX_SNAPSHOT_BYTES + 10)
    with pytest.raises(SnapshotError, match=r"over the limit"):
        read_session_file(path)


def test_a_file_with_no_finished_save_is_a_clear_error(tmp_path):
    path = write(tmp_path / "n.json", HEADER, '{"event":{"type":"sent","turn":1,"message":"m"}}')
    with pytest.raises(SnapshotError, match=r"n\.json: holds no finished save"):
        read_session_file(path)


async def test_someone_elses_big_file_in_lines_opens_without_holding_the_loop(
        tmp_path, stall_watchdog, monkeypatch):
    from ..hostile_corpus import hostile_session

    data = json.loads(hostile_session(tmp_path, 2_000).read_text())  # 8 MB, 20 charts
    monkeypatch.setenv("JUPYTER_DATA_DIR", str(tmp_path / "someone-else"))
    path = save_snapshot(data, tmp_path / "theirs.json")
    monkeypatch.undo()
    chat = ChatWidget(agent=lambda message: REPLY, domain=NotesDomain([]), session=path)
    assert len(chat.transcript) > 2_000 and chat.untrusted  # shown read-only
    await asyncio.sleep(0.05)  # the watchdog's heartbeat notes how long the opening held it
    assert stall_watchdog.beats > 0 and 0 < stall_watchdog.worst < 2


def test_an_unsigned_file_in_the_new_form_opens_untrusted(tmp_path):
    path = write(tmp_path / "u.json", HEADER,
                 '{"event":{"type":"sent","turn":1,"message":"m"}}\n', STATE % 1)
    snapshot, trusted = read_session_file(path)
    assert not trusted and snapshot["transcript"] == [{"type": "sent", "turn": 1,
                                                      "message": "m"}]


# ---- every reader of a session file reads the new form -----------------------------------------

REPLY = ('<dial version="0.1" actor="agent"><dial-inform>Noted.</dial-inform></dial>')


async def saved_widget(path: Path) -> ChatWidget:
    chat = ChatWidget(agent=lambda message: REPLY, domain=NotesDomain([]), session=path)
    for n in range(3):
        await chat.say(f"question {n}")
    await asyncio.sleep(0)
    chat._saver.save()
    return chat


async def test_a_widgets_session_is_appended_to_and_carried_on_by_a_new_widget(tmp_path,
                                                                              monkeypatch):
    rewrites: list[Any] = []
    real = _session_file.write_atomically
    monkeypatch.setattr(_session_file, "write_atomically",
                        lambda path, text: rewrites.append(path) or real(path, text))
    path = tmp_path / "eda.json"
    chat = await saved_widget(path)
    assert chat._saver.saves >= 3 and len(rewrites) == 1  # the first save, then appends
    assert path.read_text(encoding="utf-8").startswith(HEADER)
    chat.close()
    _session_file.forget()  # a new kernel
    again = ChatWidget(agent=lambda message: REPLY, domain=NotesDomain([]), session=path)
    assert again.untrusted == {}
    assert again.transcript[:-1] == chat.transcript and again.transcript[-1]["type"] == "resumed"
    await again.say("one more")
    await until(lambda: len(read_session_file(path)[0]["transcript"]) > 6)
    again.close()


async def test_restore_export_and_trust_read_the_new_form(tmp_path, capsys):
    from dial_notebook.cli import main

    path = tmp_path / "eda.json"
    chat = await saved_widget(path)
    chat.close()
    restored = ChatWidget.restore(path, agent=lambda message: REPLY, domain=NotesDomain([]))
    assert restored.transcript[:-1] == chat.transcript
    assert main(["export", str(path), "--html", str(tmp_path / "out.html")]) == 0
    assert "question 2" in (tmp_path / "out.html").read_text(encoding="utf-8")
    lines = path.read_text(encoding="utf-8").split("\n")[:-1]
    path.write_text("\n".join(line.replace("question 1", "question 9") for line in lines)
                    + "\n", encoding="utf-8")
    _session_file.forget()
    edited = ChatWidget.restore(path, agent=lambda message: REPLY, domain=NotesDomain([]))
    assert edited.untrusted["file"] == str(path)
    edited.trust()  # signs it again, with this user's secret
    assert edited.untrusted == {} and read_session_file(path)[1]
    assert "question 9" in json.dumps(read_session_file(path)[0]["transcript"])


def test_a_snapshot_saved_anywhere_reads_back(tmp_path):
    data = {"format": "dial-notebook/conversation", "version": 1,
            "transcript": [{"type": "sent", "turn": 1, "message": "m"}]}
    path = save_snapshot(data, tmp_path / "deep" / "er" / "x.json")
    assert read_session_file(path) == (data, True)
