"""The chat widget as the provider of the ask-the-person seam (``dial_notebook.interaction``).

``ChatWidget`` mixes this in. While displayed, the widget is the active provider: ``ask_user``
calls its ``ask(request)``, which shows every question of the request in one panel of the chat
and waits for the person's Submit (or Approve / Decline of a plan review).

    display (first time) ──▶ register_provider(widget)
        another ChatWidget is the provider ──▶ this one takes over (the older one says so)
        any other provider is active       ──▶ stays a non-provider; a visible note says why
    ask(request) ──▶ questions = {token, questions: […]}   (synced: a reloaded view shows it)
        front end {type: 'questions', token, answers} ──▶ checked ──▶ Answer
        stale token / repeated message / answers that do not fit ──▶ ignored, panel stays
        request aborted (signal set, task cancelled) ──▶ panel removed (ask_user: ASK_ABORTED)
        close() while waiting ──▶ CANCELLED
    close() ──▶ the provider handle is disposed

One request is shown at a time; a second ``ask`` waits until the first is answered or aborted.

    chat = ChatWidget(agent=agent, domain=domain)
    chat
    answer = await ask_user([{"id": "go", "question": "Deploy?",
    ...                           "options": ["Yes", "No"]}])
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from typing import Any

import traitlets

from dial_notebook.interaction import (
    Answer,
    AskRequest,
    ProviderHandle,
    UserInteractionError,
    active_provider,
    normalise_answer,
    register_provider,
)

from ._bridge import Bridge
from ._serialise import json_safe

_log = logging.getLogger(__name__)

NOT_PROVIDER_NOTE = (
    "Questions asked with ask_user() are not shown in this chat: another provider ({name}) is "
    "active. Dispose of it (or close its widget), then call chat.provide().")
TAKEN_OVER_NOTE = "Questions asked with ask_user() now go to a newer chat widget."


class QuestionsProvider(traitlets.HasTraits):
    """The provider half of ``ChatWidget``: ``ask(request)``, the panel's traits, registration.

    The widget registers itself the first time it is displayed (``provide()`` does it by hand,
    e.g. for a widget shown inside a container) and disposes of its handle in ``close()``.

        chat.provide()
        True
    """

    questions = traitlets.Dict(help="The request waiting for the person: {token, questions: "
                                    "[{id, question, detail, header, options, multi_select, "
                                    "intent}]}; {} when none waits.").tag(sync=True)
    provider_note = traitlets.Unicode("", help="Why questions do not show here; '' when this "
                                               "widget is the provider.").tag(sync=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._provider_handle: ProviderHandle | None = None
        self._asked = Bridge()  # one future per shown request, resolved by the front end
        self._asked_tokens = itertools.count(1)
        self._asking: tuple[str, tuple[Any, ...]] | None = None  # (token, questions) shown now
        self._one_request: asyncio.Lock | None = None  # made on the loop
        self.on_msg(self._on_questions_message)

    # ---- registration ----------------------------------------------------------------------

    @property
    def is_provider(self) -> bool:
        """True while ``ask_user`` questions go to this widget."""
        return self._provider_handle is not None and self._provider_handle.active

    def provide(self) -> bool:
        """Become the active provider; False (and a visible note) when another one is active.

        An older ``ChatWidget`` hands over (re-running the cell that shows a chat makes the
        new widget the provider); any other provider is left alone.
        """
        if self.is_provider:
            return True
        if getattr(self, "comm", None) is None:
            return False  # closed: nobody would see the questions
        current = active_provider()
        if isinstance(current, QuestionsProvider) and current is not self:
            current._hand_over()
        try:
            self._provider_handle = register_provider(self)
        except UserInteractionError:
            self.provider_note = NOT_PROVIDER_NOTE.format(name=type(current).__name__)
            return False
        self.provider_note = ""
        return True

    def _hand_over(self) -> None:
        if self._provider_handle is not None:
            self._provider_handle.dispose()
            self._provider_handle = None
        self.provider_note = TAKEN_OVER_NOTE

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        if not self.is_provider:
            self.provide()  # displayed: the newest displayed chat takes questions
        return super()._repr_mimebundle_(**kwargs)  # type: ignore[misc]

    def _append(self, entry: dict[str, Any]) -> None:
        """Add ``entry`` to the conversation (the widget sends it to the front end once)."""
        raise NotImplementedError

    # ---- the provider ------------------------------------------------------------------------

    async def ask(self, request: AskRequest) -> Answer:
        """Show ``request``'s questions in one panel; the person's Answer.

        Raises ``UserInteractionError('CANCELLED')`` when the widget is closed first; a
        cancelled call (the request aborted) removes the panel.
        """
        if self._one_request is None:
            self._one_request = asyncio.Lock()
        async with self._one_request:
            token = f"q{next(self._asked_tokens)}"
            future = self._asked.open(token)
            self._asking = (token, tuple(request.questions))
            self.questions = json_safe({"token": token, **request.to_dict()})
            try:
                answer = await future
            finally:
                self._asked.resolve(token, None)  # aborted: forget the token (a no-op otherwise)
                self._asking = None
                if self.questions.get("token") == token:
                    self.questions = {}
            if answer is None:
                raise UserInteractionError("The person closed the chat before answering the "
                                           "questions.", "CANCELLED")
            self._append({"type": "person", "text": answer_summary(request, answer),
                          "questions": token})
            return answer

    def _on_questions_message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        """``{type: 'questions', token, answers: [{id, selected, custom?}]}`` from the panel.

        Runs on whatever thread delivers the message; the Bridge wakes the loop safely."""
        if not isinstance(content, dict) or content.get("type") != "questions":
            return
        asking = self._asking
        token = content.get("token")
        if asking is None or token != asking[0]:
            return  # stale or repeated
        try:
            answer = normalise_answer(asking[1], {"answers": list(content.get("answers") or [])})
        except (UserInteractionError, AttributeError, TypeError) as error:
            _log.warning("ignored an answer that does not fit the questions: %s", error)
            return
        self._asked.resolve(token, answer)

    def close(self) -> None:
        """Stop being the provider; a request still waiting ends ``CANCELLED``."""
        for token in self._asked.waiting():
            self._asked.resolve(token, None)
        if self._provider_handle is not None:
            self._provider_handle.dispose()
            self._provider_handle = None
        super().close()  # type: ignore[misc]


def answer_summary(request: AskRequest, answer: Answer) -> str:
    """The person's answers in a few lines, for the chat's record.

        >>> from dial_notebook.interaction import AnswerItem, Question
        >>> q = Question(id="go", question="Deploy?", options=("Yes", "No"))
        >>> answer_summary(AskRequest((q,)), Answer((AnswerItem("go", ("Yes",)),)))
        'Deploy? Yes'
    """
    lines = []
    for question, item in zip(request.questions, answer.answers, strict=False):
        parts = [*item.selected, *([item.custom] if item.custom else [])]
        lines.append(f"{question.question} {', '.join(parts) if parts else '(skipped)'}")
    return "\n".join(lines)
