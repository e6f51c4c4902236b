"""Reading a file a person may have been sent — a saved report, a scenario file, a saved
conversation — as data and nothing else: bounded in size and nesting, and every failure one
clear error that names the file and the field.

    read_bytes(path, max_bytes)  ─▶ at most max_bytes, or "FILE: the file is 3.1 MB; … up to 1.0 MB"
    parse_json(data, file)       ─▶ UTF-8 JSON (no NaN / Infinity), nested at most max_depth
                                    (a '[' × 100,000 is refused, never a RecursionError)
    parse_yaml(data, file)       ─▶ safe YAML without anchors or aliases (no "billion laughs"),
                                    refused from its event stream before any tree is built;
                                    only JSON's kinds of value (no dates, sets, bytes)
    type_error(value, kind)      ─▶ (FIELD, message) where a JSON value is not of a TypedDict,
                                    list[...], union … type: one validator for every field
    DataFileError(file, field, message)  ─▶ "FILE: FIELD: message"; ``at`` builds FIELD

    >>> parse_json('{"a": [1, 2]}', "r.json")
    {'a': [1, 2]}
    >>> parse_json("[" * 100_000, "r.json")
    Traceback (most recent call last):
    ...
    dial_notebook._data_files.DataFileError: r.json: it nests more than 256 levels deep
    >>> str(DataFileError("r.json", at("scenarios", 0, "turns"), "must be a whole number"))
    'r.json: scenarios[0].turns: must be a whole number'
"""

from __future__ import annotations

import functools
import json
import math
import os
import reprlib
from collections.abc import Callable
from pathlib import Path
from types import UnionType
from typing import (
    Any,
    Literal,
    NotRequired,
    Required,
    Union,
    get_args,
    get_origin,
    get_type_hints,
    is_typeddict,
)

from ._json_kind import json_kind
from ._nesting import nesting_depth

#: The deepest nesting of lists and objects read (a DIAL payload may nest 200 levels, and a
#: file holds it a few levels down).
MAX_DEPTH = 256

_SHORT = reprlib.Repr()
_SHORT.maxlevel, _SHORT.maxlist, _SHORT.maxdict, _SHORT.maxstring = 3, 4, 4, 80


class DataFileError(ValueError):
    """A file that is not what it should be: which file, which field (``''`` for the file as
    a whole), and what is wrong."""

    def __init__(self, file: str, field: str, message: str) -> None:
        self.file, self.field, self.message = file, field, message
        super().__init__(": ".join(part for part in (file, field, message) if part))


def at(*parts: str | int) -> str:
    """A field's path: names joined by dots, indexes in brackets.

        >>> at("scenarios", 3, "proposals", 0, "errors", 1, "code")
        'scenarios[3].proposals[0].errors[1].code'
    """
    path = ""
    for part in parts:
        if isinstance(part, int):
            path += f"[{part}]"
        elif part:
            path += f".{part}" if path else part
    return path


def shown(value: Any, limit: int = 60) -> str:
    """``repr(value)`` for an error message, at most ``limit`` characters (a file's value may
    be huge; its message stays short).

        >>> shown(list(range(1000)))
        '[0, 1, 2, 3, ...]'
    """
    text = _SHORT.repr(value)  # a few items, a few levels: bounded however big the value
    return text if len(text) <= limit else f"{text[:limit - 1]}…"


def megabytes(size: int) -> str:
    """``size`` bytes in MB, as an error message says it ('1.5 MB')."""
    return f"{size / (1024 * 1024):.1f} MB"


def read_bytes(path: str | os.PathLike[str], *, max_bytes: int, file: str | None = None
               ) -> bytes:
    """The bytes of the file at ``path``, at most ``max_bytes`` (checked before reading and
    while reading: a file that grows is refused too). ``file``: its name in errors."""
    name = str(path) if file is None else file
    target = Path(path)
    try:
        size = target.stat().st_size
        if size > max_bytes:
            raise DataFileError(name, "", f"the file is {megabytes(size)}; files up to "
                                          f"{megabytes(max_bytes)} are read")
        with target.open("rb") as handle:
            data = handle.read(max_bytes + 1)
    except OSError as error:
        raise DataFileError(name, "", f"cannot be read ({error.strerror or error})") from None
    if len(data) > max_bytes:
        raise DataFileError(name, "", f"the file is over {megabytes(max_bytes)}")
    return data


