"""Column arithmetic as Ibis (``_ibis_expressions``): the code written, the types, the
refusals (pure: unbound tables, no engine), and the values the engine computes equal to the
dataframes domain's (engine-marked)."""

from __future__ import annotations

import math

import ibis
import pytest

from dial_notebook.domains._expressions import ExpressionError, evaluate
from dial_notebook.domains.tables._ibis_expressions import translate
from tests.tables_data import ENGINE_WARNINGS, sales_frame

# filters of Ibis's own deprecation warnings (tests/tables_data.py): the engine test needs them
pytestmark = ENGINE_WARNINGS

SALES = {"id": "int64", "region": "string", "product": "string", "price": "float64",
         "units": "float64"}


def _table():
    return ibis.table(SALES, name="sales")


def test_the_code_written_is_the_expression_built():
    expr, code = translate("round(price * units, 2) - 2 ** 3", _table(), "sales")
    assert code == '((sales["price"] * sales["units"]).round(2) - 8)'
    rebuilt = eval(code, {"sales": _table()})  # the code, run on the same table: same tree
    assert rebuilt.equals(expr)


def test_text_joins_with_plus_and_a_constant_is_one_value_for_every_row():
    expr, code = translate("region + '-' + product", _table(), "sales")
    assert str(expr.type()) == "string"
    constant, code = translate("2 * 21", _table(), "sales")
    assert code == "ibis.literal(42)" and constant.equals(ibis.literal(42))


@pytest.mark.parametrize(("expression", "says"), [
    ("region * 2", "not a number"),
    ("region - product", "not a number"),
    ("sqrt(region)", "not a number"),
    ("region > 3", "does not type-check"),
    ("round", "is a function"),
    ("price.real", "attribute access"),
    ("colour + 1", "unknown column"),
])
def test_what_is_not_column_arithmetic_over_these_types_is_refused(expression, says):
    with pytest.raises(ExpressionError, match=says):
        translate(expression, _table(), "sales")


EXPRESSIONS = [
    "price * units", "price / units", "units // 3", "units % 4", "-price + 1",
    "round(price / 7, 3)", "round(price * 1.01)", "abs(units - 6)", "sqrt(price)", "log(price)",
    "log10(price)", "exp(units / 10)", "floor(price)", "ceil(price)", "price > 30",
    "(price > 30) & (units < 5)", "(price > 30) | ~(units < 5)", "region + ':' + product",
    "region == 'North'", "units ** 2", "col('price') * 2", "units != 3", "units == units",
]


@pytest.mark.engine
@pytest.mark.parametrize("expression", EXPRESSIONS)
def test_the_engine_computes_what_the_dataframes_domain_computes(expression):
    frame = sales_frame()
    con = ibis.duckdb.connect()
    table = ibis.memtable(frame)
    expr, _ = translate(expression, table, "sales")
    mine = con.to_pyarrow(table.select(value=expr)).column("value").to_pylist()
    theirs = evaluate(expression, frame)
    theirs = list(theirs) if hasattr(theirs, "__len__") else [theirs] * len(frame)
    for got, want in zip(mine, theirs, strict=True):
        if want is None or (isinstance(want, float) and math.isnan(want)):
            assert got is None or (isinstance(got, float) and math.isnan(got)), expression
        elif isinstance(want, float):
            assert got == pytest.approx(want, rel=1e-9), expression
        else:
            assert got == want, expression


@pytest.mark.engine
def test_round_halves_away_from_zero_on_the_engine():
    con = ibis.duckdb.connect()
    table = ibis.memtable({"x": [0.5, 1.5, 2.5, -0.5]})
    expr, _ = translate("round(x)", table, "t")
    assert con.to_pyarrow(table.select(v=expr)).column("v").to_pylist() == [1.0, 2.0, 3.0, -1.0]
