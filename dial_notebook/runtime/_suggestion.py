"""The life of one suggestion, from the agent's ``<dial-suggest>`` to its one outcome.

    proposed ─ unknown action / invalid payload ──────────▶ invalid   (never shown)
       │  the person already moved on in this reply ──────▶ superseded
       ├─ read-only action ─▶ runs at once ───────────────▶ done | failed
       ├─ hand-off action  ─▶ runs at once ───────────────▶ handed-off | failed
       ├─ a rule accepts it (_rules.py) ─▶ runs ──────────▶ done | failed  (rule: id)
       │    (never one recalled from a restored reply: that one is always a card)
       └─ 'suggestion' event; the person decides:
            accept  ─▶ runs ──────────────────────────────▶ done | failed
            edit    ─▶ validated ─▶ runs ─────────────────▶ done | failed  (edited: true,
                                                                 payload: the edited one)
                       └ refused: shown back with .issue, decide again;
                         the third refusal ───────────────▶ invalid
            dismiss ──────────────────────────────────────▶ dismissed
            say     ─▶ this and the reply's remaining ────▶ superseded; the words go next
            accept / edit of what changed since it was proposed (_stale.py) ─▶ not run:
                       worked out again and shown again (stale), or refused as an edit is
       a run past run_timeout ────────────────────────────▶ failed (code 'timeout')
         (the time the person spends answering its ask_user questions is not counted)
       interrupted (human raised, task cancelled) ────────▶ superseded, or — while it runs —
                                                            the run's real end (_work.py)
       the person's comments and a dismissal's reason go with the outcome (_feedback.py)

Stronger than a naive port of the reference: an accept of a payload that was never validated
(the one shown back after a refused edit) is validated first and counts as an edit; a
validate that raises is a refusal (code ``validation-error``); a ``<dial-payload>`` that is
not valid JSON is ``invalid`` with code ``invalid-json``; an empty one counts as no payload.
"""

from __future__ import annotations

import asyncio
import copy
import dataclasses
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..dial import Declare, Suggest
from ._budget import EDIT_SECONDS, Budget, spending
from ._feedback import merged, read_feedback
from ._outcomes import ended, failure, returned, timed_out
from ._payloads import has_payload as has_payload
from ._payloads import payload_of
from ._ports import ActionSpec
from ._review import DoneRun, dry_run, remember_done
from ._rules import eligible
from ._run_gate import Approval, by_domain, by_person, by_rule, start_action
from ._stale import MAX_STALE, Rechecked, card_event, read_version, recheck, too_stale
from ._state import Reply
from ._values import Suggestion
from ._work import Clock, TimedOut, on_end, timed_by, until_done

#: Refused edits after which a suggestion ends invalid.
MAX_EDIT_ATTEMPTS = 3

