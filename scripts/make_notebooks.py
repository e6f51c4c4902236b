"""Writes notebooks/quickstart.ipynb, eda-assistant.ipynb and prototyping-a-domain.ipynb.

The notebooks are generated so that their text is reviewed here, as code, and they are stored
without outputs, and not run here (tests/kernel/test_notebooks_run.py runs them). Run:
``python scripts/make_notebooks.py`` for all three, or name some:
``python scripts/make_notebooks.py prototyping-a-domain.ipynb``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"


def md(text: str) -> nbformat.NotebookNode:
    return nbformat.v4.new_markdown_cell(text.strip())


def code(text: str) -> nbformat.NotebookNode:
    return nbformat.v4.new_code_cell(text.strip())


QUICKSTART = [
    md("""
# dial-notebook quickstart

An agent that speaks **DIAL** proposes; you decide. Every proposal arrives as a card you can
**Accept**, **Edit** or **Dismiss**, and the agent is told what became of it.

This notebook needs no API key: `DemoAgent` is an offline agent that understands a few plain
requests about notes. Run the cells, then use the chat. Or open it as an app, with no code
showing: run `voila quickstart.ipynb` in the folder that holds this notebook — `notebooks/` in
a clone of the repository, or the folder `dial-notebook notebooks` copied it into after a pip
install (`dial-notebooks/` by default). Voilà comes with `pip install "dial-notebook[voila]"`.
"""),
    code("""
from dial_notebook import ChatWidget, DemoAgent, NotesDomain

notes = NotesDomain(["call the plumber", "book the dentist"])
chat = ChatWidget(agent=DemoAgent(notes), domain=notes, title="Notes assistant")
chat
"""),
    md("""
**1. Send a request.** Type in the chat box, or send from code as the next cell does. A card
appears: *Add the note 'buy milk'*. Click **Accept**: the note is added and the agent answers.
"""),
    code("""
task = chat.say("add a note: buy milk")  # returns at once; the conversation runs in the background
"""),
    md("""
**2. Edit a proposal.** Type `add a note: water the plants`, click **Edit**, empty the text
and **Save**: the action's JSON Schema refuses it, next to the field. Write something else and
Save again: the edited note is added, and the agent notices you changed it.

**3. Dismiss one.** Type `remove note 1` (a destructive action, marked in red) and click
**Dismiss**. The agent hears about it with your next words.

**4. Or just talk.** Typing while a card waits means you moved on: the card ends *superseded*.

**5. Trust without fatigue.** Type `add a note: call mum`. On its card click
**Always allow like this…**: a rule is drafted from this very proposal, each field fixed to its
value. Next to *text*, click **Any text**, then **Save rule and accept**. Now type
`add a note: pay rent`: it is added without a click, and its card says *Accepted by rule r1*.
Rules never apply to destructive actions: `remove note 1` still asks (dismiss it). Click
**Rules (1)** under the chat to see the rule, how many proposals it accepted, and **Revoke** it.

**6. Say why.** Type `add a note: call mum` again, click **Dismiss with a reason…**, write
`I have that one already` and click **Dismiss**. The reason (and any **Comment…** you attach
to a field) goes to the agent with the outcome: type `list notes`, and the agent answers it;
run the last cell of this section again and it prints what the agent received.

Your rules, in Python: `chat.rules` lists them, `chat.allow(action, schema)` adds one (a JSON
Schema the payload must satisfy), `chat.revoke("r1")` removes one.
"""),
    code("""
chat.rules
"""),
    md("""
What the domain holds now. It follows the chat: redrawn after every step of the conversation
(escaped: a note's text is the agent's words, shown as text).
"""),
    code("""
from html import escape

import ipywidgets as widgets

held = widgets.HTML()

def show_notes(_change=None):
    items = "".join(f"<li>note {note['id']}: {escape(note['text'])}</li>" for note in notes.notes)
    held.value = f"<b>Notes</b><ul>{items}</ul>" if items else "<b>Notes</b>: none"

