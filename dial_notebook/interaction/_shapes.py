"""The shapes of the user-interaction seam (spec/user-interaction.md), in Python.

A request holds questions; each question has a stable ``id`` echoed in its answer, optional
``options`` (label + description), single or multiple selection, and an optional plan-review
intent. The answer holds one item per question: the selected labels and optional custom text.

Answer rules (the spec's): single-select — a custom answer overrides the choice and
``selected`` is empty; multi-select — custom may supplement the labels; an item with nothing
selected and no custom text is a skipped question in an otherwise completed batch.

Free text: every question with options also takes free text (an "Other" answer), except a
question with a confirm intent (``ConfirmIntent``): a yes/no on the whole batch, answered by
its options only; choosing any option but its ``approve`` one declines the batch alone (the
other questions need no answer, and their answers are dropped, never passed on).

    >>> q = Question(id="lang", question="Which language?", options=("Python", "R"))
    >>> q.options[0]
    QuestionOption(label='Python', description=None)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from ._errors import UserInteractionError


@dataclass(frozen=True)
class QuestionOption:
    """One selectable answer: ``label`` is shown and is also the value the caller receives."""

    label: str
    description: str | None = None

    @classmethod
    def coerce(cls, value: QuestionOption | str | Mapping[str, Any]) -> QuestionOption:
        if isinstance(value, QuestionOption):
            return value
        if isinstance(value, str):
            return cls(value)
        if isinstance(value, Mapping) and isinstance(value.get("label"), str):
            return cls(value["label"], value.get("description"))
        raise UserInteractionError(
            f"An option must be a label (str) or {{'label': ..., 'description': ...}}, "
            f"not {value!r:.80}.", "INVALID_QUESTION")


@dataclass(frozen=True)
class PlanReviewIntent:
    """The question is a plan for review: ``detail`` holds the plan; ``approve`` names the
    option that approves it (every other option declines)."""

    approve: str
    kind: Literal["plan-review"] = "plan-review"


@dataclass(frozen=True)
class ConfirmIntent:
    """The question confirms the whole batch: ``approve`` names the option that sends the
    other answers; every other option declines, alone (the other answers are dropped). It
    takes no free text.

        >>> ConfirmIntent(approve="Send").kind
        'confirm'
    """

    approve: str
    kind: Literal["confirm"] = "confirm"


Intent = PlanReviewIntent | ConfirmIntent


@dataclass(frozen=True)
class Question:
    """One question of a request.

    Args:
        id: stable, caller-chosen; echoed in the answer.
        question: the text to show.
        detail: supporting text shown with the question, never as an option.
        header: a short heading or group label.
        options: the choices (labels, or QuestionOption); none means free text only.
        multi_select: whether several options may be chosen.
        intent: a presentation intent such as ``PlanReviewIntent(approve="Approve")`` or
            ``ConfirmIntent(approve="Send")``.
    """

    id: str
    question: str
    detail: str | None = None
    header: str | None = None
    options: tuple[QuestionOption, ...] = ()
    multi_select: bool = False
    intent: Intent | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "options", tuple(QuestionOption.coerce(o) for o in self.options))
        if not isinstance(self.id, str) or not self.id:
            raise UserInteractionError(f"Every question needs a non-empty id (str); got "
                                       f"{self.id!r:.40}.", "INVALID_QUESTION")
        if not isinstance(self.question, str) or not self.question.strip():
            raise UserInteractionError(f"Question {self.id!r} has no question text.",
                                       "INVALID_QUESTION")

    @classmethod
    def coerce(cls, value: Question | Mapping[str, Any]) -> Question:
        """A Question from itself or a dict (spec keys such as ``multiSelect`` work too)."""
        if isinstance(value, Question):
            return value
        if not isinstance(value, Mapping):
            raise UserInteractionError(f"A question must be a Question or a dict, not "
                                       f"{type(value).__name__}.", "INVALID_QUESTION")
        intent = value.get("intent")
        if isinstance(intent, Mapping):
            kind = intent.get("kind", "plan-review")
            if kind == "plan-review":
                intent = PlanReviewIntent(approve=str(intent.get("approve", "")))
            elif kind == "confirm":
                intent = ConfirmIntent(approve=str(intent.get("approve", "")))
            else:
                intent = None  # an intent this UI does not know: the generic flow
        return cls(
            id=value.get("id"),  # type: ignore[arg-type]
            question=value.get("question"),  # type: ignore[arg-type]
            detail=value.get("detail"),
            header=value.get("header"),
            options=tuple(value.get("options") or ()),
            multi_select=bool(value.get("multi_select", value.get("multiSelect", False))),
            intent=intent,
        )

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(o.label for o in self.options)

    @property
    def confirms(self) -> bool:
        """Whether this question confirms the batch (a ``ConfirmIntent``: no free text)."""
        return isinstance(self.intent, ConfirmIntent)

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form for a front end."""
        return {
            "id": self.id, "question": self.question, "detail": self.detail,
            "header": self.header, "multi_select": self.multi_select,
            "options": [{"label": o.label, "description": o.description} for o in self.options],
            "intent": ({"kind": self.intent.kind, "approve": self.intent.approve}
                       if self.intent else None),
        }


