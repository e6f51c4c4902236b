"""The plain pandas code a dataframes change amounts to, and the script of all of them.

Each function here writes the code of one change exactly as the domain runs it (same calls,
same arguments), so the code gives the frame the run gives: values, dtypes, index, column
order and NaN handling alike. Nothing here runs the change, and nothing agent-written reaches
the code except as a quoted literal: names that are not plain identifiers are written
``globals()["name"]``, text is escaped, comments hold printable characters only.

    >>> import pandas as pd
    >>> sales = pd.DataFrame({"price": [2.0], "units": [3], "unit price": [1.0]})
    >>> add_column("sales", sales, "revenue", "price * units")
    'sales["revenue"] = sales["price"] * sales["units"]'
    >>> add_column("sales", sales, "half", 'round(col("unit price") / 2, 1)')
    'sales["half"] = (sales["unit price"] / 2).round(1)'
    >>> filter_rows("sales", "cheap", sales, [("price", "<", 3), ("units", "in", [1, 3])])
    'cheap = sales[(sales["price"] < 3) & sales["units"].isin([1, 3])]'
"""

from __future__ import annotations

import ast
import keyword
import math
from collections.abc import Iterable, Sequence
from typing import Any

from . import _expressions

#: The name the code gives numpy (``import numpy as np``): sqrt, log, …, numpy numbers, nan.
NUMPY = "np"

# Precedence of what an expression's code is, loosest first (Python's order).
_COMPARE, _OR, _AND, _SUM, _TERM, _UNARY, _POWER, _ATOM = range(8)
_BINARY = {
    ast.Add: ("+", _SUM), ast.Sub: ("-", _SUM), ast.Mult: ("*", _TERM), ast.Div: ("/", _TERM),
    ast.FloorDiv: ("//", _TERM), ast.Mod: ("%", _TERM), ast.Pow: ("**", _POWER),
    ast.BitAnd: ("&", _AND), ast.BitOr: ("|", _OR),
}
_COMPARE_OPS = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">",
                ast.GtE: ">="}
_UNARY_OPS = {ast.USub: "-", ast.UAdd: "+", ast.Invert: "~"}


# Literals and names


def string(text: str) -> str:
    """``text`` as a double-quoted Python literal, every unprintable character escaped."""
    out = []
    for char in text:
        if char in '\\"':
            out.append("\\" + char)
        elif char.isprintable():
            out.append(char)
        else:
            out.append(repr(char)[1:-1])
    return '"' + "".join(out) + '"'


def comment(text: str) -> str:
    """``text`` made safe for a ``#`` comment: one line of printable characters."""
    return "".join(char if char.isprintable() else repr(char)[1:-1] for char in text)


def literal(value: Any) -> str:
    """A JSON-like value (text, number, boolean, null, list) as Python code."""
    code, _ = _literal(value)
    if code is None:
        raise TypeError(f"no literal for {type(value).__name__}")
    return code


def reference(name: str) -> str:
    """The code naming the variable ``name``: itself when it is a plain ASCII identifier (a
    Unicode one would be normalised to another name), else ``globals()["name"]``."""
    if name.isascii() and name.isidentifier() and not keyword.iskeyword(name):
        return name
    return f"globals()[{string(name)}]"


def label(ref: str, frame: Any, column: Any) -> str:
    """The code of the column label ``column`` of ``frame`` (named ``ref`` in the code): a
    literal for text and numbers, else ``ref.columns[i]`` (the frame is the same there)."""
    if type(column) in (str, int, bool) or (type(column) is float and math.isfinite(column)):
        return literal(column)
    for position, candidate in enumerate(frame.columns):
        if candidate is column or _equal(candidate, column):
            return f"{ref}.columns[{position}]"
    raise KeyError(column)


def column(ref: str, frame: Any, name: Any) -> str:
    """The code selecting the column labelled ``name``: ``sales["price"]``."""
    return f"{ref}[{label(ref, frame, name)}]"


# One change each


def filter_rows(frame_name: str, into: str, frame: Any,
                conditions: Sequence[tuple[Any, str, Any]]) -> str:
    """``into = frame[…]`` keeping the rows meeting every (label, op, value) condition."""
    ref = reference(frame_name)
    parts = [_condition(ref, frame, *condition) for condition in conditions]
    if len(parts) == 1:
        mask = parts[0][0]
    else:
        mask = " & ".join(f"({code})" if precedence <= _AND else code for code, precedence in parts)
    return f"{reference(into)} = {ref}[{mask}]"


def add_column(frame_name: str, frame: Any, name: str, expression: str) -> str:
    """``frame["name"] = …`` with the expression written in pandas."""
    ref = reference(frame_name)
    tree = _expressions.parse(expression, [str(c) for c in frame.columns])
    value, _ = _expression(tree.body, frame, ref)
    return f"{ref}[{string(name)}] = {value}"


