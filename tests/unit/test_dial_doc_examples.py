"""The examples in the language layer's docstrings run and say what they show."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["__init__", "_elements", "_envelope", "_scan", "_repair", "_parse", "_outcome",
           "_serialise", "_lint"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(
        "dial_notebook.dial" if name == "__init__" else f"dial_notebook.dial.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
