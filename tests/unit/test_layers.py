"""The layers point one way (DESIGN.md): every import in the package goes down, to a public face.

Top to bottom: the package's ``__init__`` → cli → widget → evaluation → agents → runtime →
domains → interaction (the ask seam: a domain's code, an MCP server's questions, ask the person
through it) → dial, with the top-level helpers ``dial_notebook/_*.py`` under them all
(usable by every layer, so a helper imports only other helpers). Every import of every module
is read with ``ast`` (top-level and inside functions, absolute and relative, and
``importlib.import_module("…")`` with a literal name), and two rules are checked:

1. a module imports nothing from a higher layer;
2. a module imports no private module or name (``dial_notebook.<layer>._x``) of another layer:
   a layer's ``__init__`` is its public face.
"""

from __future__ import annotations

import ast
import functools
from dataclasses import dataclass
from pathlib import Path

import pytest

import dial_notebook

PACKAGE = Path(dial_notebook.__file__).parent
TOP = "dial_notebook"

#: Rank of each layer: an import may only go to a lower rank (or stay in its own layer).
RANKS = {
    "_helpers": 0,  # dial_notebook/_*.py
    "dial": 1,
    "interaction": 1.5,
    "domains": 2,
    "runtime": 3,
    "agents": 4,
    "evaluation": 5,
    "widget": 6,
    "cli": 7,
    "__init__": 8,  # the package's top: re-exports the layers' public names
}

#: Imports that break a rule today, each with who removes it. Keyed by (importing file relative
#: to the package, imported module). Keep this list empty when you can.
ALLOWED: dict[tuple[str, str], str] = {
    # e.g. ("widget/_static.py", "dial_notebook.dial._unicode"): "until <who> switches to ...",
}


@dataclass(frozen=True)
class Import:
    """One import: which file, which line, what module (and, for a name, which name)."""

    file: str  # relative to the package: "evaluation/_display.py"
    line: int
    module: str  # "dial_notebook.widget._static"
    name: str | None = None  # an attribute imported from ``module`` (not a module itself)

    @property
    def target(self) -> str:
        return f"{self.module}.{self.name}" if self.name else self.module


def layer_of_file(relative: Path) -> str:
    """``evaluation`` for ``evaluation/_run.py``; ``cli`` for ``cli.py``; ``_helpers`` for
    ``_files.py``; ``__init__`` for the package's own ``__init__.py``."""
    if len(relative.parts) > 1:
        return relative.parts[0]
    stem = relative.stem
    if stem == "__init__":
        return "__init__"
    if stem in ("cli", "__main__"):
        return "cli"
    assert stem.startswith("_"), f"{relative}: a top-level module that is no layer: give it one"
    return "_helpers"


def layer_of_module(module: str) -> str:
    """``runtime`` for ``dial_notebook.runtime._work``; ``_helpers`` for ``dial_notebook._files``."""
    parts = module.split(".")
    if len(parts) == 1:
        return "__init__"
    if parts[1] in ("cli", "__main__"):
        return "cli"
    return "_helpers" if parts[1].startswith("_") else parts[1]


