"""The dial-notebook quickstart as a marimo notebook.

Open it as an app (``marimo run quickstart_marimo.py``) or to edit
(``marimo edit quickstart_marimo.py``), in the folder that holds it: ``notebooks/`` in a clone,
or the folder ``dial-notebook notebooks`` copied it into after a pip install (marimo comes with
``pip install "dial-notebook[marimo]"``). The same steps as quickstart.ipynb;
tests/browser/test_marimo.py follows them in a browser.
"""

import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium")


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    # dial-notebook quickstart, in marimo

    An agent that speaks **DIAL** proposes; you decide. Every proposal arrives as a card you
    can **Accept**, **Edit** or **Dismiss**, and the agent is told what became of it.

    This notebook needs no API key: `DemoAgent` is an offline agent that understands a few
    plain requests about notes. As an app, with no code showing:
    `marimo run quickstart_marimo.py` (each visitor gets a conversation of their own). To
    edit: `marimo edit quickstart_marimo.py`, then click **Run all** (▶, bottom right)
    unless your marimo settings run the cells on startup.
    """)
    return


@app.cell
def _():
    from html import escape

    import marimo as mo

    from dial_notebook import ChatWidget, DemoAgent, NotesDomain

    return ChatWidget, DemoAgent, NotesDomain, escape, mo


@app.cell
def _(ChatWidget, DemoAgent, NotesDomain, mo):
    notes = NotesDomain(["call the plumber", "book the dentist"])
    chat = mo.ui.anywidget(
        ChatWidget(agent=DemoAgent(notes), domain=notes, title="Notes assistant")
    )
    chat  # noqa: B018
    return chat, notes


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    **1. Send a request.** Type in the chat box, or send from code as the next cell does.
    A card appears: *Add the note 'buy milk'*. Click **Accept**: the note is added and the
    agent answers.
    """)
    return


@app.cell
def _(chat):
    # returns at once; the conversation runs in the background, on marimo's event loop
    task = chat.say("add a note: buy milk")
    return (task,)


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    **2. Edit a proposal.** Type `add a note: water the plants`, click **Edit**, empty the
    text and **Save**: the action's JSON Schema refuses it, next to the field. Write
    something else and Save again: the edited note is added, and the agent notices you
    changed it.

    **3. Dismiss one.** Type `remove note 1` (a destructive action, marked in red) and click
    **Dismiss**. The agent hears about it with your next words.

    **4. Or just talk.** Typing while a card waits means you moved on: the card ends
    *superseded*.

    **5. Trust without fatigue.** Type `add a note: call mum`. On its card click
    **Always allow like this…**: a rule is drafted from this very proposal, each field fixed
    to its value. Next to *text*, click **Any text**, then **Save rule and accept**. Now
    type `add a note: pay rent`: it is added without a click, and its card says *Accepted
    by rule r1*. Rules never apply to destructive actions: `remove note 1` still asks
    (dismiss it). Click **Rules (1)** under the chat to see the rule, how many proposals it
    accepted, and **Revoke** it. In code: `chat.rules` lists the rules,
    `chat.allow(action, schema)` adds one, `chat.revoke("r1")` removes one.

    **6. Say why.** Type `add a note: call mum` again, click **Dismiss with a reason…**,
    write `I have that one already` and click **Dismiss**. The reason goes to the agent with
    the outcome: type `list notes`, and the agent answers it; the last cell shows what it
    received.
    """)
    return


@app.cell
def _(chat, mo, notes):
    # The chat changes the notes from a task on the event loop, after the cells ran: a
    # mo.state set on every step of the conversation makes the cells that read it run again.
    def _now():
        sent = [(event["turn"], event["message"]) for event in chat.transcript
                if event["type"] == "sent"]
        return {"notes": [dict(note) for note in notes.notes], "sent": sent}

    seen, set_seen = mo.state(_now())

    def _follow(_change):
        now = _now()
        if now != seen():
            set_seen(now)

    chat.observe(_follow, names="transcript")  # every event of the conversation
    return (seen,)


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    What the domain holds now. It follows the chat: this cell runs again after every step
    of the conversation (escaped: a note's text is the agent's words, shown as text).
    """)
    return


@app.cell
def _(escape, mo, seen):
    _items = "".join(
        f"<li>note {note['id']}: {escape(note['text'])}</li>" for note in seen()["notes"]
    )
    mo.Html(
        f"<div data-notes><b>Notes</b><ul>{_items}</ul></div>"
        if _items
        else "<div data-notes><b>Notes</b>: none</div>"
    )
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    What the agent actually received, message by message: the outcome of its proposals in
    DIAL (`<dial-acknowledge>` + `<dial-declare>`), the domain's context, and your words.
    Each request counts its turns from 1: turn 2 is the agent told what became of its
    proposal.
    """)
    return


@app.cell
def _(mo, seen):
    mo.plain_text(
        "\n".join(
            f"── message {number} (turn {turn} of its request) ──\n{message}"
            for number, (turn, message) in enumerate(seen()["sent"], 1)
        )
        or "(nothing sent yet)"
    )
    return


if __name__ == "__main__":
    app.run()
