"""Channel signals and addressing: ``<dial-phatic>``, and elements meant for someone else.

``<dial-phatic signal=…>`` carries no meaning of its own:

    typing, thinking, done-typing ─▶ 'phatic' event {signal, interval?, id?}: a surface shows
                                     an indicator for typing / thinking, done-typing clears it
    heartbeat, presence           ─▶ recorded: conversation.presence[signal] =
                                     {'interval', 'turn'}, and a 'phatic' event for the
                                     transcript (a surface does not show it)
    anything else                 ─▶ ignored (no event)
    its yields fire when it is received (known signals only)

``addressed-to`` other than the person or this surface (absent, ``human``, ``user``,
``person``, ``all``, ``everyone``, ``*``, compared case-insensitively) means the element is for
another participant: it is not acted on — an 'inform' event with act 'addressed-elsewhere', its
text and ``addressed_to`` tell the surface so; nothing fires; a suggest or execute ends
``skipped`` (hint: to whom it was addressed) so the agent learns it was not proposed here.

    >>> from dial_notebook.dial import Inform
    >>> for_this_surface(Inform(addressed_to="Human")), for_this_surface(Inform(addressed_to="billing"))
    (True, False)
"""

from __future__ import annotations

from typing import Any

from ..dial import Element, Phatic
from ._state import Reply
from ._yields import SHOWN, UNRESOLVED, Resolution

#: ``addressed-to`` values that mean the person in front of this surface.
HERE = frozenset({"human", "user", "person", "all", "everyone", "*"})
SHOWN_SIGNALS = frozenset({"typing", "thinking", "done-typing"})
RECORDED_SIGNALS = frozenset({"heartbeat", "presence"})


def for_this_surface(element: Element) -> bool:
    """Whether the element is addressed to the person here (or to everyone)."""
    to = (element.addressed_to or "").strip().lower()
    return not to or to in HERE


def addressed_elsewhere(reply: Reply, element: Element) -> Resolution:
    """Tell the surface the element was for someone else; nothing is acted on or fired."""
    to = (element.addressed_to or "").strip()
    reply.state.events.emit({
        "type": "inform", "text": element.text, "act": "addressed-elsewhere",
        "addressed_to": to, "element": element.kind, "id": element.id,
    })
    return Resolution(None, note=f"was addressed to {to}, not acted on here")


async def on_phatic(reply: Reply, phatic: Phatic) -> Resolution:
    """Show or record a known signal; ignore an unknown one."""
    signal = (phatic.signal or "").strip().lower()
    if signal not in SHOWN_SIGNALS | RECORDED_SIGNALS:
        return UNRESOLVED
    event: dict[str, Any] = {"type": "phatic", "signal": signal}
    if phatic.interval is not None:
        event["interval"] = phatic.interval
    if phatic.id:
        event["id"] = phatic.id
    if signal in RECORDED_SIGNALS:
        reply.state.presence[signal] = {"interval": phatic.interval, "turn": reply.turn}
    reply.state.events.emit(event)
    return SHOWN
