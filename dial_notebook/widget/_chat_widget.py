"""ChatWidget: one conversation in a notebook, with the person in the browser.

The widget is the conversation's human and its event sink; it holds no lifecycle rules. The
turn loop runs as a task on the kernel's event loop; ``decide`` and ``answer`` return futures
that the front end's messages resolve (see ``_bridge``). Everything a person can see lives in
synced traits, so a second view or a reloaded page shows the same conversation and the same
pending card, still answerable.

    person types / chat.say(text) ──▶ pending decision?  ──▶ resolved as {'say': text}
                                      pending question?  ──▶ answered with text
                                      otherwise          ──▶ new turn-loop task
    runtime event ──▶ transcript (+ thinking while the agent is called), sent once as an
                      {type: 'append', start, events} message
    streamed reply  ──▶ {type: 'progress', …} messages: the prose so far; never kept
    Stop / stop()   ──▶ the running say is cancelled, {type: 'stopped'} in the transcript
    decide(suggestion) ──▶ pending = {kind: 'decide', token, id, issue, errors} ──▶ click
    answer(ask)        ──▶ pending = {kind: 'answer', token, index, options}     ──▶ click
    close() while pending ──▶ decision {'say': ''} (superseded), answer None
    rules (chat.rules, chat.allow) ──▶ a matching proposal is accepted without asking; on a
                      card, "Always allow like this…" ─▶ 'rule-draft' (what would it accept?)
                      ─▶ 'allow' (saved, and the card accepted with it); 'revoke' ─▶ removed;
                      a notebook rule another chat read from its file ─▶ 'confirm-rule' first
    a session file this user did not make ──▶ read-only (``untrusted``): shown, nothing runs,
                      nothing sent or saved ─▶ 'trust' / chat.trust() ─▶ signed, carries on
    ask_user(questions) ──▶ one panel, answered by Submit (the provider half: _questions.py)

Where each part lives (``ChatWidget`` mixes them in: each is a job of this one widget that
reads and writes the same synced traits, and whose public methods are the widget's own):

    _chat_turns.py    a say's life: say, stop, retry, undo, the tasks on the kernel's loop
    _chat_person.py   the person in the browser: decide / answer, the front end's messages
    _chat_events.py   the runtime's events into the transcript (charts, usage, schemas);
                      _chat_progress.py: what is sent of a streamed reply, within a budget
    _chat_traffic.py  how the transcript travels: each event once, in one append message
    _chat_session.py  the conversation built or restored, saved to its file, carried on
    _questions.py     the ask-the-person seam's provider (``ask_user``)
    this module       the widget: its traits, its constructor, rules, trust, the static
                      copy (readable without a kernel, exported as one file), closing

Two question channels, on purpose: an agent's ``<dial-ask>`` is part of the conversation (its
card, answered inline, the answer goes to the agent with the next message), while ``ask_user``
serves code outside the conversation (a tool, a domain action) with batched questions whose
answers go back to that code (see ``dial_notebook.interaction``).
"""

from __future__ import annotations

import asyncio
import itertools
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from dial_notebook.domains import Rule, Rules
from dial_notebook.runtime import save_snapshot

from ._bridge import Bridge
from ._chat_events import RuntimeEvents
from ._chat_person import PersonInBrowser
from ._chat_progress import StreamedReply
from ._chat_session import SessionFile, conversation_options, file_rules
from ._chat_session import notebook_namespace as notebook_namespace  # still importable here
from ._chat_traffic import AppendTraffic, Outbox, running_loop
from ._chat_turns import Turns
from ._questions import QuestionsProvider
from ._rules import rules_for
from ._static import export_document, write_document
from ._static_live import LiveCopy
from ._static_output import StaticOutput

#: The front end as anywidget loads it: the bundle esbuild makes from js/src (``npm run
#: build``), committed inside the package, so a checkout, an editable install and a wheel all
#: load the same files and none needs Node.
STATIC = Path(__file__).resolve().parent / "static"


