"""The life of one ``<dial-execute>`` block: its steps proposed, approved, run, reported.

    <dial-execute> ─ the person already moved on in this reply ─────────▶ block superseded
       │ more than MAX_STEPS steps (too long to show whole) ─────────────▶ block invalid
       │ 'suggestion' event: action 'execute', kind 'execute', payload {steps: [{id, env,
       │  label, command}]}, schema (the edit form's), preview "Run N steps: …",
       │  suspicious {step id: ['U+202E', …]} for commands with hidden characters, confirmed
       │  (offered because the person answered yes to the confirm it observes)
       └─ the person decides — human.decide(suggestion), always, as for a suggestion:
             accept  ─▶ runs
             edit    ─▶ the commands checked: the same steps in the same order, ids and envs
                        kept, every command non-empty ─▶ runs; its steps say edited: true
                        └ refused: shown back with .issue; the third refusal ─▶ block invalid
             dismiss ─▶ block dismissed
             say     ─▶ block superseded; the words go next
    runs: the steps' own observe/yield tree (scope: the block). Steps whose observed events
          have fired start at once, concurrently; a step's yields fire only when it succeeds.
          Each step ends in one outcome, told to the agent:
              done    result = what the executor returned
              failed  the executor raised (or no executor for its env: code 'no-executor')
              skipped it waited for an event that can no longer come (hint: why — e.g. the
                      step it depended on failed)
          interrupted (the task cancelled): a step that had finished keeps its real outcome;
          one running on a worker thread (an ``in_thread`` executor: http) is reported when it
          really ends (_work.py); other running steps end failed, unstarted ones skipped
    the block resolves 'done' when every step is done, else 'failed' (its yields, _yields.py)

Outcomes: a step's id is its own ``id`` (or ``BLOCK.N``, N its position); its action is
``execute:ENV``; its preview its label, else the command's first line (``(+N more lines)``
when it has more); the outcome dict also carries ``block`` (the block's id) and ``command`` (as
run) for surfaces — the wire format is the runtime spec's. A block that ends before running
(dismissed, superseded, invalid, skipped) has one outcome under the block's id (``execute``;
its preview "Run N steps: …"). Ids of blocks without one: ``ex-N``.

An answer is never an approval. A confirm ask the block observes decides only whether the
card is offered at all (its no branch skips the block); what runs is approved on the card that
shows every command, whole. Every block is marked ``destructive``: a python step can change
anything a shell step can. Previews show hidden characters by name (``⟨U+202E⟩``), and the
commands stay exactly as the agent wrote them, which is what runs.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Mapping
from typing import Any

from ..dial import Execute, Step, hidden_characters, reveal
from ._gate import Gate, observed
from ._outcomes import ended, failure, interrupted, returned
from ._run_gate import Approval, start_step
from ._state import Reply
from ._suggestion import EditCheck, Suggestion, person_decides
from ._work import on_end
from ._yields import Resolution

#: The action name of an execute block as the person and the agent see it.
EXECUTE = "execute"
#: Most steps a block may have: a longer one cannot be shown whole on a card, so it is refused.
MAX_STEPS = 200
#: Most characters of command text a block may have, for the same reason.
MAX_COMMAND_CHARS = 100_000
_PREVIEW_CHARS = 200


def step_headline(step: Step) -> str:
    """A step in one line: its label, else its command's first line, saying how many lines
    follow (``echo hi (+2 more lines)``); hidden characters shown by name."""
    if step.label:
        return reveal(step.label)
    lines = step.command.splitlines() or [""]
    more = len(lines) - 1
    return reveal(lines[0]) + (f" (+{more} more line{'s' if more != 1 else ''})" if more else "")


def step_ids(block_id: str, steps: tuple[Step, ...]) -> list[str]:
    """Each step's outcome id: its own id, else (or when taken already) ``BLOCK.N``."""
    ids: list[str] = []
    for n, step in enumerate(steps, 1):
        sid = step.id if step.id and step.id not in ids else f"{block_id}.{n}"
        ids.append(sid)
    return ids


def block_preview(steps: tuple[Step, ...]) -> str:
    """"Run 2 steps: ls …; rm …" — what the block does, in one line."""
    labels = "; ".join(step_headline(s) for s in steps)
    text = f"Run {len(steps)} step{'s' if len(steps) != 1 else ''}: {labels}"
    return text if len(text) <= _PREVIEW_CHARS else text[:_PREVIEW_CHARS - 1] + "…"


def step_schema(ids: list[str], steps: tuple[Step, ...]) -> dict[str, Any]:
    """The JSON Schema of the block's payload, for the widget's edit form (commands editable;
    ids and envs offered as fixed choices)."""
    return {
        "type": "object",
        "required": ["steps"],
        "properties": {"steps": {
            "type": "array", "title": "Steps", "minItems": len(steps), "maxItems": len(steps),
            "items": {
                "type": "object", "required": ["id", "env", "command"],
                "properties": {
                    "id": {"type": "string", "enum": list(dict.fromkeys(ids)), "title": "Step"},
                    "env": {"type": "string", "enum": sorted({s.env for s in steps}),
                            "title": "Runs in"},
                    "label": {"type": "string", "title": "Label"},
                    "command": {"type": "string", "minLength": 1, "format": "textarea",
                                "title": "Command"},
                },
            },
        }},
    }


