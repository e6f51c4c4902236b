"""SchemaDomain: a domain whose actions are described with JSON Schemas.

A domain is the vocabulary an agent may propose from (dial-runtime.md, "The domain"): the
runtime reads ``actions`` and calls ``validate``, ``preview``, ``run`` and ``context``. Here each
action is a JSON Schema for its payload plus a run function, so the agent's payloads and the
person's edits are validated alike and every refusal names the field and how to fix it.

    notes = SchemaDomain("notes", context=lambda: f'<context notes="{len(store)}"/>')

    @notes.action(schema={...}, mutates=True, preview="Add the note '{text}'")
    def add_note(payload): ...             # the action 'add-note'

Three ways to define actions: the decorator above, ``SchemaDomain.from_dict`` and
``SchemaDomain.from_file`` (JSON or YAML, run functions bound afterwards with ``bind`` /
``runs``). An action that ``mutates`` may have ``undo(payload, result)``; every successful
mutating run is kept in ``history`` so ``undo_last`` can take the latest change back.

Three optional functions per action tell the person more before and after a run, each
reached through the domain method of the same name (all return ``None`` / a reason when the
action has no such function):

- ``dry_run(payload) -> dict``: what the run would do, without doing it (never changing
  state; kept fast): ``{"summary": str, "effect": {...}, "code": str, "note": str}``, the
  last two optional, all JSON.
- ``code(payload) -> str``: the code one run amounts to, for a card to show.
- ``undoable(payload, result) -> True | str``: whether that run can be taken back exactly
  now, else why not, in words (``undoable`` answers for actions without it: True while the
  run is in ``history``).

The life of a payload here:

    payload ── None is read as {} ──▶ validate: depth, JSON Schema, check(payload)
        ├─ refused ─▶ {'ok': False, 'code', 'field', 'hint', 'errors'}
        └─ ok ─▶ preview (template or callable) ─▶ run (sync or async)
                 ─▶ history (mutating actions) ─▶ undoable? ─▶ undo
        └─ ok ─▶ dry_run / code (before it runs: nothing changes)

Here is the runtime's side (validate, preview, run, dry runs, undo); defining the actions and
reading them back is ``ActionTable``'s (``_action_table``), one action's spec and the checks
of its options ``_action_spec``'s, the domain file ``_domain_file``'s.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable
from typing import Any

from ._action_spec import ActionOptions, ActionSpec, Payload, RunRecord
from ._action_table import ActionTable
from ._errors import ActionError, refusal
from ._preview import render, summary

__all__ = ["ActionOptions", "ActionSpec", "RunRecord", "SchemaDomain"]

# defined in _action_spec, shown (in reprs, help() and pickles) where callers import them from
ActionOptions.__module__ = ActionSpec.__module__ = RunRecord.__module__ = __name__


class SchemaDomain(ActionTable):
    """A domain of actions described with JSON Schemas.

    Args:
        name: the domain's name.
        context: ``context() -> str`` sent to the agent with every turn, or a fixed string.
        schemas: shared schemas (each with an ``$id``) that actions may ``$ref``; nothing
            else is ever resolved, and nothing is fetched.
        description: what the domain is for, for the agent's system prompt.

        >>> notes = SchemaDomain("notes")
        >>> @notes.action(schema={"type": "object", "required": ["text"]}, preview="Add '{text}'")
        ... def add_note(payload):
        ...     '''Add a note.'''
        ...     return {"id": 1}
        >>> notes.validate("add-note", {})["hint"]
        'text is required'
        >>> notes.run("add-note", {"text": "buy milk"})
        {'id': 1}
    """

    def __repr__(self) -> str:
        return f"SchemaDomain({self.name!r}, actions={list(self._actions)!r})"

    # The runtime's domain interface

    def context(self) -> str:
        """What the agent is told with every turn about the domain's state ('' for nothing)."""
        if callable(self._context):
            return str(self._context())
        return self._context or ""

    def validate(self, action: str, payload: Any) -> dict[str, Any]:
        """``{'ok': True}``, or ``{'ok': False, 'code', 'field', 'hint', 'errors'}``."""
        spec = self._actions.get(action)
        if spec is None:
            message = f"There is no action '{action}'."
            return refusal([{"field": "", "message": message}], code="unknown-action")
        payload = {} if payload is None else payload
        verdict = self._validator(spec).validate(payload)
        if not verdict["ok"] or spec.check is None:
            return verdict
        try:
            spec.check(payload)
        except ActionError as error:
            code = "invalid-payload" if error.code == "action-failed" else error.code
            message = error.hint or str(error)
            return refusal([{"field": error.field or "", "message": message}], code=code)
        return verdict

    def preview(self, action: str, payload: Any) -> str:
        """What the person is shown: the action's template or function, else a summary."""
        spec = self._spec(action, error=KeyError)
        payload = {} if payload is None else payload
        try:
            if isinstance(spec.preview, str):
                return render(spec.preview, payload)
            if spec.preview is not None:
                return str(spec.preview(payload))
        except Exception:  # a preview must never stop a suggestion: fall back to the summary
            pass
        return summary(action, payload)

    def run(self, action: str, payload: Any) -> Any:
        """Validate ``payload`` again and run ``action``; the result, or an awaitable of it
        when the run function is async. Raises ``ActionError`` when it cannot run."""
        spec = self._spec(action, error=ActionError)
        if spec.run is None:
            raise ActionError(
                f"action {action!r} has no run function", code="not-bound",
                hint=f"bind one with domain.bind({action!r}, function)",
            )
        payload = self._checked(action, payload)
        result = spec.run(payload)
        if inspect.isawaitable(result):
            return self._settle(spec, payload, result)
        self._record(spec, payload, result)
        return result

    # Before a run: what it would do, and its code

    def dry_run(self, action: str, payload: Any) -> dict[str, Any] | None:
        """What running ``action`` would do, changing nothing: its ``dry_run(payload)``
        (``{"summary", "effect", "code"?, "note"?}``), or None when it has none. Raises
        ``ActionError`` for a payload that would be refused, or a change that would fail.

            >>> domain = SchemaDomain("d")
            >>> _ = domain.add_action("ping", dry_run=lambda p: {"summary": "pings", "effect": {}})
            >>> domain.dry_run("ping", {})
            {'summary': 'pings', 'effect': {}}
        """
        spec = self._spec(action, error=ActionError)
        if spec.dry_run is None:
            return None
        payload = self._checked(action, payload)
        return spec.dry_run(payload)

    def code(self, action: str, payload: Any) -> str | None:
        """The code one run of ``action`` with ``payload`` amounts to (its ``code(payload)``),
        or None when it has none. Raises ``ActionError`` for a payload that would be refused."""
        spec = self._spec(action, error=ActionError)
        if spec.code is None:
            return None
        return spec.code(self._checked(action, payload))

    # Undo

    def undoable(self, action: str, payload: Any, result: Any) -> bool | str:
        """True when this run of ``action`` (its payload and result) can be taken back exactly
        now, else why it no longer can, in a few words; False for an action without undo (it
        never could be, so there is nothing to explain). Never raises.

            >>> domain = SchemaDomain("d")
            >>> _ = domain.add_action("ping", run=lambda p: "pong")
            >>> domain.undoable("ping", {}, domain.run("ping", {}))
            False
        """
        spec = self._actions.get(action)
        if spec is None:
            return f"there is no action {action!r}"
        if spec.undo is None:
            return False
        if spec.mutates and self._run_index(action, payload, result) is None:
            return "it was already undone, or did not run here"
        if spec.undoable is None:
            return True
        try:
            verdict = spec.undoable({} if payload is None else payload, result)
        except Exception as error:  # a check must never stop the card: say why in words
            return f"it cannot be undone now ({type(error).__name__})"
        if verdict is True:
            return True
        return verdict if isinstance(verdict, str) and verdict else "it cannot be undone now"

    def undo(self, action: str, payload: Any, result: Any) -> Any:
        """Take back one run of ``action`` (its ``undo(payload, result)``; an awaitable when
        that is async). Raises ``ActionError`` when the action cannot be undone."""
        spec = self._spec(action, error=ActionError)
        if spec.undo is None:
            raise ActionError(f"{action!r} cannot be undone", code="not-undoable")
        outcome = spec.undo({} if payload is None else payload, result)
        index = self._run_index(action, payload, result)
        if index is not None:
            del self.history[index]
        return outcome

    def undo_last(self) -> RunRecord | None:
        """Undo the latest change still in ``history`` and return it (``None`` when there is
        none). Raises ``ActionError`` when that change cannot be undone. For an async undo,
        use ``await domain.undo(record.action, record.payload, record.result)``."""
        if not self.history:
            return None
        record = self.history[-1]
        outcome = self.undo(record.action, record.payload, record.result)
        if inspect.isawaitable(outcome):
            raise ActionError(
                f"the undo of {record.action!r} is async", code="async-undo",
                hint="await domain.undo(record.action, record.payload, record.result)",
            )
        return record

    # Internals

    def _checked(self, action: str, payload: Any) -> Payload:
        """``payload`` (None read as {}), or ``ActionError`` when validation refuses it."""
        payload = {} if payload is None else payload
        verdict = self.validate(action, payload)
        if not verdict["ok"]:
            raise ActionError(
                verdict["hint"], code=verdict["code"], field=verdict["field"], hint=verdict["hint"]
            )
        return payload

    def _run_index(self, action: str, payload: Any, result: Any) -> int | None:
        """Where this run is in ``history``: the latest record of ``action`` holding this
        very result (and payload), else one equal to it (a result that went through JSON)."""
        payload = {} if payload is None else payload
        best, best_score = None, 0
        for index in range(len(self.history) - 1, -1, -1):
            record = self.history[index]
            if record.action != action:
                continue
            same_payload = _equal(record.payload, payload)
            if record.result is result:
                score = 3 if same_payload else 2
            else:
                score = 1 if same_payload and _equal(record.result, result) else 0
            if score > best_score:
                best, best_score = index, score
        return best

    def _record(self, spec: ActionSpec, payload: Any, result: Any) -> None:
        if spec.mutates:
            self.history.append(RunRecord(spec.name, payload, result))

    async def _settle(self, spec: ActionSpec, payload: Any, pending: Awaitable[Any]) -> Any:
        result = await pending
        self._record(spec, payload, result)
        return result


def _equal(one: Any, two: Any) -> bool:
    try:
        return bool(one == two)
    except Exception:  # values that compare element-wise (arrays, frames) are not equal here
        return False