chat.observe(show_notes, names="transcript")  # every event of the conversation
show_notes()
held
"""),
    md("""
What the agent actually received, message by message: the outcome of its proposals in DIAL
(`<dial-acknowledge>` + `<dial-declare>`), the domain's context, and your words. Each request
counts its turns from 1: turn 2 is the agent told what became of its proposal.
"""),
    code("""
sent = [event for event in chat.transcript if event["type"] == "sent"]
for number, event in enumerate(sent, 1):
    print(f"── message {number} (turn {event['turn']} of its request) ──")
    print(event["message"])
"""),
    md("""
## Use a real model

Three lines: an OpenAI-compatible server (OpenAI, Ollama, vLLM, llama.cpp, LM Studio) or
Anthropic. The agent is taught DIAL and your domain's actions by its system prompt.
This cell does nothing unless a key is set.
"""),
    code("""
import os

if os.environ.get("OPENAI_API_KEY"):
    from dial_notebook import OpenAIAgent  # local: OpenAIAgent(model="llama3.1", base_url="http://localhost:11434/v1", api_key="ollama", domain=notes)
    chat = ChatWidget(agent=OpenAIAgent(model="gpt-4o-mini", domain=notes), domain=notes)
    display(chat)
elif os.environ.get("ANTHROPIC_API_KEY"):
    from dial_notebook import AnthropicAgent
    chat = ChatWidget(agent=AnthropicAgent(model="claude-sonnet-4-5", domain=notes), domain=notes)
    display(chat)
"""),
]

EDA = [
    md("""
# An EDA assistant

A small sales data set (200 rows, shipped with the package) in a DataFrame, and an agent that
proposes analysis steps over the notebook's DataFrames: describe, filter, add a column from
column arithmetic, group and aggregate, plot. Read-only steps run at once; changes wait for
you and can be undone. The agent is the offline `DemoAgent` unless an API key is set.
"""),
    code("""
import os

from dial_notebook import ChatWidget, DataFramesDomain, DemoAgent, load_sales

sales = load_sales()
frames = DataFramesDomain()  # the DataFrames of this notebook's namespace
"""),
    code("""
if os.environ.get("OPENAI_API_KEY"):
    from dial_notebook import OpenAIAgent
    agent = OpenAIAgent(model="gpt-4o-mini", domain=frames)
else:
    agent = DemoAgent(frames)

chat = ChatWidget(agent=agent, domain=frames, title="EDA assistant", session="eda")
chat
"""),
    md("""
`sales` as it is now. It follows the chat: redrawn after every step of the conversation.
"""),
    code("""
import ipywidgets as widgets

now = widgets.HTML()

def show_sales(_change=None):
    rows, columns = sales.shape  # the notebook's `sales`: an accepted change replaces it
    table = sales.head().to_html(border=0)  # pandas escapes the cells' text
    # drawn as JupyterLab (and Voilà) draw a DataFrame in an output
    now.value = (f"<b>sales</b>: {rows} rows × {columns} columns"
                 f"<div class='jp-RenderedHTMLCommon jp-OutputArea-output'>{table}</div>")

chat.observe(show_sales, names="transcript")  # every event of the conversation
show_sales()
now
"""),
    md("""
`session="eda"` keeps this conversation in `.dial/eda.json`, beside the notebook, saved after
every step. Restart the kernel (or let it crash) and run the cells again: the conversation
carries on where it was, a card that was waiting for you included, and the widget says so. The
agent remembers it too. Your data is what the notebook's cells make again (the agent sees the
frames as they are now). Delete the file to start a new conversation.

Saved without a kernel, the notebook still shows the conversation (read-only), on GitHub too
and in `jupyter nbconvert --to html`.
"""),
    md("""
Try, in the chat:

- `describe sales` — runs at once (read-only) and shows a table
- `total units by region` — a new frame, `sales_by_region`
- `filter sales where region is north` — a card that says what it will do before you decide:
  rows before → after, a sample of the rows kept and dropped, and the pandas code (**Copy**).
  **Edit** it and the effect follows your edit (**Save** accepts what you edited), or
  **Accept** it as proposed: `sales` really changes
