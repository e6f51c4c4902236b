"""Write notebooks/teaching-dial.ipynb (without outputs) from the cells below.

    .venv/bin/python scripts/make_teaching_notebook.py

The notebook is generated so that its text is reviewed here, as code, and stored clean.
"""

from __future__ import annotations

from pathlib import Path

import nbformat

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "teaching-dial.ipynb"

CELLS: list[tuple[str, str]] = [
    ("markdown", """\
# Teaching DIAL: you play the agent

An agent that speaks **DIAL** answers in small XML speech acts inside a `<dial>` envelope: it
*informs*, *asks*, *suggests* an action, *acknowledges*, *declares* a fact, *executes* steps,
*delegates*, or sends a *phatic* signal. A **runtime** sits between the agent and a person: it
reads the reply, shows cards and questions, and tells the agent what became of every proposal.

In the playground below **you are the agent**. Write (or pick) a reply and watch three things
side by side:

1. **What the parser read**: each element with its attributes, text and payload, and any repairs
   the parser had to make.
2. **Lint findings**: what is wrong, where (line and column), and how to write it instead.
3. **The runtime, live**: press **Send as the agent**; the real runtime shows your reply to the
   person. Click on the card as the person would, and **What the agent receives** shows the exact
   XML your agent gets back.

No API key and no network are needed: nothing here calls a model."""),
    ("code", """\
from dial_notebook.widget import Playground

playground = Playground()
playground"""),
    ("markdown", """\
## A tour for a class

1. **inform** — start with `inform · render="prose"`, then try `card-list` and `table`: the same
   element, a different *render hint*. Nothing comes back to the agent: an inform expects no answer.
2. **ask** — pick `ask · response-type="choice"`, send it, answer in the chat. The next message
   the agent receives carries the person's answer.
3. **suggest** — pick `suggest · with its own payload` and send it. A card appears: **Accept** it
   and read the outcome reply: `<dial-acknowledge of="sg-milk" yield="sg-milk:done">`. Send it
   again and try **Edit** (empty the text: the domain refuses it with a field error) and
   **Dismiss**. A dismissal starts no turn: the agent hears about it with the person's next words.
4. **malformed** — pick the last example. The parser repairs the bare `&` and `<` and closes the
   open element; the misspelt `<dial-infrom>` is not DIAL, so the runtime ignores it and lint
   names it (did you mean `<dial-inform>`?). Fix the XML until lint is clean.
5. **domains** — switch the domain to the sales data frame and send the suggest again: `add-note`
   is not an action there, so the person never sees the card, and the agent is told at once that
   it was `invalid`."""),
    ("markdown", """\
## The same steps in code

The playground uses the library's public functions. `parse` reads a reply the way the runtime does
(repairing what it can), and `lint` explains each problem with its line and column:"""),
    ("code", """\
from dial_notebook import lint, parse

reply = playground.examples["malformed"].xml
print(reply)
envelope = parse(reply)
for repair in envelope.repairs:
    print("repaired:", repair.kind, "-", repair.message)
for finding in lint(reply):
    print(finding)"""),
    ("markdown", """\
Once the XML is well-formed, only the misspelt element is left, with the right name suggested:"""),
    ("code", """\
fixed = reply.replace("&&", "&amp;&amp;").replace("< notes", "&lt; notes").replace(
    "notes.txt\\n", "notes.txt</dial-inform>\\n")
for finding in lint(fixed):
    print(finding)"""),
    ("markdown", """\
`outcome_reply` builds the envelope that tells the agent what became of its proposals: one
`<dial-acknowledge>` and one `<dial-declare>` per outcome."""),
    ("code", """\
from dial_notebook import outcome_reply

print(outcome_reply([
    {"id": "sg-milk", "action": "add-note", "status": "dismissed",
     "preview": "Add the note 'buy milk'"},
    {"id": "sg-3", "action": "remove-note", "status": "invalid", "code": "not-found",
     "field": "id", "hint": "There is no note 3; list the notes first."},
]))"""),
    ("markdown", """\
The runtime needs no widget: a `Conversation` with a *policy human* (one who always accepts)
plays the same reply from a script. The second message the agent receives is the outcome reply."""),
    ("code", """\
from dial_notebook import Conversation, NotesDomain, ScriptedAgent, policy_human

agent = ScriptedAgent([
    playground.examples["suggest-payload"].xml,
    '<dial version="0.1" actor="agent"><dial-acknowledge>Noted.</dial-acknowledge></dial>',
])
conversation = Conversation(agent=agent, domain=NotesDomain(), human=policy_human("accept"))
result = await conversation.say("add a note: buy milk")
print(result.status, [outcome["status"] for outcome in result.outcomes])
print(agent.received[-1])"""),
    ("markdown", """\
## Exercises

- Write one reply that **informs** the person how many notes they have and **asks** which list a
  new note goes on (a `choice` with three options, one of them the default).
- Write a **suggest** for `remove-note` (payload `{"id": 2}`). What does the card show that an
  `add-note` card does not?
- Give a suggest an `action` the domain does not know. What does the agent receive, and when?
- Make lint report a `warning` rather than an `error`. What is the difference for a runtime?"""),
]


def build() -> nbformat.NotebookNode:
    """The notebook, with no outputs and no execution counts."""
    notebook = nbformat.v4.new_notebook()
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                       "language": "python"}
    notebook.metadata["language_info"] = {"name": "python"}
    notebook.cells = [nbformat.v4.new_markdown_cell(source) if kind == "markdown"
                      else nbformat.v4.new_code_cell(source) for kind, source in CELLS]
    for index, cell in enumerate(notebook.cells):
        cell["id"] = f"teaching-{index:02d}"
    return notebook


if __name__ == "__main__":
    nbformat.write(build(), NOTEBOOK)
    print(f"wrote {NOTEBOOK}")
