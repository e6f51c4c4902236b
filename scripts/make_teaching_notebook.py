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
   message your agent gets back: the outcome reply, the domain's context, the person's words.

No API key and no network are needed: nothing here calls a model."""),
    ("code", """\
from dial_notebook.widget import Playground

playground = Playground()
playground"""),
    ("markdown", """\
## A tour for a class

1. **inform** — start with `inform · render="prose"`, then try `card-list` and `table`: the same
   element, a different *render hint*. Nothing comes back to the agent: an inform expects no
   answer, so no second turn follows (**What the agent receives** shows turn 1: the domain's
   context, then the person's words).
2. **ask** — pick `ask · response-type="choice"`, send it, and click **People to call** in the
   chat. Each option there shows its text with its value under it; the parser panel lists every
   option the same way, `value="people"` then the text. The chat shows what you clicked
   (*You: People to call*); the agent receives the value, `people`, on turn 2. A `confirm` is
   always **Yes** / **No**, and the agent receives `yes` or `no`.
3. **suggest** — pick `suggest · with its own payload` and send it. A card appears: **Accept** it
   and read the outcome reply: `<dial-acknowledge of="sg-milk" yield="sg-milk:done">`. `sg-milk`
   is the suggest's `id` (the runtime names a suggest without one `sg-1`, `sg-2` …), and the
   outcome's yield is that id, a colon and what became of it: `done`, `dismissed`, `invalid` ….
   The `yield="milk:added milk:dismissed"` written on the suggest is something else: events
   *inside your reply* that another element can wait for with `observe`; they are never sent
   back. After an outcome the playground answers for you with a canned *Noted, thank you.*, so
   the conversation comes to rest. Send it again and try **Edit**: empty the text and **Save**;
   the domain refuses it (*Not accepted: text must not be empty*) and the card waits for a fix.
   **Cancel** the edit and **Dismiss**: a dismissal starts no turn, and the agent hears
   `yield="sg-milk:dismissed"` with the person's next words (type some in the chat's box).
4. **malformed** — pick the last example. The parser repairs the bare `&` and `<` and closes the
   open element; the misspelt `<dial-infrom>` is not DIAL, so the runtime ignores it and lint
   names it (did you mean `<dial-inform>`?). Fix the XML until lint is clean.
5. **execute** — pick `execute (steps)` and send it. The card is marked **⚠ Runs code** and lists
   both python steps, each command exactly as it will run: nothing runs until you **Accept** that
   card (every execute block needs it, even after a confirm answered yes). Accept: the steps run
   in this notebook, `count` after `make` (it observes the `list:made` that `make` yields). The
   card shows each step's last value (`['milk', 'bread', 'eggs']`, `3`) and what `count`
   printed (`3 items: milk, bread, eggs`), and the agent receives one outcome per step, named
   by the step's id: `of="make" yield="make:done"` and `of="count" yield="count:done"`. Run
   `shopping` in a new cell: the list is there. A `shell` step would fail: this playground
   enables no shell executor.
