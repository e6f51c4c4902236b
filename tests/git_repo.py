"""A scratch git repository for the tests that put an MCP git server on one
(tests/unit/test_mcp_git.py, test_mcp_demo_agent.py)."""

from __future__ import annotations

import subprocess
from pathlib import Path


def git(repo: Path, *args: str) -> str:
    """``git -C repo args…``'s output (raises when git fails)."""
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                          text=True).stdout


def scratch_repo(folder: Path, committed: tuple[str, str], pending: tuple[str, str]) -> Path:
    """A repository in ``folder/repo``: ``committed`` (name, text) in its first commit, and
    ``pending`` (name, text) written beside it, not added."""
    repo = folder / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    git(repo, "config", "user.email", "person@example.com")
    git(repo, "config", "user.name", "Person")
    (repo / committed[0]).write_text(committed[1])
    git(repo, "add", committed[0])
    git(repo, "commit", "-q", "-m", "first")
    (repo / pending[0]).write_text(pending[1])
    return repo
