"""UserInteractionError: every way asking the person can fail, each with a stable ``code``."""

from __future__ import annotations

#: The stable codes, and what each means.
CODES = {
    "EMPTY_QUESTIONS": "the request holds no question",
    "INVALID_INTENT": "an intent's approve label is not an option, or a plan review has no detail",
    "DUPLICATE_QUESTION_ID": "two questions of one request share an id",
    "INVALID_QUESTION": "a question is malformed (no id, no text, bad options)",
    "NO_PROVIDER": "no provider is registered to show the questions",
    "PROVIDER_ACTIVE": "a provider is already registered; dispose of it first",
    "ASK_ABORTED": "the request was aborted by its signal",
    "CANCELLED": "the person closed or cancelled the questions",
    "INVALID_ANSWER": "the provider answered with ids or labels the request does not have",
}


class UserInteractionError(Exception):
    """Asking the person failed; ``code`` is one of ``CODES`` and stays stable.

        >>> UserInteractionError("No provider.", "NO_PROVIDER").code
        'NO_PROVIDER'
    """

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code

    def __repr__(self) -> str:
        return f"UserInteractionError({str(self)!r}, code={self.code!r})"
