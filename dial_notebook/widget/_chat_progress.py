"""What the front end is sent of a reply while it is streamed: only what changed, within a budget.

The runtime hands the widget ``progress`` signals (the prose so far, readable — the markup is
stripped — and what the agent is writing, "proposing: add-note"); they are never kept in the
transcript. ``StreamedReply`` turns each into the message the front end needs, or none:

    progress {turn, prose, writing} ──▶ {type: 'progress', turn, writing, at, text}: ``text``
        replaces the prose sent from character ``at`` on (what is new, usually at its end)
    the same prose, the same writing ──▶ nothing (nothing a person could see has changed)
    a new turn ──▶ starts from nothing
    text resent for one reply past _PROGRESS_BUDGET × its longest prose + _PROGRESS_FLOOR
        ──▶ only what is being written goes; the reply shows once complete

So a reply costs its length, however its pieces make the prose change (an entity cut between two
pieces, markup that turns out to be prose …).

A run's progress (``report_progress``: the runtime's 'progress' notice with the run's ``id``
instead of a turn, already paced and bounded by the runtime) goes on as it is, for its
running card, and leaves the streamed reply alone:

    progress {id, action, progress, total, message} ──▶ {type: 'run-progress', id, action,
        progress, total, message}; one the front end could not draw ──▶ nothing

A run starting (the runtime's 'running' notice, also never kept) is told to the front end, so
its card says "Running…" until its outcome, with Stop where Stop cancels the run:

    running {id, action} ──▶ {type: 'run-started', id, action, stoppable} (``run_started``)

    >>> stream = StreamedReply()
    >>> stream.message({"turn": 1, "prose": "Hello", "writing": None})
    {'type': 'progress', 'turn': 1, 'writing': None, 'at': 0, 'text': 'Hello'}
    >>> stream.message({"turn": 1, "prose": "Hello there", "writing": None})
    {'type': 'progress', 'turn': 1, 'writing': None, 'at': 5, 'text': ' there'}
    >>> stream.message({"turn": 1, "prose": "Hello there", "writing": None}) is None
    True
    >>> stream.partial
    'Hello there'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypedDict

from .._ports import field_of

#: The text of one streamed reply's progress messages is at most this many times its longest
#: prose, plus ``_PROGRESS_FLOOR`` characters: a reply whose pieces keep rewriting its prose
#: (an entity cut between two pieces …) cannot make the front end's traffic grow faster.
_PROGRESS_BUDGET = 3
_PROGRESS_FLOOR = 16_384


class StreamedReply:
    """The reply being streamed, as the front end was sent it: its turn, its prose, what the
    agent is writing, and how much text its progress messages have carried."""

    def __init__(self) -> None:
        self._streamed: tuple[int, str] = (0, "")  # the streamed reply's turn and prose sent
        self._writing: Any = None  # what the agent is writing, as last sent
        self._spent: tuple[int, int, int] = (0, 0, 0)  # turn, progress text sent, longest prose

    @property
    def partial(self) -> str:
        """The prose the person has read so far of the reply being streamed ('' when none)."""
        return self._streamed[1]

    def reset(self) -> None:
        """The reply is over (complete, missing or stopped): the next one starts afresh."""
        self._streamed = (0, "")

    def message(self, event: dict[str, Any]) -> dict[str, Any] | None:
        """The progress message for ``event`` (a runtime ``progress`` signal), or None when
        nothing a person could see has changed: only what changed since the prose sent (``at``
        says where the new ``text`` goes), and the text sent for one reply never exceeds
        ``_PROGRESS_BUDGET`` times its longest prose plus ``_PROGRESS_FLOOR`` (past it, only
        what the agent is writing goes, and the reply itself shows once complete)."""
        if "id" in event:
            return run_progress(event)
        turn, prose = int(event.get("turn") or 0), str(event.get("prose") or "")
        writing = event.get("writing")
        sent_turn, sent = self._streamed
        _, spent, longest = self._spent
        if sent_turn != turn:
            sent, spent, longest = "", 0, 0  # a new reply starts from nothing
        longest = max(longest, len(prose))
        at = common_prefix(sent, prose)
        message: dict[str, Any] = {"type": "progress", "turn": turn, "writing": writing}
        if at == len(sent) == len(prose):
            pass  # the prose is as sent: what is being written may have changed
        elif spent + len(prose) - at <= _PROGRESS_BUDGET * longest + _PROGRESS_FLOOR:
            message.update(at=at, text=prose[at:])
            spent += len(prose) - at
            sent = prose
        if "text" not in message and sent_turn == turn and writing == self._writing:
            self._spent = (turn, spent, longest)
            return None  # nothing a person could see has changed
        self._streamed, self._writing = (turn, sent), writing
        self._spent = (turn, spent, longest)
        return message


def run_progress(event: dict[str, Any]) -> dict[str, Any] | None:
    """The front end's message for a run's progress notice, or None when it is not one it
    could draw (an id that is not text, a progress that is not a number).

        >>> run_progress({"type": "progress", "id": "sg-1", "action": "copy", "progress": 3,
        ...               "total": 10, "message": "copying"})["type"]
        'run-progress'
    """
    sid, done, total, text = (event.get(k) for k in ("id", "progress", "total", "message"))
    if not isinstance(sid, str) or not _number(done) or not (total is None or _number(total)):
        return None
    return {"type": "run-progress", "id": sid, "action": str(event.get("action") or ""),
            "progress": done, "total": total,
            "message": text if isinstance(text, str) else None}


class RunStartedMessage(TypedDict):
    """A run started (the runtime's 'running' notice), for its card (or execute step): it
    says Running… until its outcome; ``stoppable``: Stop cancels the run. Never kept (one of
    the kernel's messages: ``_contract.KERNEL_MESSAGES``)."""

    type: Literal["run-started"]
    id: str
    action: str
    stoppable: bool


def run_started(event: dict[str, Any], stoppable: bool) -> dict[str, Any] | None:
    """The front end's message for a run that started (the runtime's 'running' notice), or
    None when its id is not text the card could be found by.

        >>> run_started({"type": "running", "id": "sg-1", "action": "copy"}, True)
        {'type': 'run-started', 'id': 'sg-1', 'action': 'copy', 'stoppable': True}
    """
    sid = event.get("id")
    if not isinstance(sid, str) or not sid:
        return None
    return {"type": "run-started", "id": sid, "action": str(event.get("action") or ""),
            "stoppable": stoppable is True}


def action_stoppable(domain: Any, action: str) -> bool:
    """Whether Stop cancels a run of ``action``, as the runtime decides it (its domain port's
    ``stoppable``): the action's spec says ``stoppable``, or ``domain.stoppable(action)`` is
    True (one that raises says no). An execute step, a hand-off: no such action, no.

        >>> action_stoppable(type("D", (), {"actions": {"copy": {"stoppable": True}}})(), "copy")
        True
    """
    actions = getattr(domain, "actions", None)
    spec = actions.get(action) if isinstance(actions, Mapping) else None
    if spec is not None and field_of(spec, "stoppable", False) is True:
        return True
    says = getattr(domain, "stoppable", None)
    if not callable(says):
        return False
    try:
        return says(action) is True
    except Exception:
        return False


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def common_prefix(a: str, b: str) -> int:
    """How many characters ``a`` and ``b`` share at their start, in O(len) of C-level work.

    >>> common_prefix("Hello a", "Hello ϊ")
    6
    """
    if b.startswith(a):
        return len(a)
    if a.startswith(b):
        return len(b)
    low, high = 0, min(len(a), len(b))  # a[:low] == b[:low]; they differ before high
    while low < high:
        middle = (low + high + 1) // 2
        if a[low:middle] == b[low:middle]:
            low = middle
        else:
            high = middle - 1
    return low
