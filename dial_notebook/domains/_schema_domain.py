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
"""

from __future__ import annotations

import copy
import inspect
import json
import re
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, TypedDict, TypeVar, Unpack

import referencing.jsonschema
from referencing import Registry, Resource

from .._options import keyword_signature
from ._errors import ActionError, refusal
from ._hints import did_you_mean
from ._preview import check_template, render, summary

if TYPE_CHECKING:
    from ._validation import PayloadValidator

# ._validation is imported when first needed: jsonschema takes seconds to import where the
# optional rfc3987-syntax is installed (it builds a grammar), and importing dial_notebook
# should not wait for that.

Payload = dict[str, Any]
RunFunction = Callable[[Payload], Any]
UndoFunction = Callable[[Payload, Any], Any]
CheckFunction = Callable[[Payload], None]
PreviewFunction = Callable[[Payload], str]
DryRunFunction = Callable[[Payload], dict[str, Any]]
CodeFunction = Callable[[Payload], str]
UndoableFunction = Callable[[Payload, Any], "bool | str"]
F = TypeVar("F", bound=Callable[..., Any])

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:-]*$")
_SPEC_KEYS = (
    "schema", "mutates", "destructive", "handoff", "preview", "run", "undo", "check", "description",
    "dry_run", "code", "undoable",
)
_FUNCTION_KEYS = ("run", "undo", "check", "dry_run", "code", "undoable")
_FILE_KEYS = ("name", "description", "context", "schemas", "actions")


@dataclass
class ActionSpec:
    """One action: its payload's schema, how the runtime treats it, and its functions.

    Readable as a mapping too (``spec["mutates"]``), as the runtime accepts either.

    Args:
        name: the action's name, as the agent writes it in ``<dial-suggest action=…>``.
        schema: the JSON Schema of its payload.
        mutates: False for read-only actions, which run without asking the person.
        destructive: shown to the person as a warning.
        handoff: runs at once and ends ``handed-off`` (another panel takes it over).
        preview: a template (``"Add the note '{text}'"``) or ``preview(payload) -> str``.
        run: ``run(payload)``, sync or async; raises (``ActionError``) to fail.
        undo: ``undo(payload, result)`` takes a successful run back.
        check: ``check(payload)`` raises ``ActionError`` for what a schema cannot say
            (a note that does not exist); run after the schema passes.
        description: what the action does, for the agent's system prompt.
        dry_run: ``dry_run(payload) -> dict`` says what a run would do without changing
            anything: ``{"summary", "effect", "code"?, "note"?}``, JSON.
        code: ``code(payload) -> str``, the code one run amounts to.
        undoable: ``undoable(payload, result) -> True | str``, whether that run can be
            undone exactly now, else why not (for an action with ``undo``).
    """

    name: str
    schema: dict[str, Any]
    mutates: bool = True
    destructive: bool = False
    handoff: bool = False
    preview: str | PreviewFunction | None = None
    run: RunFunction | None = None
    undo: UndoFunction | None = None
    check: CheckFunction | None = None
    description: str = ""
    dry_run: DryRunFunction | None = None
    code: CodeFunction | None = None
    undoable: UndoableFunction | None = None

    def __getitem__(self, key: str) -> Any:
        if key in _SPEC_KEYS or key == "name":
            return getattr(self, key)
        raise KeyError(key)

    def get(self, key: str, default: Any = None) -> Any:
        """The attribute ``key``, or ``default``."""
        try:
            return self[key]
        except KeyError:
            return default


class ActionOptions(TypedDict, total=False):
    """How the runtime treats an action, and its functions (see ``ActionSpec``): the options
    of ``SchemaDomain.action`` and ``add_action``, written once."""

    mutates: bool
    destructive: bool
    handoff: bool
    preview: str | PreviewFunction | None
    undo: UndoFunction | None
    check: CheckFunction | None
    description: str | None
    dry_run: DryRunFunction | None
    code: CodeFunction | None
    undoable: UndoableFunction | None


#: Each option's default.
ACTION_DEFAULTS: dict[str, Any] = {"mutates": True, "destructive": False, "handoff": False,
                                   "preview": None, "undo": None, "check": None,
                                   "description": None, "dry_run": None, "code": None,
                                   "undoable": None}


@dataclass(frozen=True)
class RunRecord:
    """A successful run of a mutating action, kept so that it can be undone."""

    action: str
    payload: Any
    result: Any = field(compare=False)


class SchemaDomain:
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

    def __init__(
        self,
        name: str,
        *,
        context: Callable[[], str] | str | None = None,
        schemas: Iterable[Mapping[str, Any]] = (),
        description: str = "",
    ) -> None:
        self.name = name
        self.description = description
        #: Successful runs of mutating actions, oldest first.
        self.history: list[RunRecord] = []
        self._context = context
        self._actions: dict[str, ActionSpec] = {}
        # The shared schemas and actions' schemas with an $id: all that $ref may reach.
        self._resources: dict[str, Resource[Any]] = {}
        # Compiled validators by action name, dropped whenever the registry changes.
        self._validators: dict[str, PayloadValidator] = {}
        self._shared: list[dict[str, Any]] = [copy.deepcopy(dict(s)) for s in schemas]
        for schema in self._shared:
            self._add_resource(dict(schema), required=True)

    def __repr__(self) -> str:
        return f"SchemaDomain({self.name!r}, actions={list(self._actions)!r})"

    # Defining actions

    @property
    def actions(self) -> Mapping[str, ActionSpec]:
        """The actions by name (read-only)."""
        return MappingProxyType(self._actions)

    def action(
        self,
        schema: Mapping[str, Any] | None = None,
        *,
        name: str | None = None,
        **options: Unpack[ActionOptions],
    ) -> Callable[[F], F]:
        """Decorate a run function to make it an action (named after it: ``add_note`` is
        ``'add-note'``). The function is returned unchanged. The options are ``ActionSpec``'s.

            @todo.action(schema={"type": "object"}, mutates=False)
            def list_todos(payload): ...
        """

        def decorate(run: F) -> F:
            self.add_action(name or run.__name__.replace("_", "-"), schema=schema, run=run,
                            **options)
            return run

        return decorate

    def add_action(
        self,
        name: str,
        *,
        schema: Mapping[str, Any] | None = None,
        run: RunFunction | None = None,
        **options: Unpack[ActionOptions],
    ) -> ActionSpec:
        """Add an action; raises ``ValueError`` for a bad name or schema, ``TypeError`` for a
        flag or function of the wrong type, or an option there is not (naming the closest).
        ``schema`` defaults to any object. The options are ``ActionSpec``'s.

            todo.add_action("list-todos", run=lambda payload: todos, mutates=False)
        """
        unknown = [key for key in options if key not in ACTION_DEFAULTS]
        if unknown:
            raise TypeError(f"action {name!r}: there is no option {unknown[0]!r}"
                            f"{did_you_mean(unknown[0], ACTION_DEFAULTS)}")
        spec = self._build(name, schema=schema, run=run, **options)
        self._register(spec)
        self._verify_schema(spec)
        return spec

    def _build(
        self,
        name: str,
        *,
        schema: Any = None,
        run: Any = None,
        mutates: Any = True,
        destructive: Any = False,
        handoff: Any = False,
        preview: Any = None,
        undo: Any = None,
        check: Any = None,
        description: str | None = None,
        dry_run: Any = None,
        code: Any = None,
        undoable: Any = None,
    ) -> ActionSpec:
        """The spec of a new action, every option checked but its refs (see _verify_schema)."""
        if not isinstance(name, str) or not _NAME.match(name):
            raise ValueError(f"action name {name!r} must be letters, digits and . _ : -")
        if name in self._actions:
            raise ValueError(f"action {name!r} is already defined in domain {self.name!r}")
        if schema is not None and not isinstance(schema, Mapping):
            raise TypeError(f"action {name!r}: schema must be a JSON Schema object (a dict)")
        schema = copy.deepcopy(dict(schema)) if schema is not None else {"type": "object"}
        flags = (("mutates", mutates), ("destructive", destructive), ("handoff", handoff))
        for flag, value in flags:
            if not isinstance(value, bool):
                raise TypeError(f"action {name!r}: {flag} must be True or False, not {value!r}")
        functions = (("run", run), ("undo", undo), ("check", check), ("dry_run", dry_run),
                     ("code", code), ("undoable", undoable))
        for role, function in functions:
            if function is not None and not callable(function):
                raise TypeError(f"action {name!r}: {role} must be a function")
        if isinstance(preview, str):
            check_template(preview)
        elif preview is not None and not callable(preview):
            raise TypeError(f"action {name!r}: preview must be a template string or a function")
        if description is None:
            description = _first_paragraph(inspect.getdoc(run) if run else None)
            description = description or str(schema.get("description", ""))
        from ._validation import validator_class

        try:
            validator_class(schema)
        except ValueError as error:
            raise ValueError(f"action {name!r}: {error}") from None
        return ActionSpec(
            name=name, schema=schema, mutates=mutates, destructive=destructive, handoff=handoff,
            preview=preview, run=run, undo=undo, check=check, description=description,
            dry_run=dry_run, code=code, undoable=undoable,
        )

    def _register(self, spec: ActionSpec) -> None:
        self._add_resource(spec.schema, required=False)
        self._actions[spec.name] = spec

    def bind(
        self,
        name: str,
        run: RunFunction,
        *,
        undo: UndoFunction | None = None,
        dry_run: DryRunFunction | None = None,
        code: CodeFunction | None = None,
        undoable: UndoableFunction | None = None,
    ) -> None:
        """Give the action ``name`` (defined from a dict or a file) its run function, and
        those of its other functions that are given (see ``ActionSpec``)."""
        spec = self._spec(name, error=KeyError)
        functions = {"undo": undo, "dry_run": dry_run, "code": code, "undoable": undoable}
        if not callable(run) or any(f is not None and not callable(f) for f in functions.values()):
            raise TypeError(f"action {name!r}: run, {', '.join(functions)} must be functions")
        spec.run = run
        for role, function in functions.items():
            if function is not None:
                setattr(spec, role, function)
        if not spec.description:
            spec.description = _first_paragraph(inspect.getdoc(run))

    def runs(self, name: str) -> Callable[[F], F]:
        """Decorator form of ``bind``: ``@domain.runs("add-note")``."""

        def decorate(run: F) -> F:
            self.bind(name, run)
            return run

        return decorate

    def undoes(self, name: str) -> Callable[[F], F]:
        """Decorate ``undo(payload, result)`` for the action ``name``."""

        def decorate(undo: F) -> F:
            spec = self._spec(name, error=KeyError)
            if not callable(undo):
                raise TypeError(f"action {name!r}: undo must be a function")
            spec.undo = undo
            return undo

        return decorate

    @classmethod
    def from_dict(
        cls,
        name: str,
        actions: Mapping[str, Mapping[str, Any]],
        *,
        context: Callable[[], str] | str | None = None,
        schemas: Iterable[Mapping[str, Any]] = (),
        description: str = "",
    ) -> SchemaDomain:
        """A domain from a dict of action specs, name → ``{schema, mutates, destructive,
        handoff, preview, run, undo, check, description, dry_run, code, undoable}`` (all
        optional).

            >>> domain = SchemaDomain.from_dict("notes", {
            ...     "list-notes": {"schema": {"type": "object"}, "mutates": False},
            ... })
            >>> domain.actions["list-notes"].mutates
            False
        """
        domain = cls(name, context=context, schemas=schemas, description=description)
        if not isinstance(actions, Mapping):
            raise TypeError("actions must be a dict of action name → spec")
        for action, spec in actions.items():
            if not isinstance(spec, Mapping):
                raise TypeError(f"action {action!r}: its spec must be a dict")
            unknown = [key for key in spec if key not in _SPEC_KEYS]
            if unknown:
                hint = did_you_mean(unknown[0], _SPEC_KEYS)
                raise ValueError(f"action {action!r}: unknown key {unknown[0]!r}{hint}")
            domain._register(domain._build(action, **spec))
        for defined in list(domain._actions.values()):  # refs may name any action's $id
            domain._verify_schema(defined)
        return domain

    @classmethod
    def from_file(
        cls, path: str | Path, *, context: Callable[[], str] | str | None = None
    ) -> SchemaDomain:
        """A domain from a JSON or YAML file (``.json``, ``.yaml``, ``.yml``) holding
        ``{name, description, context, schemas, actions}``; ``actions`` as in ``from_dict``
        without functions (bind them afterwards with ``bind`` or ``runs``).

            domain = SchemaDomain.from_file("notes.yaml")
            domain.bind("add-note", add_note)
        """
        path = Path(path)
        source = path.read_text(encoding="utf-8")
        if path.suffix.lower() in (".yaml", ".yml"):
            try:
                import yaml
            except ImportError:
                raise ImportError(
                    "reading a domain from YAML needs PyYAML: pip install dial-notebook[yaml]"
                ) from None
            data = yaml.safe_load(source)
        else:
            data = json.loads(source)
        if not isinstance(data, dict):
            raise ValueError(f"{path}: a domain file holds an object with 'actions'")
        unknown = [key for key in data if key not in _FILE_KEYS]
        if unknown:
            hint = did_you_mean(unknown[0], _FILE_KEYS)
            raise ValueError(f"{path}: unknown key {unknown[0]!r}{hint}")
        for action, spec in (data.get("actions") or {}).items():
            for key in _FUNCTION_KEYS:
                if isinstance(spec, dict) and key in spec:
                    raise ValueError(
                        f"{path}: action {action!r}: bind {key} in Python, not in the file"
                    )
        return cls.from_dict(
            str(data.get("name") or path.stem),
            data.get("actions") or {},
            context=context if context is not None else data.get("context"),
            schemas=data.get("schemas") or (),
            description=str(data.get("description") or ""),
        )

    def to_dict(self) -> dict[str, Any]:
        """The domain as ``from_file`` reads it: name, description, context (when it is
        text), shared schemas, and each action's schema, flags, preview template and
        description. Functions are left out: bind them again after loading.

            >>> SchemaDomain.from_dict("d", {"ping": {"schema": {"type": "object"},
            ...                                       "mutates": False}}).to_dict()["actions"]
            {'ping': {'schema': {'type': 'object'}, 'mutates': False, 'destructive': False, 'handoff': False}}
        """
        actions: dict[str, Any] = {}
        for spec in self._actions.values():
            entry: dict[str, Any] = {"schema": copy.deepcopy(spec.schema),
                                     "mutates": spec.mutates, "destructive": spec.destructive,
                                     "handoff": spec.handoff}
            if isinstance(spec.preview, str):
                entry["preview"] = spec.preview
            if spec.description:
                entry["description"] = spec.description
            actions[spec.name] = entry
        data: dict[str, Any] = {"name": self.name}
        if self.description:
            data["description"] = self.description
        if isinstance(self._context, str) and self._context:
            data["context"] = self._context
        if self._shared:
            data["schemas"] = copy.deepcopy(self._shared)
        data["actions"] = actions
        return data

    def save(self, path: str | Path) -> Path:
        """Write ``to_dict()`` as JSON (or YAML for ``.yaml``/``.yml``) for ``from_file``.

            domain.save("todo.json"); SchemaDomain.from_file("todo.json")
        """
        path = Path(path)
        data = self.to_dict()
        if path.suffix.lower() in (".yaml", ".yml"):
            try:
                import yaml
            except ImportError:
                raise ImportError(
                    "writing a domain as YAML needs PyYAML: pip install dial-notebook[yaml]"
                ) from None
            text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
        else:
            text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
        path.write_text(text, encoding="utf-8")
        return path

    # What the widget and the system prompt read

    def schema(self, action: str) -> dict[str, Any]:
        """A copy of the JSON Schema of ``action``'s payload."""
        return copy.deepcopy(self._spec(action, error=KeyError).schema)

    def describe(self) -> list[dict[str, Any]]:
        """Every action as a plain dict: name, description, schema, mutates, destructive,
        handoff, undoable, and preview (the template, or None when it is a function)."""
        return [
            {
                "name": spec.name,
                "description": spec.description,
                "schema": copy.deepcopy(spec.schema),
                "mutates": spec.mutates,
                "destructive": spec.destructive,
                "handoff": spec.handoff,
                "undoable": spec.undo is not None,
                "preview": spec.preview if isinstance(spec.preview, str) else None,
            }
            for spec in self._actions.values()
        ]

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

    def _spec(self, action: str, *, error: type[Exception]) -> ActionSpec:
        spec = self._actions.get(action)
        if spec is not None:
            return spec
        hint = f"There is no action '{action}'.{did_you_mean(action, self._actions)}"
        if error is ActionError:
            raise ActionError(hint, code="unknown-action")
        raise error(hint)

    def _validator(self, spec: ActionSpec) -> PayloadValidator:
        from ._validation import PayloadValidator

        validator = self._validators.get(spec.name)
        if validator is None:
            validator = PayloadValidator(spec.schema, registry=self._registry())
            self._validators[spec.name] = validator
        return validator

    def _registry(self) -> Registry:
        return Registry().with_resources(self._resources.items())

    def _add_resource(self, schema: dict[str, Any], *, required: bool) -> None:
        resource = Resource.from_contents(
            schema, default_specification=referencing.jsonschema.DRAFT202012
        )
        uri = resource.id()
        if uri is None:
            if required:
                raise ValueError("each shared schema needs an $id for $ref to name it")
            return
        self._resources[uri] = resource
        self._validators.clear()

    def _verify_schema(self, spec: ActionSpec) -> None:
        from ._validation import check_schema

        try:
            check_schema(spec.schema, self._registry())
        except ValueError as error:
            del self._actions[spec.name]
            for uri, resource in list(self._resources.items()):
                if resource.contents is spec.schema:
                    del self._resources[uri]
            self._validators.clear()
            raise ValueError(f"action {spec.name!r}: {error}") from None

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


def _first_paragraph(doc: str | None) -> str:
    return " ".join(doc.split("\n\n", 1)[0].split()) if doc else ""


# help() and editors show each option as a real parameter (the TypedDict is the one list)
SchemaDomain.action.__signature__ = keyword_signature(  # type: ignore[attr-defined]
    SchemaDomain.action, ActionOptions, ACTION_DEFAULTS)
SchemaDomain.add_action.__signature__ = keyword_signature(  # type: ignore[attr-defined]
    SchemaDomain.add_action, ActionOptions, ACTION_DEFAULTS)
