"""Column arithmetic for ``add-column``: a tiny language parsed with ``ast``, never ``eval``-ed.

Allowed: column names (or ``col("name with spaces")``), numbers, quoted text (compared or
joined with ``+``), ``+ - * / // % **``, unary minus, comparisons (``== != < <= > >=``, one at
a time), ``& | ~`` to combine conditions, and the functions ``abs round sqrt log log10 exp
floor ceil``. Everything else — attributes, indexing, calls to anything else, names that are
not columns — is refused with a sentence saying what is allowed.

    >>> parse("price * units", ["price", "units"]) is not None
    True
    >>> parse("__import__('os')", ["price"])
    Traceback (most recent call last):
    ...
    dial_notebook.domains._expressions.ExpressionError: function '__import__' is not allowed ...
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable, Sequence
from typing import Any

from ._hints import did_you_mean

#: Longest expression, and most syntax nodes, accepted.
MAX_LENGTH = 500
MAX_NODES = 200
#: Largest exponent between two plain numbers (``9 ** 9 ** 9`` in integers would never finish),
#: and most digits ``round`` may be asked for either way.
MAX_EXPONENT = 64

ALLOWED = "column names, numbers, + - * / // % **, comparisons, & | ~ and functions"

_BINARY: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod,
    ast.Pow: operator.pow, ast.BitAnd: operator.and_, ast.BitOr: operator.or_,
}
_COMPARE: dict[type, Callable[[Any, Any], Any]] = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt,
    ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge,
}
_UNARY: dict[type, Callable[[Any], Any]] = {
    ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Invert: operator.invert,
}
_NUMERIC_ONLY = (ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow)
FUNCTIONS = ("abs", "round", "sqrt", "log", "log10", "exp", "floor", "ceil")
_NAMED = {
    ast.Attribute: "attribute access is", ast.Subscript: "indexing is", ast.Lambda: "lambda is",
    ast.ListComp: "list comprehensions are", ast.GeneratorExp: "generators are",
    ast.DictComp: "dict comprehensions are", ast.SetComp: "set comprehensions are",
    ast.JoinedStr: "f-strings are", ast.IfExp: "if-else is", ast.NamedExpr: "assignment is",
    ast.List: "lists are", ast.Tuple: "tuples are", ast.Dict: "dicts are", ast.Set: "sets are",
    ast.Starred: "unpacking is", ast.Await: "await is", ast.Yield: "yield is",
}


class ExpressionError(ValueError):
    """The expression is not column arithmetic; the message says why, in a sentence."""


def parse(expression: str, columns: Sequence[str]) -> ast.Expression:
    """The checked syntax tree of ``expression`` over ``columns``; raises ``ExpressionError``."""
    if not isinstance(expression, str) or not expression.strip():
        raise ExpressionError("the expression is empty")
    if len(expression) > MAX_LENGTH:
        raise ExpressionError(f"the expression is longer than {MAX_LENGTH} characters")
    try:
        tree = ast.parse(expression.strip(), mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError) as error:
        reason = getattr(error, "msg", None) or "it nests too deeply"
        raise ExpressionError(f"the expression is not valid: {reason}") from None
    nodes = list(ast.walk(tree))
    if len(nodes) > MAX_NODES:
        raise ExpressionError(f"the expression is too long (more than {MAX_NODES} parts)")
    for node in nodes:
        _check(node, columns)
    return tree


def _check(node: ast.AST, columns: Sequence[str]) -> None:
    if isinstance(node, ast.Attribute):
        raise ExpressionError(f"attribute access ('.{node.attr}') is not allowed: use {ALLOWED}")
    if isinstance(node, ast.Call):
        _check_call(node, columns)
    elif isinstance(node, ast.Name):
        if node.id not in columns and node.id not in FUNCTIONS and node.id != "col":
            raise ExpressionError(f"unknown column '{node.id}'{did_you_mean(node.id, columns)}")
    elif isinstance(node, ast.Constant):
        if not isinstance(node.value, int | float | str) or isinstance(node.value, complex):
            raise ExpressionError(f"the value {node.value!r} is not allowed: use numbers or text")
    elif isinstance(node, ast.BinOp):
        if type(node.op) not in _BINARY:
            text = ast.unparse(node)
            raise ExpressionError(f"the operator in '{text}' is not allowed: use {ALLOWED}")
    elif isinstance(node, ast.UnaryOp):
        if type(node.op) not in _UNARY:
            raise ExpressionError("'not' is not allowed: use ~ to negate a condition")
    elif isinstance(node, ast.Compare):
        if len(node.ops) != 1 or type(node.ops[0]) not in _COMPARE:
            raise ExpressionError(
                "compare two values at a time with == != < <= > >= and combine with & or |"
            )
    elif isinstance(node, ast.BoolOp):
        raise ExpressionError("'and' / 'or' do not work on columns: use & and | with parentheses")
    elif type(node) in _NAMED:
        raise ExpressionError(f"{_NAMED[type(node)]} not allowed: use {ALLOWED}")
    elif not isinstance(node, ast.Expression | ast.Load | ast.operator | ast.unaryop | ast.cmpop):
        raise ExpressionError(f"'{ast.unparse(node)}' is not allowed: use {ALLOWED}")


def _check_call(node: ast.Call, columns: Sequence[str]) -> None:
    if not isinstance(node.func, ast.Name):
        return  # the callee is checked as its own node (an attribute, a subscript, …)
    name = node.func.id
    if node.keywords:
        raise ExpressionError(f"{name}() takes no keyword arguments")
    if name == "col":
        if len(node.args) != 1 or not isinstance(node.args[0], ast.Constant) or not isinstance(
            node.args[0].value, str
        ):
            raise ExpressionError("col() takes one quoted column name, e.g. col(\"unit price\")")
        if node.args[0].value not in columns:
            wanted = node.args[0].value
            raise ExpressionError(f"unknown column {wanted!r}{did_you_mean(wanted, columns)}")
        return
    if name not in FUNCTIONS:
        raise ExpressionError(
            f"function '{name}' is not allowed (allowed: {', '.join(FUNCTIONS)})"
        )
    wanted = (1, 2) if name == "round" else (1,)
    if len(node.args) not in wanted:
        raise ExpressionError(f"{name}() takes {' or '.join(map(str, wanted))} argument(s)")


def reads_columns(node: ast.AST) -> bool:
    """Whether the parsed expression ``node`` reads a column (else it is a constant)."""
    if isinstance(node, ast.Name):
        return True
    if isinstance(node, ast.Call):
        return getattr(node.func, "id", None) == "col" or any(map(reads_columns, node.args))
    return any(reads_columns(child) for child in ast.iter_child_nodes(node)
               if isinstance(child, ast.expr))


def evaluate(expression: str, frame: Any) -> Any:
    """The value of ``expression`` over the columns of the pandas DataFrame ``frame``."""
    tree = parse(expression, [str(column) for column in frame.columns])
    try:
        return _value(tree.body, frame)
    except ExpressionError:
        raise
    except (ArithmeticError, TypeError, ValueError) as error:
        raise ExpressionError(f"the expression could not be computed: {error}") from None


def _value(node: ast.AST, frame: Any) -> Any:
    import numpy as np

    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        if node.id not in frame.columns:
            raise ExpressionError(f"'{node.id}' is a function: call it, e.g. {node.id}(price)")
        return frame[node.id]
    if isinstance(node, ast.UnaryOp):
        operand = _value(node.operand, frame)
        if not isinstance(node.op, ast.Invert):
            _require_numbers(operand, node)
        return _UNARY[type(node.op)](operand)
    if isinstance(node, ast.BinOp):
        left, right = _value(node.left, frame), _value(node.right, frame)
        if isinstance(node.op, _NUMERIC_ONLY):
            _require_numbers(left, node)
            _require_numbers(right, node)
            if isinstance(node.op, ast.Pow) and _plain(left) and _plain(right):
                return _power(left, right)
        return _BINARY[type(node.op)](left, right)
    if isinstance(node, ast.Compare):
        compare = _COMPARE[type(node.ops[0])]
        return compare(_value(node.left, frame), _value(node.comparators[0], frame))
    if isinstance(node, ast.Call):
        name = node.func.id  # type: ignore[attr-defined]
        if name == "col":
            return frame[node.args[0].value]  # type: ignore[attr-defined]
        args = [_value(arg, frame) for arg in node.args]
        _require_numbers(args[0], node)
        if name == "abs":
            return abs(args[0])
        if name == "round":
            return _round(args[0], args[1]) if len(args) == 2 else round(args[0])
        return getattr(np, name)(args[0])
    raise ExpressionError(f"'{ast.unparse(node)}' is not allowed: use {ALLOWED}")


def _power(base: float, exponent: float) -> float:
    """``base ** exponent`` for two plain numbers, in floats when integers would grow huge."""
    if abs(exponent) > MAX_EXPONENT:
        raise ExpressionError(f"the exponent {exponent} is too large (at most {MAX_EXPONENT})")
    small = isinstance(base, int) and isinstance(exponent, int) and exponent >= 0
    if small and abs(base).bit_length() * exponent <= 1024:
        return base**exponent
    return float(base) ** float(exponent)


def _round(value: Any, digits: Any) -> Any:
    """``round(value, digits)`` with ``digits`` a whole number of at most ``MAX_EXPONENT``
    places either way (``round(5, -10**7)`` builds a ten-million-digit power of ten)."""
    if not _plain(digits) or digits != int(digits):
        raise ExpressionError("round() takes a whole number of digits, e.g. round(price, 2)")
    if abs(digits) > MAX_EXPONENT:
        raise ExpressionError(
            f"round() to {int(digits)} digits is too many (at most {MAX_EXPONENT} either way)")
    return round(value, int(digits))


def _plain(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _require_numbers(value: Any, node: ast.AST) -> None:
    if isinstance(value, str):
        raise ExpressionError(f"'{ast.unparse(node)}' does arithmetic on text: only + joins text")
    dtype = getattr(value, "dtype", None)
    if dtype is not None and dtype.kind not in "biufc":
        raise ExpressionError(
            f"'{ast.unparse(node)}' does arithmetic on a column that is not numeric ({dtype})"
        )
