"""The three ports of a conversation — agent, domain, human — checked once and called uniformly.

Each port is a plain object supplied by the caller; methods may be sync or async. The
constructor of ``Conversation`` wraps them here, so a missing method fails at once with a message
naming it, and the turn loop calls every method the same way:

    agent   send(message) -> str          or the agent is itself a callable
            stream_reply(message)         optional: an async iterator of the reply's pieces,
                                          used when present and ``streams`` is not False
            a sync send runs on a daemon thread, so the timeout holds and the event loop stays
            free while a blocking HTTP client waits; an async one is awaited on the loop
    domain  actions: {name: spec}         spec: dict or object with mutates / destructive / handoff
                                          and, optionally, stoppable (Stop cancels its run)
            validate(action, payload)     -> {'ok': True} | {'ok': False, 'code', 'field', 'hint'}
            preview(action, payload)      -> str      (validate and preview: within the reply's
                                                       time budget, _budget.py)
            run(action, payload)          -> result; raises to fail     (required; a blocking
                                          run runs on a worker thread, bounded by run_timeout;
                                          either may say how far it is: report_progress)
            run_async(action, payload)    optional: awaited instead of run when present (a
                                          run that a timeout or Stop can cancel mid-way)
            context()                     -> str
            declare(key, value)           optional: told each fact the agent declares
                                          (<dial-declare>, with full_dial)
            dry_run(action, payload)      optional: what the proposal would do, for its card
                                          (a dict; never changes state; bounded: _review.py)
            version(action, payload)      optional: a short token (text, or {name: text}) of
                                          the state the proposal works on; a change since it
                                          was proposed makes Accept check it again (_stale.py)
            stoppable(action)             optional: True when Stop may cancel the action's
                                          run (as the spec's ``stoppable`` says: _work.py)
            undo(action, payload, result) optional: takes a done run back (Undo → 'undone')
            undoable(action, payload, result)
                                          optional: True, or why it can no longer be undone;
                                          False: it never could be (nothing is said of it)
    human   decide(suggestion)            -> {'accept': True} | {'dismiss': True} | {'edit': p}
                                             | {'say': text}           (required)
            answer(ask)                   -> text, '' or None
            needs_event_loop              True for a surface whose answers arrive as events on
                                          the running loop (say_sync refuses such a human)

``Agent``, ``Domain`` and ``Human`` are the ports as ``Protocol``s, for type checkers and
readers; the constructor checks them at run time (a missing method fails at once, named).
Only ``agent.send``, ``domain.run`` and ``human.decide`` are required; the rest have the
spec's defaults (every payload valid, preview = the action name, no context, no answer).
An action whose spec does not say ``mutates`` counts as mutating: it is asked, never run alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import inspect
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from .._ports import ActionSpec, action_spec
from .._ports import field_of as _attr
from ..dial import MAX_REPLY_CHARS
from ._budget import charged, current_budget
from ._work import in_thread, is_async, start


class Agent(Protocol):
    """The transport to an agent (or the agent may be a callable taking the message)."""

    def send(self, message: str) -> str | Awaitable[str]:
        """The agent's reply to ``message`` (sync, or a coroutine)."""
        ...


class Domain(Protocol):
    """The vocabulary a conversation acts on; only ``run`` is required (see the header)."""

    actions: Mapping[str, Any]

    def run(self, action: str, payload: Any) -> Any:
        """Run ``action``; return its result (or an awaitable); raise to fail."""
        ...


class Human(Protocol):
    """The person, or a policy standing in for one; ``answer`` is optional."""

    def decide(self, suggestion: Any) -> Mapping[str, Any] | Awaitable[Mapping[str, Any]]:
        """``{'accept': True}`` | ``{'dismiss': True}`` | ``{'edit': payload}`` |
        ``{'say': text}``."""
        ...


