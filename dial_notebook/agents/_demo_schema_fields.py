"""What the person's words give the fields of a schema payload: quoted text, file names and
paths, and values the person set beforehand — read against the action's JSON Schema only
(field names, titles, types), never against a particular domain.

The schema demo (``_demo_schema.py``) uses it to fill payloads as a model would from "add
notes.txt" or "commit with message 'Add the notes'":

    read_said(words)              Said: the words left to name the action (quotes and file-like
                                  words taken out), the quoted texts (each with the words before
                                  it), the file-like words (``notes.txt``, ``src/app.py``,
                                  ``/tmp/repo``)
    fields_from(said, schema, fixed, free)
        fixed values ─▶ every field of that name the schema has
        a quote ─▶ the field the words just before it name ("message 'x'", "branch name 'x'"),
                   else the first free-text field not yet filled (required ones first)
        free text (after a colon) ─▶ the same as a quote
        file-like words ─▶ the field named for files (then paths, folders): all of them in an
                   array of strings, the first in a string
        a value the field's type cannot take, or no field for it ─▶ left over (said so)

    >>> said = read_said("commit with message 'Add the notes'")
    >>> said.head, said.quoted
    ('commit with message', [('commit with message', 'Add the notes')])
    >>> schema = {"type": "object", "required": ["repo", "message"], "properties": {
    ...     "repo": {"type": "string"}, "message": {"type": "string"}}}
    >>> fields_from(said, schema, {"repo": "/r"}).values
    {'repo': '/r', 'message': 'Add the notes'}
    >>> files = {"type": "object", "properties": {"files": {"type": "array",
    ...                                                      "items": {"type": "string"}}}}
    >>> fields_from(read_said("add notes.txt and todo.md"), files).values
    {'files': ['notes.txt', 'todo.md']}
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ._demo_schema_words import normal, split_request, token_set

#: Quoted text: '…', "…", “…”, ‘…’, opening at the start or after a space (or : = ( ),
#: closing before the end, a space or punctuation; an apostrophe inside a word opens nothing.
_QUOTED = re.compile(
    r"(?:(?<=^)|(?<=[\s:=(]))(?:'(?P<a>[^']+)'|\"(?P<b>[^\"]+)\"|“(?P<c>[^”]+)”|"
    r"‘(?P<d>[^’]+)’)(?=$|[\s.,;:!?)])")
#: A file-like word: a name with an extension (a letter first: not 3.5), or a path with a slash.
_FILE = re.compile(
    r"(?<![\w/.~-])(?:(?:~|\.{1,2})?/?[\w.-]*\w/)*[\w-][\w.-]*\.[A-Za-z][A-Za-z0-9]{0,7}"
    r"(?![\w/])|(?<![\w/.~-])(?:~|\.{1,2})?/[\w.~-]+(?:/[\w.~-]+)*/?")
#: "e.g", "i.e": a letter, a dot, a letter is no file name.
_ABBREVIATION = re.compile(r"[A-Za-z]\.[A-Za-z]")
#: Words a field's name may be followed by before its value ("message as 'x'").
_LINKS = {"as", "to", "of", "is", "be", "=", "with", "set", "called", "named"}
#: Field-name words that say a field takes files, then paths or folders.
_FILE_WORDS = {"file", "filename", "filepath", "document", "attachment"}
_PATH_WORDS = {"path", "dir", "directory", "folder", "location"}
#: Most quoted texts and file-like words read from one request.
MAX_VALUES = 20


@dataclass
class Said:
    """The person's words, read: ``head`` names the action; ``quoted`` holds (the words
    before it, the quoted text); ``files`` the file-like words."""

    head: str
    quoted: list[tuple[str, str]] = field(default_factory=list)
    files: list[str] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.quoted or self.files)


@dataclass
class Filled:
    """What the words gave: ``values`` by field (``fixed`` ones included), ``yours`` the fields
    filled from the words, ``left`` what no field could take."""

    values: dict[str, Any] = field(default_factory=dict)
    yours: list[str] = field(default_factory=list)
    left: list[str] = field(default_factory=list)


def read_said(words: str) -> Said:
    """The words read into quotes, file-like words and the rest (see the module table).

        >>> read_said("add src/app.py, don't 'wait'").files
        ['src/app.py']
    """
    quoted: list[tuple[str, str]] = []
    rest: list[str] = []
    start = 0
    for match in _QUOTED.finditer(words):
        if len(quoted) >= MAX_VALUES:
            break
        text = next(g for g in match.groups() if g is not None).strip()
        before = " ".join((*rest, words[start:match.start()])).strip(" :=(")
        if text:
            quoted.append((_plain(before), text))
        rest.append(words[start:match.start()])
        start = match.end()
    rest.append(words[start:])
    unquoted = " ".join(rest)
    found = [m for m in _FILE.finditer(unquoted) if not _ABBREVIATION.fullmatch(m.group(0))]
    found = found[:MAX_VALUES]
    files = [m.group(0) for m in found]
    head = unquoted
    for match in reversed(found):
        head = head[:match.start()] + " " + head[match.end():]
    return Said(head=_plain(head), quoted=quoted, files=files)


def read_request(text: str) -> tuple[Said, str | None]:
    """A request read for field values, and its free text: quotes anywhere; then, out of
    quotes, the free text after a colon (kept whole) and the file-like words before it.

        >>> read_request("commit: fix notes.txt")
        (Said(head='commit', quoted=[], files=[]), 'fix notes.txt')
    """
    said = read_said(text)
    if said.quoted:
        said.head, _, free = split_request(said.head)
        return said, free
    head, _, free = split_request(text)
    return read_said(head), free


def fixes(schema: Any, fixed: Mapping[str, Any]) -> bool:
    """Whether an object ``schema`` has a field that ``fixed`` gives a value."""
    properties = schema.get("properties") if isinstance(schema, Mapping) else None
    return isinstance(properties, Mapping) and any(key in properties for key in fixed)


def fields_from(said: Said, schema: Any, fixed: Mapping[str, Any] | None = None,
                free: str | None = None) -> Filled:
    """The payload values ``said`` (and ``free``, text after a colon) give an object
    ``schema``'s properties, with ``fixed`` values first (see the module table)."""
    filled = Filled()
    properties = schema.get("properties") if isinstance(schema, Mapping) else None
    if not isinstance(properties, Mapping):
        filled.left = [text for _, text in said.quoted] + said.files + ([free] if free else [])
        return filled
    required = [r for r in schema.get("required") or [] if r in properties]
    order = [*required, *(p for p in properties if p not in required)]
    for key, value in (fixed or {}).items():
        if key in properties:
            filled.values[key] = value
    texts = [*said.quoted, *([(said.head, free)] if free else [])]
    for before, text in texts:
        key = _named(before, properties, filled.values) or _text_field(
            order, properties, filled.values)
        _put(filled, key, properties, text)
    if said.files:
        key = _file_field(order, properties, filled.values)
        if key is None:
            filled.left += said.files
        elif _kind(properties[key]) == "array":
            _put(filled, key, properties, said.files)
        else:
            _put(filled, key, properties, said.files[0])
            filled.left += said.files[1:]
    return filled