def is_module(dotted: str) -> bool:
    """Whether ``dial_notebook.x.y`` names a module or package of this package."""
    path = PACKAGE.joinpath(*dotted.split(".")[1:])
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _absolute(node: ast.ImportFrom, relative: Path) -> str:
    if not node.level:
        return node.module or ""
    package = [TOP, *relative.parent.parts]  # a module's package is its folder
    base = package[: len(package) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _import_module_call(node: ast.AST) -> str | None:
    """``"x.y"`` for ``importlib.import_module("x.y")`` (or ``import_module("x.y")``)."""
    if not isinstance(node, ast.Call) or not node.args:
        return None
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    first = node.args[0]
    if name == "import_module" and isinstance(first, ast.Constant):
        return first.value if isinstance(first.value, str) else None
    return None


def imports_in(source: str, relative: Path) -> list[Import]:
    """Every import of this package's modules in ``source`` (the text of the file at
    ``relative`` in the package), wherever it stands in the file."""
    found: list[Import] = []

    def add(line: int, module: str, name: str | None = None) -> None:
        if module == TOP or module.startswith(TOP + "."):
            found.append(Import(str(relative.as_posix()), line, module, name))

    for node in ast.walk(ast.parse(source, str(relative))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(node.lineno, alias.name)
        elif isinstance(node, ast.ImportFrom):
            module = _absolute(node, relative)
            for alias in node.names:
                submodule = f"{module}.{alias.name}"
                if alias.name != "*" and is_module(submodule):
                    add(node.lineno, submodule)
                else:
                    add(node.lineno, module, None if alias.name == "*" else alias.name)
        elif (named := _import_module_call(node)) is not None:
            add(node.lineno, named)
    return found


def broken_rule(imp: Import) -> str | None:
    """Why ``imp`` breaks a rule, or None when it keeps both."""
    source = layer_of_file(Path(imp.file))
    target = layer_of_module(imp.module)
    if source == target:
        return None
    if RANKS[target] > RANKS[source]:
        return f"rule 1 (layers point down): {source} imports from {target}, a higher layer"
    if RANKS[target] == RANKS[source]:
        return f"rule 1 (layers point down): {source} imports from {target}, a sibling layer"
    if target == "_helpers":
        return None
    private = [p for p in imp.target.split(".")[2:] if p.startswith("_")]
    if private:
        return (
            f"rule 2 (a layer's __init__ is its public face): {source} imports {target}'s "
            f"private {'.'.join(imp.target.split('.')[2:])}; export it from "
            f"dial_notebook.{target} (and its __all__) or move it to a shared helper"
        )
    return None


@functools.cache
def all_imports() -> tuple[Import, ...]:
    """Every import of every module of the package (read once per test run)."""
    return tuple(
        imp
        for path in sorted(PACKAGE.rglob("*.py"))
        for imp in imports_in(path.read_text(encoding="utf-8"), path.relative_to(PACKAGE))
    )


def test_every_import_points_down_to_a_public_face():
    broken = [
        f"dial_notebook/{imp.file}:{imp.line} imports {imp.target}: {why}"
        for imp in all_imports()
        if (why := broken_rule(imp)) and (imp.file, imp.module) not in ALLOWED
    ]
    assert not broken, "imports that break the layering (DESIGN.md):\n" + "\n".join(broken)


def test_every_allowed_exception_is_still_needed():
    used = {(imp.file, imp.module) for imp in all_imports() if broken_rule(imp)}
    stale = [f"{key} ({who})" for key, who in ALLOWED.items() if key not in used]
    assert not stale, "remove these entries from ALLOWED in tests/unit/test_layers.py:\n" + (
        "\n".join(stale)
    )


def test_every_file_of_the_package_belongs_to_a_known_layer():
    layers = {layer_of_file(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("*.py")}
    assert layers <= set(RANKS), sorted(layers - set(RANKS))


CASES = [  # (file, source, the rule it breaks or None)
    ("evaluation/_x.py", "def f():\n    from ..widget._static import STATIC_CSS\n", "rule 1"),
    ("evaluation/_x.py", "from ..runtime import _work\n", "rule 2"),
    ("evaluation/_x.py", "import dial_notebook.runtime._work\n", "rule 2"),
    ("evaluation/_x.py", "from dial_notebook.runtime import _private_name\n", "rule 2"),
    ("evaluation/_x.py", "from ..runtime import Conversation\n", None),
    ("evaluation/_x.py", "from .. import runtime\n", None),
    ("evaluation/_x.py", "from .. import _public\n", None),
    ("evaluation/_x.py", "from ._run import evaluate\n", None),
    ("domains/_x.py", "from ..runtime import time_left\n", "rule 1"),
    ("interaction/_x.py", "from ..agents import ScriptedAgent\n", "rule 1"),
    ("_helper.py", "from .dial import parse\n", "rule 1"),
    ("widget/_x.py", "import importlib\nimportlib.import_module('dial_notebook.cli')\n", "rule 1"),
    ("cli.py", "from dial_notebook.widget import export_document\n", None),
    ("__init__.py", "from .widget import ChatWidget\n", None),
]


@pytest.mark.parametrize(("file", "source", "rule"), CASES)
def test_the_checker_reads_every_kind_of_import(file, source, rule):
    [imp] = imports_in(source, Path(file))
    why = broken_rule(imp)
    assert (why or "").startswith(rule or "") and (why is None) == (rule is None), why
