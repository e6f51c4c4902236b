"""Executors: what runs a ``<step>`` of ``<dial-execute>``, registered by its ``env``.

An executor is ``fn(step)``, sync or async: ``step`` is the ``dial.Step`` to run (``command``,
``env``, ``id``, ``label``; the command as the person approved it). It returns the step's result
(JSON-able is best) and raises to fail; a ``StepError``'s ``code`` / ``hint`` reach the agent.

    env       default                          enable
    python    on: ``python_executor(namespace)`` — runs in the namespace it is given (the
              ChatWidget gives it the notebook's, so ``df.describe()`` sees the user's ``df``;
              a Conversation alone gets a dict of its own); stdout / stderr captured; result
              ``{'value': repr of the last expression, 'stdout', 'stderr'}`` (those present)
    shell     off                              ``executors={'shell': shell_executor(timeout=30)}``
              ``bash -c COMMAND`` in a subprocess with a timeout; result
              ``{'exit_status': 0, 'stdout', 'stderr'}``; a non-zero exit status fails
    http      off                              ``executors={'http': http_executor(timeout=10)}``
              one request per step (_http.py): a JSON request or ``METHOD URL``; the whole
              request within its timeout, redirects only within the origin, optionally only
              to ``allow_hosts``; result ``{'status', 'body'}``; a status ≥ 400 fails
    other     off: the step fails, saying no executor is registered for that env

``Executors`` merges the ones a conversation is given over the defaults; ``{'python': None}``
turns python off. Sync executors run on the event loop's thread, one at a time (the notebook's
namespace is not thread-safe; a cell runs the same way); async ones (shell) run concurrently;
a blocking one that says ``in_thread = True`` (http) runs on a worker thread. Output beyond ``MAX_OUTPUT`` characters is cut, saying so.

    >>> run = python_executor({})
    >>> from dial_notebook.dial import Step
    >>> run(Step(command="x = 2\\nprint('hi')\\nx * 21", env="python"))
    {'value': '42', 'stdout': 'hi\\n'}
"""

from __future__ import annotations

import ast
import asyncio
import contextlib
import io
import os
import shutil
import signal
from collections.abc import Callable, Mapping
from typing import Any

from ..dial import Step

#: Characters of output kept per stream (the rest is cut, saying how much).
MAX_OUTPUT = 20_000

Executor = Callable[[Step], Any]


class StepError(Exception):
    """A step failed; ``code`` and ``hint`` go to the agent with the message."""

    def __init__(self, message: str, *, code: str | None = None, hint: str | None = None):
        super().__init__(message)
        self.code = code
        self.hint = hint


def cut(text: str) -> str:
    """``text`` cut at ``MAX_OUTPUT`` characters, saying how many more there were."""
    if len(text) <= MAX_OUTPUT:
        return text
    return text[:MAX_OUTPUT] + f"\n… ({len(text) - MAX_OUTPUT} more characters cut)"


class PythonExecutor:
    """Runs python steps in a namespace, like a notebook cell (the last expression's value is
    the result). ``namespace``: the dict to run in; None: a dict of its own (``own``).

    The runtime reads no notebook state: a surface that has a notebook (the ChatWidget) hands
    the notebook's namespace in."""

    def __init__(self, namespace: dict[str, Any] | None = None) -> None:
        #: The namespace steps run in when none was given.
        self.own: dict[str, Any] = {}
        self._namespace = namespace if namespace is not None else self.own

    @property
    def namespace(self) -> dict[str, Any]:
        """Where the next step runs."""
        return self._namespace

    def __call__(self, step: Step) -> dict[str, Any]:
        namespace = self.namespace
        name = f"<step {step.id or ''}>".replace(" >", ">")
        try:
            tree = ast.parse(step.command, name, "exec")
        except SyntaxError as exc:
            raise StepError(f"SyntaxError: {exc.msg} (line {exc.lineno})",
                            code="python-error") from None
        last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        out, err = io.StringIO(), io.StringIO()
        value: Any = None
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                exec(compile(tree, name, "exec"), namespace)
                if last is not None:
                    value = eval(compile(ast.Expression(last.value), name, "eval"), namespace)
        except Exception as exc:
            line = _line_of(exc, name)
            where = f" (line {line})" if line else ""
            output = out.getvalue()
            raise StepError(f"{type(exc).__name__}: {exc}{where}", code="python-error",
                            hint=f"It printed: {cut(output)}" if output else None) from None
        result: dict[str, Any] = {}
        if value is not None:
            result["value"] = cut(repr(value))
        for key, stream in (("stdout", out), ("stderr", err)):
            if stream.getvalue():
                result[key] = cut(stream.getvalue())
        return result

    def __repr__(self) -> str:
        return "python_executor()" if self._namespace is self.own else "python_executor(namespace)"


