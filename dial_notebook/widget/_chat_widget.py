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
                      {type: 'append', start, events} message (below)
    streamed reply  ──▶ {type: 'progress', turn, at, text | prose, writing} messages: the
                      prose so far, readable (the runtime strips the markup), and what the
                      agent is writing ("proposing: add-note"); never kept
    Stop / stop()   ──▶ the running say is cancelled (the runtime's cancellation rules: what
                      was reached is owed to the agent), {type: 'stopped'} in the transcript
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

Flat traffic: a new event travels once, and adding one costs the same however long the
conversation is. It is appended to the trait's own list in place (no copy, no validation of the
whole list) and waits in an outbox; the events added in one turn of the loop (a reply's hundred
informs) go together in one append message, sent before anything else the widget sends (a
trait, a progress message), so the front end sees everything in order. The ``transcript`` trait
is never re-sent when an event is added (``_should_send_property``); the front end adds the
events to its copy of the trait, so a second view, saved widget state and a reloaded page
(which asks the kernel for the whole state) still show the whole conversation. A view that
finds a gap (a message missed while the front end loaded) asks for the trait once ('sync').

    event ──▶ transcript.append (in place) ──▶ outbox ──▶ one append message per loop turn
    a say ends ──▶ outbox sent; the static copy updated now; no view ever said 'sync' (a
                   headless run: nbclient, papermill) ──▶ the whole trait, once, so the saved
                   widget state holds the conversation
    progress   ──▶ only what changed since the prose sent (at, text); the text resent for one
                   reply is capped at a few times its longest prose (``_PROGRESS_BUDGET``)

Two question channels, on purpose: an agent's ``<dial-ask>`` is part of the conversation (its
card, answered inline, the answer goes to the agent with the next message), while ``ask_user``
serves code outside the conversation (a tool, a domain action) with batched questions whose
answers go back to that code (see ``dial_notebook.interaction``).
"""

from __future__ import annotations

import asyncio
import itertools
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anywidget
import traitlets
from traitlets.utils.bunch import Bunch

from dial_notebook.domains import Rule, Rules
from dial_notebook.runtime._feedback import MAX_COMMENTS, read_comment
from dial_notebook.runtime._snapshot import SnapshotError, read_session_file, save_snapshot

from ._bridge import Bridge
from ._human import ASK_FIELDS, SUGGESTION_FIELDS, as_dict, issue_of, options_of
from ._questions import QuestionsProvider
from ._rules import draft_answer, rules_for
from ._serialise import json_safe
from ._session import (
    Saver,
    UntrustedSessionError,
    read_session,
    session_path,
    surface_of,
    take_over,
    untrusted_message,
    widget_transcript,
)
from ._static import conversation_html, export_document, write_document
from ._static_output import StaticOutput
from ._vegalite import drawing_later, with_chart  # a Vega-Lite chart, drawn as a PNG

_MAX_UPLOAD = 50 * 1024 * 1024
#: The text of one streamed reply's progress messages is at most this many times its longest
#: prose, plus ``_PROGRESS_FLOOR`` characters: a reply whose pieces keep rewriting its prose
#: (an entity cut between two pieces …) cannot make the front end's traffic grow faster.
_PROGRESS_BUDGET = 3
_PROGRESS_FLOOR = 16_384


#: The front end as anywidget loads it: the bundle esbuild makes from js/src (``npm run
#: build``), committed inside the package, so a checkout, an editable install and a wheel all
#: load the same files and none needs Node.
STATIC = Path(__file__).resolve().parent / "static"


def notebook_namespace() -> dict[str, Any] | None:
    """The notebook's namespace (IPython's ``user_ns``) when in a kernel, else None."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    namespace = getattr(shell, "user_ns", None)
    return namespace if isinstance(namespace, dict) else None


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


