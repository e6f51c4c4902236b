"""The MCP notebook as a person follows it in JupyterLab: Run All, then the steps its markdown
gives, with real clicks, and the scratch repository checked with git itself.

- Run All: ``git_status`` (read-only, named so) ran at once and its result is on its card;
- ``add notes.txt``: a ``git_add`` card with ``files: ["notes.txt"]`` (destructive, as every
  card of a server whose hints are not trusted), accepted: staged;
- ``reset``: a destructive card too, dismissed: nothing unstaged;
- ``commit with message 'wip'``: edited on its card to *Add my notes*, saved: that is committed;
- your own server: ``new branch`` accepted, its question (a panel titled with the server's name)
  answered: the branch exists; asked again, its Send / Decline offers no Other text, and
  Decline alone (the name left empty) is submitted: no branch made;
- the last cell, run again, prints the commit and the branch;
- axe finds nothing in the chats (the scrolling log takes focus, so a keyboard scrolls it).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from playwright.sync_api import expect

from ._harness import NotebookPage, open_notebook, wait_for_every_cell
from .test_accessibility import axe_violations

pytestmark = pytest.mark.browser

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "mcp-tools.ipynb"


@pytest.fixture(scope="module")
def lab(jupyter, browser_context) -> NotebookPage:
    shutil.copy(NOTEBOOK, jupyter["root"] / "mcp-tools.ipynb")
    notebook = open_notebook(browser_context, jupyter["base"], "mcp-tools.ipynb", app="lab")
    notebook.app = "mcp"
    wait_for_every_cell(notebook.page)
    yield notebook
    notebook.page.close()


@pytest.fixture(scope="module")
def repo(lab) -> Path:
    return Path(lab.kernel_value("repo"))


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                          text=True).stdout


def chat(lab: NotebookPage, title: str):
    return lab.page.locator(f"[data-dial-root]:has(.dial-title:text-is('{title}'))").first


def card_of(root, action: str, status: str):
    card = root.locator(f"[data-dial-suggestion]:has(.dial-action-name:text-is('{action}'))").last
    expect(card).to_have_attribute("data-dial-status", status, timeout=30000)
    return root.locator(f"[data-dial-suggestion=\"{card.get_attribute('data-dial-suggestion')}\"]")


def say(root, text: str) -> None:
    box = root.locator("[data-dial-field=say]")
    box.fill(text)
    box.press("Enter")


def test_run_all_shows_the_status_at_once_and_nothing_else_ran(lab, repo):
    git_chat = chat(lab, "Git assistant")
    card = card_of(git_chat, "git_status", "done")
    expect(card.locator("[data-dial-action=accept]")).to_have_count(0)  # never asked
    expect(card).to_contain_text("notes.txt")
    assert git(repo, "log", "--format=%s") == "Start\n"
    card.scroll_into_view_if_needed()
    lab.shot("status", card)


def test_the_steps_of_the_markdown_in_the_git_chat(lab, repo):
    git_chat = chat(lab, "Git assistant")
    # 1. accept an add
    say(git_chat, "add notes.txt")
    add = card_of(git_chat, "git_add", "pending")
    expect(add).to_contain_text("notes.txt")
    expect(add).to_have_class(re.compile(r"\bdial-destructive\b"))  # as the markdown says
    lab.shot("add-pending", add)
    add.locator("[data-dial-action=accept]").click()
    expect(add).to_have_attribute("data-dial-status", "done", timeout=30000)
    assert git(repo, "status", "--porcelain").splitlines()[0] == "A  notes.txt"
    # 2. dismiss a reset: destructive, nothing unstaged
    say(git_chat, "reset")
    reset = card_of(git_chat, "git_reset", "pending")
    expect(reset).to_have_class(re.compile(r"\bdial-destructive\b"))
    expect(reset.locator(".dial-badge-danger")).to_contain_text("Destructive")
    lab.shot("reset-pending", reset)
    reset.locator("[data-dial-action=dismiss]").click()
    expect(reset).to_have_attribute("data-dial-status", "dismissed", timeout=30000)
    assert git(repo, "status", "--porcelain").splitlines()[0] == "A  notes.txt"
    # 3. edit a commit message, then save: the edited message is what is committed
    say(git_chat, "commit with message 'wip'")
    commit = card_of(git_chat, "git_commit", "pending")
    commit.locator("[data-dial-action=edit]").click()
    message = commit.locator("[data-dial-path=message] .dial-input")
    expect(message).to_have_value("wip")
    message.fill("Add my notes")
    lab.shot("commit-edited", commit)
    commit.locator("[data-dial-action=save-edit]").click()
    expect(commit).to_have_attribute("data-dial-status", "done", timeout=30000)
    assert git(repo, "log", "--format=%s") == "Add my notes\nStart\n"
    assert git(repo, "status", "--porcelain") == "?? draft.md\n"
    lab.shot("git-chat", git_chat)


def test_your_own_server_asks_the_branch_name_in_a_panel_titled_with_its_name(lab, repo):
    own = chat(lab, "Your own server")
    say(own, "new branch")
    card = card_of(own, "new_branch", "pending")
    card.locator("[data-dial-action=accept]").click()
    panel = own.locator("[data-dial-questions]")
    expect(panel).to_be_visible(timeout=30000)
    expect(panel).to_contain_text("branch-maker")
    expect(panel).to_contain_text("Which branch name?")
    questions = panel.locator("[data-dial-question]")
    questions.first.locator("[data-dial-field=other]").fill("topic/notes")
    panel.locator("[data-dial-choice=Send]").click()
    lab.shot("question", panel)
    panel.locator("[data-dial-action=submit-questions]").click()
    expect(card).to_have_attribute("data-dial-status", "done", timeout=30000)
    expect(card).to_contain_text("Made the branch topic/notes")
    assert "topic/notes" in git(repo, "branch", "--list")
    lab.shot("own-server", own)


def test_decline_alone_is_submitted_and_the_confirm_takes_no_other_text(lab, repo):
    own = chat(lab, "Your own server")
    before = git(repo, "branch", "--list")
    say(own, "new branch")
    card = card_of(own, "new_branch", "pending")
    card.locator("[data-dial-action=accept]").click()
    panel = own.locator("[data-dial-questions]").last
    expect(panel).to_be_visible(timeout=30000)
    confirm = panel.locator("[data-dial-question=confirm]")
    expect(confirm.locator("[data-dial-field=other]")).to_have_count(0)
    expect(confirm.locator(".dial-choice-other")).to_have_count(0)
    submit = panel.locator("[data-dial-action=submit-questions]")
    expect(submit).to_be_disabled()
    panel.locator("[data-dial-choice=Decline]").click()
    expect(submit).to_be_enabled()  # the branch name left empty: Decline stands alone
    lab.shot("declined", panel)
    submit.click()
    expect(card).to_have_attribute("data-dial-status", "done", timeout=30000)
    expect(card).to_contain_text("No branch made: you chose decline")
    assert git(repo, "branch", "--list") == before


def test_the_last_cell_run_again_shows_the_commit_and_the_branch(lab):
    last = lab.page.locator(".jp-CodeCell").last
    last.click()
    lab.page.keyboard.press("Shift+Enter")
    output = last.locator(".jp-OutputArea")
    expect(output).to_contain_text("Add my notes", timeout=30000)
    expect(output).to_contain_text("topic/notes")
    expect(output).not_to_contain_text("wip")


def test_axe_finds_nothing_in_the_chats(lab):
    assert axe_violations(lab.page, "mcp-notebook") == []
