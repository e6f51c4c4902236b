"""The three ports of a conversation — agent, domain, human — checked once and called uniformly.

Each port is a plain object supplied by the caller; methods may be sync or async. The
constructor of ``Conversation`` wraps them here, so a missing method fails at once with a message
naming it, and the turn loop calls every method the same way:

    agent   send(message) -> str          or the agent is itself a callable
            a sync send runs on a daemon thread, so the timeout holds and the event loop stays
            free while a blocking HTTP client waits; an async one is awaited on the loop
    domain  actions: {name: spec}         spec: dict or object with mutates / destructive / handoff
            validate(action, payload)     -> {'ok': True} | {'ok': False, 'code', 'field', 'hint'}
            preview(action, payload)      -> str
            run(action, payload)          -> result; raises to fail     (required)
            context()                     -> str
            declare(key, value)           optional: told each fact the agent declares
                                          (<dial-declare>, with full_dial)
    human   decide(suggestion)            -> {'accept': True} | {'dismiss': True} | {'edit': p}
                                             | {'say': text}           (required)
            answer(ask)                   -> text, '' or None
            needs_event_loop              True for a surface whose answers arrive as events on
                                          the running loop (say_sync refuses such a human)

Only ``agent.send``, ``domain.run`` and ``human.decide`` are required; the rest have the
spec's defaults (every payload valid, preview = the action name, no context, no answer).
An action whose spec does not say ``mutates`` counts as mutating: it is asked, never run alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import queue
import threading
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any


async def call(fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)``, awaiting the result when it is awaitable (sync or async ports alike)."""
    result = fn(*args)
    if inspect.isawaitable(result):
        result = await result
    return result


def _is_async(fn: Any) -> bool:
    return inspect.iscoroutinefunction(fn) or inspect.iscoroutinefunction(
        getattr(fn, "__call__", None)  # noqa: B004 - an object whose __call__ is async
    )


def _method(obj: Any, name: str) -> Callable[..., Any] | None:
    value = getattr(obj, name, None)
    return value if callable(value) else None


class _DaemonWorkers:
    """Daemon threads that run blocking calls, reused from one call to the next.

    Not the loop's executor: its threads are joined when ``asyncio.run`` ends and at exit, so
    a send that never returns would hang the program after its timeout had fired. These
    threads are never joined; a new one starts whenever every other is busy.
    """

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._idle = 0

    def submit(self, job: Callable[[], None]) -> None:
        with self._lock:
            if self._idle:
                self._idle -= 1
            else:
                threading.Thread(target=self._work, name="dial-agent-send", daemon=True).start()
        self._jobs.put(job)

    def _work(self) -> None:
        while True:
            self._jobs.get()()
            with self._lock:
                self._idle += 1


_WORKERS = _DaemonWorkers()


def _in_thread(fn: Callable[[str], Any], message: str) -> asyncio.Future[Any]:
    """Run ``fn(message)`` on a daemon worker thread; the future resolves on this loop."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[Any] = loop.create_future()

    def settle(ok: bool, value: Any) -> None:
        if future.done():  # cancelled: the timeout fired or the task was cancelled
            return
        if ok:
            future.set_result(value)
        else:
            future.set_exception(value)

    def job() -> None:
        try:
            outcome = (True, fn(message))
        except BaseException as exc:  # handed to the waiting coroutine
            outcome = (False, exc)
        # RuntimeError: the loop closed while the send was running, and nobody waits
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(settle, *outcome)

    _WORKERS.submit(job)
    return future


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
        self._is_async = _is_async(send)

    async def send(self, message: str) -> str:
        if self._is_async:
            reply = await self._send(message)
        else:
            reply = await _in_thread(self._send, message)
            if inspect.isawaitable(reply):  # a plain function that returned a coroutine
                reply = await reply
        if reply is None:
            return ""
        if not isinstance(reply, str):
            raise TypeError(
                f"agent.send() must return the reply text (str), not {type(reply).__name__}"
            )
        return reply


@dataclass(frozen=True, slots=True)
class ActionSpec:
    """What the domain says of one action."""

    mutates: bool = True
    destructive: bool = False
    handoff: bool = False


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


def _attr(obj: Any, name: str, default: Any = None) -> Any:
    if isinstance(obj, Mapping):
        return obj.get(name, default)
    return getattr(obj, name, default)


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
        self._run = run
        self._validate = _method(domain, "validate")
        self._preview = _method(domain, "preview")
        self._context = _method(domain, "context")
        self._declare = _method(domain, "declare")

    def spec(self, action: str) -> ActionSpec | None:
        """The action's spec, or None when the domain has no such action."""
        actions = getattr(self._domain, "actions", None) or {}
        if not isinstance(actions, Mapping):
            raise TypeError(
                f"domain.actions must map action names to specs, not {type(actions).__name__}"
            )
        spec = actions.get(action)
        if spec is None:
            return None
        return ActionSpec(
            mutates=_attr(spec, "mutates", True) is not False,
            destructive=bool(_attr(spec, "destructive", False)),
            handoff=bool(_attr(spec, "handoff", False)),
        )

    async def validate(self, action: str, payload: Any) -> Check:
        """The domain's verdict. A validate that raises refuses the payload, saying why."""
        if self._validate is None:
            return Check(True)
        try:
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
        """The domain's preview; the action name when it raises or returns nothing."""
        if self._preview is None:
            return action
        try:
            text = await call(self._preview, action, payload)
        except Exception:
            return action
        return str(text) if text else action

    def preview_now(self, action: str, payload: Any) -> str:
        """``preview`` without awaiting (for bookkeeping after an interruption).

        An async preview cannot be waited for there: the action name stands in.
        """
        if self._preview is None:
            return action
        try:
            text = self._preview(action, payload)
        except Exception:
            return action
        if inspect.iscoroutine(text):
            text.close()
            return action
        if inspect.isawaitable(text):
            return action
        return str(text) if text else action

    async def run(self, action: str, payload: Any) -> Any:
        return await call(self._run, action, payload)

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


def _text_or_none(value: Any) -> str | None:
    return None if value is None else str(value)


def _describe(exc: BaseException) -> str:
    message = str(exc)
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__