- `add a column revenue = price * units` — **Edit** the expression before accepting
- `plot price against size` — a chart, on its card (`… as vega-lite`: drawn from a Vega-Lite
  spec)
- `undo` — the agent tells you how to take the last change back (the **Undo** under a done
  card does it)

A done change has **Undo** on its card while it can still be taken back exactly (the card says
why once a later change depends on it); the agent is told it was undone. `frames.undo_last()`
does the same from code. **Copy all code**, under the chat, copies the pandas code of every step
you kept: `frames.code()`.
"""),
    code("""
task = chat.say("describe sales")
task = chat.say("plot price against units as vega-lite")  # a chart, drawn from its spec
"""),
    md("""
An EDA report: one HTML file of the conversation, the tables and charts on their cards, and,
under each turn, the exact text the agent received. It opens anywhere, offline, with no script.
"""),
    code("""
await task
chat.export_html("eda-report.html")
"""),
    md("""
## The same steps, unattended

A `Conversation` with a policy human accepts every proposal: handy for batch runs and for
checking a domain. It works on a copy of the data of its own (`practice`), so running this
section leaves the `sales` of the chat above as it was loaded; its frame really changes, and
later cells use it.
"""),
    code("""
from dial_notebook import Conversation, policy_human

practice = DataFramesDomain({"sales": load_sales()})  # its own frames, not the notebook's
batch = Conversation(agent=DemoAgent(practice), domain=practice, human=policy_human("accept"))
north_only = {"frame": "sales", "where": [{"column": "region", "op": "==", "value": "North"}]}
effect = await batch.dry_run("filter-rows", north_only)  # what it would do; nothing changes
print(effect["summary"], "·", effect["code"])
"""),
    code("""
for request in ["filter sales where region is north", "add a column revenue = price * units",
                "sort sales by price descending"]:
    result = await batch.say(request)
    print(request, "→", [(o["action"], o["status"]) for o in result.outcomes])
north = practice.namespace["sales"]
north.shape, list(north.columns), sales.shape
"""),
    code("""
north.groupby("product")["revenue"].sum().round(2).sort_values(ascending=False)
"""),
    md("""
Undo the last change — what Undo on its card does: the sort is taken back, the frame is exactly
what it was, and the agent is told `undone` with the next message.
"""),
    code("""
undone = await batch.undo(result.outcomes[-1]["id"])
undone["status"], practice.namespace["sales"]["price"].is_monotonic_decreasing
"""),
    md("""
The code you keep: one pandas script of every step still in place. Run on the data as it was
loaded, it makes exactly the frames the conversation made.
"""),
    code("""
script = practice.code()
print(script)
"""),
    code("""
import pandas as pd

replayed = {"sales": load_sales()}
exec(script, replayed)
pd.testing.assert_frame_equal(replayed["sales"], practice.namespace["sales"])
replayed["sales"].shape
"""),
]

PROTOTYPING = [
    md("""
# Prototyping a domain

A domain is the vocabulary of actions an agent may propose, each described by a JSON Schema.
The same schema checks the agent's payloads (an invalid proposal never reaches the person) and
the person's edits (every refusal names the field and says how to fix it).
"""),
    md("""
The domain is made by a function, so that each conversation below gets a todo list of its
own: what one adds never shows up in another (the chat starts with an empty list).
"""),
    code("""
from dial_notebook import Conversation, SchemaDomain, ScriptedAgent, policy_human

def make_todo():
    \"\"\"A todo domain with an empty todo list of its own.\"\"\"
    todos: list[dict] = []
    todo = SchemaDomain("todo", context=lambda: f'<context todos="{len(todos)}"/>',
                        description="A small todo list.")

    @todo.action(
        schema={"type": "object",
                "properties": {"title": {"type": "string", "minLength": 1, "maxLength": 80},
                               "priority": {"enum": ["low", "normal", "high"]},
                               "due": {"type": "string", "format": "date"}},
                "required": ["title"], "additionalProperties": False},
        preview="Add the todo '{title}'",
    )
    def add_todo(payload):
        \"\"\"Adds a todo.\"\"\"
        todos.append({"priority": "normal", **payload})
        return {"count": len(todos)}

    @todo.action(schema={"type": "object"}, mutates=False)
    def list_todos(payload):
        \"\"\"Lists the todos.\"\"\"
        return {"todos": todos}

    return todo