def _plain(text: str) -> str:
    return " ".join(text.replace(",", " ").split()).strip(" :=,;")


def _names(key: str, prop: Any) -> list[str]:
    names = [normal(key)]
    if isinstance(prop, Mapping) and isinstance(prop.get("title"), str):
        names.append(normal(prop["title"]))
    return [n for n in names if n]


def _named(before: str, properties: Mapping[str, Any], taken: Mapping[str, Any]) -> str | None:
    """The field the words just before a value name (the longest name that ends them)."""
    words = normal(before).split()
    while words and words[-1] in _LINKS:
        words.pop()
    said = " ".join(words)
    best: tuple[int, str] | None = None
    for key, prop in properties.items():
        if key in taken:
            continue
        for name in _names(key, prop):
            if (said == name or said.endswith(" " + name)) and (
                    best is None or len(name) > best[0]):
                best = (len(name), key)
    return best[1] if best else None


def _kind(prop: Any) -> str | None:
    kind = prop.get("type") if isinstance(prop, Mapping) else None
    if isinstance(kind, list):
        kinds = [k for k in kind if k != "null"]
        kind = kinds[0] if len(kinds) == 1 else None
    return kind if isinstance(kind, str) else None


def _free_text(prop: Any) -> bool:
    return _kind(prop) == "string" and not any(
        word in prop for word in ("enum", "const", "format", "pattern", "$ref"))


def _text_field(order: list[str], properties: Mapping[str, Any],
                taken: Mapping[str, Any]) -> str | None:
    return next((k for k in order if k not in taken and _free_text(properties[k])), None)


def _file_field(order: list[str], properties: Mapping[str, Any],
                taken: Mapping[str, Any]) -> str | None:
    ranked = []
    for index, key in enumerate(order):
        prop = properties[key]
        kind = _kind(prop)
        items = prop.get("items") if isinstance(prop, Mapping) else None
        if key in taken or not (_free_text(prop) or (kind == "array" and _free_text(items))):
            continue
        words = set().union(*(token_set(n) for n in _names(key, prop)))
        rank = 0 if words & _FILE_WORDS else 1 if words & _PATH_WORDS else None
        if rank is not None:
            ranked.append((rank, kind != "array", index, key))
    return min(ranked)[3] if ranked else None


def _put(filled: Filled, key: str | None, properties: Mapping[str, Any], value: Any) -> None:
    texts = value if isinstance(value, list) else [value]
    typed = _typed(value, properties[key]) if key is not None else None
    if typed is None:
        filled.left += texts
        return
    filled.values[key] = typed  # type: ignore[index]
    filled.yours.append(key)  # type: ignore[arg-type]


def _typed(value: Any, prop: Any) -> Any:
    """``value`` (text, or a list of texts) as the field's type takes it, else None."""
    kind = _kind(prop)
    if kind == "array":
        items = prop.get("items")
        values = value if isinstance(value, list) else [value]
        typed = [_typed(v, items) for v in values]
        return typed if all(t is not None for t in typed) else None
    if isinstance(value, list):
        return None
    if kind in (None, "string"):
        return value
    text = value.strip().lower()
    if kind == "integer" and re.fullmatch(r"[+-]?\d{1,15}", text):
        return int(text)
    if kind == "number" and re.fullmatch(r"[+-]?\d{1,15}(?:\.\d{1,15})?", text):
        return float(text)
    if kind == "boolean" and text in {"yes", "true", "no", "false"}:
        return text in {"yes", "true"}
    return None
