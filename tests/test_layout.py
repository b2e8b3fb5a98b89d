"""The package's layout: it follows the pipeline, lower layers never import higher ones, and no module or
package imports, however indirectly, one that imports it back.

Every import among pipscover's modules counts, at the top of a module, inside a function (loaded on first
use) or under TYPE_CHECKING, since each is a dependency a reader has to follow. A package's `__init__` is a
module like any other; the implicit import of a parent package is not counted.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "pipscover"


def module_names() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The pipscover modules `name` imports anywhere in its text."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, *([base] if base else [])])
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base)
    return {module for module in found if module in modules and module != name}


@functools.cache
def module_graph() -> dict[str, set[str]]:
    """Each module's pipscover imports, read once for all the tests that ask (each read parses every module)."""
    modules = module_names()
    return {name: imports(name, path, modules) for name, path in modules.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that reach each other (Tarjan's strongly connected components, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


# The pipeline, lowest first: a package may import its own layer and the ones below, never one above.
LAYERS = [
    {"errors", "version"},
    {"regions", "runtime"},
    {"model"},
    {"formats", "render"},
    {"exactcover", "cnf"},
    {"engines"},
    {"solving", "counting", "hints"},
    {"generate", "hardness", "bench", "sweep"},
    {"cli", "serve", "__main__", ""},
]
LAYER_OF = {package: depth for depth, packages in enumerate(LAYERS) for package in packages}


def package_of(module: str) -> str:
    """`pipscover.engines.dlx` -> `engines`; the package's own face, `pipscover`, -> ``."""
    return module.split(".")[1] if "." in module else ""


def package_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for name, others in module_graph().items():
        graph.setdefault(package_of(name), set()).update(
            package_of(other) for other in others if package_of(other) != package_of(name)
        )
    return graph


def test_no_import_cycles():
    assert cycles(module_graph()) == []


def test_no_import_cycles_between_packages():
    assert cycles(package_graph()) == []


def test_every_package_has_a_layer():
    assert set(package_graph()) <= set(LAYER_OF)


def test_no_package_imports_a_higher_layer():
    upward = {
        (package, other)
        for package, others in package_graph().items()
        for other in others
        if LAYER_OF[other] > LAYER_OF[package]
    }
    assert upward == set()


def test_the_package_root_holds_only_the_model_errors_version_and_the_public_face():
    loose = {path.name for path in PACKAGE.glob("*.py")}
    assert loose <= {"__init__.py", "__main__.py", "errors.py", "version.py"}


def test_the_engines_know_nothing_of_pips():
    # The exact-cover engine receives items, options and a propagator; it imports no puzzle, region or pruning
    # (only the loader of the compiled cores and the deadlines, which know nothing of Pips either).
    assert module_graph()["pipscover.engines.dancing_links"] <= {"pipscover.runtime.cores",
                                                                 "pipscover.runtime.deadlines"}
