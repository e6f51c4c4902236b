"""The ask-the-person seam (spec/user-interaction.md): questions, answers, providers.

Any code in the notebook — a domain action, a tool, a plugin — asks the person through
``ask_user`` and awaits the answer; the active provider (the notebook widget, a console, a
script) shows the questions.

An agent's ``<dial-ask>`` does not come through here, by design: it is a speech act of the
conversation, put to the conversation's human (``human.answer``, a ``runtime.PendingAsk``),
shown inline where it was asked, and its answer is the person's words in the next message.
``ask_user`` is for questions from code outside the conversation, batched, with ids, whose
answers go back to that code. The notebook widget draws both, with the same option rows.

    >>> import asyncio
    >>> with use_provider(ScriptedProvider([{"size": ["S", "M"]}])):
    ...     answer = asyncio.run(ask_user([Question(id="size", question="Sizes?",
    ...                                             options=("S", "M", "L"), multi_select=True)]))
    >>> answer["size"].selected
    ('S', 'M')
"""

from .. import _public
from ._ask import ask_user
from ._errors import CODES, UserInteractionError
from ._providers import ConsoleProvider, ScriptedProvider
from ._registry import Provider, ProviderHandle, active_provider, register_provider, use_provider
from ._shapes import (
    Answer,
    AnswerItem,
    AskRequest,
    ConfirmIntent,
    PlanReviewIntent,
    Question,
    QuestionOption,
    check_questions,
    normalise_answer,
)

# exported at the package's top too: shown there as dial_notebook.X
_public.shown_as_top_level(Answer, ConsoleProvider, Question, ScriptedProvider, UserInteractionError)

__all__ = [
    "CODES",
    "Answer",
    "AnswerItem",
    "AskRequest",
    "ConfirmIntent",
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