def _payload(ids: list[str], steps: tuple[Step, ...]) -> dict[str, Any]:
    return {"steps": [{"id": sid, "env": s.env, "label": s.label or "", "command": s.command}
                      for sid, s in zip(ids, steps, strict=True)]}


def check_edit(ids: list[str], steps: tuple[Step, ...], edited: Any) -> tuple[
        tuple[Step, ...] | None, dict[str, Any]]:
    """(the steps with the edited commands, {}) or (None, the refusal for the person)."""
    def refuse(field: str, hint: str) -> tuple[None, dict[str, Any]]:
        return None, {"code": "invalid-edit", "field": field, "hint": hint,
                      "errors": [{"field": field, "message": hint}]}

    rows = edited.get("steps") if isinstance(edited, Mapping) else None
    if not isinstance(rows, list):
        return refuse("steps", "The edit must keep the list of steps.")
    if len(rows) != len(steps):
        return refuse("steps", f"Keep all {len(steps)} steps: only their commands and labels "
                               f"can be changed (dismiss the block to run none).")
    changed = []
    for n, (row, sid, step) in enumerate(zip(rows, ids, steps, strict=True)):
        where = f"steps/{n}"
        if not isinstance(row, Mapping):
            return refuse(where, "Each step must stay an object with its command.")
        if row.get("id", sid) != sid or row.get("env", step.env) != step.env:
            return refuse(where, f"Step {n + 1} must keep its id '{sid}' and env '{step.env}'.")
        command = row.get("command")
        if not isinstance(command, str) or not command.strip():
            return refuse(f"{where}/command", f"Step {n + 1} needs a command.")
        label = row.get("label", step.label or "")
        changed.append(dataclasses.replace(
            step, command=command.strip(), label=str(label) if label else None))
    return tuple(changed), {}


async def on_execute(reply: Reply, element: Execute) -> Resolution:
    """Take one block to its outcomes; if interrupted, every step still gets one."""
    life = _Block(reply, element)
    return await life.run()


def settle_block(reply: Reply, element: Execute, status: str, *, quiet: bool = False,
                 **fields: Any) -> None:
    """Settle a block that never ran (skipped, or never reached: superseded)."""
    bid = reply.state.execute_id(element.id)
    reply.settle(bid, EXECUTE, status, block_preview(element.steps), quiet=quiet, **fields)


def _too_long(steps: tuple[Step, ...]) -> str | None:
    """Why a block is too long to show whole on a card, or None."""
    if len(steps) > MAX_STEPS:
        return (f"The block has {len(steps)} steps; a block may have at most {MAX_STEPS}, so "
                "that the person can read every one. Split it into smaller blocks.")
    chars = sum(len(step.command) for step in steps)
    if chars > MAX_COMMAND_CHARS:
        return (f"The block's commands are {chars:,} characters long; at most "
                f"{MAX_COMMAND_CHARS:,} can be shown to the person. Split it, or run a script "
                "file the person can read first.")
    return None


class _Block:
    def __init__(self, reply: Reply, element: Execute) -> None:
        self.reply = reply
        self.state = reply.state
        self.element = element
        self.id = self.state.execute_id(element.id)
        self.steps = element.steps
        self.ids = step_ids(self.id, self.steps)
        self.preview = block_preview(self.steps)
        self.settled = False

    def settle(self, status: str, *, quiet: bool = False, **fields: Any) -> Resolution:
        self.settled = True
        self.reply.settle(self.id, EXECUTE, status, self.preview, quiet=quiet, **fields)
        return Resolution(status)

    async def run(self) -> Resolution:
        if self.reply.moved_on:
            return self.settle("superseded")
        too_long = _too_long(self.steps)
        if too_long is not None:
            return self.settle("invalid", code="too-many-steps", hint=too_long)
        suggestion = Suggestion(
            id=self.id, action=EXECUTE, text=self.element.text,
            payload=_payload(self.ids, self.steps), preview=self.preview, destructive=True,
        )
        offered = bool(observed(self.element.observe)) and set(
            observed(self.element.observe)) <= self.reply.confirmed
        event = {
            "type": "suggestion", **suggestion.to_dict(), "mutates": True, "kind": EXECUTE,
            "schema": step_schema(self.ids, self.steps), "confirmed": offered,
        }
        suspicious = {sid: hidden for sid, step in zip(self.ids, self.steps, strict=True)
                      if (hidden := hidden_characters(step.command))}
        if suspicious:
            event["suspicious"] = suspicious
        self.state.events.emit(event)
        try:
            return await self._decide(suggestion)
        except BaseException:
            if not self.settled:
                self.settle("superseded", quiet=True)
            raise

    async def _decide(self, suggestion: Suggestion) -> Resolution:
        decided = await person_decides(self.reply, suggestion, self._check_edit,
                                       runs=self.steps)
        if decided.verdict == "run" and decided.approval is not None:
            return await self._run(decided.approval, edited=decided.edited)
        if decided.verdict == "invalid":
            issue = decided.issue or {}
            return self.settle("invalid", code=issue.get("code"), field=issue.get("field"),
                               hint=issue.get("hint"), **decided.feedback)
        return self.settle(decided.verdict, **decided.feedback)  # a dismissal's reason too

    async def _check_edit(self, edited: Any) -> EditCheck:
        steps, issue = check_edit(self.ids, self.steps, edited)
        if steps is None:
            return EditCheck(issue=issue, shown=issue)
        return EditCheck(run=steps, changed=steps != self.steps)

    async def _run(self, approval: Approval, *, edited: bool) -> Resolution:
        self.settled = True  # from here on, every step settles itself
        run = _Steps(self, approval, edited)
        ok = await run.all()
        return Resolution("done" if ok else "failed")


