"""A server's form (an elicitation's flat ``requestedSchema``) read into questions, and the
person's answers read back into typed values.

Everything here is untrusted server text: a form is refused (``Refused``, with why) unless it is
a flat object of at most ``MAX_FIELDS`` text / number / integer / yes-no / choice fields with
no ``$ref``; every string shown is cut to its bound in ``MAX_TEXT`` with hidden characters
(controls, direction overrides, zero-width) removed. Text stays text: nothing here makes HTML.

    >>> [field] = read_form({"type": "object", "properties": {"n": {"type": "integer"}}})
    >>> field.kind, field.value(None, "3")
    ('integer', (3, None))
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from referencing import Registry

from ...dial import HIDDEN_CHARACTERS
from .._validation import check_schema

#: How many answers one form may ask for.
MAX_FIELDS = 50
#: How many options one question may offer.
MAX_OPTIONS = 100
#: How long each kind of server text may be, once cleaned (characters).
MAX_TEXT = {"name": 80, "title": 200, "label": 120, "description": 1000, "message": 2000,
            "url": 2000, "transcript": 6000, "why": 300}
#: The labels of a yes/no question.
YES, NO = "Yes", "No"

_PRIMITIVE = {"string": "text", "number": "a number", "integer": "a whole number",
              "boolean": "yes or no"}
# Keywords that nest a schema inside a field (or combine schemas): a form has none of them.
_NESTING = ("properties", "patternProperties", "additionalProperties", "items", "prefixItems",
            "contains", "allOf", "anyOf", "oneOf", "not", "if", "then", "else",
            "dependentSchemas", "$defs", "definitions")
_FORMATS = {"date": "a date (YYYY-MM-DD)", "date-time": "a date and time (ISO 8601)",
            "email": "an email address", "uri": "a web address"}
_SKIP = object()  # an answer left empty


class Refused(ValueError):
    """The form cannot be shown as questions; the message says why, in words."""


def clean(text: Any, kind: str, *, lines: bool = False) -> str:
    """Server text made safe to show: hidden characters removed, whitespace tidied (one line
    unless ``lines``), cut to ``MAX_TEXT[kind]`` with an ellipsis.

        >>> clean("Sure\\u202e?\\x1b[0m  yes", "title")
        'Sure?[0m yes'
    """
    limit = MAX_TEXT[kind]
    text = text if isinstance(text, str) else ""
    text = HIDDEN_CHARACTERS.sub("", text[: limit * 2])  # cut first: a megabyte costs nothing
    if lines:
        rows = [" ".join(row.split()) for row in text.splitlines()]
        text = "\n".join(rows).strip("\n")
        while "\n\n\n" in text:
            text = text.replace("\n\n\n", "\n\n")
    else:
        text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _shown(name: str) -> str:
    return repr(clean(name, "title") or "(no name)")


@dataclass(frozen=True)
class Field:
    """One field of a form: its name (the answer's key), kind and how it is asked."""

    name: str
    qid: str
    kind: str  # "string" | "number" | "integer" | "boolean" | "choice" | "choices"
    required: bool
    question: str
    detail: str
    labels: dict[str, Any] = field(default_factory=dict)  # option label -> value
    default: Any = _SKIP

    def value(self, selected: tuple[str, ...] | None, custom: str | None) -> tuple[Any, str | None]:
        """``(value, None)``, ``(_SKIP, None)`` for an empty answer, or ``(None, problem)``."""
        selected = tuple(selected or ())
        text = (custom or "").strip()
        if not selected and not text:
            return self.default, None
        if self.kind == "choices":
            values = [self.labels[s] for s in selected if s in self.labels]
            extra = [t.strip() for t in text.split(",") if t.strip()] if text else []
            if any(t not in self.labels.values() for t in extra):
                return None, f"{_shown(self.name)} must be among its options"
            return values + [t for t in extra if t not in values], None
        if self.labels:  # choice, boolean
            if selected:
                return self.labels[selected[0]], None
            by_text = {str(v).lower(): v for v in self.labels.values()}
            by_text.update({label.lower(): v for label, v in self.labels.items()})
            if self.kind == "boolean":
                by_text.update({"true": True, "false": False, "y": True, "n": False})
            if text.lower() in by_text:
                return by_text[text.lower()], None
            return None, f"{_shown(self.name)} must be one of its options"
        if self.kind == "integer":
            try:
                return int(text), None
            except ValueError:
                return None, f"{_shown(self.name)} must be a whole number"
        if self.kind == "number":
            try:
                number = float(text)
            except ValueError:
                number = math.nan
            if not math.isfinite(number):
                return None, f"{_shown(self.name)} must be a number"
            return (int(number) if number.is_integer() and "." not in text else number), None
        return custom, None

    def as_question(self, header: str, note: str = "") -> dict[str, Any]:
        """The question for the ask seam (``note``: said above the field's own detail)."""
        detail = "\n\n".join(part for part in (note, self.detail) if part)
        return {"id": self.qid, "header": header, "question": self.question,
                "detail": detail or None, "options": list(self.labels),
                "multi_select": self.kind == "choices"}


def _refs(schema: Any) -> bool:
    """Whether a ``$ref`` / ``$dynamicRef`` stands anywhere in ``schema`` (walked without
    recursion)."""
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if "$ref" in node or "$dynamicRef" in node:
                return True
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return False


def _unique(labels: list[str]) -> list[str]:
    seen: set[str] = set()
    out = []
    for label in labels:
        label = label or "(empty)"
        candidate, n = label, 2
        while candidate in seen:
            candidate, n = f"{label} ({n})", n + 1
        seen.add(candidate)
        out.append(candidate)
    return out


def _options(name: str, prop: dict[str, Any], items: Any) -> dict[str, Any]:
    """Option label -> value for a choice (``enum`` [+ ``enumNames``], or ``oneOf`` /
    ``anyOf`` of ``{const, title}``)."""
    source = items if isinstance(items, dict) else prop
    titled = source.get("oneOf", source.get("anyOf"))
    if isinstance(titled, list):
        values = [o.get("const") if isinstance(o, dict) else None for o in titled]
        titles = [o.get("title", o.get("const")) if isinstance(o, dict) else None for o in titled]
    else:
        values = source.get("enum")
        names = source.get("enumNames")
        titles = names if isinstance(names, list) and len(names) == len(values or ()) else values
    if not isinstance(values, list) or not values or len(values) > MAX_OPTIONS:
        raise Refused(f"answer {_shown(name)} offers {len(values) if isinstance(values, list) else 'no'}"
                      f" options (a choice holds 1 to {MAX_OPTIONS} options)")
    if not all(isinstance(v, str) for v in values) or len(set(values)) != len(values):
        raise Refused(f"answer {_shown(name)} has options that are not distinct strings")
    labels = _unique([clean(t if isinstance(t, str) else v, "label") for t, v in
                      zip(titles, values, strict=True)])
    return dict(zip(labels, values, strict=True))


def _describe(prop: dict[str, Any], kind: str, required: bool, default: Any) -> str:
    """What the person should type or pick, in words (the field's own detail)."""
    said = []
    if kind in ("integer", "number"):
        low, high = prop.get("minimum"), prop.get("maximum")
        what = _PRIMITIVE[kind].capitalize()
        if low is not None and high is not None:
            what += f" from {low} to {high}"
        elif low is not None or high is not None:
            what += f" of at least {low}" if low is not None else f" of at most {high}"
        said.append(what + ".")
    elif kind == "string":
        if prop.get("format") in _FORMATS:
            said.append(_FORMATS[prop["format"]].capitalize() + ".")
        if isinstance(prop.get("maxLength"), int):
            said.append(f"At most {prop['maxLength']} characters.")
    elif kind == "choices":
        said.append("Pick any number of them.")
    if default is not _SKIP:
        said.append(f"Left empty, it is {clean(str(default), 'label')}.")
    elif not required:
        said.append("Optional: leave it empty to skip it.")
    return " ".join(said)


def _field(index: int, name: str, prop: Any, required: bool) -> Field:
    if not isinstance(prop, dict):
        raise Refused(f"answer {_shown(name)} has no schema")
    kind = prop.get("type") if isinstance(prop.get("type"), str) else None
    items = prop.get("items")
    if kind == "array" and isinstance(items, dict) and items.get("type", "string") == "string" \
            and not any(k in items for k in ("properties", "items")):
        if not any(k in items for k in ("enum", "oneOf", "anyOf")):
            raise Refused(f"answer {_shown(name)} is a list of free text; a form's lists are "
                          "choices among options")
        labels, kind = _options(name, prop, items), "choices"
    elif kind == "string" and ("enum" in prop or "oneOf" in prop):
        labels, kind = _options(name, prop, None), "choice"
    elif kind == "boolean":
        labels = {YES: True, NO: False}
    elif kind in _PRIMITIVE:
        labels = {}
    elif kind in ("object", "array"):
        raise Refused(f"answer {_shown(name)} is nested (an {kind} inside the form); a form "
                      "is flat")
    else:
        raise Refused(f"answer {_shown(name)} is of type {clean(repr(prop.get('type')), 'label')};"
                      " a form holds text, numbers, yes/no and choices only")
    nested = [k for k in _NESTING if k in prop and not (
        (k == "items" and kind == "choices") or (k == "oneOf" and kind == "choice"))]
    if nested:
        raise Refused(f"answer {_shown(name)} is nested ({nested[0]}); a form is flat")
    default = prop.get("default", _SKIP)
    title = clean(prop.get("title"), "title")
    description = clean(prop.get("description"), "description", lines=True)
    question = title or description or clean(name, "title") or f"Answer {index}"
    own = description if title and description else ""
    hint = _describe(prop, kind, required, default)
    detail = "\n\n".join(part for part in (own, hint) if part)
    return Field(name, f"field-{index}", kind, required, question, detail, labels, default)


def read_form(schema: Any) -> list[Field]:
    """The fields of a flat ``requestedSchema``, in order; ``Refused`` says why not."""
    if not isinstance(schema, dict) or schema.get("type") != "object" or not isinstance(
            schema.get("properties"), dict):
        raise Refused("the form is not an object with properties")
    properties: dict[str, Any] = schema["properties"]
    if len(properties) > MAX_FIELDS:
        raise Refused(f"it asks for {len(properties)} answers; a form may ask for at most "
                      f"{MAX_FIELDS}")
    if _refs(schema):
        raise Refused("it holds a $ref; a form is flat, and references (remote ones above all) "
                      "are never followed")
    combined = [k for k in _NESTING if k in schema and k not in ("properties",
                                                                  "additionalProperties")]
    if combined:
        raise Refused(f"it combines schemas ({combined[0]}); a form is flat")
    required = schema.get("required", [])
    if not isinstance(required, list) or not all(isinstance(r, str) for r in required):
        raise Refused("its required list is not a list of names")
    fields = [_field(i, name, prop, name in required)
              for i, (name, prop) in enumerate(properties.items(), 1)]
    try:
        check_schema(schema, Registry())
    except ValueError as error:
        raise Refused(clean(str(error), "why")) from None
    return fields


def answers_of(fields: list[Field], answer: Any) -> tuple[dict[str, Any], list[dict[str, str]]]:
    """The typed values the person gave for ``fields`` (empty ones left out) and the problems
    (``{'field', 'message'}``) of those that could not be read."""
    content: dict[str, Any] = {}
    problems = []
    for f in fields:
        try:
            item = answer[f.qid]
        except (KeyError, TypeError):
            selected, custom = (), None
        else:
            selected, custom = getattr(item, "selected", ()), getattr(item, "custom", None)
        value, problem = f.value(selected, custom)
        if problem:
            problems.append({"field": f.name, "message": problem})
        elif value is not _SKIP:
            content[f.name] = value
    return content, problems
