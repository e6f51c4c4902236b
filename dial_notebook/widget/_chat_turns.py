"""A say's life on the kernel's loop: the person's words in, the turn loop run as a task.

The turn loop is a coroutine (``Conversation.say``); the widget runs it as a task on the
kernel's event loop, so the cell returns at once and the kernel keeps processing widget
messages. One say holds the turns at a time; what the person does meanwhile is routed:

    person types / chat.say(text) ──▶ pending decision?  ──▶ resolved as {'say': text}
                                      pending question?  ──▶ answered with text
                                      agent answering?   ──▶ queued, sent once it is done
                                      otherwise          ──▶ new turn-loop task
    Stop / stop()   ──▶ the running say is cancelled (the runtime's cancellation rules: what
                      was reached is owed to the agent), {type: 'stopped'} in the transcript
    Retry / retry() ──▶ the person's words the agent did not hear, sent again
    Undo / undo(id) ──▶ after the running say; the card turns "Undone", or says why not
    an error ──▶ {type: 'error'} in the transcript; a say's end ──▶ the session saved at once

Tasks are held in a set so they are not garbage-collected; their errors are already in the
transcript. ``ChatWidget`` mixes ``Turns`` in (the public methods are the widget's own).
"""

from __future__ import annotations

import asyncio
from typing import Any

import traitlets

from ._chat_traffic import running_loop
from ._serialise import json_safe


class Turns(traitlets.HasTraits):
    """The say, stop, retry and undo of ``ChatWidget``, and the tasks that run them. Uses the
    widget's ``pending``, ``queued``, ``running``, ``thinking``, ``undoable`` and ``code``
    traits, its ``domain``, the state its constructor sets (``_conversation``, ``_bridge``,
    ``_stream``, ``_tasks``, ``_turns``, ``_loop``, ``_unsent``, ``_current``) and its
    ``_append``, ``_append_person``, ``_changed``, ``_trusted``."""

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
        decision ends superseded, a run of a stoppable action (an MCP tool) is cancelled and
        ends failed with code 'stopped' (any other run is awaited to its real end), and every
        outcome reached is owed to the agent and goes with the next message (the runtime's
        cancellation rules). The transcript says "stopped";
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
                partial = self._stream.partial
                self._append({"type": "stopped", **({"partial": partial} if partial else {})})
                raise
            except Exception as error:
                self._append({"type": "error", "error": f"{type(error).__name__}: {error}"})
                raise
            finally:
                self._current = None
                self._stream.reset()
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
        running = running_loop()
        if self._loop is None:
            if running is None:
                raise RuntimeError(
                    "ChatWidget needs a running event loop: use it in a notebook, or call "
                    "say() from a coroutine."
                )
            self._loop = running
        return self._loop