6. **domains** — with the suggest in the editor, switch **Domain** to
   `sales data frame (DataFramesDomain)`: that starts a new conversation (the chat empties; the
   editor keeps your reply). Send it: `add-note` is not an action of this domain, so no card
   appears. The chat shows one line, *add-note: Invalid — There is no action 'add-note'.*, and
   the agent is told at once, on turn 2, without waiting for the person:
   `yield="sg-milk:invalid"` with code `unknown-action`. The context it receives is now the sales
   frame's (`<context frames="1">` …)."""),
    ("markdown", """\
## Replay a conversation, one event at a time

The replay below is a conversation that really happened (a real chat widget and the real
runtime, the agent scripted), saved as JSON and shipped with the package. Press **Next ▶** to
show one more event; **◀ Back**, **« First** and **Last »**, the slider, a tick on the timeline
(one per event, coloured by kind) or the arrow keys move too. On the left is **what the person
saw**: the chat as the widget drew it after that many events, read-only. On the right:

- **This event**: its type (`person`, `sent`, `reply`, `inform`, `ask`, `suggestion`,
  `outcome` …), what it means, and its fields;
- **What the agent received**: the exact text of the latest message the runtime sent the agent
  (the domain's context, the person's words, the outcome replies), character for character;
- **The agent's reply, raw**, on a `reply` event: exactly what came back, before it was read.

What to point out to the class, by event number:

1. **1–5**: the person's words go out as a message (`sent`: the context, then the words), the
   reply comes back raw, and the runtime turns it into a message (the prose before the
   envelope) and a card.
2. **6–7**: the card is accepted, its outcome is `done`, and at once turn 2 tells the agent:
   `<dial-acknowledge of="milk" yield="milk:done">`. The agent's acknowledgement (9) is shown
   with its card.
3. **13–15**: a choice. While it waits its options show; the person picks **call Sam** and the
   agent receives the option's value, `1`.
4. **17–20**: a destructive card, dismissed. No message follows: the agent hears
   `yield="rm:dismissed"` only with the person's next words (20).
5. **21–23**: an empty payload. The domain refuses it, so no card is shown; the agent is told at
   once (`yield="later:invalid"`, *text must not be empty*) and proposes again (25).
6. **26–27**: the person edited that card before accepting it: the outcome says `edited`, and
   the agent hears what really ran, *call Sam at 5pm*.

From code: `replay.step = 7`, `replay.next()`, `replay.back()`, `replay.event` (the current
event) and `replay.received` (the exact message the agent had received). A saved conversation is
replayed the same way, `Playground.replay("conversation.json")`, and so is the playground's chat
so far: `Playground.replay(playground.chat)`."""),
    ("code", """\
from dial_notebook.widget import Replay

replay = Playground.replay(Replay.EXAMPLE)  # a conversation shipped with the package
replay"""),
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
plays the same reply from a script. The second message the agent receives starts with the outcome
reply, then the domain's context."""),
    ("code", """\
from dial_notebook import Conversation, NotesDomain, ScriptedAgent, policy_human, python_executor

agent = ScriptedAgent([
    playground.examples["suggest-payload"].xml,
    '<dial version="0.1" actor="agent"><dial-acknowledge>Noted.</dial-acknowledge></dial>',
])
conversation = Conversation(agent=agent, domain=NotesDomain(), human=policy_human("accept"))
result = await conversation.say("add a note: buy milk")
print(result.status, [outcome["status"] for outcome in result.outcomes])
print(agent.received[-1])"""),
    ("markdown", """\
The execute example runs the same way, one outcome per step. Its python steps run where the
python executor is told: here this notebook's namespace (`get_ipython().user_ns`, what the
chat widget gives it too), so `shopping` is a variable here afterwards. (A policy human
accepts everything, code included: fine for a reply you wrote, never for a model's.)"""),
    ("code", """\
agent = ScriptedAgent([
    playground.examples["execute"].xml,
    '<dial version="0.1" actor="agent"><dial-acknowledge>Noted.</dial-acknowledge></dial>',
])
conversation = Conversation(agent=agent, domain=NotesDomain(), human=policy_human("accept"),
                            executors={"python": python_executor(get_ipython().user_ns)})
result = await conversation.say("make me a shopping list")
for outcome in result.outcomes:
    print(outcome["id"], outcome["status"], outcome["result"])
shopping"""),
    ("markdown", """\
## Exercises

- Write one reply that **informs** the person how many notes they have and **asks** which list a
  new note goes on (a `choice` with three options, one of them the default).
- Write a **suggest** for `remove-note` (payload `{"id": 2}`). What does the card show that an
  `add-note` card does not?
- Take the `id` off the suggest and send it twice. What are its outcomes called?
- Add `<dial-inform observe="milk:added">Added.</dial-inform>` after the suggest. When does the
  person see it? What do they see when they dismiss the card instead?
- Make the `count` step fail (write `len(shoping)`). What does the card show, and what does the
  agent receive for each step?
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
