"""A hostile agent cannot smuggle Python into the code a person keeps: names and values from the
agent's payloads reach the generated pandas (the card's code, ``frames.code()``) as string
literals only, so running the script runs nothing but the steps."""

from __future__ import annotations

import ast

import pandas as pd
import pytest

from dial_notebook.domains import DataFramesDomain, load_sales

ESCAPES = [
    'x"] = 0; PWNED = 1 #',
    "x'] = 0; PWNED = 1 #",
    'x\\"]; PWNED = 1 #',
    "line\nPWNED = 1",
    '"""; PWNED = 1; """',
    "{PWNED}",
    "x\u2028PWNED = 1",
]


def kept_script(payloads: list[tuple[str, dict]]) -> tuple[str, DataFramesDomain]:
    frames = DataFramesDomain({"sales": load_sales()})
    for action, payload in payloads:
        assert frames.validate(action, payload)["ok"], (action, payload)
        frames.run(action, payload)
    return frames.code(), frames


@pytest.mark.parametrize("evil", ESCAPES)
def test_a_hostile_column_name_or_value_stays_a_string_in_the_kept_code(evil):
    script, frames = kept_script([
        ("add-column", {"frame": "sales", "column": evil, "expression": "price * units"}),
        ("filter-rows", {"frame": "sales",
                         "where": [{"column": "product", "op": "!=", "value": evil}]}),
        ("rename-columns", {"frame": "sales", "columns": {"units": evil + "2"}}),
    ])
    tree = ast.parse(script)
    assert not [node for node in ast.walk(tree)
                if isinstance(node, ast.Name) and node.id == "PWNED"]
    namespace = {"sales": load_sales()}
    exec(compile(tree, "<kept code>", "exec"), namespace)  # what the person would run
    assert "PWNED" not in namespace
    pd.testing.assert_frame_equal(namespace["sales"], frames.namespace["sales"])
    assert evil in namespace["sales"].columns and evil + "2" in namespace["sales"].columns
