"""A tool's answer as an outcome's result, bounded; and the SDK's failures as ``ActionError``.

    CallToolResult
      isError ──────────────▶ ActionError code 'tool-error', hint = the server's text (cut)
      structuredContent ────▶ result["structured"]   (the SDK checked it against outputSchema;
                                                        over MAX_STRUCTURED_CHARS: left out, said)
      text content ─────────▶ result["text"]         (joined, cut at MAX_TEXT characters)
      image content ────────▶ result["media"]        [{"src": "data:image/png;base64,…", "alt"}]
                                                       (png, jpeg, gif, webp only; each at most
                                                        MAX_IMAGE_CHARS; the rest left out, said)
      resource link /
      embedded resource ────▶ result["links"]        [{"uri", "name", …}]: listed, never loaded
      anything left out ────▶ result["notes"]        what was left out, and why

    >>> import mcp_types as types
    >>> answer = types.CallToolResult(content=[types.TextContent(type="text", text="hi")])
    >>> result_of(answer, "echo")
    {'text': 'hi'}
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any

from .._errors import ActionError
from ._tools import clean_text

#: Longest text given to the agent (as a command's output is: runtime/_executors.MAX_OUTPUT).
MAX_TEXT = 20_000
#: Longest structured content kept, as JSON characters.
MAX_STRUCTURED_CHARS = 100_000
#: Longest image kept (base64 characters, about 1.5 MB of image), and most images kept.
MAX_IMAGE_CHARS = 2_000_000
MAX_IMAGES = 8
#: Most links listed, and the longest server error text in a hint.
MAX_LINKS = 50
MAX_ERROR_TEXT = 2_000
IMAGE_TYPES = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})


def cut(text: str, limit: int) -> str:
    """``text`` cut at ``limit`` characters, saying how many more there were."""
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n… ({len(text) - limit:,} more characters cut)"


def _image(block: Any, tool: str, count: int, notes: list[str]) -> dict[str, str] | None:
    mime = str(getattr(block, "mime_type", "") or "").lower()
    data = getattr(block, "data", "")
    if mime not in IMAGE_TYPES:
        notes.append(f"an image of type {clean_text(mime, 60)!r} was left out (only PNG, "
                     "JPEG, GIF and WebP are shown)")
        return None
    if not isinstance(data, str) or len(data) > MAX_IMAGE_CHARS:
        notes.append(f"an image over {MAX_IMAGE_CHARS:,} characters was left out")
        return None
    if count >= MAX_IMAGES:
        notes.append(f"images past the first {MAX_IMAGES} were left out")
        return None
    try:
        base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        notes.append("an image whose data is not base64 was left out")
        return None
    return {"src": f"data:{mime};base64,{data}", "alt": f"image {count + 1} from {tool}"}


def _link(block: Any) -> dict[str, Any]:
    if getattr(block, "type", "") == "resource_link":
        link = {"uri": clean_text(block.uri, 2_000), "name": clean_text(block.name, 200)}
        for key in ("title", "description", "mime_type"):
            value = getattr(block, key, None)
            if value:
                link[key] = clean_text(value, 300)
        return link
    resource = block.resource
    link = {"uri": clean_text(resource.uri, 2_000), "name": clean_text(resource.uri, 200),
            "embedded": True}
    if resource.mime_type:
        link["mime_type"] = clean_text(resource.mime_type, 100)
    text = getattr(resource, "text", None)
    if isinstance(text, str):
        link["text"] = cut(text, MAX_ERROR_TEXT)
    return link


def _structured(value: Any, notes: list[str]) -> Any:
    try:
        size = len(json.dumps(value))
    except (TypeError, ValueError):
        notes.append("the structured content could not be read as JSON")
        return None
    if size > MAX_STRUCTURED_CHARS:
        notes.append(f"the structured content ({size:,} characters) was over "
                     f"{MAX_STRUCTURED_CHARS:,} and was left out")
        return None
    return value


def result_of(answer: Any, tool: str) -> dict[str, Any]:
    """The outcome's result for the SDK's ``CallToolResult`` (see the header); raises
    ``ActionError`` for ``isError``."""
    texts: list[str] = []
    media: list[dict[str, str]] = []
    links: list[dict[str, Any]] = []
    notes: list[str] = []
    for block in answer.content or ():
        kind = getattr(block, "type", "")
        if kind == "text":
            texts.append(block.text[: MAX_TEXT + 1])
        elif kind == "image":
            image = _image(block, tool, len(media), notes)
            if image is not None:
                media.append(image)
        elif kind in ("resource_link", "resource"):
            if len(links) < MAX_LINKS:
                links.append(_link(block))
            elif f"links past the first {MAX_LINKS} were left out" not in notes:
                notes.append(f"links past the first {MAX_LINKS} were left out")
        else:
            notes.append(f"a {clean_text(kind, 40)} part was left out")
    text = "\n".join(texts)
    if answer.is_error:
        said = cut(text, MAX_ERROR_TEXT) or "the tool reported an error without saying why"
        raise ActionError(f"{tool} failed: {said[:300]}", code="tool-error", hint=said)
    result: dict[str, Any] = {}
    if answer.structured_content is not None:
        structured = _structured(answer.structured_content, notes)
        # a tool that returns plain text is wrapped by the SDK as {"result": text}: said once
        if structured is not None and structured != {"result": text}:
            result["structured"] = structured
    if text:
        result["text"] = cut(text, MAX_TEXT)
    if media:
        result["media"] = media
    if links:
        result["links"] = links
    if notes:
        result["notes"] = notes
    return result


def unavailable(what: str, stderr: str) -> ActionError:
    """The failure of a call the server could not answer (it died, or the protocol broke)."""
    hint = f"The server's last error lines:\n{stderr}" if stderr else (
        "The server said nothing on stderr. It is restarted on the next call.")
    return ActionError(f"the MCP server is unavailable: {clean_text(what, 300)}",
                       code="unavailable", hint=hint)
