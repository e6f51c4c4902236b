"""The life of one suggestion, from the agent's ``<dial-suggest>`` to its one outcome.

    proposed ─ unknown action / invalid payload ──────────▶ invalid   (never shown)
       │  the person already moved on in this reply ──────▶ superseded
       ├─ read-only action ─▶ runs at once ───────────────▶ done | failed
       ├─ hand-off action  ─▶ runs at once ───────────────▶ handed-off | failed
       ├─ a rule accepts it (_rules.py) ─▶ runs ──────────▶ done | failed  (rule: id)
       └─ 'suggestion' event; the person decides:
            accept  ─▶ runs ──────────────────────────────▶ done | failed
            edit    ─▶ validated ─▶ runs ─────────────────▶ done | failed  (edited: true)
                       └ refused: shown back with .issue, decide again;
                         the third refusal ───────────────▶ invalid
            dismiss ──────────────────────────────────────▶ dismissed
            say     ─▶ this and the reply's remaining ────▶ superseded; the words go next
       a run past run_timeout ────────────────────────────▶ failed (code 'timeout')
       interrupted (human raised, task cancelled) ────────▶ superseded, or — while it runs —
                                                            the run's real end (_work.py)
       the person's comments and a dismissal's reason go with the outcome (_feedback.py)

Stronger than a naive port of the reference: an accept of a payload that was never validated
(the one shown back after a refused edit) is validated first and counts as an edit; a
validate that raises is a refusal (code ``validation-error``); a ``<dial-payload>`` that is
not valid JSON is ``invalid`` with code ``invalid-json``; an empty one counts as no payload.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..dial import Declare, Payload, Suggest
from ._budget import EDIT_SECONDS, Budget, spending
from ._feedback import merged, read_feedback
from ._outcomes import ended, failure, returned, timed_out
from ._ports import ActionSpec
from ._review import DoneRun, dry_run, remember_done
from ._rules import eligible
from ._state import Reply
from ._values import Suggestion
from ._work import TimedOut, on_end, until_done

#: Refused edits after which a suggestion ends invalid.
MAX_EDIT_ATTEMPTS = 3

_DECISIONS = ("{'accept': True}, {'dismiss': True}, {'edit': payload} or {'say': text} (an "
              "accept, edit or dismiss may add 'comments', a dismiss a 'reason')")


def has_payload(suggest: Suggest) -> bool:
    """Whether the suggest carries its own payload (an empty ``<dial-payload/>`` is none)."""
    return suggest.payload is not None and bool(suggest.payload.raw.strip())


def payload_of(suggest: Suggest, declare: Declare | None) -> tuple[Any, str | None]:
    """(payload, why it cannot be read, or None): the suggest's own, else its declare's.

    A declare's JSON may be its ``<dial-payload>`` or its text; text that is not JSON, like
    no payload at all, is read as ``{}``.
    """
    if has_payload(suggest):
        return _value(suggest.payload)
    if declare is None:
        return {}, None
    if declare.payload is not None and declare.payload.raw.strip():
        return _value(declare.payload)
    return _declare_text(declare), None


def _value(payload: Payload) -> tuple[Any, str | None]:
    if payload.error is not None:
        return None, payload.error
    return payload.value, None


def _declare_text(declare: Declare) -> Any:
    text = declare.text.strip()
    if not text:
        return {}
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return {}


def read_decision(decision: Any) -> tuple[str, Any]:
    """('accept' | 'dismiss' | 'edit' | 'say', value) from what ``human.decide`` returned."""
    if isinstance(decision, Mapping):
        if decision.get("dismiss"):
            return "dismiss", None
        if isinstance(decision.get("say"), str):
            return "say", decision["say"]
        if "edit" in decision and "say" not in decision:
            return "edit", decision["edit"]
        if decision.get("accept") and "say" not in decision:
            return "accept", None
    raise ValueError(f"human.decide() must return {_DECISIONS}; got {decision!r}")


@dataclass(frozen=True)
class EditCheck:
    """The verdict on a payload the person edited: what to ``run`` (and whether it differs
    from the proposal), or a refusal — ``issue`` (code, field, hint) for the agent's outcome
    and ``shown`` for the person's card."""

    run: Any = None
    changed: bool = True
    issue: Mapping[str, Any] | None = None
    shown: Any = None