def _line_of(exc: BaseException, name: str) -> int | None:
    tb = exc.__traceback__
    line = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == name:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def python_executor(namespace: dict[str, Any] | None = None) -> PythonExecutor:
    """The python executor: runs a step's code in ``namespace`` (default: a dict of its own;
    in a notebook, pass ``get_ipython().user_ns`` — the ChatWidget does).

        >>> ns = {}
        >>> python_executor(ns)(Step(command="total = 1 + 1", env="python")), ns["total"]
        ({}, 2)
    """
    return PythonExecutor(namespace)


class ShellExecutor:
    """Runs shell steps with ``bash -c`` (``sh`` when there is no bash), with a timeout."""

    def __init__(self, timeout: float = 30.0, cwd: str | None = None,
                 env: Mapping[str, str] | None = None) -> None:
        if isinstance(timeout, bool) or not isinstance(timeout, int | float) or timeout <= 0:
            raise ValueError(f"shell_executor: timeout must be a positive number of seconds, "
                             f"not {timeout!r}")
        self.timeout = float(timeout)
        self.cwd = cwd
        self.env = dict(env) if env is not None else None
        self.shell = shutil.which("bash") or "/bin/sh"

    async def __call__(self, step: Step) -> dict[str, Any]:
        process = await asyncio.create_subprocess_exec(
            self.shell, "-c", step.command, stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
            cwd=self.cwd, env=self.env, start_new_session=True,
        )
        try:
            async with asyncio.timeout(self.timeout):
                out, err = await process.communicate()
        except TimeoutError:
            await _kill(process)
            raise StepError(f"Timed out after {self.timeout:g}s", code="timeout",
                            hint="The command was stopped; a longer timeout is set with "
                                 "shell_executor(timeout=…).") from None
        except BaseException:
            await _kill(process)
            raise
        stdout = cut(out.decode("utf-8", "replace"))
        stderr = cut(err.decode("utf-8", "replace"))
        if process.returncode != 0:
            last = stderr.strip().splitlines()[-1] if stderr.strip() else ""
            raise StepError(f"Exit status {process.returncode}" + (f": {last}" if last else ""),
                            code="exit-status", hint=stderr or None)
        result: dict[str, Any] = {"exit_status": 0}
        if stdout:
            result["stdout"] = stdout
        if stderr:
            result["stderr"] = stderr
        return result

    def __repr__(self) -> str:
        return f"shell_executor(timeout={self.timeout:g})"


async def _kill(process: asyncio.subprocess.Process) -> None:
    if process.returncode is None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError):
            process.kill()
    await process.wait()


def shell_executor(*, timeout: float = 30.0, cwd: str | None = None,
                   env: Mapping[str, str] | None = None) -> ShellExecutor:
    """The shell executor (off unless given): ``bash -c`` each step, stopped after ``timeout``.

        conversation = Conversation(..., full_dial=True,
                                    executors={"shell": shell_executor(timeout=30)})
    """
    return ShellExecutor(timeout, cwd, env)


_ENABLE = {
    "shell": "shell_executor(timeout=30)",
    "http": "http_executor(timeout=10)",
    "python": "python_executor()",
}


class Executors:
    """The executors of one conversation, by env: the defaults, overridden by ``given``."""

    def __init__(self, given: Mapping[str, Executor | None] | None = None) -> None:
        if given is not None and not isinstance(given, Mapping):
            raise TypeError(f"Conversation: executors must map an env to a callable, "
                            f"not {type(given).__name__}")
        table: dict[str, Executor | None] = {"python": python_executor()}
        for env, fn in (given or {}).items():
            if fn is not None and not callable(fn):
                raise TypeError(f"Conversation: the executor for env {env!r} must be a callable "
                                f"(fn(step), sync or async) or None, not {type(fn).__name__}")
            table[str(env)] = fn
        self._table = {env: fn for env, fn in table.items() if fn is not None}

    def get(self, env: str) -> Executor | None:
        return self._table.get(env)

    @property
    def envs(self) -> list[str]:
        """The envs that have an executor."""
        return sorted(self._table)

    def missing(self, env: str) -> StepError:
        """The error of a step whose env has no executor."""
        if env in _ENABLE:
            return StepError(
                f"{env} steps are off here, so this step did not run.", code="no-executor",
                hint=f"Enable them with Conversation(..., executors={{'{env}': "
                     f"{_ENABLE[env]}}}).")
        on = ", ".join(self.envs) or "none"
        return StepError(f"No executor is registered for env '{env}' (registered: {on}).",
                         code="no-executor",
                         hint="Register one with Conversation(..., executors={'"
                              f"{env}': fn}}).")

    @property
    def python(self) -> PythonExecutor | None:
        fn = self._table.get("python")
        return fn if isinstance(fn, PythonExecutor) else None
