"""What the agent is told after the fact: a chart a surface could not draw.

An outcome whose result holds a Vega-Lite spec (``{"vega_lite": spec}``) is told to the agent
like any other, and the surface draws the chart — at once, or later, off its loop, when the
outcome may already have gone. When the drawing ends in an error, the surface calls
``Conversation.chart_not_drawn(outcome_event, why)``, and the agent is owed one line:

    Not from the user: the chart of sg-3 (plot) was not drawn, so the user does not see it —
    drawing it took longer than 2.0 s.

The runtime document defines no notice format, so the line rides on the existing mechanism
for what the agent was not told yet: the owed words (_state.py). It goes with the next
message the person sends (before their own words), or with the next turn of a say that is
going; it sends nothing by itself and starts no turn. It is told exactly once per outcome,
only for an outcome event of this conversation, and not when the result already said
``"drawn": false`` (the agent was told with the outcome).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: The line's opening: the words that follow are not the person's.
NOT_FROM_THE_USER = "Not from the user: "
#: The longest "why" told (characters): a renderer's error can quote the agent's whole spec.
MAX_WHY = 300
#: The surface's own openings of a chart's error, left out of the line.
_OPENINGS = ("The chart was not drawn: ", "The chart could not be drawn: ")


def chart_not_drawn_line(event: Mapping[str, Any], why: str) -> str | None:
    """The line owed to the agent for ``event``'s undrawn chart, or None when nothing is to be
    told (not an outcome with a Vega-Lite result, or its result already said it is undrawn).

        >>> chart_not_drawn_line({"type": "outcome", "id": "sg-2", "action": "plot",
        ...                       "result": {"vega_lite": {}}},
        ...                      "The chart was not drawn: another chart is still being drawn.")
        'Not from the user: the chart of sg-2 (plot) was not drawn, so the user does not see it — another chart is still being drawn.'
    """
    result = event.get("result")
    if (event.get("type") != "outcome" or not isinstance(result, Mapping)
            or "vega_lite" not in result or result.get("drawn") is False):
        return None
    reason = " ".join(str(why).split())
    for opening in _OPENINGS:
        reason = reason.removeprefix(opening)
    if len(reason) > MAX_WHY:
        reason = reason[:MAX_WHY].rstrip() + "…"
    reason = (reason or "the chart renderer could not draw it").rstrip(".") + "."
    return (f"{NOT_FROM_THE_USER}the chart of {event.get('id')} ({event.get('action')}) was "
            f"not drawn, so the user does not see it — {reason}")


class ToldLater:
    """The charts told not drawn, by the outcome event (each once)."""

    def __init__(self) -> None:
        self._told: set[int] = set()

    def chart_not_drawn(self, transcript: list[dict[str, Any]], owed_words: list[str],
                        event: Mapping[str, Any], why: str) -> bool:
        """Owe the agent ``event``'s line (see the header); whether a line was owed."""
        line = chart_not_drawn_line(event, why)
        if line is None or id(event) in self._told:
            return False
        if not any(told is event for told in reversed(transcript)):
            return False  # another conversation's event, or a copy: not this one's to tell
        self._told.add(id(event))  # the transcript keeps the event: its id stays its own
        owed_words.append(line)
        return True