class ChatWidget(QuestionsProvider, anywidget.AnyWidget):
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
    _streamed_writing: Any = None  # what the agent is writing, as last sent
    _progress_spent: tuple[int, int, int] = (0, 0, 0)  # turn, progress text sent, longest prose

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
        # The options of full DIAL go to the factory when asked for, and always to the
        # built-in Conversation (which runs full DIAL by default); a custom factory that
        # was asked for nothing gets nothing.
        full_options: dict[str, Any] = {
            k: v for k, v in (("run_timeout", run_timeout), ("full_dial", full_dial),
                              ("executors", executors), ("actors", actors)) if v is not None}
        if conversation_factory is None:
            from dial_notebook.runtime import Conversation as conversation_factory
            from dial_notebook.runtime import python_executor

            # python steps run in this notebook's namespace (the runtime reads no IPython
            # state: the surface that has a notebook hands it in), unless told otherwise
            namespace = notebook_namespace()
            if full_dial is not False and namespace is not None and "python" not in (
                    executors or {}):
                full_options["executors"] = {"python": python_executor(namespace),
                                             **(executors or {})}
        self.domain = domain
        self.agent = agent
        self.files: dict[str, bytes] = {}
        self._saver: Saver | None = None
        path = session_path(session) if session is not None else None
        self._path = path
        if path is not None:
            take_over(path, self)
        saved, trusted = (read_session(path) if restore_from is None and path is not None
                          else (None, True) if restore_from is None
                          else read_session_file(restore_from))
        self._unread: dict[str, Any] | None = None  # the read-only file's snapshot, as read
        options = {"agent": agent, "domain": domain, "human": self, "on_event": self._on_event,
                   "timeout": timeout, "max_turns": max_turns, **full_options}
        if _is_conversation(conversation_factory):
            options["rules"] = self.rules  # another factory is given what it always was
            # progress and running come as signals, in reference mode too (on_event gets
            # exactly the runtime document's events there)
            options["on_signal"] = self._on_event
        restore = getattr(conversation_factory, "restore", None)
        if saved is not None and not callable(restore):
            raise TypeError("ChatWidget: a session is restored with the factory's "
                            "restore(); this conversation_factory has none")
        # a file this user did not make is only shown: the conversation (and the agent's
        # state) is restored from it once they trust it
        self._restore = (restore, options)
        if saved is None or not trusted:
            self._conversation = conversation_factory(**options)
        else:
            self._conversation = restore(saved, **options)
        self._bridge = Bridge()
        self._tokens = itertools.count(1)
        self._tasks: set[asyncio.Task[Any]] = set()  # held so they are not garbage-collected
        self._turns: asyncio.Lock | None = None  # one say at a time; made on the loop
        self._loop = _running_loop()  # the kernel's loop; front-end messages hop onto it
        self._unsent = ""  # the person's words whose first send got no reply (Retry resends)
        self._current: asyncio.Task[Any] | None = None  # the say that holds the turns
        self._appending = False  # transcript grows by an append message, not by its trait
        self._streamed: tuple[int, str] = (0, "")  # the streamed reply's turn and prose sent
        self._outbox = _Outbox()  # events added, not yet sent in an append message
        # the conversation as static HTML beside the widget, for readers without a kernel
        self._static = StaticOutput(self._static_html)
        self.on_msg(self._on_front_end_message)
        if saved is not None:
            self._take_back(saved, str(restore_from or path), trusted=trusted)
        if trusted:
            self._carry_on()

    def _carry_on(self) -> None:
        """Save to the session file from now on, and take up the say that was going."""
        if self._path is not None:
            self._saver = Saver(self._path, self._session_snapshot,
                                on_error=lambda error: self._append({"type": "error",
                                                                     "error": error}))
            self._changed()
        loop = _running_loop() or self._loop
        if getattr(self._conversation, "needs_resume", False) and loop is not None:
            self._start(loop, self._run("", resume=True))

    # ---- saving and carrying on ----------------------------------------------------------

    def _take_back(self, saved: dict[str, Any], origin: str, *, trusted: bool = True) -> None:
        """The widget's own state from a saved session, and a line saying it carries on (or
        that it is shown read-only: then its rules are listed, not loaded)."""
        entries = widget_transcript(saved)
        for event in entries:
            if event.get("type") == "suggestion" and not event.get("kind"):
                self._learn_schema(str(event.get("action") or ""))
        surface = saved.get("surface") if isinstance(saved.get("surface"), dict) else {}
        if isinstance(surface.get("usage"), dict):
            self.usage = json_safe(surface["usage"])
        if isinstance(surface.get("unsent"), str):
            self._unsent = surface["unsent"]
        file_rules = _file_rules(surface)
        if trusted:
            self.rules.load(file_rules, origin=origin)
        else:
            self._unread = saved
            self.untrusted = {"file": origin, "rules": json_safe(file_rules)}
        resumed = {"type": "resumed", "session": origin,
                   "saved_at": str(saved.get("saved_at") or ""),
                   "waiting": saved.get("pending") is not None,
                   **({} if trusted else {"read_only": True})}
        # its charts drawn off the loop, never here (_vegalite.py)
        self.transcript = [*(self._charted(e, n, now=False) for n, e in enumerate(entries)),
                           resumed]

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
        self.rules.load(_file_rules(surface), origin=origin)
        self._append({"type": "resumed", "session": origin,
                      "saved_at": str(unread.get("saved_at") or ""),
                      "waiting": unread.get("pending") is not None})
        self._carry_on()

    def _trusted(self) -> None:
        """``UntrustedSessionError`` while the conversation is shown read-only."""
        if self.untrusted:
            raise UntrustedSessionError(untrusted_message(str(self.untrusted.get("file"))))

    def _session_snapshot(self) -> dict[str, Any]:
        surface = surface_of(self.transcript, usage=self.usage, unsent=self._unsent,
                             title=self.title, rules=self.rules.to_list())
        view = getattr(self._conversation, "snapshot_view", None)
        return view(surface=surface) if callable(view) else self._conversation.snapshot(
            surface=surface)

    def _changed(self, *, urgent: bool = False) -> None:
        if self._saver is not None:
            self._saver.changed(urgent=urgent)

    def save(self, path: str | os.PathLike[str] | None = None) -> Path:
        """Write the conversation to ``path`` (by default the ``session=`` file) as JSON, to
        carry on later with ``ChatWidget.restore(path, agent=…, domain=…)``; returns the path.

            chat.save("monday.json")   # Path('monday.json')
        """
        self._trusted()  # a save signs: never what the person has not trusted
        if path is None:
            if self._saver is None:
                raise ValueError("save() needs a path: this ChatWidget has no session= file")
            return self._saver.save()
        return save_snapshot(self._session_snapshot(), path)

    @classmethod
    def restore(cls, path: str | os.PathLike[str], *, agent: Any, domain: Any,
                **options: Any) -> ChatWidget:
        """A ChatWidget that carries on the conversation saved at ``path`` (``chat.save``,
        or a session file): its transcript, what the agent is owed, the card that was
        waiting. ``options`` are the constructor's. A malformed file raises ``SnapshotError``
        saying what is wrong; nothing in a file can make an action run.

            chat = ChatWidget.restore("monday.json", agent=agent, domain=domain)
        """
        return cls(agent=agent, domain=domain, _restore_from=path, **options)

    # ---- the person, from code or from the message box -------------------------------------

    def say(self, text: str) -> asyncio.Task[Any]:
        """Send the person's words; returns at once with the task running the turns.

        While a suggestion waits, the words are the spec's ``say`` decision (the card ends
        superseded); while a question waits, they answer it; while the agent is still
        answering, they wait in ``queued`` and are sent (and shown) once it is done.

            task = chat.say("add a note: buy milk")
            (await task).status   # 'idle'
        """
        self._trusted()
        loop = self._use_loop()
        text = str(text)
        token = self.pending.get("token")
        if token is not None and self._bridge.waiting() and (text or not self._pending_is_ask()):
            if text and self._pending_is_ask():
                self._append_person(text, answer_to=self.pending.get("index"))
            elif text:
                self._append_person(text)
            value: Any = text if self._pending_is_ask() else {"say": text}
            self._bridge.resolve(str(token), value)
            current = self._latest_task()
            if current is not None:
                return current
        elif text and self._turns is not None and self._turns.locked():
            # the agent is still answering: the words wait, so that the conversation reads in
            # the order things happened (its reply, then what the person wrote after it)
            self.queued = [*self.queued, text]
            return self._start(loop, self._run(text, queued=True))
        elif text:
            self._append_person(text)
        return self._start(loop, self._run(text))

    def _start(self, loop: asyncio.AbstractEventLoop, work: Any) -> asyncio.Task[Any]:
        task = loop.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._forget)
        return task

    def stop(self) -> bool:
        """Stop the say that is running (the Stop button); False when none runs.

        Its task is cancelled: the reply being streamed is closed, a card waiting for a
        decision ends superseded, and every outcome reached is owed to the agent and goes with
        the next message (the runtime's cancellation rules). The transcript says "stopped";
        words queued meanwhile are sent next.

            chat.say("write me a long essay")
            chat.stop()   # True
        """
        task = self._current
        if task is None or task.done():
            return False
        task.cancel()
        return True

    def undo(self, sid: str) -> asyncio.Task[Any]:
        """Take back the done action ``sid`` (the Undo button): its card turns "Undone" and
        the agent is told with the next message; when it can no longer be undone exactly, the
        card says why and nothing changes. Returns the task.

            task = chat.undo("sg-1")
        """
        self._trusted()
        return self._start(self._use_loop(), self._undo(str(sid)))

    async def _undo(self, sid: str) -> Any:
        if self._turns is None:
            self._turns = asyncio.Lock()
        async with self._turns:  # after the say that is running, if one is
            try:
                return await self._conversation.undo(sid)
            except KeyError:
                return None  # a stale click: it was undone already
            finally:
                self._refresh_review()

    async def _dry_run(self, token: str, payload: Any) -> None:
        """The dry run of the payload being edited on the pending card, to the front end."""
        action = str(self.pending.get("action") or "")
        result = await self._conversation.dry_run(action, payload)
        if self.pending.get("token") == token:
            self.send(json_safe({"type": "dry-run", "token": token, "payload": payload,
                                 "result": result}))

    def _refresh_review(self) -> None:
        """What Undo can take back, and the code so far (after every outcome)."""
        undoable = getattr(self._conversation, "undoable", None)
        if callable(undoable):
            offered = json_safe(undoable())
            if offered != self.undoable:
                self.undoable = offered
        script = getattr(self.domain, "code", None)
        if callable(script):
            try:
                code = script()
            except Exception:
                code = None
            if isinstance(code, str) and code != self.code:
                self.code = code

    def retry(self) -> asyncio.Task[Any]:
        """Send again what the agent has not heard after a ``no-reply``.

        The runtime keeps owed outcomes and answers; the person's own words are not kept when
        their first send got no reply, so they are sent again here.

            task = chat.retry()
        """
        self._trusted()
        return self._start(self._use_loop(), self._run(self._unsent))

    async def _run(self, text: str, *, queued: bool = False, resume: bool = False) -> Any:
        if self._turns is None:
            self._turns = asyncio.Lock()
        async with self._turns:
            if queued:
                waiting = list(self.queued)
                if text in waiting:
                    waiting.remove(text)
                self.queued = waiting
                self._append_person(text)
            self._unsent = text
            self._current = asyncio.current_task()
            self.running = True
            try:
                if getattr(self._conversation, "needs_resume", False):
                    result = await self._conversation.resume()  # a restored say first
                    if resume:
                        return result
                return await self._conversation.say(text)
            except asyncio.CancelledError:
                # what the person had read of a reply cut short stays (the agent never hears
                # it: only a complete reply is processed)
                partial = self._streamed[1]
                self._append({"type": "stopped", **({"partial": partial} if partial else {})})
                raise
            except Exception as error:
                self._append({"type": "error", "error": f"{type(error).__name__}: {error}"})
                raise
            finally:
                self._current = None
                self._streamed = (0, "")
                self.running = False
                self.thinking = False
                self._changed(urgent=True)  # the say is over: saved as such

    def _forget(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled():
            task.exception()  # retrieved: the error is already in the transcript

    def _latest_task(self) -> asyncio.Task[Any] | None:
        live = [task for task in self._tasks if not task.done()]
        return live[-1] if live else None

    def _pending_is_ask(self) -> bool:
        return self.pending.get("kind") == "answer"

    def _use_loop(self) -> asyncio.AbstractEventLoop:
        running = _running_loop()
        if self._loop is None:
            if running is None:
                raise RuntimeError(
                    "ChatWidget needs a running event loop: use it in a notebook, or call "
                    "say() from a coroutine."
                )
            self._loop = running
        return self._loop

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

    def _rule_draft(self, token: str, schema: Any) -> None:
        """Answer a rule being made on the pending card: is it valid, what would it accept?"""
        answer = draft_answer(schema, str(self.pending.get("action") or ""),
                              str(self.pending.get("id") or ""), self.pending.get("payload"),
                              self.transcript, check_action=self.rules.check_action)
        self.send(json_safe({"type": "rule-draft", "token": token, "schema": schema, **answer}))

    def _allow_from_card(self, token: str, schema: Any, scope: Any) -> None:
        """Save the rule made on the pending card and, when it accepts the card, accept it."""
        try:
            rule = self.allow(str(self.pending.get("action") or ""), schema,
                              scope=scope if isinstance(scope, str) else "conversation")
        except ValueError as exc:
            self.send({"type": "allow", "token": token, "rule": None, "error": str(exc)})
            return
        fits = rule.accepts(self.pending.get("payload"))
        self.send({"type": "allow", "token": token, "rule": rule.id, "error": None,
                   "card": fits})
        if fits:
            self._bridge.resolve(token, {"accept": True, "rule": rule.id})

    # ---- the human the runtime calls ------------------------------------------------------

    async def decide(self, suggestion: Any) -> dict[str, Any]:
        """Wait for the person's decision on ``suggestion`` (accept, dismiss, edit or say)."""
        self._use_loop()
        shown = as_dict(suggestion, SUGGESTION_FIELDS)
        issue, errors = issue_of(shown)
        token = f"d{next(self._tokens)}"
        future = self._bridge.open(token)
        self.pending = json_safe({
            "kind": "decide", "token": token, "id": shown.get("id"),
            "action": shown.get("action"), "payload": shown.get("payload"),
            "issue": issue, "errors": errors, "edits_left": shown.get("edits_left"),
        })
        self._changed(urgent=True)  # a card waits: what must survive the kernel
        try:
            return await future
        finally:
            if self.pending.get("token") == token:
                self.pending = {}

    async def answer(self, ask: Any) -> str | None:
        """Wait for the person's answer to ``ask``; ``None`` when the widget was closed."""
        self._use_loop()
        shown = as_dict(ask, ASK_FIELDS)
        token = f"a{next(self._tokens)}"
        future = self._bridge.open(token)
        index = self._latest_index("ask")
        response_type = shown.get("response_type") or "text"
        self.pending = json_safe({
            "kind": "answer", "token": token, "index": index, "response_type": response_type,
            # a confirm is drawn as fixed Yes / No: no agent label can pose as either
            "options": [] if response_type == "confirm" else options_of(shown),
        })
        self._changed(urgent=True)  # a question waits
        try:
            answer = await future
        finally:
            if self.pending.get("token") == token:
                self.pending = {}
        return answer

    def _latest_index(self, kind: str) -> int:
        for index in range(len(self.transcript) - 1, -1, -1):
            if self.transcript[index].get("type") == kind:
                return index
        return -1

    # ---- events from the runtime ----------------------------------------------------------

    def _on_event(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "progress":
            self._progress(event)
            return
        if kind == "running":  # a run started: not shown, but the session is saved now
            self._changed(urgent=True)
            return
        if kind == "sent":
            self.thinking = True
        elif kind in ("reply", "no-reply"):
            self._streamed = (0, "")
            if kind == "reply" or event.get("turn") != 1:
                self._unsent = ""
        if kind == "suggestion":
            self._learn_schema(str(event.get("action") or ""))
        self._append(self._charted(event))  # the widget's copy; the runtime's stays as it is
        if kind in ("outcome", "undo-failed"):
            self._refresh_review()
        if kind in ("reply", "no-reply"):
            # after the reply itself, so the front end swaps the streamed bubble for it at once
            self.thinking = False
            if kind == "reply":
                self._learn_usage()

    def _progress(self, event: dict[str, Any]) -> None:
        """A streamed reply so far, to the front end: only what changed since the prose sent
        (``at`` says where the new ``text`` goes), so that a reply costs its length; and the
        text sent for one reply never exceeds ``_PROGRESS_BUDGET`` times its longest prose
        plus ``_PROGRESS_FLOOR`` (past it, only what the agent is writing goes, and the reply
        itself shows once complete), whatever the pieces make the prose do."""
        turn, prose = int(event.get("turn") or 0), str(event.get("prose") or "")
        writing = event.get("writing")
        sent_turn, sent = self._streamed
        _, spent, longest = self._progress_spent
        if sent_turn != turn:
            sent, spent, longest = "", 0, 0  # a new reply starts from nothing
        longest = max(longest, len(prose))
        at = _common_prefix(sent, prose)
        message: dict[str, Any] = {"type": "progress", "turn": turn, "writing": writing}
        if at == len(sent) == len(prose):
            pass  # the prose is as sent: what is being written may have changed
        elif spent + len(prose) - at <= _PROGRESS_BUDGET * longest + _PROGRESS_FLOOR:
            message.update(at=at, text=prose[at:])
            spent += len(prose) - at
            sent = prose
        if "text" not in message and sent_turn == turn and writing == self._streamed_writing:
            self._progress_spent = (turn, spent, longest)
            return  # nothing a person could see has changed
        self._streamed, self._streamed_writing = (turn, sent), writing
        self._progress_spent = (turn, spent, longest)
        self.send(message)

    def _learn_usage(self) -> None:
        usage = getattr(self.agent, "usage", None)
        if not isinstance(usage, dict):
            return
        turns = usage.get("turns")
        summary = {"turns": len(turns) if isinstance(turns, list) else 0,
                   **{key: usage[key] for key in ("input", "output", "total")
                      if isinstance(usage.get(key), int)}}
        if summary.get("total") and summary != self.usage:
            self.usage = summary

    def _learn_schema(self, action: str) -> None:
        schema_of = getattr(self.domain, "schema", None)
        if not callable(schema_of) or not action or action in self.schemas:
            return
        try:
            schema = schema_of(action)
        except Exception:
            return  # no form; the raw JSON view still edits the payload
        if isinstance(schema, dict):
            self.schemas = {**self.schemas, action: json_safe(schema)}

    def _append(self, event: dict[str, Any]) -> None:
        self._extend([event])

    def _charted(self, event: dict[str, Any], index: int | None = None, *,
                 now: bool = True) -> dict[str, Any]:
        """``event`` with its chart (_vegalite.py) for place ``index`` of the transcript: drawn
        now when the renderer is free, else "Drawing the chart…" and, once drawn off the
        loop, put in place (the trait is sent whole: once per second at most while charts are
        drawn late — a cold renderer's first chart, a saved session's charts)."""
        at = len(self.transcript) if index is None else index
        loop = _running_loop()
        if loop is None:
            return with_chart(event, now=now)

        def drawn(copy: dict[str, Any]) -> None:  # on the loop; charts drawn one after the
            due: dict[int, Any] = getattr(self, "_charts_due", {})  # other go in together
            if not due:  # the first: put in at once, or within a second if more are coming
                loop.call_later(0 if not drawing_later() else 1.0, put)
            due[at] = (json_safe(pending), json_safe(copy))
            self._charts_due = due

        def put() -> None:
            due, self._charts_due = getattr(self, "_charts_due", {}), {}
            entries = list(self.transcript)
            for n, (was, copy) in due.items():
                if n < len(entries) and entries[n] == was:  # still the one drawn for
                    entries[n] = copy
            if entries != self.transcript:
                self.transcript = entries
                self._static.changed()
                self._changed()

        pending = with_chart(event, later=drawn, now=now)
        return pending

    def _extend(self, events: list[dict[str, Any]]) -> None:
        """Add ``events`` to the transcript, in place: O(1) each however long it is. They
        travel to the front end once, with the other events of this turn of the loop, in one
        append message (the trait itself is not re-sent: see the header)."""
        added = [json_safe(event) for event in events]
        if not added:
            return
        transcript = self.transcript
        self._outbox.add(len(transcript), added)
        transcript.extend(added)
        loop = _running_loop()
        if loop is None or (self._loop is not None and loop is not self._loop):
            self._flush_appends()  # no loop to wait for (or another thread's): sent now
        elif not self._outbox.due:
            self._outbox.due = True
            loop.call_soon(self._flush_appends)
        self._static.changed()
        self._changed()

    def _flush_appends(self) -> None:
        """Send the events waiting in the outbox, in one append message, and tell the code
        that watches ``transcript`` (once per message, not per event)."""
        self._outbox.due = False
        start, events = self._outbox.take()
        if not events:
            return
        self.send({"type": "append", "start": start, "events": events})
        transcript = self.transcript
        self._appending = True  # observers are told; the trait is not re-sent
        try:
            self.notify_change(Bunch(name="transcript", old=transcript, new=transcript,
                                     owner=self, type="change"))
        finally:
            self._appending = False

    def _send(self, msg: dict[str, Any], buffers: Any = None) -> None:
        # every message to the front end (a trait, a progress, a pong …) goes after the events
        # added before it: the outbox is sent first
        outbox = getattr(self, "_outbox", None)
        if outbox is not None and outbox.events:
            self._flush_appends()
        super()._send(msg, buffers=buffers)

    @traitlets.validate("transcript")
    def _own_transcript(self, proposal: Any) -> list[Any]:
        # a list given from code is copied once: events are appended to the widget's own list
        return list(proposal["value"])

    @traitlets.observe("running")
    def _say_ended(self, change: Any) -> None:
        """A say is over: everything it added is sent, the static copy shows it now (not a
        second later: a headless run may end first), and when no view has ever said 'sync'
        (nbclient, papermill: no front end) the whole trait goes once, so that the saved
        widget state holds the conversation."""
        if change["new"] or getattr(self, "_outbox", None) is None:
            return
        self._flush_appends()
        if not self._outbox.viewed and self._outbox.whole != len(self.transcript):
            self._outbox.whole = len(self.transcript)
            self.send_state("transcript")
        self._static.flush()

    def _should_send_property(self, key: str, value: Any) -> bool:
        if key == "transcript" and getattr(self, "_appending", False):
            return False  # the append message carries it
        return bool(super()._should_send_property(key, value))

    def _append_person(self, text: str, **extra: Any) -> None:
        self._append({"type": "person", "text": text, **extra})

    # ---- messages from the front end --------------------------------------------------------

    def _on_front_end_message(self, _widget: Any, content: Any, buffers: list[Any]) -> None:
        if not isinstance(content, dict):
            return
        loop = self._loop
        if loop is not None and _running_loop() is not loop:
            loop.call_soon_threadsafe(self._handle, content, list(buffers or []))
        else:
            self._handle(content, list(buffers or []))

    def _handle(self, content: dict[str, Any], buffers: list[Any]) -> None:
        kind = content.get("type")
        if self.untrusted and kind not in ("ping", "sync", "trust"):
            if kind == "say":  # read-only: nothing is sent, the person is told why
                self._append({"type": "error", "error": untrusted_message(
                    str(self.untrusted.get("file")))})
            return
        if kind == "trust":
            self._trust_clicked()
        elif kind == "confirm-rule":
            if isinstance(content.get("id"), str) and content["id"] in self.rules:
                self.confirm(content["id"])
        elif kind == "ping":  # the front end checks that the kernel still holds this widget
            self.send({"type": "pong", "id": content.get("id")})
        elif kind == "say":
            self.say(str(content.get("text") or ""))
        elif kind == "retry":
            if not self.running:
                self.retry()
        elif kind == "stop":
            self.stop()
        elif kind == "undo":
            if isinstance(content.get("id"), str):
                self.undo(content["id"])
        elif kind == "dry-run":
            token = self._decide_token(content)
            if token is not None and "payload" in content:
                self._start(self._use_loop(), self._dry_run(token, content["payload"]))
        elif kind in ("rule-draft", "allow"):
            token = self._decide_token(content)
            if token is not None and "schema" in content and kind == "rule-draft":
                self._rule_draft(token, content["schema"])
            elif token is not None and "schema" in content:
                self._allow_from_card(token, content["schema"], content.get("scope"))
        elif kind == "revoke":
            if isinstance(content.get("id"), str) and content["id"] in self.rules:
                self.revoke(content["id"])
        elif kind == "sync":
            # a view that missed an append (or loaded after one) asks for the whole trait
            self._outbox.viewed = True  # a front end keeps the trait from now on
            if content.get("length") != len(self.transcript):
                self.send_state("transcript")
        elif kind in ("decide", "answer"):
            token = content.get("token")
            if not isinstance(token, str) or token != self.pending.get("token"):
                return  # stale or repeated click
            if kind == "decide":
                decision = _decision(content)
                if decision is not None:
                    self._bridge.resolve(token, decision)
            else:
                self._answer(token, content, buffers)

    def _trust_clicked(self) -> None:
        try:
            self.trust()
        except (OSError, SnapshotError) as exc:  # not signed, or its state refused: said so
            why = f"could not be signed: {exc}" if isinstance(exc, OSError) else str(exc)
            self.untrusted = {**self.untrusted, "error": f"{self.untrusted.get('file')} {why}"}

    def _decide_token(self, content: dict[str, Any]) -> str | None:
        """The message's token when it is the card waiting now, else None (a stale click)."""
        token = content.get("token")
        if (isinstance(token, str) and token == self.pending.get("token")
                and self.pending.get("kind") == "decide"):
            return token
        return None

    def _answer(self, token: str, content: dict[str, Any], buffers: list[Any]) -> None:
        file = content.get("file")
        if isinstance(file, dict) and buffers:
            data = bytes(buffers[0])[:_MAX_UPLOAD]
            name = str(file.get("name") or "upload")
            self.files[name] = data
            value = f"{name} ({len(data)} bytes)"
        else:
            value = str(content.get("value") or "").strip()
            if self.pending.get("response_type") == "confirm" and value not in ("yes", "no"):
                return  # the confirm's buttons send yes or no, nothing else
        if not value:
            return  # an empty answer leaves the question standing
        self._append_person(value, answer_to=self.pending.get("index"))
        self._bridge.resolve(token, value)

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
        return conversation_html(self.transcript, title=self.title, pending=self.pending)

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


def _file_rules(surface: dict[str, Any]) -> list[dict[str, Any]]:
    """The rules a session file's surface holds, each checked (``SnapshotError`` naming what
    is wrong); none when it holds none."""
    rules = surface.get("rules")
    if rules is None:
        return []
    try:
        if not isinstance(rules, list):
            raise ValueError("must be a list")
        return [Rule.from_dict(rule).to_dict() for rule in rules]
    except (TypeError, ValueError) as exc:
        raise SnapshotError(f"surface.rules: {exc}. The file was left as it is") from None


class _Outbox:
    """The events added since the last append message (``start``: the first one's index);
    ``due`` while a send is scheduled; ``viewed`` once a front end said 'sync'; ``whole``:
    the transcript's length when it was last sent whole."""

    def __init__(self) -> None:
        self.start = 0
        self.events: list[dict[str, Any]] = []
        self.due = False
        self.viewed = False
        self.whole = 0

    def add(self, start: int, events: list[dict[str, Any]]) -> None:
        if not self.events:
            self.start = start
        self.events.extend(events)

    def take(self) -> tuple[int, list[dict[str, Any]]]:
        events, self.events = self.events, []
        return self.start, events


def _common_prefix(a: str, b: str) -> int:
    """How many characters ``a`` and ``b`` share at their start, in O(len) of C-level work.

    >>> _common_prefix("Hello a", "Hello ϊ")
    6
    """
    if b.startswith(a):
        return len(a)
    if a.startswith(b):
        return len(b)
    low, high = 0, min(len(a), len(b))  # a[:low] == b[:low]; they differ before high
    while low < high:
        middle = (low + high + 1) // 2
        if a[low:middle] == b[low:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def _is_conversation(factory: Any) -> bool:
    from dial_notebook.runtime import Conversation

    return isinstance(factory, type) and issubclass(factory, Conversation)


def _decision(content: dict[str, Any]) -> dict[str, Any] | None:
    """The decision a click sent, with what the person wrote about the proposal (a comment
    that is not well formed is left out; the rest of the decision stands)."""
    decision = content.get("decision")
    if decision == "accept":
        chosen: dict[str, Any] = {"accept": True}
    elif decision == "dismiss":
        chosen = {"dismiss": True}
        if isinstance(content.get("reason"), str) and content["reason"].strip():
            chosen["reason"] = content["reason"]
    elif decision == "edit" and "payload" in content:
        chosen = {"edit": content["payload"]}
    else:
        return None
    sent = content.get("comments")
    comments = []
    for comment in sent if isinstance(sent, list) else []:
        try:
            comments.append(read_comment(comment))
        except ValueError:
            continue
    if comments:
        chosen["comments"] = comments[:MAX_COMMENTS]
    return chosen