todo = make_todo()
[a["name"] for a in todo.describe()]
"""),
    md("""
Try it with scripted agent replies. The second proposal has a misspelt field and a bad date:
the domain refuses it before a person sees it, and the agent is told exactly what to fix.
"""),
    code("""
replies = [
    '''<dial version="0.1" actor="agent">
  <dial-suggest action="add-todo">Add it?
    <dial-payload>{"title": "Write the report", "priority": "high", "due": "2026-12-01"}</dial-payload>
  </dial-suggest>
  <dial-suggest action="add-todo">And this?
    <dial-payload>{"title": "Call Sam", "priorty": "low", "due": "next week"}</dial-payload>
  </dial-suggest>
</dial>''',
    '<dial version="0.1" actor="agent"><dial-inform>Added one; I will fix the other.</dial-inform></dial>',
]
conversation = Conversation(agent=ScriptedAgent(replies), domain=todo, human=policy_human("accept"))
result = await conversation.say("add my todos")
for outcome in result.outcomes:
    if outcome["status"] == "done":
        print("done ·", outcome["result"])  # what the action returned
    else:
        print(outcome["status"], "·", outcome["field"], "·", outcome["hint"])  # what to fix
"""),
    md("What the agent received about them — the outcome reply, in DIAL:"),
    code("""
print(next(e["message"] for e in conversation.transcript if e["type"] == "sent" and e["turn"] == 2))
"""),
    md("""
Every error, field by field, is what the widget shows next to each input when a person's edit
is refused:
"""),
    code("""
todo.validate("add-todo", {"title": "", "priority": "urgent", "colour": "red"})
"""),
    md("""
## Click through it, offline

`SchemaDemoAgent` is an offline agent for any `SchemaDomain`: no model, no key. It makes each
payload from the action's JSON Schema and checks it with the domain's own `validate` before
proposing it, and it breaks payloads on purpose when you ask, so you see how the domain
refuses an agent. Run the next cell, then type in the chat:

- `help`: the domain's actions, one line each, and what you can type.
- `add todo`: a card *Add the todo 'Example title'*; under it, the payload made from the
  schema, `{"title": "Example title", "priority": "low", "due": "2030-01-15"}`. Click
  **Accept**: the agent says `Done: Add the todo 'Example title'.` and what the action
  returned (`{"count": …}`).
- `add todo: buy milk`: the same, with your words as the title.
- `list todos`: read-only, so it runs at once, without buttons; its result is on the card.
- `invalid add-todo`: the agent says it is sending add-todo with `priority` misspelt as
  `priorty`. No card appears for it: the domain refuses it before you see it. The agent is
  told why and repeats it, *unexpected field 'priorty' (did you mean 'priority'?)*, then
  proposes a valid add-todo instead. Say `invalid add-todo` again for the next way to break
  it (a missing title, a wrong type, a priority outside its values, a date that is not one…),
  or name the way: `invalid add-todo enum`.
- Now the edit form: on that valid card click **Edit**, open the **JSON** tab, change
  `"priority"` to `"priorty"` and click **Save**. The card does not take it: it shows the
  domain's words, *unexpected field 'priorty' (did you mean 'priority'?)*, and keeps the
  editor open so you can correct it and Save again; it counts your tries down (after three
  refused Saves the proposal is dropped). In the **Form** tab the misspelt key has a row of
  its own, *priorty is not a field of this action*: click its **Remove**, then empty the
  *Title* and Save: *title must not be empty*, next to the field.
- `add-todo {"title": "Call Sam", "due": "next week"}`: your own payload, sent exactly as
  written. The domain refuses it (*due must be a date like 2024-01-31*) and the agent tells
  you so.
