"""``system_prompt(domain)``: what a model must know to speak DIAL v0.1 with this runtime.

Three parts, in order:

    1. DIAL: one envelope per reply; inform / ask / suggest / acknowledge; how a suggest
       carries its payload; escaping.
    2. Outcomes: how they come back (an acknowledge + a declare ``outcome:ID`` per
       suggestion) and what to do for each status.
    3. The domain: its actions — description, JSON Schema, read-only / mutates /
       destructive / hand-off, the preview the person sees — and an example built from the
       first action's schema.

A domain is read through ``describe()`` when it has one (``SchemaDomain``), else through
``actions`` and ``schema(action)``. Kept short: about 1,000 tokens for the notes domain
(``tests/bench/bench_prompt.py`` measures it).

    >>> from dial_notebook.domains.notes import NotesDomain
    >>> prompt = system_prompt(NotesDomain())
    >>> "<dial-suggest" in prompt and "### add-note" in prompt
    True
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

_DIAL = """\
You are an assistant that acts through DIAL v0.1, an XML language of speech acts. A person \
reads your replies in a notebook as readable cards; nothing happens unless they accept it.

## How to reply
Reply with exactly one envelope and nothing outside it:
<dial version="0.1" actor="agent">
  …elements, in the order the person should read them…
</dial>
Elements:
- <dial-inform>text</dial-inform>: tell something. render="table" | "code" | "card-list" \
with a <dial-payload type="application/json"> child for structured data; default prose. A \
chart: <dial-inform render="chart">caption<dial-payload type="application/vnd.vegalite+json">\
{a Vega-Lite spec}</dial-payload></dial-inform>, its data inline as "values" (at most 5,000 \
rows; a "url" is refused).
- <dial-ask response-type="text|choice|confirm|number">question</dial-ask>: ask when the \
request is ambiguous. A choice ask lists <dial-option value="v">Label</dial-option> children. \
The answer comes back as the person's words in the next message.
- <dial-suggest id="s1" action="ACTION">one sentence for the person\
<dial-payload type="application/json">{…}</dial-payload></dial-suggest>: propose one action. \
The payload is JSON that must match the action's schema exactly (no extra fields). Several \
suggests may follow one another; give each a new id (or leave id out).
- <dial-acknowledge of="ID">text</dial-acknowledge>: react briefly to an outcome.
Write & as &amp; and < as &lt; in text. Never wrap the envelope in code fences. Use only \
the actions listed below: any other action is refused before the person sees it.

## Outcomes
Every suggestion ends in one outcome, reported at the start of a later message:
<dial>
  <dial-acknowledge of="s1" yield="s1:done">Done: Add the note 'milk'.</dial-acknowledge>
  <dial-declare context-key="outcome:s1">
    <dial-payload type="application/json">{"action":"add-note","status":"done",\
"result":{…}}</dial-payload>
  </dial-declare>
</dial>
React to each status:
- done: it ran; "result" holds what it returned. Say briefly what changed, using the result.
- failed: it ran and failed; "error" and "hint" say why. Explain in one sentence and offer a \
fix (a corrected suggestion, or a question).
- invalid: your payload broke the schema or the action does not exist; the person never saw \
it. Read "code", "field" and "hint", and suggest it again corrected, without apologising at \
length.
- dismissed: the person declined. Do not propose it again unless asked.
- superseded: the person wrote something else instead of deciding: answer their words.
- handed-off: the person completes it in its own panel.
- skipped: it never ran, because what it waited for (its observe, or a step before it) did not happen; "hint" says why.
A <dial-execute> block's steps are reported one by one (the step's id, action "execute:ENV"); a <dial-delegate> to an actor nobody registered comes back failed with code "not-delegated".
"edited": true means the person changed your payload before it ran.
The person may say why: "reason" is why they dismissed it, and "comments" lists their remarks \
on fields, [{"field":"/text","text":"…"}] ("field" is a JSON Pointer into your payload; "" is \
the whole proposal). Read them and follow them in what you propose next.
Each message may also carry a <context …/> line describing the current state, then the \
person's words."""

_FLAGS = {
    "read-only": "read-only: runs at once without asking; its result comes back as a done "
                 "outcome",
    "handoff": "hand-off: opens in the person's own panel",
    "mutates": "changes data: the person accepts, edits or dismisses it first",
}


