"""McpDomain on the real ``mcp-server-git`` over a scratch repository, in a real Conversation:
read-only tools run at once once trusted; adds and commits are cards the person decides."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from dial_notebook.domains.mcp import McpDomain
from dial_notebook.runtime import Conversation, scripted_human

from ..git_repo import git, scratch_repo

pytestmark = pytest.mark.server

GIT_SERVER = str(Path(sys.executable).with_name("mcp-server-git"))


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return scratch_repo(tmp_path, ("notes.txt", "first\n"), ("todo.txt", "buy milk\n"))


@pytest.fixture
def domain(repo: Path):
    domain = McpDomain.stdio(GIT_SERVER, ["--repository", str(repo)], name="git",
                             read_only=["git_status", "git_log"], start_timeout=60.0)
    yield domain
    domain.close()


class Agent:
    def __init__(self, replies: list[str]) -> None:
        self.replies, self.messages = replies, []

    async def send(self, message: str) -> str:
        self.messages.append(message)
        return self.replies.pop(0)


def suggest(sid: str, action: str, payload: dict) -> str:
    body = json.dumps(payload).replace("<", "\\u003c")
    return (f'<dial-suggest id="{sid}" action="{action}">'
            f'<dial-payload type="application/json">{body}</dial-payload></dial-suggest>')


def reply(*elements: str) -> str:
    return "<dial>" + "".join(elements) + "</dial>"


THANKS = reply("<dial-acknowledge>Thanks.</dial-acknowledge>")


def test_only_the_tools_the_person_named_are_read_only(domain):
    assert domain.actions["git_status"].mutates is False
    assert domain.actions["git_log"].mutates is False
    assert domain.actions["git_add"].mutates is True
    assert domain.actions["git_commit"].mutates is True
    assert domain.actions["git_diff_unstaged"].mutates is True  # its hint alone is not enough


async def test_status_runs_at_once_add_is_accepted_and_an_edited_message_is_committed(
        domain, repo):
    path = str(repo)
    agent = Agent([
        reply(suggest("s1", "git_status", {"repo_path": path}),
              suggest("s2", "git_add", {"repo_path": path, "files": ["todo.txt"]}),
              suggest("s3", "git_commit", {"repo_path": path, "message": "wip"})),
        THANKS,
    ])
    human = scripted_human(["accept", {"edit": {"repo_path": path,
                                                "message": "Add the shopping list"}}])
    talk = Conversation(agent=agent, domain=domain, human=human, timeout=60)
    result = await talk.say("commit my todo list")
    outcomes = {o["id"]: o for o in result.outcomes}
    assert outcomes["s1"]["status"] == "done" and "todo.txt" in outcomes["s1"]["result"]["text"]
    assert outcomes["s2"]["status"] == "done"
    assert outcomes["s3"]["status"] == "done" and outcomes["s3"].get("edited")
    assert git(repo, "log", "-1", "--format=%s").strip() == "Add the shopping list"
    assert git(repo, "status", "--porcelain").strip() == ""


async def test_a_dismissed_commit_leaves_the_repository_unchanged(domain, repo):
    path = str(repo)
    git(repo, "add", "todo.txt")
    before = git(repo, "rev-parse", "HEAD")
    agent = Agent([reply(suggest("c1", "git_commit", {"repo_path": path, "message": "x"})),
                   THANKS])
    talk = Conversation(agent=agent, domain=domain, human=scripted_human(["dismiss"]),
                        timeout=60)
    result = await talk.say("commit")
    assert result.outcomes[0]["status"] == "dismissed"
    assert git(repo, "rev-parse", "HEAD") == before
    assert git(repo, "status", "--porcelain").startswith("A  todo.txt")
