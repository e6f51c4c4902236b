"""Column arithmetic as Ibis: the tree ``_expressions.parse`` checked, translated node by node
into an Ibis expression and, in the same walk, into the Ibis code that builds it.

Agent text is never evaluated and never pasted into SQL: the only things taken from it are
column names (which must be the table's own), numbers and quoted text (which become Ibis
literals, quoted by Ibis's SQL compiler), operators and the functions ``_expressions`` allows.
Parts without columns are computed here as ``_expressions`` computes them (so ``2 ** 600`` and
``round(5, -10**7)`` are refused the same way) and written as their value.

The values are pandas' but in two places: a comparison with a missing value is False (True for
``!=``), as pandas has it, rather than SQL's NULL; ``round`` rounds halves away from zero, as
SQL engines do, where numpy rounds them to even (``round(16.85, 1)``: 16.9, numpy 16.8).

    >>> import ibis
    >>> sales = ibis.table({"price": "float64", "units": "int64"}, name="sales")
    >>> expr, code = translate("round(price * units, 1)", sales, "sales")
    >>> code
    '(sales["price"] * sales["units"]).round(1)'
    >>> str(expr.type())
    'float64'
    >>> translate("__import__('os')", sales, "sales")
    Traceback (most recent call last):
    ...
    dial_notebook.domains._expressions.ExpressionError: function '__import__' is not allowed ...
"""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable
from typing import Any

from .. import _expressions
from .._pandas_code import string
from ._engine import is_number, require_ibis

_BINARY: dict[type, tuple[str, Callable[[Any, Any], Any]]] = {
    ast.Add: ("+", operator.add), ast.Sub: ("-", operator.sub), ast.Mult: ("*", operator.mul),
    ast.Div: ("/", operator.truediv), ast.FloorDiv: ("//", operator.floordiv),
    ast.Mod: ("%", operator.mod), ast.Pow: ("**", operator.pow),
    ast.BitAnd: ("&", operator.and_), ast.BitOr: ("|", operator.or_),
}
_COMPARE: dict[type, tuple[str, Callable[[Any, Any], Any]]] = {
    ast.Eq: ("==", operator.eq), ast.NotEq: ("!=", operator.ne), ast.Lt: ("<", operator.lt),
    ast.LtE: ("<=", operator.le), ast.Gt: (">", operator.gt), ast.GtE: (">=", operator.ge),
}
_NUMERIC_ONLY = (ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow)
#: The Ibis method of each function, and whether its value is made a float as numpy's is.
_METHODS = {"sqrt": ("sqrt", False), "log": ("ln", False), "log10": ("log10", False),
            "exp": ("exp", False), "floor": ("floor", True), "ceil": ("ceil", True)}

Pair = tuple[Any, str]  # (an Ibis expression or a Python value, its code)


def column(table_ref: str, name: str) -> str:
    """The code of a column: ``sales["unit price"]``."""
    return f"{table_ref}[{string(name)}]"


def translate(expression: str, table: Any, ref: str) -> Pair:
    """The Ibis expression of ``expression`` over ``table`` (named ``ref`` in the code), and
    its code; ``ExpressionError`` when it is not column arithmetic or does not type-check."""
    tree = _expressions.parse(expression, list(table.columns))
    try:
        value, code = _translate(tree.body, table, ref)
    except _expressions.ExpressionError:
        raise
    except Exception as error:  # Ibis's type errors: text minus a number, …
        reason = str(error).splitlines()[0][:200] if str(error) else type(error).__name__
        raise _expressions.ExpressionError(f"the expression does not type-check: {reason}") \
            from None
    if not hasattr(value, "op"):  # a constant: one value for every row
        value = require_ibis().literal(value)
        code = f"ibis.literal({code})"
    return value, code


def _translate(node: ast.AST, table: Any, ref: str) -> Pair:
    if not _expressions.reads_columns(node):
        value = _expressions._value(node, None)
        if hasattr(value, "item") and not isinstance(value, str):
            value = value.item()  # a numpy number (sqrt(4)) as a Python one
        return value, _literal(value)
    if isinstance(node, ast.Name):
        if node.id not in table.columns:
            raise _expressions.ExpressionError(
                f"'{node.id}' is a function: call it, e.g. {node.id}(price)")
        return table[node.id], column(ref, node.id)
    if isinstance(node, ast.UnaryOp):
        operand, code = _translate(node.operand, table, ref)
        if isinstance(node.op, ast.Invert):
            return ~operand, f"~({code})"
        _require_numbers(operand, node)
        return (-operand, f"-({code})") if isinstance(node.op, ast.USub) else (operand, code)
    if isinstance(node, ast.BinOp):
        symbol, apply = _BINARY[type(node.op)]
        (left, left_code), (right, right_code) = (_translate(node.left, table, ref),
                                                  _translate(node.right, table, ref))
        if isinstance(node.op, _NUMERIC_ONLY):
            _require_numbers(left, node)
            _require_numbers(right, node)
        return apply(left, right), f"({left_code} {symbol} {right_code})"
    if isinstance(node, ast.Compare):
        symbol, apply = _COMPARE[type(node.ops[0])]
        (left, left_code), (right, right_code) = (_translate(node.left, table, ref),
                                                  _translate(node.comparators[0], table, ref))
        made, code = apply(left, right), f"({left_code} {symbol} {right_code})"
        if hasattr(made, "fill_null"):  # as pandas: a missing value compares as unequal
            missing = symbol == "!="
            return made.fill_null(missing), f"{code}.fill_null({missing})"
        return made, code
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        return _call(node, node.func.id, table, ref)
    raise _expressions.ExpressionError(
        f"'{ast.unparse(node)}' is not allowed: use {_expressions.ALLOWED}")


def _call(node: ast.Call, name: str, table: Any, ref: str) -> Pair:
    if name == "col":
        wanted = node.args[0].value  # type: ignore[attr-defined]
        return table[wanted], column(ref, wanted)
    argument, code = _translate(node.args[0], table, ref)
    _require_numbers(argument, node)
    if name == "abs":
        return argument.abs(), f"{code}.abs()"
    if name == "round":
        digits = 0
        if len(node.args) == 2:  # a whole number, checked as the dataframes domain checks it
            places = _expressions._value(node.args[1], None)
            _expressions._round(0, places)
            digits = int(places)
        rounded, written = argument.round(digits), f"{code}.round({digits})"
        if _floating(argument) and not _floating(rounded):  # pandas keeps floats floats
            return rounded.cast("float64"), f'{written}.cast("float64")'
        return rounded, written
    method, as_float = _METHODS[name]
    value, written = getattr(argument, method)(), f"{code}.{method}()"
    if as_float and not _floating(value):
        return value.cast("float64"), f'{written}.cast("float64")'
    return value, written




def _require_numbers(value: Any, node: ast.AST) -> None:
    if isinstance(value, str) or (hasattr(value, "type") and not is_number(value)):
        raise _expressions.ExpressionError(
            f"'{ast.unparse(node)}' does arithmetic on a value that is not a number")


def _floating(value: Any) -> bool:
    return str(value.type()).lstrip("!").startswith("float")


def _literal(value: Any) -> str:
    """A Python value computed from constants, as code."""
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, str):
        return string(value)
    if isinstance(value, float) and not math.isfinite(value):
        return f'float("{value}")'
    if isinstance(value, int | float):
        return repr(value)
    raise _expressions.ExpressionError(f"the value {value!r} cannot be written as a literal")