def _text(data: bytes | str, file: str) -> str:
    if isinstance(data, str):
        return data
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise DataFileError(file, "", f"not UTF-8 text (byte {error.start} is "
                                      f"0x{data[error.start]:02x})") from None


class _Constant(ValueError):
    """NaN, Infinity or -Infinity: Python's json reads them, JSON has none."""


def _no_constant(name: str) -> Any:
    raise _Constant(name)


def _shallow(value: Any, file: str, max_depth: int) -> Any:
    if nesting_depth(value, max_depth) > max_depth:
        raise DataFileError(file, "", f"it nests more than {max_depth} levels deep")
    return value


def parse_json(data: bytes | str, file: str, *, max_depth: int = MAX_DEPTH) -> Any:
    """The JSON value in ``data`` (bytes as UTF-8), nested at most ``max_depth`` deep."""
    text = _text(data, file)
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as error:
        raise DataFileError(file, "", f"not valid JSON ({error.msg}, line {error.lineno} "
                                      f"column {error.colno})") from None
    except _Constant as error:
        raise DataFileError(file, "", f"not valid JSON ({error} is not a JSON number)"
                            ) from None
    except RecursionError:
        raise DataFileError(file, "", f"it nests more than {max_depth} levels deep") from None
    return _shallow(value, file, max_depth)


def parse_yaml(data: bytes | str, file: str, *, max_depth: int = MAX_DEPTH) -> Any:
    """The value in the YAML ``data``, read safely: anchors and aliases, nesting past
    ``max_depth`` and values JSON has no kind for (dates, sets, bytes) are refused. Needs
    pyyaml (an ``ImportError`` says how to install it)."""
    try:
        import yaml
    except ImportError:
        raise ImportError('reading YAML needs pyyaml: pip install "dial-notebook[yaml]"'
                          ) from None
    text = _text(data, file)
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        depth = 0
        for event in yaml.parse(text, Loader=loader):  # before any tree is built
            line = f"line {event.start_mark.line + 1}" if event.start_mark else "the file"
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
                raise DataFileError(file, line, "anchors and aliases (&name, *name) are not "
                                                "read; write the value out in full")
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > max_depth:
                    raise DataFileError(file, line, f"it nests more than {max_depth} levels "
                                                    "deep")
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
        value = yaml.load(text, Loader=loader)
    except yaml.YAMLError as error:
        raise DataFileError(file, "", f"not valid YAML: {error}") from None
    except RecursionError:
        raise DataFileError(file, "", f"it nests more than {max_depth} levels deep") from None
    _json_only(value, file)
    return value


def _json_only(value: Any, file: str) -> None:
    """Refuse a value JSON has no kind for (a date, a set, bytes, a key that is not text),
    naming where it is."""
    stack: list[tuple[Any, str]] = [(value, "")]
    while stack:
        item, where = stack.pop()
        if isinstance(item, dict):
            for key, inner in item.items():
                if not isinstance(key, str):
                    raise DataFileError(file, where, f"a key is {json_kind(key)} ({key!r}), "
                                                     "not text")
                stack.append((inner, at(where, key)))
        elif isinstance(item, list):
            stack.extend((inner, at(where, n)) for n, inner in enumerate(item))
        elif isinstance(item, float) and not math.isfinite(item):
            raise DataFileError(file, where, f"{item} is not a JSON number")
        elif not (item is None or isinstance(item, bool | int | float | str)):
            raise DataFileError(file, where, f"is {json_kind(item)}, which JSON has no kind "
                                             "for; quote it to make it text")


def type_error(value: Any, kind: Any, where: str = "") -> tuple[str, str] | None:
    """Where and how the JSON ``value`` is not of the type ``kind`` — a ``TypedDict`` (every
    required key, no unknown one), ``list[...]``, ``dict[str, ...]``, a union, ``Literal``,
    ``str``, ``int`` (not a boolean), ``float`` (any finite number), ``bool``, ``None`` or
    ``Any`` — as ``(field, message)``; ``None`` when it is. Each type is turned into a
    checker once (cached), so checking many events of a few kinds is quick.

        >>> from typing import TypedDict
        >>> class Error(TypedDict):
        ...     code: str | None
        >>> type_error([{"code": ["x"]}], list[Error], "errors")
        ('errors[0].code', 'must be text or null, not a list')
        >>> type_error([{"code": None}], list[Error]) is None
        True
    """
    wrong = _checker(kind)(value)
    if wrong is None:
        return None
    parts, message = wrong
    return at(where, *reversed(parts)), message


