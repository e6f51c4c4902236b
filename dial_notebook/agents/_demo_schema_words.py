"""The words of the schema demo's replies: reading a request, and quoting what the domain said.

Plain functions of text (no brain, no domain): the schema brain (``_demo_schema.py``) and its
outcome answers (``_demo_schema_outcomes.py``) use them. Requests are read case-, space- and
punctuation-blind; quotes are cut to ``MAX_QUOTE`` characters.

    >>> split_request('add todo: buy milk'), split_request('add-todo {"title": "x"}')
    (('add todo', None, 'buy milk'), ('add-todo', '{"title": "x"}', None))
    >>> sorted(token_set(normal("Add the Todos")))
    ['add', 'todo']
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from ._schema_payloads import Made

#: Words that name no action (left out when a request is matched with the actions).
STOP_WORDS = {"a", "an", "the", "please", "me", "my", "some", "to", "of", "for", "i", "want",
              "would", "like", "can", "you", "could", "let", "us", "lets", "let's", "with",
              "and", "in", "on", "it", "this", "that", "do", "propose", "try", "one", "new",
              "is", "are", "be", "by", "from", "as", "at", "or", "its", "it's", "so", "now"}
#: Longest result or payload quoted in a reply.
MAX_QUOTE = 300


def plain_words(text: str) -> str:
    return text.strip().strip("\"'“”‘’").rstrip(".!").strip()


def normal(text: str) -> str:
    """Lower case, ``-`` ``_`` ``.`` ``:`` as spaces, spaces collapsed."""
    return " ".join(re.sub(r"[-_.:/]+", " ", text.lower()).split()).strip(" ?!,;\"'")


def token_set(text: str) -> set[str]:
    words = re.findall(r"[a-z0-9]+", text.lower())
    return {stem(w) for w in words if w not in STOP_WORDS}


def stem(word: str) -> str:
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        return word[:-1]
    return word


def split_request(text: str) -> tuple[str, str | None, str | None]:
    """The request's words, a JSON payload after them (from the first ``{``), or free text
    after a colon."""
    brace = text.find("{")
    colon = text.find(":")
    if brace >= 0 and (colon < 0 or brace < colon or not text[:brace].strip(" :")
                       or text[colon + 1:brace].strip() == ""):
        return text[:brace].strip().rstrip(":").strip(), text[brace:].strip(), None
    if colon >= 0:
        free = text[colon + 1:].strip().strip("\"'“”‘’")
        return text[:colon].strip(), None, free or None
    return text, None, None


def origin(made: Made, free: str | None) -> str:
    """Where a valid payload came from, for the card."""
    action = made.action
    if free is not None and made.text_field and made.text_refused is None:
        text = f"{action} with your words as {made.text_field}"
    elif made.source == "example":
        text = f"{action} from its schema's examples"
    elif made.source == "default":
        text = f"{action} from its schema's default"
    elif made.source == "required":
        text = f"A valid {action} with its required fields only"
    else:
        text = f"A valid {action}, made from its schema"
    if made.source == "required" and made.full_refusal is not None:
        text += f" (with every field, the domain refused it: {domain_said(made.full_refusal)})"
    return text


def domain_said(verdict: Mapping[str, Any]) -> str:
    """What the domain said: its hint, the field and the code."""
    hint = str(verdict.get("hint") or "the payload was refused")
    parts = []
    field = verdict.get("field")
    if field and not re.search(rf"(?<![\w-]){re.escape(str(field))}(?![\w-])", hint):
        parts.append(f"field {field}")
    if verdict.get("code"):
        parts.append(f"code {verdict['code']}")
    return f"“{hint}”" + (f" ({', '.join(parts)})" if parts else "")


#: Longest result quoted in a reply; a longer one is on its card, and the reply says so.
MAX_RESULT_QUOTE = 80


def returned_text(outcome: Mapping[str, Any]) -> str:
    if "result" not in outcome:
        return " It returned nothing."
    text = json.dumps(outcome["result"], ensure_ascii=False, default=str)
    if len(text) > MAX_RESULT_QUOTE:
        return " What it returned is on its card."
    return f" It returned {text}."


def quote(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= MAX_QUOTE else text[:MAX_QUOTE - 1] + "…"


def first_line(description: Any) -> str:
    text = " ".join(str(description or "").split("\n", 1)[0].split())
    if not text:
        return ""
    return " — " + (text if len(text) <= 100 else text[:99] + "…")


def kind_note(action: Mapping[str, Any]) -> str:
    if action.get("handoff"):
        return " (hand-off: opens in its own panel)"
    if not action.get("mutates", True):
        return " (read-only: runs at once)"
    return " (destructive)" if action.get("destructive") else ""


def unstop(text: str) -> str:
    return text.rstrip(" .")


def has_form(schema: Any) -> bool:
    """Whether the widget's editor offers a form (and a JSON tab) for this schema: an object
    schema with properties (after a local ``$ref``), as the front end decides."""
    root = schema
    for _ in range(20):
        ref = root.get("$ref") if isinstance(root, dict) else None
        if not (isinstance(ref, str) and ref.startswith("#/")):
            break
        target: Any = schema
        for part in ref[2:].split("/"):
            target = target.get(part) if isinstance(target, dict) else None
        root = target
    if not isinstance(root, dict):
        return False
    kind = root.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), kind[0] if kind else None)
    if kind is None and "enum" not in root and isinstance(root.get("properties"), dict):
        kind = "object"
    return kind == "object" and isinstance(root.get("properties"), dict)
