"""The server runtime is layered: core → validation → dispatch → catalog → upstream → stdio →
http → entry.

A module imports only its own layer and the layers below, and nothing imports `entry`. Imports
are read with `ast`, those deferred inside functions and under `TYPE_CHECKING` included, so a
cycle cannot hide behind a late import; no two runtime modules import each other, however
indirectly.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

RUNTIME = Path(__file__).resolve().parents[3] / "mcpgen" / "runtime"
# Lowest first: a module may import its own layer and any layer below it.
LAYERS = ("core", "validation", "dispatch", "catalog", "upstream", "stdio", "http", "entry")
RANK = {layer: rank for rank, layer in enumerate(LAYERS)}


def runtime_modules() -> Iterator[tuple[str, Path]]:
    """`core.errors` → its path, for every module of the server runtime."""
    for path in sorted(RUNTIME.rglob("*.py")):
        parts = path.relative_to(RUNTIME).with_suffix("").parts
        if parts[0] == "testing" or parts == ("__init__",):
            continue  # copied into a project's tests, not its server
        yield ".".join(parts), path


def _resolve(module: str, path: Path, node: ast.ImportFrom) -> Iterator[str]:
    package = module.split(".")[:-1] if path.name != "__init__.py" else module.split(".")
    parent = package[: len(package) - node.level + 1]
    base = ".".join([*parent, node.module] if node.module else parent)
    for alias in node.names:
        candidate = f"{base}.{alias.name}" if base else alias.name
        if (RUNTIME / Path(*candidate.split("."))).with_suffix(".py").is_file():
            yield candidate
        elif base:
            yield base


@cache
def import_graph() -> dict[str, frozenset[str]]:
    """Module → the runtime modules it imports, at any depth of its code."""
    graph: dict[str, frozenset[str]] = {}
    for module, path in runtime_modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level:
                found.update(_resolve(module, path, node))
            elif isinstance(node, ast.ImportFrom | ast.Import):
                names = [node.module or ""] if isinstance(node, ast.ImportFrom) else []
                names += [a.name for a in node.names] if isinstance(node, ast.Import) else []
                assert not any(n.startswith("mcpgen") for n in names), (
                    f"{module} imports mcpgen by name: the runtime is copied into projects"
                )
        graph[module] = frozenset(found - {module})
    return graph


def layer(module: str) -> str:
    return module.split(".", maxsplit=1)[0]


def test_every_module_is_in_a_layer() -> None:
    assert {layer(m) for m in import_graph()} <= set(RANK)


@pytest.mark.parametrize("module", sorted(import_graph()))
def test_no_import_from_a_layer_above(module: str) -> None:
    upward = sorted(t for t in import_graph()[module] if RANK[layer(t)] > RANK[layer(module)])
    assert not upward, f"{module} imports {upward} from a layer above its own"


def test_nothing_imports_the_entry() -> None:
    importers = sorted(
        m
        for m, targets in import_graph().items()
        if layer(m) != "entry"
        for t in targets
        if layer(t) == "entry"
    )
    assert not importers


def test_no_import_cycle() -> None:
    assert cycles(import_graph()) == []


def test_a_cycle_through_a_deferred_import_is_found() -> None:
    planted = {
        "core.a": frozenset({"core.b"}),
        "core.b": frozenset({"core.c"}),
        "core.c": frozenset({"core.a"}),
        "core.d": frozenset({"core.a"}),
    }
    assert cycles(planted) == ["core.a ↔ core.b", "core.a ↔ core.c", "core.b ↔ core.c"]


def cycles(graph: dict[str, frozenset[str]]) -> list[str]:
    """Every pair of modules that import each other, however indirectly."""
    reach = {module: _reachable(graph, module) for module in graph}
    return [
        f"{a} ↔ {b}" for a in sorted(graph) for b in sorted(reach[a]) if a < b and a in reach[b]
    ]


def _reachable(graph: dict[str, frozenset[str]], module: str) -> set[str]:
    seen: set[str] = set()
    stack = list(graph[module])
    while stack:
        current = stack.pop()
        if current not in seen:
            seen.add(current)
            stack.extend(graph.get(current, ()))
    return seen
