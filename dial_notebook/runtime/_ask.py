"""Asks: the agent's questions, the person's answers, and how the answers are written back.

    <dial-ask> ─▶ 'ask' event ─▶ human.answer(ask) ─▶ text ─▶ goes with the next turn
                                                    └▶ '' / None ─▶ the question stands (no turn)

After the person wrote something instead of deciding (a ``say``), later questions of the reply
are shown but not put to them. A confirm is always put as yes / no (its options are dropped),
and answering it never approves anything: what it gates is still decided on its own card.

The person's words in the next message (``person_words``):

* one question in the reply, answered, and nothing else said: the answer as given
  (``Strengths``) — exactly what the reference runtime sends;
* otherwise each answer follows its question, quoted line by line with ``> ``, and what the
  person wrote instead of deciding comes last; the pieces are joined by one blank line::

      > Which zone?
      Strengths

      > Which colour?
      Blue

      actually, add it to Weaknesses

Unanswered questions are left out. A question without text is answered by its bare answer.
"""

from __future__ import annotations

from ..dial import Ask as AskElement
from ._state import Reply
from ._values import PendingAsk


def ask_from(element: AskElement, ask_id: str) -> PendingAsk:
    """The question as the person gets it. A confirm is yes or no: its options, if the agent
    gave any, are dropped (lint says they are ignored), so no agent label can pose as an
    answer it is not — "No, leave everything as is" with the value that counts as yes."""
    confirm = element.response_type == "confirm"
    options = [] if confirm else [
        {"value": o.value, "label": o.label, "default": o.default, "disabled": o.disabled}
        for o in element.options
    ]
    return PendingAsk(id=ask_id, text=element.text, response_type=element.response_type,
               options=options)


async def on_ask(reply: Reply, element: AskElement) -> str:
    """Show the question; put it to the person unless they already moved on.

    Returns the answer, or '' when there is none (the question stands).
    """
    state = reply.state
    ask = ask_from(element, state.ask_id(element.id))
    state.events.emit({"type": "ask", **ask.to_dict()})
    if reply.moved_on:
        return ""
    state.pending = ask
    try:
        answer = await state.human.answer(ask)
    finally:
        state.pending = None
    if not answer.strip():
        return ""
    reply.answers.append((ask, answer))
    return answer


def _quoted(ask: PendingAsk, answer: str) -> str:
    if not ask.text:
        return answer
    quote = "\n".join(f"> {line}" if line else ">" for line in ask.text.splitlines())
    return f"{quote}\n{answer}"


def person_words(reply: Reply) -> str:
    """What the person said in reply to this message, as the next message carries it."""
    if len(reply.answers) == 1 and reply.asks == 1 and not reply.said:
        return reply.answers[0][1]
    parts = [_quoted(ask, answer) for ask, answer in reply.answers]
    if reply.said:
        parts.append(reply.said)
    return "\n\n".join(parts)