_DECISIONS = ("{'accept': True}, {'dismiss': True}, {'edit': payload} or {'say': text} (an "
              "accept, edit or dismiss may add 'comments', a dismiss a 'reason')")


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

    ``verdict`` is ``run`` (``payload``: what runs — ``as_proposed``, or the accepted edit,
    with ``edited`` — and ``approval``, the person's decision record for the run gate),
    ``dismissed``, ``superseded`` or ``invalid`` (with ``issue``). ``feedback``: the person's
    ``comments`` and a dismissal's ``reason``, for the outcome; ``rule``: the rule an accept of
    what was proposed named (the caller checks it before recording it)."""

    verdict: str
    as_proposed: bool = False
    payload: Any = None
    edited: bool = False
    issue: Mapping[str, Any] | None = None
    feedback: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    rule: str | None = None
    approval: Approval | None = None


_PROPOSED: Any = object()  # person_decides: what runs as proposed is the proposal's payload


async def person_decides(
    reply: Reply, proposal: Any, check: Callable[[Any], Awaitable[EditCheck]],
    runs: Any = _PROPOSED,
    stale: Callable[[Any, Any], Awaitable[Rechecked | None]] | None = None,
) -> Decided:
    """Put ``proposal`` to the person until they decide; the one loop of accept / edit /
    dismiss / say that suggestions and execute blocks share.

    An accept of what was proposed runs it (``runs``: what that is, when not the proposal's
    payload — an execute block's steps); an edit (or an accept of a payload shown back after
    a refused edit) goes through ``check``; a refusal is shown back as ``issue`` and the
    third one ends ``invalid``. ``stale(card, payload)``: before an accept or an edit runs,
    the card worked out again when what it works on changed since (_stale.py), shown again
    instead of running. Only here does a person's decision become a record the run gate
    accepts (_run_gate.py).
    """
    if runs is _PROPOSED:
        runs = proposal.payload
    state = reply.state
    # a restored conversation takes up the card as the person last saw it (_resume.py)
    shown, refused = state.resumed.pop(proposal.id, (proposal, 0))
    current, found_stale = proposal, 0  # current: the proposal as last worked out
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
        if stale is not None:  # what it works on changed since: worked out again, not run
            with spending(Budget(EDIT_SECONDS)):
                again = await stale(shown, shown.payload if kind == "accept" else value)
            if again is not None:
                found_stale += 1
                refused += again.issue is not None
                if refused >= MAX_EDIT_ATTEMPTS or found_stale >= MAX_STALE:
                    issue = again.issue if refused >= MAX_EDIT_ATTEMPTS else too_stale()
                    return Decided("invalid", issue=issue, feedback=feedback)
                if again.issue is not None:
                    shown = dataclasses.replace(again.card, edits_left=MAX_EDIT_ATTEMPTS - refused)
                    continue
                current = again.card if kind == "accept" and shown is current else current
                shown = again.card
                continue
        if kind == "accept" and shown is current:
            rule = decision.get("rule")
            return Decided("run", as_proposed=True, payload=runs, feedback=feedback,
                           rule=rule if isinstance(rule, str) else None,
                           approval=by_person(proposal, decision, runs))
        edited = shown.payload if kind == "accept" else value
        with spending(Budget(EDIT_SECONDS)):  # the person's edit: not the reply's to spend
            verdict = await check(edited)
        if verdict.issue is None:
            return Decided("run", payload=verdict.run, edited=verdict.changed,
                           feedback=feedback,
                           approval=by_person(proposal, decision, verdict.run))
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
        #: A rule may be made from its card.
        self.allowable = False

    def settle(self, status: str, **fields: Any) -> None:
        self.reply.settle(self.sid, self.action, status, self.preview or "", **fields)

    async def run(self) -> None:
        domain = self.state.domain
        spec = domain.spec(self.action)
        if spec is None:
            self.settle("invalid", **_unknown(self.action))
            return
        self.mutates = spec.mutates and not spec.handoff
        self.allowable = eligible(spec) and self.state.rules is not None
        payload, unreadable = payload_of(self.suggest, self.declare)
        if self.reply.moved_on:
            self.preview = await domain.preview(self.action, payload)
            self.settle("superseded")
            return
        if unreadable is not None:
            self.settle("invalid", code="invalid-json",
                        hint=f"The payload could not be read: {unreadable}")
            return
        # what it works on, as validated and worked out now (read first: never newer)
        version = await read_version(domain, self.action, payload) if self.mutates else None
        check = await domain.validate(self.action, payload)
        if not check.ok:
            self.settle("invalid", **check.issue())
            return
        self.preview = await domain.preview(self.action, payload)
        # the person's rule that accepts it, asked now (a record for the run gate), if any
        # (never for a proposal recalled from a saved reply: that one is always a card)
        by_a_rule = None if self.reply.restored is not None else by_rule(
            self.state, spec, self.sid, self.action, payload)
        effect = None
        if spec.mutates and not spec.handoff and by_a_rule is None:  # what it would do
            effect = await dry_run(self.state, self.action, payload)
        suggestion = Suggestion(
            id=self.sid, action=self.action, text=self.suggest.text, payload=payload,
            preview=self.preview, destructive=spec.destructive, dry_run=effect,
            version=version,
        )
        # with the rule, when the person said to always allow proposals like this one
        self.state.events.emit(card_event(
            suggestion, mutates=spec.mutates, rule=by_a_rule.rule if by_a_rule else None,
            allowable=self.allowable))
        if by_a_rule is not None:
            again = await self._stale(suggestion, payload) if self.mutates else None
            if again is None:  # as the rule's check saw it: it runs
                self.state.rules.fired(by_a_rule.rule)
                await self._run(by_a_rule, rule=by_a_rule.rule)
                return
            if again.issue is not None:
                self.settle("invalid", **again.issue)
                return
            suggestion = again.card  # changed since the rule's check: the person decides
        await self._decide_or_run(spec, suggestion)

    async def _stale(self, card: Suggestion, payload: Any) -> Rechecked | None:
        """The card worked out again when what it works on changed since (_stale.py)."""
        again = await recheck(self.state, card, payload, allowable=self.allowable)
        if again is not None and again.issue is None:
            self.preview = again.card.preview
        return again

    async def _decide_or_run(self, spec: ActionSpec, suggestion: Suggestion) -> None:
        unasked = by_domain(self.state, self.sid, self.action, suggestion.payload)
        if unasked is not None:  # read-only or hand-off: the domain says it runs unasked
            await self._run(unasked, status="handed-off" if spec.handoff else "done")
            return
        decided = await person_decides(self.reply, suggestion, self._check_edit,
                                       stale=self._stale if self.mutates else None)
        feedback = dict(decided.feedback)
        if decided.verdict == "run" and decided.approval is not None:
            rule = decided.rule
            rules = self.state.rules if eligible(spec) else None
            if rule is not None and (rules is None or not rules.accepts(
                    rule, self.action, decided.payload)):
                rule = None  # named, but it does not accept this proposal: a plain accept
            if rule is not None and rules is not None:
                rules.fired(rule)
            await self._run(decided.approval, edited=decided.edited, rule=rule,
                            feedback=feedback)
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

    async def _run(self, approval: Approval, *, status: str = "done", edited: bool = False,
                   rule: str | None = None, feedback: Mapping[str, Any] | None = None) -> None:
        """Run what ``approval`` decided, through the run gate, to its outcome. The say being
        cancelled (Stop) stops the agent, not the work: the run goes on to its real end, told
        quietly (with the next say); only ``run_timeout`` stops a run (the person's time
        answering its questions not counted, until a Stop: then its deadline is fixed)."""
        payload = approval.payload
        # an edit keeps what the person changed it to (the transcript's, never the wire's),
        # a copy: what the run may do to its payload is not what the person decided
        extra: dict[str, Any] = {"edited": True, "payload": copy.deepcopy(payload)} if (
            edited) else {}
        if rule is not None:
            extra["rule"] = rule
        extra.update(feedback or {})
        limit = self.state.run_timeout
        deadline = None if limit is None else asyncio.get_running_loop().time() + limit
        clock = Clock(limit)  # the run's: paused while the person answers it (_clock.py)
        with timed_by(clock):
            running = start_action(self.state, approval, self.sid, self.action, payload)
        self.started = True
        self.state.started(self.reply, self.sid, self.action, self.preview or "", **extra)
        try:
            result = await until_done(running, limit, clock)
        except TimedOut as exc:
            self.settle("failed", **timed_out(exc), **extra)
            return
        except Exception as exc:
            self.settle("failed", **failure(exc), **extra)
            return
        except BaseException:
            # the say was cancelled: the run goes on (within its time limit), and how it
            # really ends is its outcome
            on_end(running, lambda ok, value: self.settle_ended(ok, value, status, payload,
                                                                extra),
                   deadline=deadline, limit=limit or 0.0)
            raise
        self._remember(status, payload, result)
        self.settle(status, **returned(result), **extra)

    def _remember(self, status: str, payload: Any, result: Any) -> None:
        if status == "done" and self.mutates:  # a change the person may take back (Undo)
            remember_done(self.state, self.sid, DoneRun(self.action, payload, result,
                                                        self.preview or ""))

    def settle_ended(self, ok: bool, value: Any, status: str, payload: Any,
                     extra: dict[str, Any]) -> None:
        """The outcome of a run that ended after its say was cancelled (said quietly)."""
        fields = ended(ok, value, status)
        if ok:
            self._remember(status, payload, value)
        self.reply.settle(self.sid, self.action, fields.pop("status"), self.preview or "",
                          quiet=True, **fields, **extra)
