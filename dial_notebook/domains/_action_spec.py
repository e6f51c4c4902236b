"""One action of a ``SchemaDomain``: its spec (``ActionSpec``), its options, and the checks a
new action's options go through (``build_spec``); and ``RunRecord``, a run kept for undo.

An action is a JSON Schema for its payload, three flags for the runtime (``mutates``,
``destructive``, ``handoff``), a preview, and up to six functions (``run``, ``undo``,
``check``, ``dry_run``, ``code``, ``undoable``). Every option is checked when the action is
defined, so a wrong one fails there, naming the action, not later in a conversation.

    >>> spec = build_spec("ping", run=lambda payload: "pong", mutates=False)
    >>> spec["mutates"], spec.get("colour", "none")
    (False, 'none')
"""

from __future__ import annotations

import copy
import inspect
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypedDict, TypeVar

from ._preview import check_template

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
#: The keys of an action's spec (in ``SchemaDomain.from_dict``).
SPEC_KEYS = (
    "schema", "mutates", "destructive", "handoff", "preview", "run", "undo", "check", "description",
    "dry_run", "code", "undoable",
)
#: The keys of a spec that are functions (bound in Python, never read from a file).
FUNCTION_KEYS = ("run", "undo", "check", "dry_run", "code", "undoable")


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
        if key in SPEC_KEYS or key == "name":
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


def check_name(name: Any) -> None:
    """``ValueError`` unless ``name`` is letters, digits and . _ : - (a letter or digit first)."""
    if not isinstance(name, str) or not _NAME.match(name):
        raise ValueError(f"action name {name!r} must be letters, digits and . _ : -")


def build_spec(
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
    """The spec of a new action, every option checked but its schema's refs (which need the
    domain's other schemas): ``ValueError`` for a bad name or schema, ``TypeError`` for a
    flag or function of the wrong type."""
    check_name(name)
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
        description = first_paragraph(inspect.getdoc(run) if run else None)
        description = description or str(schema.get("description", ""))
    from ._validation import validator_class  # jsonschema on first use (see _action_table)

    try:
        validator_class(schema)
    except ValueError as error:
        raise ValueError(f"action {name!r}: {error}") from None
    return ActionSpec(
        name=name, schema=schema, mutates=mutates, destructive=destructive, handoff=handoff,
        preview=preview, run=run, undo=undo, check=check, description=description,
        dry_run=dry_run, code=code, undoable=undoable,
    )


def first_paragraph(doc: str | None) -> str:
    """The first paragraph of a docstring, on one line (an action's default description)."""
    return " ".join(doc.split("\n\n", 1)[0].split()) if doc else ""
