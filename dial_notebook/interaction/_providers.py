"""Two ready providers: ``ConsoleProvider`` (``input()``, for scripts and terminals) and
``ScriptedProvider`` (answers given in advance, for tests and demos).

    >>> import asyncio
    >>> from dial_notebook.interaction import ask_user, use_provider
    >>> with use_provider(ScriptedProvider([{"go": "Yes"}])):
    ...     asyncio.run(ask_user([{"id": "go", "question": "Go?", "options": ["Yes", "No"]}]))
    Answer(answers=(AnswerItem(id='go', selected=('Yes',), custom=None),))
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ._errors import UserInteractionError
from ._shapes import Answer, AnswerItem, AskRequest, Question


class ConsoleProvider:
    """Asks in a terminal: numbered options; ``1,3`` for several; other text is the custom
    ("Other") answer; an empty line skips; ``q`` cancels.

    Args:
        input: reads one line (default: the built-in ``input``).
        output: writes one line (default: ``print``).
    """

    def __init__(self, *, input: Callable[[str], str] = input,
                 output: Callable[[str], Any] = print) -> None:
        self._input = input
        self._output = output

    def _item(self, q: Question) -> AnswerItem:
        if q.header:
            self._output(f"[{q.header}]")
        self._output(q.question)
        if q.detail:
            self._output(q.detail)
        for i, o in enumerate(q.options, 1):
            self._output(f"  {i}. {o.label}" + (f" — {o.description}" if o.description else ""))
        hint = ("numbers separated by commas, " if q.multi_select else "a number, ") \
            if q.options else ""
        other = "" if q.confirms else "text for another answer, "  # a confirm takes no text
        line = self._input(f"> ({hint}{other}empty to skip, q to cancel) ")
        line = line.strip()
        if line.lower() == "q":
            raise UserInteractionError("The person cancelled the questions.", "CANCELLED")
        if not line:
            return AnswerItem(q.id)
        parts = [p.strip() for p in line.split(",")] if q.options else []
        if parts and all(p.isdigit() and 1 <= int(p) <= len(q.options) for p in parts):
            picked = tuple(q.options[int(p) - 1].label for p in parts)
            if q.multi_select or len(picked) == 1:
                return AnswerItem(q.id, picked)
        return AnswerItem(q.id) if q.confirms else AnswerItem(q.id, (), line)

    def ask(self, request: AskRequest) -> Answer:
        return Answer(tuple(self._item(q) for q in request.questions))


Scripted = Answer | Mapping[str, Any] | Callable[[AskRequest], Any]


class ScriptedProvider:
    """Answers requests in order from a list prepared in advance.

    Each entry is an ``Answer``, a dict ``{question_id: label | [labels] | {"custom": text}}``,
    or a callable of the request. ``requests`` records what was asked.
    """

    def __init__(self, answers: Iterable[Scripted]) -> None:
        self._answers = list(answers)
        self._given = 0
        self.requests: list[AskRequest] = []

    def ask(self, request: AskRequest) -> Answer:
        self.requests.append(request)
        if self._given >= len(self._answers):
            raise UserInteractionError(
                f"ScriptedProvider has no answer left: it was given {len(self._answers)} and "
                f"this is request {self._given + 1}.", "CANCELLED")
        entry = self._answers[self._given]
        self._given += 1
        if callable(entry) and not isinstance(entry, Mapping):
            entry = entry(request)
        if isinstance(entry, Answer):
            return entry
        items = []
        for qid, value in dict(entry).items():
            if isinstance(value, Mapping):
                items.append(AnswerItem(qid, tuple(value.get("selected", ())),
                                        value.get("custom")))
            elif isinstance(value, list | tuple):
                items.append(AnswerItem(qid, tuple(value)))
            elif value is None:
                items.append(AnswerItem(qid))
            else:
                items.append(AnswerItem(qid, (str(value),)))
        return Answer(tuple(items))
