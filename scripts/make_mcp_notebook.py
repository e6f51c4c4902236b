"""Write notebooks/mcp-tools.ipynb (without outputs) from the cells below.

    .venv/bin/python scripts/make_mcp_notebook.py

The notebook is generated so that its text is reviewed here, as code, and stored clean
(tests/unit/test_mcp_demo_agent.py fails while the committed notebook is not what this writes).
"""

from __future__ import annotations

from pathlib import Path

import nbformat

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "mcp-tools.ipynb"


def md(text: str) -> nbformat.NotebookNode:
    return nbformat.v4.new_markdown_cell(text.strip())


def code(text: str) -> nbformat.NotebookNode:
    return nbformat.v4.new_code_cell(text.strip())


# "Your own server": a cell that writes a short MCP server (the SDK's MCPServer) to a file.
SERVER = """
server_code = '''
\"\"\"branch-maker: a tiny MCP server with one tool, which asks the person for a branch name.\"\"\"
import subprocess
import sys

from mcp.server.mcpserver import Context, MCPServer
from mcp.types import ToolAnnotations
from pydantic import BaseModel, Field

REPO = sys.argv[1]
server = MCPServer("branch-maker")


class Branch(BaseModel):
    name: str = Field(title="Branch name", description="For example topic/notes")


@server.tool(annotations=ToolAnnotations(destructiveHint=False, openWorldHint=False),
             structured_output=False)
async def new_branch(ctx: Context) -> str:
    \"\"\"Make a new branch in the scratch repository; asks you for its name.\"\"\"
    answer = await ctx.elicit("Which branch name?", schema=Branch)
    if answer.action != "accept":
        return f"No branch made: you chose {answer.action}."
    name = answer.data.name
    checked = subprocess.run(["git", "check-ref-format", "--branch", name], capture_output=True)
    if checked.returncode != 0:
        raise ValueError(f"{name!r} is not a valid branch name")
    subprocess.run(["git", "-C", REPO, "branch", name], check=True)
    return f"Made the branch {name}."


server.run("stdio")
'''
server_file = repo.parent / "branch_server.py"  # beside the repository, not in it
server_file.write_text(server_code.lstrip())
print(f"Wrote {server_file}: {len(server_code.strip().splitlines())} lines")
"""

