"""The actions of a ``SchemaDomain``: how they are defined, and how they are read back.

``ActionTable`` is the vocabulary half of a domain (``SchemaDomain`` adds the runtime's
interface: validate, preview, run, dry runs, undo). Actions are defined three ways — the
``action`` decorator, ``add_action``, or ``from_dict`` / ``from_file`` with run functions bound
afterwards (``bind``, ``runs``, ``undoes``) — and read back as ``actions``, ``schema``,
``describe`` and ``to_dict`` / ``save``. Every option is checked when the action is defined
(``_action_spec``), and its schema's ``$ref``s against the domain's registry
(``_schema_registry``).

    >>> table = ActionTable("notes")
    >>> _ = table.add_action("list-notes", mutates=False)
    >>> table.describe()[0]["schema"]
    {'type': 'object'}
"""

from __future__ import annotations

import copy
import inspect
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Self, Unpack

from .._options import keyword_signature
from ._action_spec import (
    ACTION_DEFAULTS,
    SPEC_KEYS,
    ActionOptions,
    ActionSpec,
    CodeFunction,
    DryRunFunction,
    F,
    RunFunction,
    RunRecord,
    UndoableFunction,
    UndoFunction,
    build_spec,
    check_name,
    first_paragraph,
)
from ._domain_file import read_domain_file, write_domain_file
from ._errors import ActionError
from ._phrasing import did_you_mean
from ._schema_registry import SchemaRegistry

if TYPE_CHECKING:
    from ._validation import PayloadValidator

# ._validation is imported when first needed (_action_spec, _schema_registry): jsonschema takes
# seconds to import where the optional rfc3987-syntax is installed (it builds a grammar), and
# importing dial_notebook should not wait for that.


class ActionTable:
    """The actions of a domain by name, the schemas their ``$ref``s may reach, and the
    domain's state (its name, context and ``history`` of runs); the arguments are
    ``SchemaDomain``'s."""

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
        # The shared schemas and actions' schemas with an $id (all that $ref may reach), and
        # the actions' compiled validators.
        self._schemas = SchemaRegistry()
        self._shared: list[dict[str, Any]] = [copy.deepcopy(dict(s)) for s in schemas]
        for schema in self._shared:
            self._schemas.add(dict(schema), required=True)

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

    def _build(self, name: str, **options: Any) -> ActionSpec:
        """The spec of a new action, every option checked but its refs (see _verify_schema)."""
        check_name(name)
        if name in self._actions:
            raise ValueError(f"action {name!r} is already defined in domain {self.name!r}")
        return build_spec(name, **options)

    def _register(self, spec: ActionSpec) -> None:
        self._schemas.add(spec.schema, required=False)
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
            spec.description = first_paragraph(inspect.getdoc(run))

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
    ) -> Self:
        """A domain from a dict of action specs, name → ``{schema, mutates, destructive,
        handoff, preview, run, undo, check, description, dry_run, code, undoable}`` (all
        optional).

            >>> from dial_notebook import SchemaDomain
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
            unknown = [key for key in spec if key not in SPEC_KEYS]
            if unknown:
                hint = did_you_mean(unknown[0], SPEC_KEYS)
                raise ValueError(f"action {action!r}: unknown key {unknown[0]!r}{hint}")
            domain._register(domain._build(action, **spec))
        for defined in list(domain._actions.values()):  # refs may name any action's $id
            domain._verify_schema(defined)
        return domain

    @classmethod
    def from_file(
        cls, path: str | Path, *, context: Callable[[], str] | str | None = None
    ) -> Self:
        """A domain from a JSON or YAML file (``.json``, ``.yaml``, ``.yml``) holding
        ``{name, description, context, schemas, actions}``; ``actions`` as in ``from_dict``
        without functions (bind them afterwards with ``bind`` or ``runs``).

            domain = SchemaDomain.from_file("notes.yaml")
            domain.bind("add-note", add_note)
        """
        path = Path(path)
        data = read_domain_file(path)
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

            >>> from dial_notebook import SchemaDomain
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
        return write_domain_file(Path(path), self.to_dict())

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

    # Internals

    def _spec(self, action: str, *, error: type[Exception]) -> ActionSpec:
        spec = self._actions.get(action)
        if spec is not None:
            return spec
        hint = f"There is no action '{action}'.{did_you_mean(action, self._actions)}"
        if error is ActionError:
            raise ActionError(hint, code="unknown-action")
        raise error(hint)

    def _validator(self, spec: ActionSpec) -> PayloadValidator:
        return self._schemas.validator(spec.name, spec.schema)

    def _verify_schema(self, spec: ActionSpec) -> None:
        try:
            self._schemas.verify(spec.schema)
        except ValueError as error:
            del self._actions[spec.name]
            raise ValueError(f"action {spec.name!r}: {error}") from None


# help() and editors show each option as a real parameter (the TypedDict is the one list)
ActionTable.action.__signature__ = keyword_signature(  # type: ignore[attr-defined]
    ActionTable.action, ActionOptions, ACTION_DEFAULTS)
ActionTable.add_action.__signature__ = keyword_signature(  # type: ignore[attr-defined]
    ActionTable.add_action, ActionOptions, ACTION_DEFAULTS)

