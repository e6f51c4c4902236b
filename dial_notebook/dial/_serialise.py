"""``to_xml``: valid DIAL from element objects, so that ``parse(to_xml(x)) == x``.

Attributes equal to the schema's defaults are left out; text and attribute values are
escaped; JSON payloads are written compactly with non-ASCII as is.

    >>> from dial_notebook.dial import Inform
    >>> print(to_xml([Inform(text="a < b")]))
    <dial version="0.1" actor="agent">
      <dial-inform>a &lt; b</dial-inform>
    </dial>
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from ._elements import (
    Ask,
    Context,
    Delegate,
    Element,
    Execute,
    Option,
    Payload,
    Step,
)
from ._envelope import Envelope
from ._outcome import escape_attr, escape_text, js_number

_INDENT = "  "


def _attrs(pairs: Iterable[tuple[str, Any]]) -> str:
    out = []
    for name, value in pairs:
        if value is None:
            continue
        if isinstance(value, bool):
            value = "true" if value else "false"
        elif isinstance(value, int | float):
            value = js_number(value)
        elif isinstance(value, tuple):
            if not value:
                continue
            value = " ".join(value)
        out.append(f' {name}="{escape_attr(str(value))}"')
    return "".join(out)


def _payload(p: Payload, depth: int) -> str:
    pad = _INDENT * depth
    if p.is_json and p.error is None:
        body = json.dumps(p.value, ensure_ascii=False, allow_nan=False)
    else:
        body = p.raw if p.is_json else str(p.value if p.value is not None else p.raw)
    attrs = _attrs([
        ("type", p.type),
        ("encoding", None if p.encoding == "utf-8" else p.encoding),
        ("schema", p.schema),
    ])
    return f"{pad}<dial-payload{attrs}>{escape_text(body)}</dial-payload>"


def _leaf(tag: str, attrs: str, text: str, children: list[str], depth: int) -> str:
    pad = _INDENT * depth
    if not children:
        if not text:
            return f"{pad}<{tag}{attrs}/>"
        return f"{pad}<{tag}{attrs}>{escape_text(text)}</{tag}>"
    inner = "\n".join(children)
    # Text goes right after the start tag, unindented, so that its own indentation survives.
    return f"{pad}<{tag}{attrs}>{escape_text(text)}\n{inner}\n{pad}</{tag}>"


def _option(o: Option, depth: int) -> str:
    attrs = _attrs([("id", o.id), ("value", o.value), ("default", o.default or None),
                    ("disabled", o.disabled or None)])
    return _leaf("dial-option", attrs, o.label, [], depth)


def _step(s: Step, depth: int) -> str:
    attrs = _attrs([("env", s.env), ("id", s.id), ("label", s.label),
                    ("observe", s.observe), ("yield", s.yields)])
    return _leaf("step", attrs, s.command, [], depth)


def _context(c: Context, depth: int) -> str:
    children = [_payload(c.payload, depth + 1)] if c.payload else []
    return _leaf("dial-context", "", c.text, children, depth)


def _element_attrs(el: Element) -> list[tuple[str, Any]]:
    pairs: list[tuple[str, Any]] = [
        ("id", el.id), ("observe", el.observe), ("yield", el.yields),
        ("addressed-to", el.addressed_to), ("lang", None if el.lang == "en" else el.lang),
    ]
    defaults = {"render": "prose" if el.tag == "dial-inform" else "card-list",
                "response-type": "text"}
    names = {
        "dial-inform": ["render"],
        "dial-ask": ["response-type", "timeout"],
        "dial-suggest": ["render", "action", "multi"],
        "dial-acknowledge": ["of"],
        "dial-declare": ["context-key"],
        "dial-delegate": ["to", "intent", "resume"],
        "dial-phatic": ["signal", "interval"],
    }.get(el.tag, [])
    for name in names:
        value = getattr(el, name.replace("-", "_"))
        if value == defaults.get(name) or value is False:
            continue
        pairs.append((name, value))
    return pairs


def element_xml(el: Element, depth: int = 1) -> str:
    """One element (with its children) as indented XML."""
    children: list[str] = []
    if isinstance(el, Ask):
        children += [_option(o, depth + 1) for o in el.options]
    if isinstance(el, Execute):
        children += [_step(s, depth + 1) for s in el.steps]
    if el.payload is not None:
        children.append(_payload(el.payload, depth + 1))
    if isinstance(el, Delegate) and el.context is not None:
        children.append(_context(el.context, depth + 1))
    return _leaf(el.tag, _attrs(_element_attrs(el)), el.text, children, depth)


def to_xml(value: Envelope | Element | Iterable[Element]) -> str:
    """A DIAL envelope holding ``value`` (an envelope, one element, or elements in order)."""
    if isinstance(value, Envelope):
        env = value
    elif isinstance(value, Element):
        env = Envelope(elements=(value,))
    else:
        env = Envelope(elements=tuple(value))
    root = _attrs([("version", env.version), ("turn", env.turn), ("actor", env.actor),
                   ("session", env.session)])
    body = "\n".join(element_xml(el) for el in env.elements)
    if not body:
        return f"<dial{root}></dial>"
    return f"<dial{root}>\n{body}\n</dial>"

