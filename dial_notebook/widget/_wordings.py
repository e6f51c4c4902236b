"""The words the static copy and the export draw the conversation in, read from ``wordings.json``:
the one file the widget's front end takes its words from too (js/src/text.js: ``words``), so a
status label or a sentence is changed in one place for every renderer.

    wordings.json ──▶ STATUS_LABEL  the chip on a card or a step: 'done' → 'Done'
                  └─▶ words(key, **values)  a sentence, its {names} filled in: the copy's own
                                            wording where the two differ ({widget, copy})

    >>> STATUS_LABEL["pending"]
    'Waiting for you'
    >>> words("turn-limit", turns="8")
    'Stopped after 8 turns (turn limit).'
"""

from __future__ import annotations

import json
import re
from importlib import resources
from typing import Any

__all__ = ["STATUS_LABEL", "WORDINGS", "words"]

#: The whole file: ``status`` (labels by status) and ``words`` (sentences by key).
WORDINGS: dict[str, Any] = json.loads(
    resources.files(__package__).joinpath("wordings.json").read_text(encoding="utf-8"))

#: A status as a card's or a step's chip says it.
STATUS_LABEL: dict[str, str] = dict(WORDINGS["status"])

_FIELD = re.compile(r"\{(\w+)\}")


def words(key: str, **values: str) -> str:
    """The sentence ``key`` as the copy says it, each ``{name}`` replaced by ``values[name]``
    (a value is put in as it is: braces in it are not read as a template).

        >>> words("hint", hint="{x}")
        'Hint: {x}'
    """
    wording = WORDINGS["words"][key]
    template = wording["copy"] if isinstance(wording, dict) else wording
    return _FIELD.sub(lambda match: values[match.group(1)], template)
