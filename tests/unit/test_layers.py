"""The package reads as the pipeline: no module imports from a layer above its own.

core → schema → manifest → models → render (the plan) → write → scaffold → generation, with
hosts beside generation, one workflow per command above them and the command line on top.
Imports are read with `ast` (including those deferred inside functions and under
`TYPE_CHECKING`), so a cycle cannot hide behind a late import.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "mcpgen"

# Lowest first. A module may import its own layer's package and any layer below.
LAYERS: list[set[str]] = [
    {"errors"},
    {"core", "runtime"},
    {"schema"},
    {"openapi"},  # OpenAPI documents → tool drafts, expanded by the manifest
    {"manifest"},
    {"contract"},  # judges what a client sees of two manifests (the plan and `mcpgen diff`)
    {"models"},
    {"render"},
    {"write"},
    {"scaffold"},
    {"generation", "hosts"},
    {"commands"},
    {"cli"},
    {"__init__", "__main__"},  # the public API and `python -m mcpgen`
]
RANK = {unit: rank for rank, units in enumerate(LAYERS) for unit in units}


def unit_of(module: str) -> str:
    """`mcpgen.generation.engine` → `generation`; the package itself → `__init__`."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def modules() -> Iterator[tuple[str, Path]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        yield ".".join(parts), path


def imports(module: str, path: Path) -> Iterator[tuple[str, list[str]]]:
    """Every mcpgen module `path` imports, with the names taken from it."""
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from ((a.name, []) for a in node.names if a.name.startswith("mcpgen"))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package[: len(package) - node.level + 1]
                base = ".".join([*parent, base]).rstrip(".")
            if not base.startswith("mcpgen"):
                continue
            for alias in node.names:  # `from mcpgen.core import names` imports a module
                submodule = f"{base}.{alias.name}"
                if _is_module(submodule):
                    yield submodule, []
                else:
                    yield base, [alias.name]


def _is_module(module: str) -> bool:
    relative = Path(*module.split(".")[1:])
    return (PACKAGE / relative).with_suffix(".py").is_file() or (PACKAGE / relative).is_dir()


@cache
def import_graph() -> dict[str, set[str]]:
    """Unit → the units it imports (the version string of the package root aside)."""
    graph: dict[str, set[str]] = {}
    for module, path in modules():
        unit = unit_of(module)
        for target, names in imports(module, path):
            if target == "mcpgen" and names == ["__version__"]:
                continue  # a constant of the package root, not its API
            other = unit_of(target)
            if other != unit:
                graph.setdefault(unit, set()).add(other)
    return graph


def test_every_unit_has_a_layer() -> None:
    units = {unit_of(module) for module, _ in modules()}
    assert units <= set(RANK), f"put {sorted(units - set(RANK))} in a layer"


@pytest.mark.parametrize("unit", sorted(RANK))
def test_no_import_from_a_layer_above(unit: str) -> None:
    targets = import_graph().get(unit, set())
    upward = sorted(t for t in targets if RANK[t] >= RANK[unit])
    assert not upward, f"{unit} (layer {RANK[unit]}) imports {upward} from its layer or above"


def module_graph() -> dict[str, set[str]]:
    """Module → the mcpgen modules it imports, deferred and `TYPE_CHECKING` imports included."""
    graph: dict[str, set[str]] = {}
    for module, path in modules():
        graph[module] = {target for target, _ in imports(module, path) if target != module}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while (member := stack.pop()) != node:
                group.append(member)
            group.append(node)
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_cycle_between_modules() -> None:
    """Between any two modules of mcpgen or of its runtime, however late the import."""
    assert cycles(module_graph()) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]


if __name__ == "__main__":  # print the graph, layer by layer
    graph = import_graph()
    for rank, units in enumerate(LAYERS):
        for unit in sorted(units):
            below = ", ".join(sorted(graph.get(unit, ())))
            print(f"{rank} {unit:16} → {below or '-'}")
