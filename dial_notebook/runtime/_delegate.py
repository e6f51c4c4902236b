"""``<dial-delegate>``: the agent hands the exchange (or part of it) to another actor.

    <dial-delegate to=A> ─▶ 'delegate' event {id, to, intent, text, context, resume,
       │                                      registered}  (the person sees the hand-off)
       ├─ A registered: Conversation(..., actors={A: actor}) ─▶ the actor takes over:
       │     an object with send(message) — another agent — is sent the hand-off as a message
       │       (the text, then 'Intent: …', then the context as JSON); its reply is the result
       │     any other callable is called with the Delegation (sync or async)
       │        returns ─▶ outcome done   (result: what it returned)
       │        raises  ─▶ outcome failed (the error)
       └─ none registered ─▶ outcome failed, code 'not-delegated', error "No actor 'A' is
             registered here, so nobody took this over; the user saw the hand-off request."
    the outcome: id = the element's id (or dg-N), action 'delegate', preview "Hand over to A:
    INTENT"; the dict also carries 'to' and 'resume' (the wire format is the runtime spec's)

``resume``: with ``resume="true"`` the agent picks up again at once — a turn follows with the
outcome. Without it (the default) the agent stepped back: a ``done`` hand-off is told with the
person's next words and no turn follows now. A hand-off that did not happen (failed) is told at
once either way: nobody else has the exchange, so the agent must carry on.

    >>> from dial_notebook.dial import Delegate
    >>> delegation_from(Delegate(to="billing", intent="refund", text="Over to billing."),
    ...                 "dg-1").message()
    'Over to billing.\\n\\nIntent: refund'
"""

from __future__ import annotations

from typing import Any

from ..dial import Delegate
from ._outcomes import failure, interrupted, jsonable, returned
from ._ports import AgentPort, call
from ._state import Reply
from ._values import Delegation
from ._yields import Resolution

DELEGATE = "delegate"


def delegation_from(element: Delegate, did: str) -> Delegation:
    context: Any = None
    if element.context is not None:
        payload = element.context.payload
        if payload is not None and payload.raw.strip():
            context = payload.raw if payload.error is not None else payload.value
        elif element.context.text:
            context = element.context.text
    return Delegation(id=did, to=(element.to or "").strip(), intent=element.intent,
                      text=element.text, context=jsonable(context), resume=element.resume)


def preview_of(delegation: Delegation) -> str:
    who = delegation.to or "another actor"
    return f"Hand over to {who}: {delegation.intent}" if delegation.intent else f"Hand over to {who}"


async def on_delegate(reply: Reply, element: Delegate) -> Resolution:
    """Hand over to the registered actor, or show the request and tell the agent it was not."""
    state = reply.state
    delegation = delegation_from(element, state.delegate_id(element.id))
    actor = state.actors.get(delegation.to)
    state.events.emit({"type": "delegate", **delegation.to_dict(),
                       "registered": actor is not None})
    preview = preview_of(delegation)
    extra = {"to": delegation.to, "resume": delegation.resume}
    if actor is None:
        reply.settle(delegation.id, DELEGATE, "failed", preview, code="not-delegated",
                     error=f"No actor '{delegation.to}' is registered here, so nobody took this "
                           f"over; the user saw the hand-off request.", **extra)
        return Resolution("failed")
    state.started(reply, delegation.id, DELEGATE, preview, **extra)
    try:
        if callable(getattr(actor, "send", None)):
            result = await AgentPort(actor).send(delegation.message())
        else:
            result = await call(actor, delegation)
    except Exception as exc:
        reply.settle(delegation.id, DELEGATE, "failed", preview, **failure(exc), **extra)
        return Resolution("failed")
    except BaseException:
        reply.settle(delegation.id, DELEGATE, "failed", preview, quiet=True, **interrupted(),
                     **extra)
        raise
    reply.settle(delegation.id, DELEGATE, "done", preview, **returned(result), **extra)
    return Resolution("done")