async def call(fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)``, awaiting the result when it is awaitable (sync or async ports alike)."""
    result = fn(*args)
    if inspect.isawaitable(result):
        result = await result
    return result


def _method(obj: Any, name: str) -> Callable[..., Any] | None:
    value = getattr(obj, name, None)
    return value if callable(value) else None


class AgentPort:
    """The transport to the agent: ``send(message) -> reply text``."""

    def __init__(self, agent: Any) -> None:
        send = _method(agent, "send")
        if send is None:
            if not callable(agent):
                raise TypeError(
                    "Conversation: agent needs a send(message) method, or must be a callable "
                    f"taking the message; got {type(agent).__name__}"
                )
            send = agent
        self._send = send
        self._is_async = is_async(send)
        self._agent = agent
        #: How long the last reply was, in characters (a streamed one over the parser's limit
        #: is not kept whole: this is its real length).
        self.chars = 0

    @property
    def streams(self) -> bool:
        """Whether the agent hands its reply over in pieces (``stream_reply``, see the header)."""
        return callable(getattr(self._agent, "stream_reply", None)) and bool(
            getattr(self._agent, "streams", True))

    async def send(self, message: str,
                   on_piece: Callable[[str], None] | None = None) -> str:
        """The agent's reply to ``message``; a streaming agent's pieces go to ``on_piece`` as
        they come (the reply is their concatenation)."""
        if self.streams:
            return await self._streamed(message, on_piece)
        if self._is_async:
            reply = await self._send(message)
        else:
            reply = await in_thread(self._send, message)
            if inspect.isawaitable(reply):  # a plain function that returned a coroutine
                reply = await reply
        if reply is None:
            reply = ""
        if not isinstance(reply, str):
            raise TypeError(
                f"agent.send() must return the reply text (str), not {type(reply).__name__}"
            )
        self.chars = len(reply)
        return reply

    async def _streamed(self, message: str, on_piece: Callable[[str], None] | None) -> str:
        """The pieces joined. Past the parser's limit (``MAX_REPLY_CHARS``: such a reply is not
        read) the rest is only counted: ``chars`` says how long the reply really was."""
        pieces: list[str] = []
        kept = 0
        self.chars = 0
        stream = self._agent.stream_reply(message)
        # closed on the way out, whatever ends it: the reply, a stop, the timeout (the agent
        # closes its HTTP stream then)
        async with contextlib.aclosing(stream):
            async for piece in stream:
                if not isinstance(piece, str):
                    raise TypeError(f"agent.stream_reply() must yield text (str), not "
                                    f"{type(piece).__name__}")
                self.chars += len(piece)
                if not piece or kept > MAX_REPLY_CHARS:
                    continue
                pieces.append(piece)
                kept += len(piece)
                if on_piece is not None:
                    on_piece(piece)
        return "".join(pieces)


@dataclass(frozen=True, slots=True)
class Check:
    """A validation verdict: ``ok``, or the ``code`` / ``field`` / ``hint`` of the refusal."""

    ok: bool
    code: str | None = None
    field: str | None = None
    hint: str | None = None
    #: The domain's itemised errors (``[{field, message}]`` from a schema domain), if any.
    errors: Any = None

    def issue(self) -> dict[str, Any]:
        """The refusal as the outcome carries it: ``code`` / ``field`` / ``hint``, those present."""
        return {k: v for k, v in (("code", self.code), ("field", self.field),
                                   ("hint", self.hint)) if v is not None}

    def for_person(self) -> dict[str, Any]:
        """The refusal as ``suggestion.issue`` shows it: the outcome's fields and ``errors``."""
        issue = self.issue()
        if self.errors is not None:
            issue["errors"] = self.errors
        return issue