#: A compiled check: None when the value fits, else (the path to what is wrong, innermost
#: first, and what is wrong with it).
_Check = Callable[[Any], "tuple[list[str | int], str] | None"]


@functools.cache
def _checker(kind: Any) -> _Check:
    """The check of ``kind`` (see ``type_error``), made once per type."""
    origin, args = get_origin(kind), get_args(kind)
    if kind is Any:
        return lambda value: None
    if origin in (NotRequired, Required):
        return _checker(args[0])
    if origin in (Union, UnionType):
        return _union(args)
    fits, said = _outer(kind), _said(kind)

    def wrong_kind(value: Any) -> tuple[list[str | int], str]:
        return [], f"must be {said}, not {_said_value(value)}"

    if origin is list or origin is dict:
        inner = _checker(args[-1])

        def items(value: Any) -> tuple[list[str | int], str] | None:
            if not fits(value):
                return wrong_kind(value)
            for key, item in (enumerate(value) if origin is list else value.items()):
                if (wrong := inner(item)) is not None:
                    wrong[0].append(key)
                    return wrong
            return None
        return items
    if is_typeddict(kind):
        hints = get_type_hints(kind, include_extras=True)
        fields = {key: _checker(hint) for key, hint in hints.items()}
        required = [key for key in hints if key in kind.__required_keys__]

        def record(value: Any) -> tuple[list[str | int], str] | None:
            if not fits(value):
                return wrong_kind(value)
            for key in required:
                if key not in value:
                    return [], f"has no {key!r}"
            for key, item in value.items():
                check = fields.get(key)
                if check is None:
                    return [key], "is not a known field"
                if (wrong := check(item)) is not None:
                    wrong[0].append(key)
                    return wrong
            return None
        return record
    return lambda value: None if fits(value) else wrong_kind(value)


def _union(arms: tuple[Any, ...]) -> _Check:
    checks = [_checker(arm) for arm in arms]
    fits = [_outer(arm) for arm in arms]
    said = " or ".join(_said(arm) for arm in arms)

    def either(value: Any) -> tuple[list[str | int], str] | None:
        if any(check(value) is None for check in checks):
            return None
        inner = [check for check, fit in zip(checks, fits, strict=True) if fit(value)]
        if len(inner) == 1:  # the right kind of container: say what inside is wrong
            return inner[0](value)
        return [], f"must be {said}, not {_said_value(value)}"
    return either


def _outer(kind: Any) -> Callable[[Any], bool]:
    """Whether a value is the right kind of thing at the top (its insides unchecked)."""
    origin = get_origin(kind)
    if kind is None or kind is type(None):
        return lambda value: value is None
    if origin is Literal:
        options = get_args(kind)
        return lambda value: any(type(value) is type(option) and value == option
                                 for option in options)
    simple: dict[Any, Callable[[Any], bool]] = {
        bool: lambda value: isinstance(value, bool),
        int: lambda value: isinstance(value, int) and not isinstance(value, bool),
        float: lambda value: (isinstance(value, int | float) and not isinstance(value, bool)
                              and math.isfinite(value)),
        str: lambda value: isinstance(value, str),
    }
    if kind in simple:
        return simple[kind]
    if origin is list or kind is list:
        return lambda value: isinstance(value, list)
    if origin is dict or kind is dict or is_typeddict(kind):
        return lambda value: isinstance(value, dict) and all(isinstance(k, str) for k in value)
    if origin in (NotRequired, Required, Union, UnionType) or kind is Any:
        check = _checker(kind)
        return lambda value: check(value) is None
    raise TypeError(f"type_error cannot check {kind!r}")


def _said(kind: Any) -> str:
    """A type in an error message's words."""
    origin = get_origin(kind)
    if kind is None or kind is type(None):
        return "null"
    if origin is Literal:
        return "one of " + ", ".join(repr(option) for option in get_args(kind))
    words = {bool: "true or false", int: "a whole number", float: "a number", str: "text"}
    if kind in words:
        return words[kind]
    if origin is list or kind is list:
        return "a list"
    if origin in (Union, UnionType):
        return " or ".join(_said(arm) for arm in get_args(kind))
    required = [key for key in get_type_hints(kind) if key in kind.__required_keys__
                ] if is_typeddict(kind) else []
    return "an object with " + ", ".join(required) if required else "an object"


def _said_value(value: Any) -> str:
    if isinstance(value, str | int | float) and not isinstance(value, bool):
        return shown(value, 40)
    return json_kind(value)
