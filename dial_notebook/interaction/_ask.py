"""``ask_user``: check the questions, route them to the active provider, await the answer.

    ask_user(questions, signal)
      ├─ checks (EMPTY_QUESTIONS, DUPLICATE_QUESTION_ID, INVALID_INTENT, INVALID_QUESTION)
      ├─ no provider ─────────────────────────────▶ NO_PROVIDER
      ├─ signal set (before or while waiting) ─────▶ the provider's task is cancelled; ASK_ABORTED
      ├─ the awaiting task is cancelled ──────────▶ the provider's task is cancelled too
      ├─ the provider answers ─▶ the spec's answer rules applied ─▶ Answer
      └─ asked by a run (its context holds the run's clock): the run's time limit is paused
         while the person answers (_clock.py's ``person_answering``)

A provider whose ``ask`` is a plain function (the console provider's ``input()``) runs in a
worker thread, so the event loop keeps running while it waits.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
from collections.abc import Iterable, Mapping
from typing import Any

from .._clock import person_answering
from ._errors import UserInteractionError
from ._registry import active_provider
from ._shapes import Answer, AskRequest, Question, check_questions, normalise_answer


async def _call(provider: Any, request: AskRequest) -> Any:
    if inspect.iscoroutinefunction(provider.ask):
        return await provider.ask(request)
    result = await asyncio.to_thread(provider.ask, request)
    if inspect.isawaitable(result):
        result = await result
    return result


def _aborted() -> UserInteractionError:
    return UserInteractionError("The questions were withdrawn before the person answered "
                                "(the request's signal was set).", "ASK_ABORTED")


async def ask_user(
    questions: Iterable[Question | Mapping[str, Any]],
    signal: asyncio.Event | None = None,
) -> Answer:
    """Ask the person; return their Answer (one item per question, in order).

        answer = await ask_user([{"id": "go", "question": "Deploy now?",
                                  "options": ["Yes", "No"]}])
        answer["go"].selected   # ('Yes',)
    """
    qs = check_questions(questions)
    provider = active_provider()
    if provider is None:
        raise UserInteractionError(
            "No provider is registered to ask the person: display a ChatWidget, or use "
            "`with use_provider(ConsoleProvider()):`.", "NO_PROVIDER")
    if signal is not None and signal.is_set():
        raise _aborted()
    request = AskRequest(qs, signal)
    with person_answering():  # a run that asks: its time limit waits for the person
        answer = await _wait(asyncio.ensure_future(_call(provider, request)), signal)
    return normalise_answer(qs, answer)


async def _wait(asking: asyncio.Future[Any], signal: asyncio.Event | None) -> Any:
    try:
        if signal is None:
            answer = await asking
        else:
            aborting = asyncio.ensure_future(signal.wait())
            try:
                done, _ = await asyncio.wait({asking, aborting},
                                             return_when=asyncio.FIRST_COMPLETED)
            finally:
                aborting.cancel()
            if asking not in done:
                raise _aborted()
            answer = asking.result()
    finally:
        if not asking.done():
            asking.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asking
    return answer
