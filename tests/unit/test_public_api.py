"""The public package exports exactly what it promises (anything public is in __all__)."""

from __future__ import annotations

import importlib
import types

import pytest

import dial_notebook

LAYERS = ["dial_notebook", "dial_notebook.dial", "dial_notebook.runtime", "dial_notebook.interaction",
          "dial_notebook.domains", "dial_notebook.agents", "dial_notebook.widget",
          "dial_notebook.evaluation"]


@pytest.mark.parametrize("name", LAYERS)
def test_all_is_complete_and_importable(name):
    module = importlib.import_module(name)
    public = {
        n for n, v in vars(module).items()
        if not n.startswith("_") and not isinstance(v, types.ModuleType)
        and n not in ("annotations",)
    } | set(getattr(module, "_LAZY", {}))  # loaded on first use (the package's top)
    assert set(module.__all__) - {"__version__"} == public - {"__version__"}
    for exported in module.__all__:
        assert hasattr(module, exported)


def test_every_layer_export_of_the_language_is_reachable_from_the_top():
    dial = importlib.import_module("dial_notebook.dial")
    wanted = {"parse", "extract_prose", "lint", "to_xml", "outcome_reply", "Envelope", "Inform",
              "Ask", "Suggest", "Execute", "Acknowledge", "Declare", "Delegate", "Phatic"}
    assert wanted <= set(dial_notebook.__all__)
    assert all(getattr(dial_notebook, n) is getattr(dial, n) for n in wanted)


def test_importing_the_package_does_not_import_pandas_or_jupyter():
    import subprocess
    import sys

    code = ("import sys, dial_notebook; "
            "print(','.join(m for m in ('pandas', 'matplotlib', 'openai', 'anthropic') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_the_package_is_typed():
    from importlib.resources import files

    assert files("dial_notebook").joinpath("py.typed").is_file()


def test_importing_the_language_layer_loads_no_widget_no_jupyter_and_no_jsonschema():
    import subprocess
    import sys

    code = ("import sys, dial_notebook.dial; "
            "print(','.join(m for m in ('anywidget', 'ipywidgets', 'IPython', 'jsonschema', "
            "'traitlets', 'dial_notebook.widget', 'dial_notebook.agents') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_public_classes_show_the_package_as_their_module():
    for name in dial_notebook.__all__:
        value = getattr(dial_notebook, name)
        if isinstance(value, type):
            assert value.__module__ == "dial_notebook", name
    assert repr(dial_notebook.Conversation).startswith("<class 'dial_notebook.Conversation'")


def test_the_version_has_one_source():
    from importlib.metadata import version

    from dial_notebook import _version

    assert dial_notebook.__version__ == _version.__version__ == version("dial-notebook")


def test_the_examples_of_public_classes_methods_are_collected_as_doctests():
    """Public classes are shown as dial_notebook.X: doctest would not look into them from their
    own modules, so the package's __test__ lists them and their methods' examples."""
    import doctest

    examples = dial_notebook.__test__
    assert "SchemaDomain.dry_run" in examples and "DataFramesDomain.code" in examples
    names = {test.name for test in doctest.DocTestFinder().find(dial_notebook) if test.examples}
    assert "dial_notebook.__test__.SchemaDomain.dry_run" in names