- `all`: one proposal of each action, their cards one at a time (the next once you have
  decided the one before). **Dismiss** the add-todo card: list-todos then runs
  (read-only), and the agent answers both, *OK, I left that out: Add the todo 'Example
  title'.* and the list.

Decide a card before typing: words typed while a card waits move on, and the card ends
*superseded*. The chat has a todo list of its own, empty at first: `list todos` lists only
what you added in it.
"""),
    code("""
from dial_notebook import ChatWidget, SchemaDemoAgent

mine = make_todo()  # the chat's own list: the cells below do not add to it
chat = ChatWidget(agent=SchemaDemoAgent(mine), domain=mine, title="todo (offline agent)")
display(chat)
task = chat.say("help")  # returns at once; the conversation runs in the background
"""),
    md("""
The same agent without a notebook surface: a `Conversation` whose human accepts every card,
on a todo list of its own. Each broken payload is refused before anyone sees it; the agent then
proposes a valid one.
"""),
    code("""
unattended = make_todo()
offline = Conversation(agent=SchemaDemoAgent(unattended), domain=unattended,
                       human=policy_human("accept"))
for request in ["add todo: buy milk", "invalid add-todo", "invalid add-todo enum", "all"]:
    result = await offline.say(request)
    print(f"{request:24} →", [(o["action"], o["status"]) for o in result.outcomes])
print()
print("\\n".join(e["text"] for e in offline.transcript if e["type"] == "inform"))
"""),
    md("""
## Connect a model

With a key set (`OPENAI_API_KEY` or `ANTHROPIC_API_KEY`), this cell talks to a real model,
which gets a system prompt that teaches DIAL and lists these actions with their schemas, and
a todo list of its own. Without one, it prints that whole prompt: what a model would be told
(the chat above stays the offline one).
"""),
    code("""
import os

from dial_notebook import system_prompt

model_todo = make_todo()
if os.environ.get("OPENAI_API_KEY"):
    from dial_notebook import OpenAIAgent
    display(ChatWidget(agent=OpenAIAgent(model="gpt-4o-mini", domain=model_todo),
                       domain=model_todo))
elif os.environ.get("ANTHROPIC_API_KEY"):
    from dial_notebook import AnthropicAgent
    display(ChatWidget(agent=AnthropicAgent(model="claude-sonnet-4-5", domain=model_todo),
                       domain=model_todo))
else:
    print(system_prompt(model_todo))
"""),
    md("## Save the domain as a file, and load it back\n\nFunctions stay in Python: bind them again by name (here, to a list of the loaded domain's own)."),
    code("""
import tempfile
from pathlib import Path

path = todo.save(Path(tempfile.mkdtemp()) / "todo.json")
print(path.read_text()[:400], "…")

loaded, kept = SchemaDomain.from_file(path), []

def add_kept(payload):
    kept.append({"priority": "normal", **payload})
    return {"count": len(kept)}

loaded.bind("add-todo", add_kept)
loaded.bind("list-todos", lambda payload: {"todos": kept})
loaded.to_dict() == todo.to_dict(), loaded.validate("add-todo", {"title": "x", "due": "soon"})["hint"]
"""),
]


def write(name: str, cells: list[nbformat.NotebookNode]) -> None:
    nb = nbformat.v4.new_notebook()
    nb.cells = cells
    for n, cell in enumerate(cells):  # stable ids: a regeneration changes only what changed
        cell.id = f"{Path(name).stem}-{n:02d}"
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    nbformat.write(nb, NOTEBOOKS / name)


EVALUATING = [
    md("""
# Evaluating a domain

Before you put a domain in an app, find out whether an agent uses it well: which actions it
proposes, how often the domain refuses its payloads and on which fields, how many turns it
takes. `evaluate` runs many scripted conversations at once, each judged against what should
come of it, and `compare` lines two agents up. Then a short recorded session becomes a
scenario, and both agents are judged against what the person decided in it. No API key: the
agents here are offline.
"""),
    code("""