class DomainPort:
    """The vocabulary a conversation acts on."""

    def __init__(self, domain: Any) -> None:
        run = _method(domain, "run")
        if run is None:
            raise TypeError(
                "Conversation: domain needs a run(action, payload) method; "
                f"got {type(domain).__name__}"
            )
        self._domain = domain
        # a domain that can be cancelled mid-query (TablesDomain) has run_async: awaited
        self._run = _method(domain, "run_async") or run
        self._validate = _method(domain, "validate")
        self._preview = _method(domain, "preview")
        self._context = _method(domain, "context")
        self._declare = _method(domain, "declare")
        self.dry_run_of = _method(domain, "dry_run")
        self.version_of = _method(domain, "version")
        self.undo_of = _method(domain, "undo")
        self.undoable_of = _method(domain, "undoable")
        self._stoppable = _method(domain, "stoppable")

    def spec(self, action: str) -> ActionSpec | None:
        """The action's spec, or None when the domain has no such action."""
        return action_spec(self._domain, action)

    def stoppable(self, action: str) -> bool:
        """Whether Stop may cancel a run of ``action``: its spec says ``stoppable``, or the
        domain's ``stoppable(action)`` is True (one that raises says no)."""
        actions = getattr(self._domain, "actions", None)
        spec = actions.get(action) if isinstance(actions, Mapping) else None
        if spec is not None and _attr(spec, "stoppable", False) is True:
            return True
        if self._stoppable is None:
            return False
        try:
            return self._stoppable(action) is True
        except Exception:
            return False

    async def validate(self, action: str, payload: Any) -> Check:
        """The domain's verdict. A validate that raises refuses the payload, saying why; one
        met after the reply's budget is spent refuses it unread (_budget.py)."""
        if self._validate is None:
            return Check(True)
        budget = current_budget()
        if budget is not None and budget.exhausted:
            return Check(False, "time-budget", None, _OUT_OF_TIME.format(budget.seconds))
        try:
            with charged():
                verdict = await call(self._validate, action, payload)
        except Exception as exc:
            return Check(False, "validation-error", None,
                         f"The domain could not check this payload: {_describe(exc)}")
        if isinstance(verdict, bool):
            return Check(verdict)
        ok = _attr(verdict, "ok", None)
        if not isinstance(ok, bool):
            raise TypeError(
                "domain.validate() must return {'ok': True} or {'ok': False, 'code': …, "
                f"'field': …, 'hint': …}}, not {verdict!r}"
            )
        if ok:
            return Check(True)
        return Check(False, *(_text_or_none(_attr(verdict, k)) for k in ("code", "field", "hint")),
                     errors=_attr(verdict, "errors"))

    async def preview(self, action: str, payload: Any) -> str:
        """The domain's preview; the action name when it raises or returns nothing, or when
        the reply's budget is spent."""
        if self._preview is None or _spent():
            return action
        try:
            with charged():
                text = await call(self._preview, action, payload)
        except Exception:
            return action
        return str(text) if text else action

    def preview_now(self, action: str, payload: Any) -> str:
        """``preview`` without awaiting (for bookkeeping after an interruption).

        An async preview cannot be waited for there: the action name stands in.
        """
        if self._preview is None or _spent():
            return action
        try:
            with charged():
                text = self._preview(action, payload)
        except Exception:
            return action
        if inspect.iscoroutine(text):
            text.close()
            return action
        if inspect.isawaitable(text):
            return action
        return str(text) if text else action

    def start_run(self, action: str, payload: Any) -> asyncio.Future[Any]:
        """The run started: a blocking ``run`` on a worker thread (so it can be bounded in
        time and the kernel stays free), an async one as a task (_work.py). Called by the run
        gate only, with a decision record (_run_gate.py; a unit test checks the callers).
        The run sees the caller's context (where it reports its progress), on its thread too."""
        if is_async(self._run):
            return start(self._run, action, payload)  # a task copies the context itself
        return start(contextvars.copy_context().run, self._run, action, payload)

    async def declare(self, key: str, value: Any) -> None:
        """Tell the domain a fact the agent declared, when it has a ``declare`` hook."""
        if self._declare is not None:
            await call(self._declare, key, value)

    async def context(self) -> str:
        if self._context is None:
            return ""
        text = await call(self._context)
        if text is None:
            return ""
        if not isinstance(text, str):
            raise TypeError(f"domain.context() must return text, not {type(text).__name__}")
        return text


class HumanPort:
    """The person, or a policy standing in for one."""

    def __init__(self, human: Any) -> None:
        decide = _method(human, "decide")
        if decide is None:
            raise TypeError(
                "Conversation: human needs a decide(suggestion) method; "
                f"got {type(human).__name__}"
            )
        self._human = human
        self._decide = decide
        self._answer = _method(human, "answer")

    @property
    def needs_event_loop(self) -> bool:
        """True when the human answers through the running event loop (a notebook surface)."""
        return bool(getattr(self._human, "needs_event_loop", False))

    def decide(self, suggestion: Any) -> Awaitable[Any]:
        return call(self._decide, suggestion)

    async def answer(self, ask: Any) -> str:
        """The person's answer as text; '' when there is none (the question stands)."""
        if self._answer is None:
            return ""
        answer = await call(self._answer, ask)
        if answer is None:
            return ""
        if isinstance(answer, str):
            return answer
        if isinstance(answer, int | float) and not isinstance(answer, bool):
            return str(answer)
        raise TypeError(f"human.answer() must return text, '' or None, not {answer!r}")


_OUT_OF_TIME = ("Not checked: this reply already used the {:g} s of checking the kernel gives "
                "one reply. Propose fewer or smaller payloads at once.")


def _spent() -> bool:
    budget = current_budget()
    return budget is not None and budget.exhausted


def _text_or_none(value: Any) -> str | None:
    return None if value is None else str(value)


def _describe(exc: BaseException) -> str:
    message = str(exc)
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__