def rename_columns(frame_name: str, frame: Any, renames: Iterable[tuple[Any, str]]) -> str:
    """``frame = frame.rename(columns={…})`` for (label, new name) pairs."""
    ref = reference(frame_name)
    pairs = ", ".join(f"{label(ref, frame, old)}: {string(new)}" for old, new in renames)
    return f"{ref} = {ref}.rename(columns={{{pairs}}})"


def drop_columns(frame_name: str, frame: Any, labels: Sequence[Any]) -> str:
    """``frame = frame.drop(columns=[…])``."""
    ref = reference(frame_name)
    return f"{ref} = {ref}.drop(columns={_labels(ref, frame, labels)})"


def sort(frame_name: str, frame: Any, labels: Sequence[Any], ascending: bool) -> str:
    """``frame = frame.sort_values([…], kind="stable")`` (a stable sort, as the run's)."""
    ref = reference(frame_name)
    order = "" if ascending else ", ascending=False"
    return f'{ref} = {ref}.sort_values({_labels(ref, frame, labels)}{order}, kind="stable")'


def group_aggregate(frame_name: str, into: str, frame: Any, keys: Sequence[Any],
                    named: dict[str, tuple[Any, str]]) -> str:
    """``into = frame.groupby([…], dropna=False).agg(name=(label, func), …).reset_index()``."""
    ref = reference(frame_name)
    items = [(name, f"({label(ref, frame, source)}, {string(func)})")
             for name, (source, func) in named.items()]
    if all(name.isascii() and name.isidentifier() and not keyword.iskeyword(name)
           for name, _ in items):
        aggregations = ", ".join(f"{name}={pair}" for name, pair in items)
    else:
        aggregations = "**{" + ", ".join(f"{string(name)}: {pair}" for name, pair in items) + "}"
    return (f"{reference(into)} = (\n"
            f"    {ref}.groupby({_labels(ref, frame, keys)}, dropna=False)\n"
            f"    .agg({aggregations})\n"
            f"    .reset_index()\n"
            f")")


def script(steps: Sequence[tuple[str, str]], starts_from: Sequence[str]) -> str:
    """The script of (description, code) steps, run on the frames ``starts_from``."""
    codes = "\n".join(code for _, code in steps)
    lines = ["# The kept changes of the conversation, in plain pandas."]
    if starts_from:
        lines.append(comment(f"# Run it on the frames as they were before the first change: "
                             f"{', '.join(starts_from)}."))
    if f"{NUMPY}." in codes:
        lines.append(f"import numpy as {NUMPY}")
    lines.append("import pandas as pd")
    if not steps:
        lines += ["", "# (no changes were kept)"]
    for number, (description, code) in enumerate(steps, 1):
        lines += ["", comment(f"# {number}. {description}"), code]
    return "\n".join(lines) + "\n"


# Internals


def _labels(ref: str, frame: Any, labels: Sequence[Any]) -> str:
    return "[" + ", ".join(label(ref, frame, name) for name in labels) + "]"


def _condition(ref: str, frame: Any, name: Any, op: str, value: Any) -> tuple[str, int]:
    """The code of one filter condition (as _frames_changes.condition computes it) and its
    precedence."""
    series = column(ref, frame, name)
    if op == "is null":
        return f"{series}.isna()", _ATOM
    if op == "not null":
        return f"{series}.notna()", _ATOM
    if op == "in":
        return f"{series}.isin({literal(value)})", _ATOM
    if op == "not in":
        return f"~{series}.isin({literal(value)})", _UNARY
    if op == "contains":
        found = f"{series}.astype(str).str.contains({string(str(value))}, regex=False)"
        return f"{found} & {series}.notna()", _AND
    compared = f"{series} {op} {literal(value)}"
    if _plain_booleans(frame, name):
        return compared, _COMPARE
    # a nullable column compares to <NA> where it is missing: the run counts that as False
    return f"({compared}).fillna(False).astype(bool)", _ATOM


def _plain_booleans(frame: Any, name: Any) -> bool:
    """Whether comparing the column gives plain True / False (never missing), so that the
    run's ``.fillna(False).astype(bool)`` changes nothing: numpy types but object, and
    pandas' default text type (missing compares as False)."""
    import numpy as np
    import pandas as pd

    dtypes = frame.dtypes[frame.columns == name] if not isinstance(name, tuple) else []
    if len(dtypes) != 1:
        return False
    dtype = dtypes.iloc[0]
    if isinstance(dtype, np.dtype):
        return dtype.kind in "biufcmM"
    return isinstance(dtype, pd.StringDtype) and _is_nan(dtype.na_value)


