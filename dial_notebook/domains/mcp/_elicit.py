"""An MCP server's questions put to the person: elicitation (form and URL mode) and sampling.

The SDK's ``ClientSession`` calls these when a server sends ``elicitation/create`` or
``sampling/createMessage``; bind the server's name (and, for sampling, whether the person
allowed it) with ``functools.partial``. The person is asked through the ask seam, given as the
``ask`` port (``McpDomain`` passes ``dial_notebook.interaction.ask_user`` unless told
otherwise). Nothing here opens a URL, calls a
model or sends anything the person did not click.

    elicitation/create, form mode
      ├─ the form is not flat and small (nested, $ref, > MAX_FIELDS, …) ─▶ ErrorData saying why
      ├─ nobody to ask (no ask port, no provider active) ────────────────▶ decline, nothing asked
      └─ one question per field, headed with the server's name, the server's message on the
         first, then "Send these answers to <server>?" Send / Decline (a confirm intent:
         no free text; Decline is an answer alone, the other answers then never sent)
            ├─ the person closed the panel ─────────────────────────────▶ cancel
            ├─ Decline, or Send not clicked ────────────────────────────▶ decline
            └─ Send ─▶ typed, validated (the domains' bounded validator)
                  ├─ valid ─────────────────────────────────────────────▶ accept {values}
                  └─ invalid ─▶ the fields at fault asked again once, with the error
                                   └─ still invalid ────────────────────▶ decline
    elicitation/create, URL mode
      ├─ not a plain http(s) address (javascript:, user-info, hidden characters, too long)
      │                                                                  ─▶ ErrorData, nothing asked
      └─ message + the address as text, a confirm (no free text)
                                        ─▶ "Open it myself" ─▶ accept (the person opens it)
                                           Decline / skipped ─▶ decline; closed ─▶ cancel
    sampling/createMessage
      ├─ not allowed for this server ───────────────────────────────────▶ ErrorData
      └─ allowed: the messages shown (bounded) ─▶ the person types the reply ─▶ that text
                                                  Decline / skipped / closed ─▶ ErrorData

    >>> import asyncio, mcp.types as types
    >>> params = types.ElicitRequestURLParams(message="Sign in", url="https://example.com/",
    ...                                       elicitation_id="e1")
    >>> asyncio.run(elicitation_callback("git", None, params))  # no ask port: nobody to ask
    ElicitResult(meta=None, action='decline', content=None)
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import urlsplit

from mcp import types
from referencing import Registry

from ...dial import HIDDEN_CHARACTERS
from .._validation import PayloadValidator
from ._elicit_form import MAX_FIELDS, MAX_TEXT, Field, Refused, answers_of, clean, read_form

__all__ = ["CONFIRM", "DECLINE", "MAX_FIELDS", "MAX_TEXT", "OPEN", "PERSON_MODEL", "SEND",
           "Ask", "elicitation_callback", "sampling_callback"]

#: The ask seam's shape: question dicts in, an answer out (``answer[id].selected`` /
#: ``.custom``); a failure carries a ``code`` (``NO_PROVIDER``, ``CANCELLED``, …).
Ask = Callable[[list[dict[str, Any]]], Awaitable[Any]]

#: The id of the last question of a form, and its two options.
CONFIRM, SEND, DECLINE = "confirm", "Send", "Decline"
#: The option of a URL question that accepts: the person opens the address, not the package.
OPEN = "Open it myself"
#: The ``model`` a sampling reply names: the person wrote it.
PERSON_MODEL = "a person (typed in dial-notebook)"
#: JSON-RPC code for a sampling request the person turned down (the MCP specification's).
USER_REJECTED = -1

_NOBODY, _CLOSED = "nobody", "closed"
_CLOSED_CODES = frozenset({"CANCELLED", "ASK_ABORTED", "INVALID_ANSWER"})


async def _put(ask: Ask | None, questions: list[dict[str, Any]]) -> Any:
    """The person's answer, ``_NOBODY`` (no one to ask) or ``_CLOSED`` (they closed it)."""
    if ask is None:
        return _NOBODY
    try:
        return await ask(questions)
    except Exception as error:
        code = getattr(error, "code", None)
        if code == "NO_PROVIDER":
            return _NOBODY
        if code in _CLOSED_CODES:
            return _CLOSED
        raise


def _picked(answer: Any, qid: str) -> tuple[tuple[str, ...], str | None]:
    try:
        item = answer[qid]
    except (KeyError, TypeError):
        return (), None
    return tuple(getattr(item, "selected", ()) or ()), getattr(item, "custom", None)