@dataclass(frozen=True)
class Decided:
    """What the person decided about one proposal, its edits settled.

    ``verdict`` is ``run`` (``as_proposed``, or ``payload`` after an accepted edit, with
    ``edited``), ``dismissed``, ``superseded`` or ``invalid`` (with ``issue``). ``feedback``:
    the person's ``comments`` and a dismissal's ``reason``, for the outcome; ``rule``: the rule
    an accept of what was proposed named (the caller checks it before recording it)."""

    verdict: str
    as_proposed: bool = False
    payload: Any = None
    edited: bool = False
    issue: Mapping[str, Any] | None = None
    feedback: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    rule: str | None = None


async def person_decides(
    reply: Reply, proposal: Any, check: Callable[[Any], Awaitable[EditCheck]]
) -> Decided:
    """Put ``proposal`` to the person until they decide; the one loop of accept / edit /
    dismiss / say that suggestions and execute blocks share.

    An accept of what was proposed runs it; an edit (or an accept of a payload shown back
    after a refused edit) goes through ``check``; a refusal is shown back as ``issue`` and
    the third one ends ``invalid``.
    """
    state = reply.state
    # a restored conversation takes up the card as the person last saw it (_resume.py)
    shown, refused = state.resumed.pop(proposal.id, (proposal, 0))
    feedback: dict[str, Any] = {}
    while True:
        state.pending = shown
        try:
            decision = await state.human.decide(shown)
        finally:
            state.pending = None
        kind, value = read_decision(decision)
        if kind != "say":
            feedback = _together(feedback, read_feedback(decision))
        if kind == "dismiss":
            return Decided("dismissed", feedback=feedback)
        if kind == "say":
            reply.said = value
            return Decided("superseded")
        if kind == "accept" and shown is proposal:
            rule = decision.get("rule")
            return Decided("run", as_proposed=True, feedback=feedback,
                           rule=rule if isinstance(rule, str) else None)
        edited = shown.payload if kind == "accept" else value
        with spending(Budget(EDIT_SECONDS)):  # the person's edit: not the reply's to spend
            verdict = await check(edited)
        if verdict.issue is None:
            return Decided("run", payload=verdict.run, edited=verdict.changed,
                           feedback=feedback)
        refused += 1
        if refused >= MAX_EDIT_ATTEMPTS:
            return Decided("invalid", issue=verdict.issue, feedback=feedback)
        shown = dataclasses.replace(shown, payload=edited, issue=verdict.shown,
                                    edits_left=MAX_EDIT_ATTEMPTS - refused)


def _together(earlier: dict[str, Any], later: dict[str, Any]) -> dict[str, Any]:
    """The feedback of two decisions on one card: every comment once, the latest reason."""
    together = {**earlier, **later}
    if "comments" in earlier and "comments" in later:
        together["comments"] = merged(earlier["comments"], later["comments"])
    return together


async def on_suggest(reply: Reply, suggest: Suggest, declare: Declare | None) -> None:
    """Take one suggestion to its outcome; if interrupted, it still gets one."""
    sid = reply.state.suggestion_id(suggest.id)
    settled = len(reply.outcomes)
    life = _Life(reply, sid, suggest, declare)
    try:
        await life.run()
    except BaseException:
        # never reached the person, or cut short while deciding: superseded; a run that had
        # started reports its own end (_Life._run)
        if len(reply.outcomes) == settled and not life.started:
            reply.settle(sid, life.action, "superseded", life.preview or "", quiet=True)
        raise


def supersede(reply: Reply, suggest: Suggest, declare: Declare | None) -> None:
    """Settle a suggestion the reply's handling never reached (it was interrupted)."""
    state = reply.state
    sid = state.suggestion_id(suggest.id)
    action = suggest.action or ""
    if state.domain.spec(action) is None:
        reply.settle(sid, action, "invalid", "", quiet=True, **_unknown(action))
        return
    payload, _ = payload_of(suggest, declare)
    reply.settle(sid, action, "superseded", state.domain.preview_now(action, payload), quiet=True)


def _unknown(action: str) -> dict[str, str]:
    return {"code": "unknown-action", "hint": f"There is no action '{action}'."}