from dial_notebook import SchemaDemoAgent, SchemaDomain, compare, evaluate

def make_todo():
    \"\"\"The todo domain of prototyping-a-domain.ipynb, with a list of its own.\"\"\"
    todos = []
    todo = SchemaDomain("todo", context=lambda: f'<context todos="{len(todos)}"/>',
                        description="A small todo list.")

    @todo.action(
        schema={"type": "object",
                "properties": {"title": {"type": "string", "minLength": 1, "maxLength": 80},
                               "priority": {"enum": ["low", "normal", "high"]},
                               "due": {"type": "string", "format": "date"}},
                "required": ["title"], "additionalProperties": False},
        preview="Add the todo '{title}'",
    )
    def add_todo(payload):
        \"\"\"Adds a todo.\"\"\"
        todos.append({"priority": "normal", **payload})
        return {"count": len(todos)}

    @todo.action(schema={"type": "object"}, mutates=False)
    def list_todos(payload):
        \"\"\"Lists the todos.\"\"\"
        return {"todos": todos}

    return todo
"""),
    md("""
A scenario is what a person says (`say`, in order) and, optionally, what should come of it
(`expect`): `actions` that must be proposed, `not_actions` that must not, the final `status`,
`max_turns`, and `payloads`, a JSON Schema every proposed payload of an action must meet.
They can live in a YAML or JSON file too: `load_scenarios("scenarios.yaml")`.
"""),
    code("""
def adds(title):
    return {"name": f"add {title}", "say": [f"add todo: {title}"],
            "expect": {"actions": ["add-todo"], "max_turns": 2, "payloads": {"add-todo": {
                "properties": {"title": {"const": title}}, "required": ["title"]}}}}

scenarios = [
    adds("buy milk"), adds("call Sam"), adds("write the report"), adds("pay rent"),
    adds("book the dentist"),
    {"name": "list", "say": ["list todos"],
     "expect": {"actions": ["list-todos"], "not_actions": ["add-todo"]}},
    {"name": "help", "say": ["help"], "expect": {"not_actions": ["add-todo", "list-todos"]}},
    {"name": "one of each", "say": ["all"], "expect": {"actions": ["add-todo", "list-todos"]}},
    {"name": "add, then list", "say": ["add todo: water the plants", "list todos"],
     "expect": {"actions": ["add-todo", "list-todos"], "max_turns": 4}},
    {"name": "two adds", "say": ["add todo: buy bread", "add todo: buy eggs"],
     "expect": {"actions": ["add-todo"], "max_turns": 4}},
    {"name": "the person's own bad date", "say": ['add-todo {"title": "Call Sam", "due": "next week"}'],
     "expect": {"status": "idle", "max_turns": 2}},
    {"name": "a typo, recovered", "say": ["invalid add-todo"],
     "expect": {"actions": ["add-todo"], "status": "idle", "max_turns": 3}},
]
len(scenarios)
"""),
    md("""
The careful agent: the offline `SchemaDemoAgent`, which makes every payload from the action's
schema. `agent` is a factory, so each scenario gets an agent (and a history) of its own; so is
`domain` here (`make_todo`), so each starts from an empty list. While it runs, a bar under the
cell counts the scenarios as they end; the report then shows a table and, under it, each
scenario's conversation behind its name (a name in the table takes you there; click it there
to open it).
"""),
    code("""
careful = await evaluate(agent=lambda: SchemaDemoAgent(make_todo()), domain=make_todo,
                         scenarios=scenarios, concurrency=8)
print(careful.summary())
careful
"""),
    md("""
A deliberately sloppy agent: it mishears every "add todo" as a request to break the payload,
so the domain refuses its first try, and it loses the title on the way. The report says which
scenarios fail and why, and draws the fields the domain refused as bars; under each scenario's
name are its proposals with the domain's code, field and hint for each refusal.
"""),
    code("""