def _server(name: str) -> str:
    return clean(name, "name") or "The MCP server"


def _refused(server: str, why: str) -> types.ErrorData:
    return types.ErrorData(code=types.INVALID_PARAMS,
                           message=f"{server} asked a question this notebook cannot show: {why}")


def _asking_failed(server: str, error: Exception) -> types.ErrorData:
    return types.ErrorData(code=types.INTERNAL_ERROR, message=(
        f"{server}'s question could not be put to the person: {clean(str(error), 'why')}"))


async def elicitation_callback(server_name: str, context: Any, params: Any, *,
                               ask: Ask | None = None) -> types.ElicitResult | types.ErrorData:
    """Put a server's ``elicitation/create`` to the person; the SDK's ``ElicitationFnT`` once
    the name (and the ask port) are bound:
    ``partial(elicitation_callback, "git", ask=ask_user)``."""
    server = _server(server_name)
    try:
        if getattr(params, "mode", "form") == "url":
            return await _url(server, params, ask)
        return await _form(server, params, ask)
    except Refused as why:
        return _refused(server, str(why))
    except Exception as error:
        if isinstance(getattr(error, "code", None), str):  # the seam refused our questions
            return _asking_failed(server, error)
        raise


def _confirm(server: str) -> dict[str, Any]:
    return {"id": CONFIRM, "header": server, "question": f"Send these answers to {server}?",
            "intent": {"kind": "confirm", "approve": SEND},  # no free text; Decline alone
            "options": [{"label": SEND, "description": f"{server} receives the answers above"},
                        {"label": DECLINE, "description": f"{server} is told you declined"}]}


def _questions(server: str, message: str, fields: list[Field],
               notes: dict[str | None, str]) -> list[dict[str, Any]]:
    questions = [f.as_question(server, notes.get(f.name, "")) for f in fields]
    confirm = _confirm(server)
    first = questions[0] if questions else confirm
    first["detail"] = "\n\n".join(p for p in (notes.get(None, ""), message,
                                              first.get("detail")) if p) or None
    return [*questions, confirm]


def _notes(problems: list[dict[str, str]], fields: list[Field]) -> dict[str | None, str]:
    """What to say above each field at fault (and, under ``None``, above the whole form)."""
    said: dict[str | None, list[str]] = {}
    names = [f.name for f in fields]
    for problem in problems:
        at = str(problem.get("field", ""))
        name = next((n for n in names if at == n or at.startswith((f"{n}[", f"{n}."))), None)
        said.setdefault(name, []).append(clean(problem.get("message"), "why"))
    notes = {name: "Not accepted: " + "; ".join(lines) + "." for name, lines in said.items()}
    every = "; ".join(clean(p.get("message"), "why") for p in problems[:3])
    notes[None] = f"Your answers were not sent: {every}. Answer again, or Decline."
    return notes


async def _form(server: str, params: Any, ask: Ask | None) -> types.ElicitResult:
    fields = read_form(getattr(params, "requested_schema", None))
    validator = PayloadValidator(params.requested_schema, registry=Registry())
    message = clean(params.message, "message", lines=True)
    asking, content = fields, {}
    notes: dict[str | None, str] = {}
    for _ in range(2):  # the first ask, and once more after an invalid answer
        answer = await _put(ask, _questions(server, message, asking, notes))
        if answer == _CLOSED:
            return types.ElicitResult(action="cancel")
        if answer == _NOBODY or _picked(answer, CONFIRM)[0] != (SEND,):
            return types.ElicitResult(action="decline")
        for f in asking:
            content.pop(f.name, None)
        given, problems = answers_of(asking, answer)
        content.update(given)
        if not problems:
            verdict = validator.validate(content)
            problems = [] if verdict["ok"] else verdict["errors"] or [
                {"field": "", "message": verdict["hint"]}]
        if not problems:
            return types.ElicitResult(action="accept", content=content)
        notes = _notes(problems, fields)
        asking = [f for f in fields if f.name in notes] or fields
    return types.ElicitResult(action="decline")


def _url_problem(url: Any) -> str | None:
    """Why ``url`` is not a plain web address to show a person, or None."""
    if not isinstance(url, str) or len(url) > MAX_TEXT["url"]:
        return f"the address is longer than {MAX_TEXT['url']} characters"
    if HIDDEN_CHARACTERS.search(url) or any(c.isspace() for c in url):
        return "the address holds hidden characters or spaces"
    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError:
        return "the address does not parse"
    if parts.scheme.lower() not in ("https", "http"):
        return f"the address is not a web address (scheme {clean(parts.scheme, 'label')!r})"
    if "@" in parts.netloc:
        return "the address names a user before its host, a way to disguise where it leads"
    if not host:
        return "the address names no host"
    try:
        host.encode("idna")
    except UnicodeError:
        return "the address's host is not a valid name"
    return None