def _actions(domain: Any) -> list[dict[str, Any]]:
    describe = getattr(domain, "describe", None)
    if callable(describe):
        return list(describe())
    actions = getattr(domain, "actions", None) or {}
    schema = getattr(domain, "schema", None)
    listed = []
    for name, spec in actions.items():
        def read(key: str, default: Any = None, spec: Any = spec) -> Any:
            return spec.get(key, default) if isinstance(spec, Mapping) else getattr(
                spec, key, default)
        listed.append({
            "name": name,
            "description": read("description", "") or "",
            "schema": schema(name) if callable(schema) else read("schema"),
            "mutates": read("mutates", True) is not False,
            "destructive": bool(read("destructive", False)),
            "handoff": bool(read("handoff", False)),
            "preview": read("preview") if isinstance(read("preview"), str) else None,
        })
    return listed


def _action_text(action: dict[str, Any]) -> str:
    lines = [f"### {action['name']}"]
    if action.get("description"):
        lines.append(str(action["description"]))
    if action.get("handoff"):
        kind = _FLAGS["handoff"]
    elif not action.get("mutates", True):
        kind = _FLAGS["read-only"]
    else:
        kind = _FLAGS["mutates"]
        if action.get("destructive"):
            kind += "; destructive: it is shown as a warning"
        if action.get("undoable"):
            kind += "; undoable"
    lines.append(f"Kind: {kind}.")
    if action.get("preview"):
        lines.append(f"The person sees: {action['preview']}")
    if action.get("schema") is not None:
        lines.append("Payload schema: " + _compact(action["schema"]))
    return "\n".join(lines)


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=False)


def example_payload(schema: Any) -> Any:
    """A small payload that fits ``schema``'s shape: required fields with plain values.

        >>> example_payload({"type": "object", "required": ["text"],
        ...                  "properties": {"text": {"type": "string"}}})
        {'text': '…'}
    """
    if not isinstance(schema, Mapping):
        return {}
    if "const" in schema:
        return schema["const"]
    if schema.get("enum"):
        return schema["enum"][0]
    if "default" in schema:
        return schema["default"]
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind == "object" or "properties" in schema:
        properties = schema.get("properties") or {}
        return {name: example_payload(properties.get(name, {}))
                for name in schema.get("required", []) if isinstance(name, str)}
    if kind == "array":
        items = schema.get("items")
        count = int(schema.get("minItems", 0) or 0)
        return [example_payload(items) for _ in range(min(count, 3))]
    return {"string": "…", "integer": 1, "number": 1, "boolean": True, "null": None}.get(
        str(kind), "…")


def _example(actions: list[dict[str, Any]]) -> str:
    chosen = next((a for a in actions if a.get("mutates", True) and not a.get("handoff")),
                  actions[0])
    payload = _compact(example_payload(chosen.get("schema"))).replace("&", "&amp;").replace(
        "<", "&lt;")
    return (
        "## Example reply\n"
        '<dial version="0.1" actor="agent">\n'
        "  <dial-inform>One short sentence about what you propose.</dial-inform>\n"
        f'  <dial-suggest id="s1" action="{chosen["name"]}">What this does, for the person.\n'
        f'    <dial-payload type="application/json">{payload}</dial-payload>\n'
        "  </dial-suggest>\n"
        "</dial>"
    )


def system_prompt(domain: Any = None) -> str:
    """The system prompt that teaches a model DIAL v0.1 and the actions of ``domain``.

    Args:
        domain: a ``SchemaDomain`` (or any runtime domain with ``actions``); None for DIAL
            alone.

        >>> system_prompt().startswith("You are an assistant that acts through DIAL v0.1")
        True
    """
    parts = [_DIAL]
    if domain is None:
        return _DIAL
    actions = _actions(domain)
    name = getattr(domain, "name", "") or type(domain).__name__
    header = f"## The domain: {name}"
    description = getattr(domain, "description", "")
    if isinstance(description, str) and description:
        header += f"\n{description}"
    if not actions:
        return "\n\n".join([*parts, header + "\nIt has no actions: only inform and ask."])
    parts.append(header + "\nThese are the only actions you may suggest.")
    parts.extend(_action_text(action) for action in actions)
    parts.append(_example(actions))
    return "\n\n".join(parts)
