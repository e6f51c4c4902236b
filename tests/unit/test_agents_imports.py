"""The agents package's modules import one way: no import cycle among dial_notebook/agents/*.py.

Read from the source with ``ast`` (nothing is imported), counting every import: at the top of a
module and inside functions (a lazy import is still an edge), relative or absolute.
"""

from __future__ import annotations

import ast
from pathlib import Path

import dial_notebook.agents

PACKAGE = "dial_notebook.agents"
FOLDER = Path(dial_notebook.agents.__file__).parent


def module_name(path: Path) -> str:
    return PACKAGE if path.stem == "__init__" else f"{PACKAGE}.{path.stem}"


def imported(path: Path, modules: set[str]) -> set[str]:
    """The modules of the package that the file at ``path`` imports, anywhere in it."""
    here = module_name(path)
    package_parts = here.split(".") if path.stem == "__init__" else here.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ".".join(package_parts[:len(package_parts) - node.level + 1])
                base = f"{base}.{node.module}" if node.module else base
            else:
                base = node.module or ""
            # ``from . import _saved`` imports the module _saved; ``from . import X`` of a name
            # that is not a module imports the package's __init__
            names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                     for alias in node.names]
        else:
            continue
        found |= {name for name in names if name in modules and name != here}
    return found


def import_graph() -> dict[str, set[str]]:
    paths = sorted(FOLDER.glob("*.py"))
    modules = {module_name(p) for p in paths}
    return {module_name(p): imported(p, modules) for p in paths}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as the modules around it (first repeated at the end), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt):], nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state and (cycle := visit(start)):
            return cycle
    return None


def test_the_checker_finds_a_cycle_and_reads_lazy_and_relative_imports(tmp_path):
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None
    source = tmp_path / "_x.py"
    source.write_text("from . import _saved\nfrom ._demo_base import Brain\n"
                      "def f():\n    from ._demo import DemoAgent\n    import json\n")
    modules = {f"{PACKAGE}.{n}" for n in ("_saved", "_demo_base", "_demo", "_x")}
    assert imported(source, modules) == {f"{PACKAGE}._saved", f"{PACKAGE}._demo_base",
                                         f"{PACKAGE}._demo"}


def test_the_graph_sees_the_package_and_its_modules():
    graph = import_graph()
    assert f"{PACKAGE}._demo" in graph[PACKAGE]
    assert f"{PACKAGE}._demo_base" in graph[f"{PACKAGE}._demo_notes"]


def test_no_import_cycle_among_the_agents_modules():
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])
