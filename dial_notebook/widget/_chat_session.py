"""The conversation behind the chat widget, across kernels: built, kept in its file, carried on.

The widget builds its conversation (the runtime's ``Conversation`` by default, with python
steps run in the notebook's namespace) or restores it from a session file, saves it after every
event, and carries on a say that was going when the file was written.

    ChatWidget(session="eda") ──▶ .dial/eda.json (``_session.py``: where, who keeps it, read)
        no file              ──▶ a new conversation
        a file this user saved (signed with their Jupyter secret) ──▶ restored: transcript,
                               what the agent is owed, the card that was waiting, the rules;
                               "carries on" in the transcript; saved after every event
        a file this user did not make ──▶ read-only (``untrusted``): shown, nothing runs,
                               nothing sent or saved; its rules listed, not loaded ─▶ trust()
    ChatWidget.restore(path, …) ──▶ the same, from a file saved with chat.save(path)

``ChatWidget`` mixes ``SessionFile`` in; ``trust()`` stays in ``_chat_widget.py``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, Self

import traitlets

from dial_notebook.domains import Rule
from dial_notebook.runtime import SnapshotError, read_session_file, save_snapshot

from ._chat_traffic import running_loop
from ._serialise import json_safe
from ._session import (
    Saver,
    UntrustedSessionError,
    WidgetEntries,
    read_session,
    session_path,
    surface_of,
    take_over,
    untrusted_message,
    widget_transcript,
)


def notebook_namespace() -> dict[str, Any] | None:
    """The notebook's namespace (IPython's ``user_ns``) when in a kernel, else None."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    namespace = getattr(shell, "user_ns", None)
    return namespace if isinstance(namespace, dict) else None


def conversation_options(factory: Callable[..., Any] | None, ports: dict[str, Any],
                         full: dict[str, Any], *, rules: Any) -> tuple[Callable[..., Any],
                                                                      dict[str, Any]]:
    """The factory that builds the widget's conversation, and what it is called with:
    ``ports`` (agent, domain, human, on_event, timeout, max_turns) and the options of full
    DIAL in ``full`` that are given (not None).

    The options of full DIAL go to the factory when asked for, and always to the built-in
    Conversation (which runs full DIAL by default); a custom factory that was asked for
    nothing gets nothing. The built-in one also gets the rules, and ``on_signal``.
    """
    full_options = {key: value for key, value in full.items() if value is not None}
    executors = full.get("executors")
    if factory is None:
        from dial_notebook.runtime import Conversation as factory
        from dial_notebook.runtime import python_executor

        # python steps run in this notebook's namespace (the runtime reads no IPython
        # state: the surface that has a notebook hands it in), unless told otherwise
        namespace = notebook_namespace()
        if full.get("full_dial") is not False and namespace is not None and "python" not in (
                executors or {}):
            full_options["executors"] = {"python": python_executor(namespace),
                                         **(executors or {})}
    options = {**ports, **full_options}
    if _is_conversation(factory):
        options["rules"] = rules  # another factory is given what it always was
        # progress and running come as signals, in reference mode too (on_event gets
        # exactly the runtime document's events there)
        options["on_signal"] = ports["on_event"]
    return factory, options


def file_rules(surface: dict[str, Any]) -> list[dict[str, Any]]:
    """The rules a session file's surface holds, each checked (``SnapshotError`` naming what
    is wrong); none when it holds none.

        >>> file_rules({})
        []
    """
    rules = surface.get("rules")
    if rules is None:
        return []
    try:
        if not isinstance(rules, list):
            raise ValueError("must be a list")
        return [Rule.from_dict(rule).to_dict() for rule in rules]
    except (TypeError, ValueError) as exc:
        raise SnapshotError(f"surface.rules: {exc}. The file was left as it is") from None


def _is_conversation(factory: Any) -> bool:
    from dial_notebook.runtime import Conversation

    return isinstance(factory, type) and issubclass(factory, Conversation)