class SloppyAgent:
    \"\"\"The offline agent, careless on purpose: every add's first payload is broken.\"\"\"

    def __init__(self):
        self.careful = SchemaDemoAgent(make_todo())

    def send(self, message):
        return self.careful.send(message.replace("add todo", "invalid add-todo"))

sloppy = await evaluate(agent=SloppyAgent, domain=make_todo, scenarios=scenarios)
print(sloppy.summary())
sloppy
"""),
    code("""
stats = sloppy.actions["add-todo"]
print(f"add-todo: proposed {stats.proposed}, refused {stats.invalid}, done {stats.done}")
print("refused by field:", stats.refused_by_field)
print("the first refusal:", sloppy["add buy milk"].proposals[0]["errors"][0]["hint"])
"""),
    md("""
Side by side: per scenario, each agent's status, whether it passed, its turns and refusals;
then per action. `to_frame()` gives the same as pandas DataFrames.
"""),
    code("""
comparison = compare(careful, sloppy, names=["careful", "sloppy"])
comparison
"""),
    code("""
careful.to_frame()
"""),
    md("""
A report is plain JSON: save it beside the notebook and load it later (or in CI) to compare
with the next prompt or model.
"""),
    code("""
from dial_notebook.evaluation import Report

careful.save("careful.json")
again = Report.load("careful.json")
again.passed, again.failed, again.actions["add-todo"].done
"""),
    md("""
## Learn from what the person decided

A person who works with an assistant for a day leaves, in its session file, the evaluation data
nobody else has: what they asked, what they accepted as it was, what they corrected and how,
what they dismissed and why. This section records a short session, turns it into a scenario,
and runs both agents against the person's decisions.

First the session. In an app it is the file `ChatWidget(session="todo-day")` keeps as the
person clicks; here a `Conversation` with a `scripted_human` stands in for the person, so Run
All needs no clicks. It accepts the first todo as proposed, edits the second (priority `high`,
with a comment on that field) and dismisses the third with a reason; listing runs without
asking. `save_snapshot` writes the conversation where that ChatWidget would keep it,
`.dial/todo-day.json`, in the same format (signed with your Jupyter secret, as the widget's
files are). The cell prints what came of each message.
"""),
    code("""
from dial_notebook import Conversation, Scenario, replay_decisions, scripted_human
from dial_notebook.evaluation import save_scenarios
from dial_notebook.runtime import save_snapshot

todo = make_todo()
day = Conversation(agent=SchemaDemoAgent(todo), domain=todo, human=scripted_human([
    "accept",
    {"edit": {"title": "call Sam", "priority": "high"},
     "comments": [{"field": "/priority", "text": "He is waiting for it."}]},
    {"dismiss": True, "reason": "done already"},
]))
said_today = ["add todo: buy milk", "add todo: call Sam", "add todo: water the plants",
              "list todos"]
for words in said_today:
    said = await day.say(words)
    print(f"{words:28} → {[(o['action'], o['status']) for o in said.outcomes]}")
session = save_snapshot(day.snapshot(), ".dial/todo-day.json")
"""),
    md("""
`Scenario.from_session` reads the session file (checked as any session file is: one that
cannot be read is an error naming it) and makes a scenario of it: `say` holds the person's messages
in order, and `expect.decisions` one entry per proposal the person decided: `accepted` with its
payload, `corrected` with what the person changed it to, the `original` the agent proposed and
the person's comments, `dismissed` with the person's reason. `save_scenarios` writes it as YAML
(or JSON) that you can read and edit like any scenario file; the cell prints it.
"""),
    code("""
learned = Scenario.from_session(session)
print(save_scenarios([learned], "todo-day.yaml").read_text())
"""),
    md("""
`replay_decisions` runs an agent on the recorded scenario with a `recorded_human` that decides
as the person did: a proposal they accepted is accepted, one they had corrected gets the same
edit and comments, one they dismissed is dismissed with the same reason, and one they never saw
is dismissed and counted as new. It is `evaluate` underneath, so a bar counts the scenario. The
careful agent is the one the person worked with, so it agrees on every decision: it still
proposes what the person had to correct (the edit is still needed) and again proposes the todo
they dismissed. The cell prints the careful agent's summary, with its line "agrees with the
person on N of M decisions".
"""),
    code("""