class _Life:
    """One suggestion's way through the lifecycle drawn above."""

    def __init__(self, reply: Reply, sid: str, suggest: Suggest, declare: Declare | None):
        self.reply = reply
        self.state = reply.state
        self.sid = sid
        self.suggest = suggest
        self.declare = declare
        self.action = suggest.action or ""
        #: The preview once computed (an interrupted suggestion is superseded with it).
        self.preview: str | None = None
        #: The run has started: from then on it reports its own outcome, however it ends.
        self.started = False
        #: The action changes something (its done run may be undone).
        self.mutates = False

    def settle(self, status: str, **fields: Any) -> None:
        self.reply.settle(self.sid, self.action, status, self.preview or "", **fields)

    async def run(self) -> None:
        domain = self.state.domain
        spec = domain.spec(self.action)
        if spec is None:
            self.settle("invalid", **_unknown(self.action))
            return
        self.mutates = spec.mutates and not spec.handoff
        payload, unreadable = payload_of(self.suggest, self.declare)
        if self.reply.moved_on:
            self.preview = await domain.preview(self.action, payload)
            self.settle("superseded")
            return
        if unreadable is not None:
            self.settle("invalid", code="invalid-json",
                        hint=f"The payload could not be read: {unreadable}")
            return
        check = await domain.validate(self.action, payload)
        if not check.ok:
            self.settle("invalid", **check.issue())
            return
        self.preview = await domain.preview(self.action, payload)
        suggestion = Suggestion(
            id=self.sid, action=self.action, text=self.suggest.text, payload=payload,
            preview=self.preview, destructive=spec.destructive,
        )
        event = {"type": "suggestion", **suggestion.to_dict(), "mutates": spec.mutates}
        rules = self.state.rules if eligible(spec) else None
        rule = rules.match(self.action, payload) if rules is not None else None
        if rule is not None:  # the person said to always allow proposals like this one
            event["rule"] = rule
        elif rules is not None:
            event["allowable"] = True  # a rule may be made from this card
        if spec.mutates and not spec.handoff and rule is None:  # what it would do, to decide
            effect = await dry_run(self.state, self.action, payload)
            if effect is not None:
                event["dry_run"] = effect
        self.state.events.emit(event)
        if rule is not None and rules is not None:
            rules.fired(rule)
            await self._run(payload, rule=rule)
            return
        await self._decide_or_run(spec, suggestion)

    async def _decide_or_run(self, spec: ActionSpec, suggestion: Suggestion) -> None:
        if spec.handoff:
            await self._run(suggestion.payload, status="handed-off")
            return
        if not spec.mutates:
            await self._run(suggestion.payload)
            return
        decided = await person_decides(self.reply, suggestion, self._check_edit)
        feedback = dict(decided.feedback)
        if decided.verdict == "run":
            payload = suggestion.payload if decided.as_proposed else decided.payload
            rule = decided.rule
            rules = self.state.rules if eligible(spec) else None
            if rule is not None and (rules is None or not rules.accepts(rule, self.action,
                                                                        payload)):
                rule = None  # named, but it does not accept this proposal: a plain accept
            if rule is not None and rules is not None:
                rules.fired(rule)
            await self._run(payload, edited=decided.edited, rule=rule, feedback=feedback)
        elif decided.verdict == "invalid":
            self.settle("invalid", **(decided.issue or {}), **feedback)
        else:
            self.settle(decided.verdict, **feedback)

    async def _check_edit(self, edited: Any) -> EditCheck:
        check = await self.state.domain.validate(self.action, edited)
        if not check.ok:
            return EditCheck(issue=check.issue(), shown=check.for_person())
        self.preview = await self.state.domain.preview(self.action, edited)
        return EditCheck(run=edited)

    async def _run(self, payload: Any, *, status: str = "done", edited: bool = False,
                   rule: str | None = None, feedback: Mapping[str, Any] | None = None) -> None:
        extra: dict[str, Any] = {"edited": True} if edited else {}
        if rule is not None:
            extra["rule"] = rule
        extra.update(feedback or {})
        running = self.state.domain.start_run(self.action, payload)
        self.started = True
        self.state.started(self.reply, self.sid, self.action, self.preview or "", **extra)
        try:
            result = await until_done(running, self.state.run_timeout)
        except TimedOut as exc:
            self.settle("failed", **timed_out(exc), **extra)
            return
        except Exception as exc:
            self.settle("failed", **failure(exc), **extra)
            return
        except BaseException:
            # interrupted (a kernel interrupt): report how the run really ends — a run on a
            # worker thread goes on, and its result is real
            on_end(running, lambda ok, value: self.settle_ended(ok, value, status, extra))
            raise
        if status == "done" and self.mutates:  # a change the person may take back (Undo)
            remember_done(self.state, self.sid, DoneRun(self.action, payload, result,
                                                        self.preview or ""))
        self.settle(status, **returned(result), **extra)

    def settle_ended(self, ok: bool, value: Any, status: str, extra: dict[str, Any]) -> None:
        """The outcome of a run that ended after its say was interrupted (said quietly)."""
        fields = ended(ok, value, status)
        self.reply.settle(self.sid, self.action, fields.pop("status"), self.preview or "",
                          quiet=True, **fields, **extra)