class SessionFile(traitlets.HasTraits):
    """The session half of ``ChatWidget``: its conversation opened (new, or from a file),
    saved, restored, carried on. Uses the widget's ``transcript``, ``usage``, ``title``,
    ``rules`` and ``untrusted`` traits, its ``_conversation``, ``_loop``, ``_unsent`` and its
    ``_run``, ``_start``, ``_append``, ``_charted``, ``_learn_schema``; keeps ``_path``,
    ``_saver``, ``_entries``, ``_unread`` (a read-only file's state) and ``_restore``."""

    # ---- opening, saving and carrying on -----------------------------------------------------

    def _open_session(self, session: str | os.PathLike[str] | None, restore_from: Any,
                      factory: Callable[..., Any], options: dict[str, Any]
                      ) -> tuple[dict[str, Any] | None, bool]:
        """Read the session file (or the file ``restore()`` names) and build the
        conversation: (the saved state or None, whether this user trusts it)."""
        self._saver: Saver | None = None
        self._entries = WidgetEntries()  # the widget's own entries, read as the transcript grows
        path = session_path(session) if session is not None else None
        self._path = path
        if path is not None:
            take_over(path, self)
        saved, trusted = (read_session(path) if restore_from is None and path is not None
                          else (None, True) if restore_from is None
                          else read_session_file(restore_from))
        self._unread: dict[str, Any] | None = None  # the read-only file's snapshot, as read
        restore = getattr(factory, "restore", None)
        if saved is not None and not callable(restore):
            raise TypeError("ChatWidget: a session is restored with the factory's "
                            "restore(); this conversation_factory has none")
        # a file this user did not make is only shown: the conversation (and the agent's
        # state) is restored from it once they trust it
        self._restore = (restore, options)
        if saved is None or not trusted:
            self._conversation = factory(**options)
        else:
            self._conversation = restore(saved, **options)
        return saved, trusted

    def _carry_on(self) -> None:
        """Save to the session file from now on, and take up the say that was going."""
        if self._path is not None:
            self._saver = Saver(self._path, self._session_snapshot,
                                on_error=lambda error: self._append({"type": "error",
                                                                     "error": error}))
            self._changed()
        loop = running_loop() or self._loop
        if getattr(self._conversation, "needs_resume", False) and loop is not None:
            self._start(loop, self._run("", resume=True))

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
        found = file_rules(surface)
        if trusted:
            self.rules.load(found, origin=origin)
        else:
            self._unread = saved
            self.untrusted = {"file": origin, "rules": json_safe(found)}
        resumed = {"type": "resumed", "session": origin,
                   "saved_at": str(saved.get("saved_at") or ""),
                   "waiting": saved.get("pending") is not None,
                   **({} if trusted else {"read_only": True})}
        # its charts drawn off the loop, never here (_vegalite.py)
        self.transcript = [*(self._charted(e, n, now=False) for n, e in enumerate(entries)),
                           resumed]

    def _trusted(self) -> None:
        """``UntrustedSessionError`` while the conversation is shown read-only."""
        if self.untrusted:
            raise UntrustedSessionError(untrusted_message(str(self.untrusted.get("file"))))

    def _session_snapshot(self) -> dict[str, Any]:
        surface = surface_of(self.transcript, entries=self._entries, usage=self.usage,
                             unsent=self._unsent, title=self.title, rules=self.rules.to_list())
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
                **options: Any) -> Self:
        """A ChatWidget that carries on the conversation saved at ``path`` (``chat.save``,
        or a session file): its transcript, what the agent is owed, the card that was
        waiting. ``options`` are the constructor's. A malformed file raises ``SnapshotError``
        saying what is wrong; nothing in a file can make an action run.

            chat = ChatWidget.restore("monday.json", agent=agent, domain=domain)
        """
        return cls(agent=agent, domain=domain, _restore_from=path, **options)