class _Steps:
    """One run of a block's steps: their observe/yield tree, concurrently where it allows."""

    def __init__(self, block: _Block, approval: Approval, edited: bool) -> None:
        self.block = block
        self.reply = block.reply
        self.approval = approval  # the person's decision on the card (_run_gate.py)
        self.steps: tuple[Step, ...] = approval.payload
        steps = self.steps
        self.extra = {"edited": True} if edited else {}
        names = [f"step '{sid}'" for sid in block.ids]
        self.gate = Gate([observed(s.observe) for s in steps], [s.yields for s in steps],
                         names, "the block")
        self.all_done = True
        for index in range(len(steps)):  # a snapshot knows the block runs, and what is left
            self.remember(index, begun=False)
        #: step index → the worker thread's future of a step run by an ``in_thread`` executor
        self.threads: dict[int, asyncio.Future[Any]] = {}

    def remember(self, index: int, *, begun: bool) -> None:
        step = self.steps[index]
        self.reply.state.started(self.reply, self.block.ids[index], f"{EXECUTE}:{step.env}",
                                 step_headline(step), begun=begun, block=self.block.id,
                                 command=step.command, **self.extra)

    def settle(self, index: int, status: str, *, quiet: bool = False, **fields: Any) -> None:
        step = self.steps[index]
        self.reply.settle(self.block.ids[index], f"{EXECUTE}:{step.env}", status,
                          step_headline(step), quiet=quiet, block=self.block.id,
                          command=step.command, **fields, **self.extra)
        if status != "done":
            self.all_done = False

    async def all(self) -> bool:
        running: dict[asyncio.Task[Any], int] = {}
        settled: set[int] = set()
        try:
            while True:
                for index in self.gate.take_ready():
                    task = asyncio.ensure_future(self._one(index, self.steps[index]))
                    running[task] = index
                if not running:
                    break
                done, _ = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
                for task in sorted(done, key=lambda t: running[t]):
                    index = running.pop(task)
                    settled.add(index)
                    self._finish(index, task)
        except BaseException:
            for task, index in running.items():
                settled.add(index)
                self._interrupted(index, task)
            for index in range(len(self.steps)):
                if index not in settled:
                    self.settle(index, "skipped", quiet=True,
                                hint="Interrupted before it started.")
            raise
        for index in self.gate.never_ready():
            self.settle(index, "skipped", hint=f"It did not run: {self.gate.why_not(index)}.")
        return self.all_done

    async def _one(self, index: int, step: Step) -> Any:
        self.remember(index, begun=True)
        running = start_step(self.reply.state, self.approval, self.block.id, step,
                             self.block.ids[index])  # its progress notices carry its id
        if isinstance(running, asyncio.Future):  # blocking (http): on a worker thread
            self.threads[index] = running
            return await asyncio.shield(running)
        return await running

    def _interrupted(self, index: int, task: asyncio.Task[Any]) -> None:
        """A started step when the block is interrupted: its real end, whenever that is — at
        once when it had finished, when its worker thread ends, else (a coroutine, cancelled
        now) failed as interrupted."""
        if task.done() and not task.cancelled():
            error = task.exception()
            self._ended(index, error is None, task.result() if error is None else error)
            return
        task.cancel()
        thread = self.threads.get(index)
        if thread is None:
            self._ended(index, False, None)
        else:
            on_end(thread, lambda ok, value: self._ended(index, ok, value))

    def _ended(self, index: int, ok: bool, value: Any) -> None:
        fields = ended(ok, value)
        self.settle(index, fields.pop("status"), quiet=True, **fields)

    def _finish(self, index: int, task: asyncio.Task[Any]) -> None:
        step = self.steps[index]
        if task.cancelled():  # the executor itself was cancelled from elsewhere
            self.settle(index, "failed", **interrupted())
            self.gate.resolve(index, "was interrupted", ())
            return
        error = task.exception()
        if error is None:
            self.settle(index, "done", **returned(task.result()))
            self.gate.resolve(index, "succeeded", step.yields)
        else:
            self.settle(index, "failed", **failure(error))
            self.gate.resolve(index, "failed", ())