async def _url(server: str, params: Any, ask: Ask | None) -> types.ElicitResult:
    problem = _url_problem(getattr(params, "url", None))
    if problem:
        raise Refused(problem)
    url, host = params.url, urlsplit(params.url).hostname or ""
    host = host.encode("idna").decode("ascii")  # look-alike letters show as xn--…
    message = clean(params.message, "message", lines=True)
    detail = (f"{message}\n\nThe address (this notebook opens nothing; copy it into your "
              f"browser if you trust it):\n```\n{url}\n```")
    question = {"id": "open", "header": server,
                "question": f"{server} asks you to open a page on {host} yourself",
                "detail": detail.strip(),
                "intent": {"kind": "confirm", "approve": OPEN},  # no free text
                "options": [
                    {"label": OPEN, "description": f"{server} is told you will open it"},
                    {"label": DECLINE, "description": f"{server} is told you declined"}]}
    answer = await _put(ask, [question])
    if answer == _CLOSED:
        return types.ElicitResult(action="cancel")
    if answer != _NOBODY and _picked(answer, "open")[0] == (OPEN,):
        return types.ElicitResult(action="accept")
    return types.ElicitResult(action="decline")


def _content_text(block: Any) -> str:
    kind = getattr(block, "type", "?")
    if kind == "text":
        return clean(getattr(block, "text", ""), "description", lines=True)
    if kind == "tool_use":
        return f"[asks to use the tool {clean(getattr(block, 'name', ''), 'label')}]"
    return f"[{clean(kind, 'label')} content, not shown]"


def _transcript(params: Any) -> str:
    """The messages a server wants a reply to, as bounded text (the latest kept)."""
    parts = []
    system = clean(getattr(params, "system_prompt", None), "description", lines=True)
    if system:
        parts.append(f"**System prompt:** {system}")
    for message in list(getattr(params, "messages", None) or [])[-20:]:
        content = message.content if isinstance(message.content, list) else [message.content]
        text = "\n".join(_content_text(block) for block in content[:10])
        parts.append(f"**{clean(message.role, 'label')}:** {text}")
    transcript = "\n\n".join(parts)
    limit = MAX_TEXT["transcript"]
    return transcript if len(transcript) <= limit else "…" + transcript[-(limit - 1):]


async def sampling_callback(server_name: str, allowed: bool, context: Any, params: Any, *,
                            ask: Ask | None = None
                            ) -> types.CreateMessageResult | types.ErrorData:
    """Answer a server's ``sampling/createMessage``: refused unless ``allowed``; when allowed,
    the reply is text the person types (no model is ever called from here). The SDK's
    ``SamplingFnT`` once bound: ``partial(sampling_callback, "git", False, ask=ask_user)``.

        >>> import asyncio
        >>> asyncio.run(sampling_callback("git", False, None, None)).message[:38]
        'git asked the model to write a message'
    """
    server = _server(server_name)
    if not allowed:
        return types.ErrorData(code=types.INVALID_REQUEST, message=(
            f"{server} asked the model to write a message; sampling is not allowed for this "
            "server: McpDomain(..., allow_sampling=True)"))
    question = {"id": "reply", "header": server,
                "question": f"{server} asks for a message written by a model. Type the reply "
                            "to send it, or decline (no model is asked for you).",
                "detail": _transcript(params) or None,
                "options": [{"label": DECLINE, "description": f"{server} is told you declined"}]}
    try:
        answer = await _put(ask, [question])
    except Exception as error:
        if isinstance(getattr(error, "code", None), str):
            return _asking_failed(server, error)
        raise
    if answer == _NOBODY:
        return types.ErrorData(code=USER_REJECTED, message=(
            f"{server} asked for a message, and nobody was there to write it (no question "
            "panel is shown)."))
    selected, custom = ((), None) if answer == _CLOSED else _picked(answer, "reply")
    if not custom or not custom.strip() or selected:
        return types.ErrorData(code=USER_REJECTED, message=(
            f"The person declined to write the message {server} asked for."))
    return types.CreateMessageResult(role="assistant", model=PERSON_MODEL, stop_reason="endTurn",
                                     content=types.TextContent(type="text", text=custom))