@dataclass(frozen=True)
class AnswerItem:
    """The answer to one question: selected option labels and optional custom text."""

    id: str
    selected: tuple[str, ...] = ()
    custom: str | None = None

    @property
    def skipped(self) -> bool:
        """Nothing selected and no custom text: the person skipped this question."""
        return not self.selected and not self.custom

    @classmethod
    def coerce(cls, value: AnswerItem | Mapping[str, Any]) -> AnswerItem:
        if isinstance(value, AnswerItem):
            return value
        if not isinstance(value, Mapping) or not isinstance(value.get("id"), str):
            raise UserInteractionError(f"An answer item needs an 'id'; got {value!r:.80}.",
                                       "INVALID_ANSWER")
        selected = value.get("selected") or ()
        if isinstance(selected, str):
            selected = (selected,)
        custom = value.get("custom")
        return cls(value["id"], tuple(str(s) for s in selected),
                   custom if isinstance(custom, str) and custom != "" else None)


@dataclass(frozen=True)
class Answer:
    """The person's answer: one item per question, in the request's order.

        >>> from dial_notebook.interaction import AnswerItem
        >>> Answer((AnswerItem("lang", ("Python",)),))["lang"].selected
        ('Python',)
    """

    answers: tuple[AnswerItem, ...] = field(default_factory=tuple)

    def __getitem__(self, question_id: str) -> AnswerItem:
        for item in self.answers:
            if item.id == question_id:
                return item
        raise KeyError(question_id)

    def __iter__(self) -> Iterator[AnswerItem]:
        return iter(self.answers)

    def to_dict(self) -> dict[str, Any]:
        return {"answers": [
            {"id": a.id, "selected": list(a.selected),
             **({"custom": a.custom} if a.custom is not None else {})}
            for a in self.answers
        ]}


@dataclass(frozen=True)
class AskRequest:
    """What a provider receives: the questions, and the signal whose setting aborts them."""

    questions: tuple[Question, ...]
    signal: Any = None  # asyncio.Event | None

    def to_dict(self) -> dict[str, Any]:
        return {"questions": [q.to_dict() for q in self.questions]}


def check_questions(questions: Iterable[Question | Mapping[str, Any]]) -> tuple[Question, ...]:
    """The checks the spec puts in ``ask()``, made before anything is shown."""
    if isinstance(questions, Question | Mapping | str):
        raise UserInteractionError("ask_user() takes a list of questions, not one question.",
                                   "INVALID_QUESTION")
    qs = tuple(Question.coerce(q) for q in questions)
    if not qs:
        raise UserInteractionError("ask_user() needs at least one question.", "EMPTY_QUESTIONS")
    seen: set[str] = set()
    for q in qs:
        if q.id in seen:
            raise UserInteractionError(
                f"Two questions have the id {q.id!r}; give each question its own id so its "
                "answer can be routed back.", "DUPLICATE_QUESTION_ID")
        seen.add(q.id)
        if len(set(q.labels)) != len(q.labels):
            raise UserInteractionError(
                f"Question {q.id!r} offers the same option label twice; labels are the values "
                "the answer carries, so each must be unique.", "INVALID_QUESTION")
        if q.intent is not None:
            if q.intent.kind == "plan-review" and not (q.detail or "").strip():
                raise UserInteractionError(
                    f"Question {q.id!r} has a plan-review intent but no detail: put the plan "
                    "in `detail`.", "INVALID_INTENT")
            if q.intent.approve not in q.labels:
                raise UserInteractionError(
                    f"Question {q.id!r}: the intent approves with {q.intent.approve!r}, which is "
                    f"not one of its options ({', '.join(map(repr, q.labels)) or 'none'}).",
                    "INVALID_INTENT")
    return qs


def normalise_answer(questions: tuple[Question, ...], answer: Any) -> Answer:
    """The provider's answer held to the spec's rules, one item per question in order."""
    if isinstance(answer, Mapping):
        answer = Answer(tuple(AnswerItem.coerce(a) for a in answer.get("answers", ())))
    if not isinstance(answer, Answer):
        raise UserInteractionError(f"The provider answered with {type(answer).__name__}, not an "
                                   "Answer.", "INVALID_ANSWER")
    by_id = {q.id: q for q in questions}
    given: dict[str, AnswerItem] = {}
    for item in answer.answers:
        q = by_id.get(item.id)
        if q is None:
            raise UserInteractionError(f"The provider answered a question {item.id!r} that was "
                                       "not asked.", "INVALID_ANSWER")
        unknown = [s for s in item.selected if s not in q.labels]
        if unknown:
            raise UserInteractionError(
                f"The answer to {q.id!r} selects {unknown[0]!r}, which is not one of its "
                "options.", "INVALID_ANSWER")
        if q.confirms and item.custom:
            raise UserInteractionError(
                f"Question {q.id!r} confirms the batch with its options only; it takes no "
                "free text.", "INVALID_ANSWER")
        if not q.multi_select:
            if item.custom:  # a custom answer overrides the choice
                item = AnswerItem(item.id, (), item.custom)
            elif len(item.selected) > 1:
                raise UserInteractionError(
                    f"Question {q.id!r} is single-select, but {len(item.selected)} options were "
                    "selected.", "INVALID_ANSWER")
        given[q.id] = item
    declined = [q.id for q in questions if q.confirms and q.id in given and given[q.id].selected
                and given[q.id].selected[0] != q.intent.approve]  # type: ignore[union-attr]
    if declined:  # the batch declined: the other answers are dropped, never passed on
        given = {q.id: given[q.id] for q in questions if q.id in declined}
    return Answer(tuple(given.get(q.id, AnswerItem(q.id)) for q in questions))
