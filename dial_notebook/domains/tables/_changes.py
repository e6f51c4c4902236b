"""Each tables change as a new Ibis expression built from the one it reads, with its Ibis code.

A change never runs a query: it returns ``(expression, code)``, the new table and the line of
Ibis that builds it from the table read (named ``payload["frame"]`` in the code), so that the
run, the dry run and the kept script all build the same expression. Values and names taken
from the payload reach the expression as Ibis literals and identifiers (quoted by Ibis's SQL
compiler) and the code as quoted Python literals, never as SQL or code text.

The semantics follow the dataframes domain's pandas: a missing value compares as not equal
(``!=`` and ``not in`` keep the rows where the column is missing, as pandas does for float and
text columns), groups keep missing keys and come sorted, ``count`` counts values present.

    >>> import ibis
    >>> sales = ibis.table({"region": "string", "units": "int64"}, name="sales")
    >>> _, code = filtered(sales, {"frame": "sales",
    ...                            "where": [{"column": "units", "op": ">", "value": 2}]})
    >>> code
    'sales = sales.filter(sales["units"] > 2)'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import _expressions
from .._errors import ActionError
from .._frames_changes import expression_error, label
from .._pandas_code import literal, reference, string
from .._phrasing import show
from ._ibis_expressions import column, translate

Payload = dict[str, Any]
Change = tuple[Any, str]


def name_of(table: Any, wanted: str, field: str, table_name: str) -> str:
    """``wanted`` when ``table`` has that column, else ``ActionError`` with a "did you mean"."""
    return str(label(table, wanted, field, table_name))


def condition(table: Any, ref: str, item: dict[str, Any], field: str) -> tuple[Any, str]:
    """One condition of ``filter-rows`` as an Ibis boolean and its code."""
    name, op, value = item["column"], item["op"], item.get("value")
    found, code = table[name], column(ref, name)
    if op == "is null":
        return found.isnull(), f"{code}.isnull()"
    if op == "not null":
        return found.notnull(), f"{code}.notnull()"
    try:
        if op == "in":
            return found.isin(value), f"{code}.isin({literal(value)})"
        if op == "not in":
            return (~found.isin(value) | found.isnull(),
                    f"~{code}.isin({literal(value)}) | {code}.isnull()")
        if op == "contains":
            text = string(str(value))
            return (found.cast("string").contains(str(value)) & found.notnull(),
                    f'{code}.cast("string").contains({text}) & {code}.notnull()')
        compare: Callable[[Any], Any] = {
            "==": found.__eq__, "!=": found.__ne__, "<": found.__lt__, "<=": found.__le__,
            ">": found.__gt__, ">=": found.__ge__}[op]
        made = compare(value)
        if op == "!=":
            return made | found.isnull(), f"({code} != {literal(value)}) | {code}.isnull()"
        return made, f"{code} {op} {literal(value)}"
    except Exception as error:  # Ibis refuses to compare text with a number, …
        reason = str(error).splitlines()[0][:200] if str(error) else type(error).__name__
        raise ActionError(
            f"cannot compare {name} with {show(value)}", code="invalid-filter",
            field=f"{field}.value", hint=reason,
        ) from None


def filtered(table: Any, payload: Payload) -> Change:
    """``filter-rows``: the rows meeting every condition of ``where``."""
    source = payload["frame"]
    ref = reference(source)
    made, codes = [], []
    for index, item in enumerate(payload["where"]):
        field = f"where[{index}]"
        name_of(table, item["column"], f"{field}.column", source)
        expr, code = condition(table, ref, item, field)
        made.append(expr)
        codes.append(code if len(payload["where"]) == 1 else f"({code})")
    into = reference(payload.get("into", source))
    return table.filter(*made), f"{into} = {ref}.filter({', '.join(codes)})"


def added(table: Any, payload: Payload) -> Change:
    """``add-column``: the table with the column ``column`` computed from ``expression``."""
    source = payload["frame"]
    ref = reference(source)
    try:
        value, code = translate(payload["expression"], table, ref)
    except _expressions.ExpressionError as error:
        raise expression_error(error) from None
    new = payload["column"]
    return (table.mutate(**{new: value}),
            f"{ref} = {ref}.mutate(**{{{string(new)}: {code}}})")


def renamed(table: Any, payload: Payload) -> Change:
    """``rename-columns``: ``columns`` maps each old name to its new one."""
    source = payload["frame"]
    ref = reference(source)
    pairs = {new: name_of(table, old, "columns", source) for old, new in payload["columns"].items()}
    written = ", ".join(f"{string(new)}: {string(old)}" for new, old in pairs.items())
    return table.rename(pairs), f"{ref} = {ref}.rename({{{written}}})"


def dropped(table: Any, payload: Payload) -> Change:
    """``drop-columns``."""
    source = payload["frame"]
    ref = reference(source)
    names = [name_of(table, c, "columns", source) for c in payload["columns"]]
    return table.drop(*names), f"{ref} = {ref}.drop({', '.join(map(string, names))})"


def ordered(table: Any, payload: Payload) -> Change:
    """``sort``: by ``by`` (ascending unless ``ascending`` is false), missing values last."""
    import ibis

    source = payload["frame"]
    ref = reference(source)
    names = [name_of(table, c, "by", source) for c in payload["by"]]
    ascending = payload.get("ascending", True)
    direction = ibis.asc if ascending else ibis.desc
    keys = [direction(name, nulls_first=False) for name in names]
    written = ", ".join(f'ibis.{"asc" if ascending else "desc"}({string(n)}, nulls_first=False)'
                        for n in names)
    return table.order_by(keys), f"{ref} = {ref}.order_by([{written}])"


#: Each aggregation function as Ibis (method name; pandas' ``count`` is of values present).
AGGREGATIONS = {"sum": "sum", "mean": "mean", "median": "median", "min": "min", "max": "max",
                "count": "count", "nunique": "nunique", "std": "std"}


def grouped(table: Any, payload: Payload) -> Change:
    """``group-aggregate``: one row per group of ``by`` (missing keys kept, groups sorted),
    each aggregation named ``<column>_<func>``, into the new table ``into``."""
    import ibis

    source = payload["frame"]
    ref = reference(source)
    keys = [name_of(table, c, "by", source) for c in payload["by"]]
    metrics, written = {}, []
    for index, item in enumerate(payload["aggregations"]):
        found = name_of(table, item["column"], f"aggregations[{index}].column", source)
        method = AGGREGATIONS[item["func"]]
        new = f"{item['column']}_{item['func']}"
        try:
            metrics[new] = getattr(table[found], method)()
        except Exception as error:  # the mean of a text column, …
            raise ActionError(
                f"cannot aggregate {found} with {item['func']}", code="invalid-aggregation",
                field=f"aggregations[{index}]",
                hint=f"{str(error).splitlines()[0][:160]}: aggregate numeric columns (sum, "
                "mean, …) or use count / nunique",
            ) from None
        written.append(f"{string(new)}: {column(ref, found)}.{method}()")
    order = [ibis.asc(k, nulls_first=False) for k in keys]
    into = reference(payload["into"])
    key_code = ", ".join(map(string, keys))
    order_code = ", ".join(f"ibis.asc({string(k)}, nulls_first=False)" for k in keys)
    code = (f"{into} = (\n    {ref}.group_by([{key_code}])\n"
            f"    .aggregate(**{{{', '.join(written)}}})\n"
            f"    .order_by([{order_code}])\n)")
    try:
        made = table.group_by(keys).aggregate(**metrics).order_by(order)
    except Exception as error:  # an aggregation named as a key, …
        raise ActionError(
            f"cannot group {source}: {str(error).splitlines()[0][:160]}",
            code="invalid-aggregation", field="aggregations",
            hint="each aggregation makes the column <column>_<func>: it must not be a key",
        ) from None
    return made, code


#: The change each mutating action makes.
CHANGES: dict[str, Callable[[Any, Payload], Change]] = {
    "filter-rows": filtered, "add-column": added, "rename-columns": renamed,
    "drop-columns": dropped, "sort": ordered, "group-aggregate": grouped,
}

#: What each change does, for the agent's system prompt.
SAID = {
    "filter-rows": "Keep only the rows meeting every condition in where (in place, or into a "
                   "new table).",
    "add-column": "Add (or replace) a column computed from column arithmetic, e.g. price * "
                  "units.",
    "rename-columns": "Rename columns: columns maps each old name to its new name.",
    "drop-columns": "Remove columns from a table.",
    "sort": "Sort a table's rows by columns (ascending unless ascending is false).",
    "group-aggregate": "Group a table by columns and aggregate others into a new table named "
                       "into.",
}