class ChatWidget(QuestionsProvider, SessionFile, Turns, PersonInBrowser, RuntimeEvents,
                 AppendTraffic, anywidget.AnyWidget):
    """A conversation with an agent that speaks DIAL, shown in a notebook; the person decides.

    Args:
        agent: the transport to the agent (``send(message) -> str``, sync or async).
        domain: the actions the agent may propose (see ``SchemaDomain``).
        timeout: seconds to wait for a reply before ``no-reply``.
        max_turns: turns per ``say`` before ``turn-limit``.
        run_timeout: seconds one domain run may take before it ends ``failed`` (code
            ``timeout``); by default ``timeout``.
        title: a heading shown above the conversation.
        conversation_factory: builds the conversation; defaults to
            ``dial_notebook.runtime.Conversation`` and is called with ``agent, domain, human,
            on_event, timeout, max_turns`` (and each of ``run_timeout, full_dial, executors,
            actors`` that is given).
        full_dial: act on the rest of DIAL v0.1 — execute blocks (shown as cards with their
            commands; python steps run in this notebook's namespace), declares (the context
            panel), delegations, phatic signals, addressed-to. On unless ``False`` (the
            reference runtime's behaviour). See ``Conversation``.
        executors: env → executor, over the defaults (``shell`` is off unless given).
        actors: actor id → callable or agent, for ``<dial-delegate>``.
        session: keep the conversation in a file beside the notebook — a name (``"eda"``:
            ``.dial/eda.json``) or a path. It is saved after every event; when the file is
            there, the conversation carries on from it (in a new kernel: the same cell run
            again), the card that was waiting included, and the widget says so. See
            ``_session.py``. The person's rules are kept in it too. A file this user did
            not save (unsigned, changed, or signed with another Jupyter secret) opens
            read-only until trusted (``trust()``).
        rules: the rules to apply (``dial_notebook.Rules``); by default this conversation's
            own, with the notebook's shared by every ChatWidget in the kernel. ``chat.rules``
            lists them; ``chat.allow`` adds one, ``chat.revoke`` removes one.

    Example (in a notebook cell):

        chat = ChatWidget(agent=agent, domain=domain, session="eda")
        chat
        task = chat.say("add a note: buy milk")
    """

    _esm = STATIC / "widget.js"
    _css = STATIC / "widget.css"

    transcript = traitlets.List(help="Every event so far, JSON-able, plus the person's words "
                                     "as {'type': 'person', 'text'}.").tag(sync=True)
    pending = traitlets.Dict(help="What the person is asked now: a decision or an answer; "
                                  "{} when nothing waits.").tag(sync=True)
    thinking = traitlets.Bool(False, help="True while the agent is being called.").tag(sync=True)
    running = traitlets.Bool(False, help="True while a say is in progress.").tag(sync=True)
    queued = traitlets.List(help="The person's messages written while the agent was still "
                                 "answering: sent, and shown in the conversation, once it "
                                 "is done.").tag(sync=True)
    schemas = traitlets.Dict(help="JSON Schema per action, for the edit form.").tag(sync=True)
    usage = traitlets.Dict(help="Tokens the agent reported: {turns, input, output, total} "
                                "({} when it reports none).").tag(sync=True)
    undoable = traitlets.Dict(help="Done changes Undo can take back: suggestion id → true, or "
                                   "why not.").tag(sync=True)
    code = traitlets.Unicode("", help="The code of every accepted, not-undone step, as one "
                                      "script (the domain's code(), when it has one).").tag(
        sync=True)
    title = traitlets.Unicode("").tag(sync=True)
    rules = traitlets.Instance(Rules, help="The person's 'always allow like this' rules: "
                                           "this conversation's and the notebook's (synced "
                                           "as a list of RuleShape).").tag(
        sync=True, to_json=lambda rules, _widget: _listed(rules))
    untrusted = traitlets.Dict(help="{} when the conversation may act; while it is shown "
                                    "read-only (its file was not made by this user): {file, "
                                    "rules}, until the person trusts it.").tag(sync=True)

    #: The runtime refuses a blocking say on a human that needs the loop to run.
    needs_event_loop = True

    def __init__(
        self,
        *,
        agent: Any,
        domain: Any,
        timeout: float = 90.0,
        max_turns: int = 8,
        run_timeout: float | None = None,
        title: str = "",
        conversation_factory: Callable[..., Any] | None = None,
        full_dial: bool | None = None,
        executors: dict[str, Any] | None = None,
        actors: dict[str, Any] | None = None,
        session: str | os.PathLike[str] | None = None,
        rules: Rules | None = None,
        **kwargs: Any,
    ) -> None:
        restore_from = kwargs.pop("_restore_from", None)  # ChatWidget.restore(path, ...)
        if rules is not None and not isinstance(rules, Rules):
            raise TypeError(f"ChatWidget: rules must be a dial_notebook.Rules, not "
                            f"{type(rules).__name__}")
        super().__init__(title=title, rules=rules if rules is not None else rules_for(domain),
                         **kwargs)
        self.rules.on_change(self._rules_edited)
        factory, options = conversation_options(
            conversation_factory,
            {"agent": agent, "domain": domain, "human": self, "on_event": self._on_event,
             "timeout": timeout, "max_turns": max_turns},
            {"run_timeout": run_timeout, "full_dial": full_dial, "executors": executors,
             "actors": actors}, rules=self.rules)
        self.domain = domain
        self.agent = agent
        self.files: dict[str, bytes] = {}
        saved, trusted = self._open_session(session, restore_from, factory, options)
        self._bridge = Bridge()
        self._tokens = itertools.count(1)
        self._tasks: set[asyncio.Task[Any]] = set()  # held so they are not garbage-collected
        self._turns: asyncio.Lock | None = None  # one say at a time; made on the loop
        self._loop = running_loop()  # the kernel's loop; front-end messages hop onto it
        self._unsent = ""  # the person's words whose first send got no reply (Retry resends)
        self._current: asyncio.Task[Any] | None = None  # the say that holds the turns
        self._stream = StreamedReply()  # what the front end was sent of the streamed reply
        self._outbox = Outbox()  # events added, not yet sent in an append message
        self._runs_going: dict[str, dict[str, Any]] = {}  # run-started said, no outcome yet
        # the conversation as static HTML beside the widget, for readers without a kernel; each
        # item's HTML kept, so that an update draws only what changed
        self._copy = LiveCopy()
        self._static = StaticOutput(self._static_html, viewed=lambda: self._outbox.viewed)
        self.on_msg(self._on_front_end_message)
        if saved is not None:
            self._take_back(saved, str(restore_from or self._path), trusted=trusted)
        if trusted:
            self._carry_on()

    def trust(self) -> None:
        """Trust the file this conversation was opened read-only from ("Trust this file"):
        it is signed with your own Jupyter secret, as it was read and shown, and the
        conversation carries on (its rules active, the card that was waiting back, saved
        again). Nothing when it is trusted already.

            chat.trust()
        """
        unread, origin = self._unread, str(self.untrusted.get("file") or "")
        if unread is None:
            return
        restore, options = self._restore
        conversation = restore(unread, **options)  # the file's own state, only now
        save_snapshot(unread, origin)  # now signed by this user: what they read and trusted
        self._conversation = conversation
        self._unread = None
        self.untrusted = {}
        surface = unread.get("surface") if isinstance(unread.get("surface"), dict) else {}
        self.rules.load(file_rules(surface), origin=origin)
        self._append({"type": "resumed", "session": origin,
                      "saved_at": str(unread.get("saved_at") or ""),
                      "waiting": unread.get("pending") is not None})
        self._carry_on()

    # ---- rules: "always allow like this" ---------------------------------------------------

    def allow(self, action: str, schema: Any, *, scope: str = "conversation") -> Rule:
        """Accept, without asking, every valid proposal of ``action`` whose payload ``schema``
        (a JSON Schema) accepts; ``scope`` is ``'conversation'`` or ``'notebook'`` (every
        ChatWidget in this kernel). Destructive, hand-off and read-only actions have no
        rules. An invalid schema raises ``ValueError`` saying what is wrong.

            chat.allow("add-note", {"type": "object", "required": ["text"],
                                    "properties": {"text": {"type": "string", "maxLength": 40}}})
        """
        self._trusted()
        return self.rules.add(action, schema, scope=scope)

    def confirm(self, rule_id: str) -> Rule:
        """Let a notebook rule that another chat read from its file apply here too (the
        panel's Confirm); until then it accepts nothing in this chat. Returns it.

            chat.confirm("r3")
        """
        self._trusted()
        return self.rules.confirm(rule_id)

    def revoke(self, rule_id: str) -> Rule:
        """Revoke a rule (the panel's Revoke): it accepts nothing from now on. Returns it.

            chat.revoke("r1")
        """
        return self.rules.remove(rule_id)

    def _rules_edited(self) -> None:
        if getattr(self, "comm", None) is None:
            return  # closed: another widget carries the conversation (and its file) on
        self.send_state("rules")
        self._changed(urgent=True)  # a rule is the person's decision: kept at once

    # ---- the transcript ---------------------------------------------------------------------

    def _append(self, event: dict[str, Any]) -> None:
        """Add ``event`` to the transcript (it travels once: ``_chat_traffic.py``)."""
        self._extend([event])

    def _append_person(self, text: str, **extra: Any) -> None:
        self._append({"type": "person", "text": text, **extra})

    # ---- the static copy: readable without a kernel, and as one file ------------------------

    def _ipython_display_(self) -> None:
        """Shown in a notebook: the live widget, then its static copy (an HTML output that a
        notebook reopened without a kernel, or converted by nbconvert, still shows; while the
        widget itself shows, its CSS hides the copy)."""
        from IPython.display import display

        bundle = self._repr_mimebundle_()  # anywidget: (data, metadata); ipywidgets: data
        data, metadata = bundle if isinstance(bundle, tuple) else (bundle, None)
        display(data or {"text/plain": repr(self)}, metadata=metadata, raw=True)
        self._static.show()

    @traitlets.observe("pending")
    def _pending_changed(self, change: Any) -> None:
        static = getattr(self, "_static", None)
        if static is not None:
            static.changed()
            if change["new"]:
                static.flush()  # the conversation waits for the person: the copy shows it now

    def _static_html(self) -> str:
        return self._copy.html(self.transcript, title=self.title, pending=self.pending,
                               running=tuple(self._runs_going))

    def export_html(self, path: str | os.PathLike[str]) -> Path:
        """Write the conversation to ``path`` as one self-contained HTML file (UTF-8, written
        atomically): it loads nothing, needs no script and no kernel to read, light or dark.

            chat.export_html("conversation.html")   # Path('conversation.html')
        """
        return write_document(path, export_document(self.transcript, title=self.title,
                                                    pending=self.pending))

    def __repr__(self) -> str:  # the text/plain of the output, where widgets do not render
        title = f" {self.title!r}" if self.title else ""
        return (f"<ChatWidget{title}: a DIAL conversation, {len(self.transcript)} events; shown "
                "as a widget in JupyterLab and Notebook 7>")

    # ---- closing ----------------------------------------------------------------------------

    def close(self) -> None:
        """Close the widget; a decision still waiting ends superseded, a question unanswered."""
        bridge = getattr(self, "_bridge", None)  # None: the constructor raised before it
        for token in bridge.waiting() if bridge is not None else ():
            bridge.resolve(token, {"say": ""} if token.startswith("d") else None)
        super().close()


def _listed(rules: Rules | None) -> list[dict[str, Any]]:
    """The ``rules`` trait: the rules that apply, then those waiting to be confirmed here."""
    if rules is None:
        return []
    return [*rules.to_list(),
            *({**rule.to_dict(), "state": "unconfirmed"} for rule in rules.unconfirmed())]