CELLS = [
    md("""
# An agent on any MCP server

The [Model Context Protocol](https://modelcontextprotocol.io) (MCP) is how tools reach agents:
servers for git, databases, file systems, issue trackers and cloud services describe their
tools with JSON Schemas. `McpDomain` makes each tool of a server an action: every call the
agent proposes arrives as a card you can **Accept**, **Edit** or **Dismiss**; the read-only
tools you trust run at once; and when the server asks you something, the question appears
in a panel of the chat, titled with the server's name.

Here: the official git server (`mcp-server-git`) over a scratch repository, then a server of
your own. The agent is the offline `DemoAgent`: no API key, no network — both servers run on
this machine. You need `pip install "dial-notebook[mcp]"` (the SDK and `mcp-server-git`) and `git`.

Run all the cells (**Run ▸ Run All Cells**), then follow the steps below, in the chat.
"""),
    md("""
## 1. A scratch repository

A new repository in a temporary folder: one commit (`README.md`) and two files not yet added,
`notes.txt` and `draft.md`. Nothing outside that folder is touched. `git(...)` runs git on it,
so you can check every step with git itself.
"""),
    code("""
import subprocess
import tempfile
from pathlib import Path

repo = Path(tempfile.mkdtemp(prefix="dial-mcp-")) / "scratch"
repo.mkdir()


def git(*args):
    \"\"\"Run git in the scratch repository and return what it printed.\"\"\"
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                          text=True).stdout


git("init", "-q", "-b", "main")
git("config", "user.name", "You")
git("config", "user.email", "you@example.com")
(repo / "README.md").write_text("A scratch repository for the MCP notebook.\\n")
git("add", "README.md")
git("commit", "-q", "-m", "Start")
(repo / "notes.txt").write_text("Buy milk\\nCall Sam\\n")
(repo / "draft.md").write_text("Half-written ideas\\n")
print(repo)
print(git("status", "--short"))
"""),
    md("""
## 2. The git server's tools as a domain

`McpDomain.stdio(command, args)` starts the server and lists its tools; each becomes an action
with the tool's JSON Schema. `sys.executable -m mcp_server_git` runs the server with this
kernel's Python. The server is stopped with the kernel (or `git_server.close()`).

Annotations (`readOnlyHint`, `destructiveHint`, …) are hints from the server, not promises:
by default every tool asks you, and every tool that may change something is marked
destructive. `read_only=[…]` names the tools you trust to only read: those run at once.
"""),
    code("""
import sys

from dial_notebook import McpDomain

git_server = McpDomain.stdio(
    sys.executable, ["-m", "mcp_server_git", "--repository", str(repo)], name="git",
    read_only=["git_status", "git_log", "git_diff_unstaged"],
)
for name, spec in git_server.actions.items():
    kind = "runs at once" if not spec.mutates else "destructive" if spec.destructive else "asks"
    print(f"{name:18} {kind}")
"""),
    md("""
## 3. The chat

`DemoAgent` makes each payload from the tool's JSON Schema and from your words: a file name
goes in the field for files, quoted text in the field you name (`message '…'`). It cannot know
where your repository is, so `values=` gives it the `repo_path` every git tool asks for (a real
model would read it from your words). The next cell asks for the status: `git_status` is
read-only, so it runs at once and its result is on its card.
"""),
    code("""
from dial_notebook import ChatWidget, DemoAgent

agent = DemoAgent(git_server, values={"repo_path": str(repo)})
chat = ChatWidget(agent=agent, domain=git_server, title="Git assistant")
chat
"""),
    code("""
task = chat.say("show the status")  # returns at once; the conversation runs in the background
"""),
    md("""
Now, in the chat:

**1. Accept an add.** Type `add notes.txt`. A card proposes `git_add` with
`files: ["notes.txt"]`. Like every card of this server, it is red and marked *Destructive*:
the server's hints are not trusted here (section 2), so every tool that asks you is marked so,
whatever it does. Click **Accept**: git stages the file, and the agent says so.

**2. Dismiss a reset.** Type `reset`. A `git_reset` card proposes to unstage everything (red,
as every card of this server). Click **Dismiss**: nothing runs, `notes.txt` stays staged.

**3. Edit a commit message.** Type `commit with message 'wip'`. On the `git_commit` card click
**Edit**, replace `wip` in *message* with `Add my notes`, and click **Save**: the commit runs
with your message, not the agent's.

Any tool of the server can be asked for: `help` lists them (`show the log`, `show the diff
unstaged`, `create branch with branch name 'topic'` …).
"""),
    md("""
## 4. Your own server

A server is a short Python file written with the MCP SDK (`MCPServer`, which `FastMCP` became
in version 2 of the SDK). This one has one tool, `new_branch`, which asks *you* for the branch
name with `ctx.elicit` — a question the server sends while its tool runs. The next cell writes
it beside the repository.
"""),
    code(SERVER),
    md("""
Its tool says it is not destructive and stays on this machine (`destructiveHint=False`,
`openWorldHint=False`). `trust_annotations=True` takes this server at its word: its card is not
marked destructive. (Without it, the card would be red: hints are trusted only when you say
so.) The second chat is where its questions appear: the newest chat shown answers the
questions of every server.
"""),
    code("""
branches = McpDomain.stdio(sys.executable, [str(server_file), str(repo)],
                           name="branch-maker", trust_annotations=True)
own_chat = ChatWidget(agent=DemoAgent(branches), domain=branches, title="Your own server")
own_chat
"""),
    md("""
**4. Answer the server's question.** In this chat type `new branch` and **Accept** the
`new_branch` card. The tool runs and asks: a question panel titled *branch-maker* says *Which
branch name?*. Type `topic/notes`, choose **Send** and click **Submit**: the server makes the
branch and its answer is on the card. (Choosing **Decline** instead is an answer alone:
**Submit** at once, nothing you typed is sent, and the tool says no branch was made. While the
panel waits for you, the tool's time limit does not run.)
"""),
    md("""
## 5. Check with git

Run this cell again once you have done the steps: the log has your commit, *Add my notes*
(not *wip*); `notes.txt` is committed, `draft.md` still untracked; and the branch
`topic/notes` exists. Before the steps it shows only the first commit.
"""),
    code("""
print(git("log", "--oneline"))
print(git("status", "--short"))
print(git("branch", "--list"))
"""),
    md("""
## Any other MCP server

The same domain works with any server, with the `mcp` extra: `pip install "dial-notebook[mcp]"`.

- A server started as a command, talking over stdin and stdout:
  `McpDomain.stdio("my-server", ["--flag", "value"], env={"TOKEN": "…"}, cwd="…")`. Only a
  safe default environment reaches it, plus what you pass in `env`.
- A server over streamable HTTP: `McpDomain.http("http://127.0.0.1:8000/mcp",
  headers={"Authorization": "Bearer …"})`.
- With a real model instead of the demo: `ChatWidget(agent=OpenAIAgent(model="gpt-4o-mini",
  domain=git_server), domain=git_server)`; the tools' descriptions go into its system prompt,
  as the server's information, never as instructions.

**What annotations can and cannot do.** A server's annotations are hints, not promises (the
MCP specification says so), and a server can say anything about itself:

- `readOnlyHint` alone never makes a tool run without asking you. A tool runs at once only when
  you say it is read-only (`read_only=[…]`) or trust the server's hints
  (`trust_annotations=True`).
- A tool is marked destructive unless you trust a server that says it is not; `destructive=[…]`
  marks a tool destructive whatever the server says.
- `openWorldHint` (the default) is said on the card: *reaches outside this machine*.
- A server may ask you questions (shown in the chat's question panel, answered or declined by
  you). It may not use your model: a sampling request is refused unless you allow it
  (`allow_sampling=True`), and even then you write or approve the text it gets.
"""),
]



def build() -> nbformat.NotebookNode:
    """The notebook, with no outputs and no execution counts."""
    notebook = nbformat.v4.new_notebook()
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                       "language": "python"}
    notebook.metadata["language_info"] = {"name": "python"}
    notebook.cells = CELLS
    for index, cell in enumerate(notebook.cells):
        cell["id"] = f"mcp-tools-{index:02d}"
    return notebook


if __name__ == "__main__":
    nbformat.write(build(), NOTEBOOK)
    print(f"wrote {NOTEBOOK}")
