"""Turning a parsed ``<dial>`` tree into element objects.

Only the attributes the schema lists are read (``el.get`` per name: reading every attribute of
a hostile element is quadratic in lxml). Numbers become ``int`` or ``float``, booleans
``true``/``false`` become ``bool``, ``yield`` becomes a tuple of event names, text is trimmed
and dedented, and payloads are decoded (JSON for JSON types, text otherwise).
"""

from __future__ import annotations

import json
import math
import textwrap
from typing import Any

from lxml import etree

from .._nesting import nesting_depth
from ._elements import (
    ELEMENT_CLASSES,
    Context,
    Element,
    Option,
    Payload,
    Step,
    is_json_type,
)

# Past this many levels json.loads raises RecursionError; refuse earlier, with a message.
MAX_JSON_DEPTH = 200


def clean_text(text: str) -> str:
    """Dedent then trim: the form in which element text and commands are kept."""
    text = text.strip("\n")
    if "\n" not in text:
        return text.strip()
    return textwrap.dedent(text).strip()


def own_text(el: Any) -> str:
    """The element's text without its child elements' text (but with the text between them)."""
    parts = [el.text or ""]
    for child in el:
        parts.append(child.tail or "")
    return clean_text("".join(parts))


def to_number(value: str | None) -> int | float | None:
    """``"3"`` → 3, ``"2.5"`` → 2.5; anything else (or non-finite) → None."""
    if value is None:
        return None
    v = value.strip()
    try:
        return int(v)
    except ValueError:
        pass
    try:
        f = float(v)
    except ValueError:
        return None
    if not math.isfinite(f):
        return None
    return int(f) if f.is_integer() and "e" not in v.lower() and "." not in v else f


def to_bool(value: str | None, default: bool = False) -> bool:
    if value is None:
        return default
    v = value.strip().lower()
    if v in ("true", "1", "yes"):
        return True
    if v in ("false", "0", "no"):
        return False
    return default


def split_events(value: str | None) -> tuple[str, ...]:
    return tuple(value.split()) if value else ()


def decode_json(raw: str) -> tuple[Any, str | None]:
    """(value, None) for valid JSON, else (None, a short reason)."""
    if not raw.strip():
        return None, "The payload is empty."
    try:
        value = json.loads(raw)
    except json.JSONDecodeError as exc:
        return None, f"Not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})."
    except RecursionError:
        return None, f"The payload nests deeper than {MAX_JSON_DEPTH} levels."
    except ValueError as exc:
        return None, f"Not valid JSON: {type(exc).__name__}."
    if nesting_depth(value, MAX_JSON_DEPTH) > MAX_JSON_DEPTH:
        return None, f"The payload nests deeper than {MAX_JSON_DEPTH} levels."
    return value, None


def build_payload(el: Any) -> Payload:
    mime = el.get("type") or "application/json"
    raw = "".join(el.itertext()).strip()
    common = {
        "type": mime,
        "encoding": el.get("encoding") or "utf-8",
        "schema": el.get("schema"),
        "raw": raw,
    }
    if is_json_type(mime):
        value, error = decode_json(raw)
        return Payload(value=value, error=error, **common)
    return Payload(value=raw, **common)


def _child_payload(el: Any) -> Payload | None:
    for child in el:
        if child.tag == "dial-payload":
            return build_payload(child)
    return None


def _base(el: Any, line_offset: int) -> dict[str, Any]:
    return {
        "text": own_text(el),
        "id": el.get("id") or None,
        "observe": el.get("observe") or None,
        "yields": split_events(el.get("yield")),
        "addressed_to": el.get("addressed-to") or None,
        "lang": el.get("lang") or "en",
        "payload": _child_payload(el),
        "line": (el.sourceline or 1) + line_offset,
    }


def _option(el: Any) -> Option:
    return Option(
        value=el.get("value") or "",
        label=clean_text("".join(el.itertext())),
        default=to_bool(el.get("default")),
        disabled=to_bool(el.get("disabled")),
        id=el.get("id") or None,
    )


def _step(el: Any) -> Step:
    return Step(
        command=clean_text("".join(el.itertext())),
        env=el.get("env") or "shell",
        id=el.get("id") or None,
        label=el.get("label") or None,
        observe=el.get("observe") or None,
        yields=split_events(el.get("yield")),
    )


def _context(el: Any) -> Context:
    return Context(payload=_child_payload(el), text=own_text(el))


def build_element(el: Any, line_offset: int = 0) -> Element | None:
    """The element object for a child of ``<dial>``, or None when it is not a DIAL element."""
    cls = ELEMENT_CLASSES.get(el.tag) if isinstance(el.tag, str) else None
    if cls is None:
        return None
    kw = _base(el, line_offset)
    tag = el.tag
    if tag in ("dial-inform", "dial-suggest"):
        kw["render"] = el.get("render") or cls.render  # type: ignore[attr-defined]
    if tag == "dial-ask":
        kw["response_type"] = el.get("response-type") or "text"
        kw["timeout"] = to_number(el.get("timeout"))
        kw["options"] = tuple(_option(c) for c in el if c.tag == "dial-option")
    elif tag == "dial-suggest":
        kw["action"] = el.get("action")
        kw["multi"] = to_bool(el.get("multi"))
    elif tag == "dial-execute":
        kw["steps"] = tuple(_step(c) for c in el if c.tag == "step")
    elif tag == "dial-acknowledge":
        kw["of"] = el.get("of") or None
    elif tag == "dial-declare":
        kw["context_key"] = el.get("context-key")
    elif tag == "dial-delegate":
        kw["to"] = el.get("to")
        kw["intent"] = el.get("intent") or None
        kw["resume"] = to_bool(el.get("resume"))
        ctx = next((c for c in el if c.tag == "dial-context"), None)
        kw["context"] = _context(ctx) if ctx is not None else None
    elif tag == "dial-phatic":
        kw["signal"] = el.get("signal")
        kw["interval"] = to_number(el.get("interval"))
    return cls(**kw)


def build_elements(
    root: Any, line_offset: int = 0, limit: int | None = None
) -> tuple[tuple[Element, ...], tuple[str, ...]]:
    """(elements in order, names of children that are not DIAL elements).

    ``line_offset`` is added to lxml's line numbers (the envelope's first line in the reply,
    minus one) so that ``element.line`` points into the whole reply. ``limit``: read only the
    first so many child elements (the reply's cap, ``MAX_ELEMENTS``); the rest are not built.
    """
    elements: list[Element] = []
    ignored: list[str] = []
    left = -1 if limit is None else limit
    for child in root:
        if not isinstance(child.tag, str):  # comments, processing instructions
            continue
        if left == 0:
            break
        left -= 1
        built = build_element(child, line_offset)
        if built is None:
            ignored.append(child.tag)
        else:
            elements.append(built)
    return tuple(elements), tuple(ignored)


def root_attributes(root: Any) -> dict[str, Any]:
    turn = to_number(root.get("turn"))
    return {
        "version": root.get("version"),
        "actor": root.get("actor"),
        "turn": turn if isinstance(turn, int) else None,
        "session": root.get("session"),
    }


def is_element(node: Any) -> bool:
    return isinstance(node, etree._Element) and isinstance(node.tag, str)
