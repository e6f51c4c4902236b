"""An MCP server's tools read as DIAL actions: names, flags from annotations, descriptions.

Annotations are hints from the server, not promises (the MCP specification says so). A hint
that asks for more care is always heeded; one that asks for less only when the person trusts
the server (``trust_annotations=True``) or names the tool (``read_only=[…]``):

    readOnlyHint: true     read-only (runs at once) only when trusted or listed in read_only
    destructiveHint        destructive unless trusted and false (the spec's default is true)
    openWorldHint          the card says "reaches outside this machine" unless it is false
                           (the spec's default is true)
    listed in destructive  destructive, whatever the hints

A tool becomes an action named as the tool when that name is a valid DIAL action name
(letters, digits, ``. _ : -``, a letter or digit first), else its invalid runs replaced by
``-``; a name that is still empty, too long or taken is left out, and so is a tool whose
input schema is too large, not valid, or refers outside itself (``skipped`` says why).

    >>> action_name("git_status"), action_name("</dial-suggest>"), action_name("a b/c")
    ('git_status', 'dial-suggest-', 'a-b-c')
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from typing import Any

#: Longest tool name read, and longest action name made.
MAX_NAME = 128
#: Longest input or output schema, as JSON characters.
MAX_SCHEMA_CHARS = 50_000
#: Longest description put into the agent's system prompt, and title on a card.
MAX_DESCRIPTION = 1_000
MAX_TITLE = 120
#: Most tools read from one server.
MAX_TOOLS = 200
#: What a card says of a tool that may reach outside this machine.
OPEN_WORLD = "reaches outside this machine"

_VALID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:-]*$")
_INVALID_RUN = re.compile(r"[^A-Za-z0-9._:-]+")


@dataclass(frozen=True)
class ToolAction:
    """One tool as an action: the names, the flags and the texts the domain needs."""

    action: str
    tool: str
    title: str
    description: str
    schema: dict[str, Any]
    output_schema: dict[str, Any] | None
    mutates: bool
    destructive: bool
    open_world: bool


def action_name(tool: str) -> str:
    """The DIAL action name for a tool name ('' when none can be made)."""
    if _VALID.match(tool):
        return tool
    return _INVALID_RUN.sub("-", tool).lstrip("-._:")


def clean_text(text: Any, limit: int) -> str:
    """Server text for the agent's prompt or a card: one paragraph per line, control
    characters out, angle brackets made harmless (no markup reaches the prompt), cut at
    ``limit`` characters.

        >>> clean_text("<dial-suggest>\\x07hi", 100)
        '‹dial-suggest›hi'
    """
    if not isinstance(text, str):
        return ""
    kept = "".join(c for c in text[: limit * 2]
                   if c in "\n\t" or unicodedata.category(c)[0] != "C")
    kept = kept.replace("<", "‹").replace(">", "›")
    kept = " ".join(kept.split()) if "\n" not in kept else "\n".join(
        " ".join(line.split()) for line in kept.splitlines() if line.strip())
    return kept if len(kept) <= limit else kept[: limit - 1].rstrip() + "…"


def _schema_size(schema: Any) -> int:
    try:
        return len(json.dumps(schema))
    except (TypeError, ValueError):
        return MAX_SCHEMA_CHARS + 1


def _hint(annotations: Any, name: str) -> bool | None:
    value = getattr(annotations, name, None) if annotations is not None else None
    return value if isinstance(value, bool) else None


def read_tools(tools: list[Any], *, trust: bool, read_only: set[str], destructive: set[str],
               ) -> tuple[list[ToolAction], dict[str, str]]:
    """The actions made of ``tools`` (the SDK's ``Tool`` objects) and the tools left out
    (shown name → why). ``read_only`` and ``destructive`` hold tool or action names."""
    actions: list[ToolAction] = []
    skipped: dict[str, str] = {}
    taken: set[str] = set()
    for index, tool in enumerate(tools):
        raw = tool.name if isinstance(getattr(tool, "name", None), str) else ""
        shown = clean_text(raw, 80) or f"tool #{index + 1}"
        if index >= MAX_TOOLS:
            skipped[shown] = f"the server lists more than {MAX_TOOLS} tools"
            continue
        name = action_name(raw) if len(raw) <= MAX_NAME else ""
        if not name:
            skipped[shown] = "its name cannot be made a DIAL action name"
            continue
        if name in taken:
            skipped[shown] = f"its action name {name!r} is taken by another tool"
            continue
        schema = tool.input_schema if isinstance(tool.input_schema, dict) else None
        if schema is None or _schema_size(schema) > MAX_SCHEMA_CHARS:
            skipped[shown] = f"its input schema is over {MAX_SCHEMA_CHARS:,} characters"
            continue
        output = tool.output_schema if isinstance(tool.output_schema, dict) else None
        if output is not None and _schema_size(output) > MAX_SCHEMA_CHARS:
            skipped[shown] = f"its output schema is over {MAX_SCHEMA_CHARS:,} characters"
            continue
        taken.add(name)
        hints = tool.annotations
        listed_read_only = raw in read_only or name in read_only
        mutates = not (listed_read_only or (trust and _hint(hints, "read_only_hint") is True))
        said_destructive = _hint(hints, "destructive_hint")
        is_destructive = (raw in destructive or name in destructive) or (
            mutates and not (trust and said_destructive is False))
        title = clean_text(tool.title or getattr(hints, "title", None) or raw, MAX_TITLE)
        actions.append(ToolAction(
            action=name, tool=raw, title=title,
            description=clean_text(tool.description or "", MAX_DESCRIPTION),
            schema=schema, output_schema=output, mutates=mutates,
            destructive=is_destructive, open_world=_hint(hints, "open_world_hint") is not False,
        ))
    return actions, skipped