def _expression(node: ast.AST, frame: Any, ref: str) -> tuple[str, int]:
    """The pandas code of an ``_expressions`` tree, as ``_expressions._value`` computes it:
    parts without columns are computed here and written as their value (so ``2 ** 600`` is
    the run's float, not a huge integer), columns are ``ref["name"]``, ``abs`` and ``round``
    the methods the built-ins call, and the other functions numpy's."""
    if not _expressions.reads_columns(node):
        value = _expressions._value(node, frame)
        code, precedence = _literal(value)
        if code is not None:
            return code, precedence
    if isinstance(node, ast.Name):
        if node.id not in frame.columns:
            raise _expressions.ExpressionError(
                f"'{node.id}' is a function: call it, e.g. {node.id}(price)")
        return f"{ref}[{literal(node.id)}]", _ATOM
    if isinstance(node, ast.UnaryOp):
        operand = _wrapped(_expression(node.operand, frame, ref), _UNARY)
        return f"{_UNARY_OPS[type(node.op)]}{operand}", _UNARY
    if isinstance(node, ast.BinOp):
        symbol, precedence = _BINARY[type(node.op)]
        left = _expression(node.left, frame, ref)
        right = _expression(node.right, frame, ref)
        if precedence == _POWER:  # right-associative
            code = f"{_wrapped(left, precedence + 1)} ** {_wrapped(right, precedence)}"
        else:
            code = f"{_wrapped(left, precedence)} {symbol} {_wrapped(right, precedence + 1)}"
        return code, precedence
    if isinstance(node, ast.Compare):
        left = _wrapped(_expression(node.left, frame, ref), _COMPARE + 1)
        right = _wrapped(_expression(node.comparators[0], frame, ref), _COMPARE + 1)
        return f"{left} {_COMPARE_OPS[type(node.ops[0])]} {right}", _COMPARE
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        name = node.func.id
        if name == "col":
            return f"{ref}[{literal(node.args[0].value)}]", _ATOM  # type: ignore[attr-defined]
        argument = _expression(node.args[0], frame, ref)
        if name == "abs":
            return f"{_wrapped(argument, _ATOM)}.abs()", _ATOM
        if name == "round":
            digits = ""
            if len(node.args) == 2:  # a whole number, checked as the run checks it
                places = _expressions._value(node.args[1], frame)
                _expressions._round(0, places)
                digits = str(int(places))
            return f"{_wrapped(argument, _ATOM)}.round({digits})", _ATOM
        return f"{NUMPY}.{name}({argument[0]})", _ATOM
    raise _expressions.ExpressionError(
        f"'{ast.unparse(node)}' is not allowed: use {_expressions.ALLOWED}")




def _wrapped(part: tuple[str, int], tightest: int) -> str:
    code, precedence = part
    return f"({code})" if precedence < tightest else code


def _literal(value: Any) -> tuple[str | None, int]:
    """The code giving exactly ``value`` (its type too: numpy scalars stay numpy scalars,
    which pandas and numpy combine differently from Python numbers), and its precedence;
    ``(None, 0)`` when there is none."""
    import numpy as np

    if value is None or isinstance(value, bool):
        return repr(value), _ATOM
    if isinstance(value, np.generic):
        inner, _ = _literal(value.item())
        if inner is None or not hasattr(np, type(value).__name__):
            return None, 0
        return f"{NUMPY}.{type(value).__name__}({inner})", _ATOM
    if isinstance(value, int):
        return repr(value), (_UNARY if value < 0 else _ATOM)
    if isinstance(value, float):
        if math.isnan(value):
            return f"{NUMPY}.nan", _ATOM
        if math.isinf(value):
            return (f"-{NUMPY}.inf", _UNARY) if value < 0 else (f"{NUMPY}.inf", _ATOM)
        negative = math.copysign(1.0, value) < 0
        return repr(value), (_UNARY if negative else _ATOM)
    if isinstance(value, complex):
        real, _ = _literal(value.real)
        imaginary, _ = _literal(value.imag)
        return f"complex({real}, {imaginary})", _ATOM
    if isinstance(value, str):
        return string(value), _ATOM
    if isinstance(value, list):
        parts = [_literal(item)[0] for item in value]
        if any(part is None for part in parts):
            return None, 0
        return "[" + ", ".join(parts) + "]", _ATOM  # type: ignore[arg-type]
    return None, 0


def _is_nan(value: Any) -> bool:
    return isinstance(value, float) and math.isnan(value)


def _equal(one: Any, two: Any) -> bool:
    try:
        return bool(one == two)
    except (TypeError, ValueError):
        return False