careful_day = await replay_decisions(agent=lambda: SchemaDemoAgent(make_todo()),
                                     domain=make_todo, sessions=[learned])
print(careful_day.summary())
"""),
    md("""
The sloppy agent against the same decisions: the domain refuses its first payload for each
todo, and its second has lost the title, so nothing it proposes is what the person accepted or
corrected (missed), and each of its three proposals is one the person never decided (new); it
agrees only in not proposing the dismissed todo again. Its summary fails the scenario with the reasons;
then, after a blank line, `disagreements()` lists them by kind: the missed decisions first,
then each new proposal with its id and payload.
"""),
    code("""
sloppy_day = await replay_decisions(agent=SloppyAgent, domain=make_todo,
                                    sessions=[learned])
print(sloppy_day.summary())
print()
for kind, found in sloppy_day.disagreements().items():
    for d in found:
        if kind == "new":
            print(f"{kind:6} {d['action']}  {d['id']}: {d['payload']}")
        else:
            print(f"{kind:6} {d['action']}  what the person {d['kind']}")
"""),
    md("""
`compare` lines the two replays up as it does any reports: per scenario, then each agent's
agreement with the person.
"""),
    code("""
compare(careful_day, sloppy_day, names=["careful", "sloppy"])
"""),
    md("""
Before you share a session's scenario, leave out what is private. The scenario holds only what
the session held (never a key, a header or the system prompt), and `drop=` names prose
(`reason`, `comments`, `answers`) or payload fields to leave out everywhere; a decision then
lists the fields it lost under `dropped`, and a replay compares payloads without them. The cell
drops the reasons, the comments and the due dates, prints the decisions left, and checks that
neither the person's reason nor their comment is in the shared file (False, False).
"""),
    code("""
shared = Scenario.from_session(session, drop=["reason", "comments", "due"])
for decision in shared.expect.decisions:
    print(decision)
shared_text = save_scenarios([shared], "todo-day-shared.yaml").read_text()
"done already" in shared_text, "He is waiting" in shared_text
"""),
    md("""
## With a real model

With a key set, the same scenarios run against a model (each scenario its own agent and
client); `compare(careful, model)` then shows where the model falls short of the offline
agent, and the model's replay of the recorded day says how far it agrees with the person.
This cell does nothing without a key.
"""),
    code("""
import os

if os.environ.get("OPENAI_API_KEY"):
    from dial_notebook import OpenAIAgent
    model = await evaluate(agent=lambda: OpenAIAgent(model="gpt-4o-mini", domain=make_todo()),
                           domain=make_todo, scenarios=scenarios, concurrency=4)
    display(compare(careful, model, names=["offline", "gpt-4o-mini"]))
    model_day = await replay_decisions(
        agent=lambda: OpenAIAgent(model="gpt-4o-mini", domain=make_todo()), domain=make_todo,
        sessions=[learned])
    print(model_day.summary())
"""),
]


NOTEBOOK_CELLS = {
    "quickstart.ipynb": QUICKSTART,
    "eda-assistant.ipynb": EDA,
    "prototyping-a-domain.ipynb": PROTOTYPING,
    "evaluating-a-domain.ipynb": EVALUATING,
}


def main(names: list[str] | None = None) -> None:
    """Write the notebooks named (all of them when none is): each is rewritten whole, with
    new cell ids, so name only those whose cells changed."""
    unknown = [n for n in names or [] if n not in NOTEBOOK_CELLS]
    if unknown:
        raise SystemExit(f"unknown notebook {unknown[0]!r}; the notebooks: "
                         f"{', '.join(NOTEBOOK_CELLS)}")
    NOTEBOOKS.mkdir(exist_ok=True)
    for name in names or NOTEBOOK_CELLS:
        write(name, NOTEBOOK_CELLS[name])


if __name__ == "__main__":
    main(sys.argv[1:])
