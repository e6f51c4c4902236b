"""The ask-the-person seam (spec/user-interaction.md): questions, answers, providers.

Any code in the notebook — a domain action, a tool, the runtime's ``<dial-ask>`` — asks the
person through ``ask_user`` and awaits the answer; the active provider (the notebook widget, a
console, a script) shows the questions.

    >>> import asyncio
    >>> with use_provider(ScriptedProvider([{"size": ["S", "M"]}])):
    ...     answer = asyncio.run(ask_user([Question(id="size", question="Sizes?",
    ...                                             options=("S", "M", "L"), multi_select=True)]))
    >>> answer["size"].selected
    ('S', 'M')
"""

from ._ask import ask_user
from ._errors import CODES, UserInteractionError
from ._providers import ConsoleProvider, ScriptedProvider
from ._registry import Provider, ProviderHandle, active_provider, register_provider, use_provider
from ._shapes import (
    Answer,
    AnswerItem,
    AskRequest,
    PlanReviewIntent,
    Question,
    QuestionOption,
    check_questions,
    normalise_answer,
)

__all__ = [
    "CODES",
    "Answer",
    "AnswerItem",
    "AskRequest",
    "ConsoleProvider",
    "PlanReviewIntent",
    "Provider",
    "ProviderHandle",
    "Question",
    "QuestionOption",
    "ScriptedProvider",
    "UserInteractionError",
    "active_provider",
    "ask_user",
    "check_questions",
    "normalise_answer",
    "register_provider",
    "use_provider",
]
