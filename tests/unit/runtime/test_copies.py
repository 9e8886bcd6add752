"""The runtime modules are copied into every project verbatim, and can be: they import only
the project's runtime dependencies and each other."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from mcpgen.manifest import load_manifest
from mcpgen.render.header import GENERATED_HEADER
from mcpgen.render.plan import render_plan

RUNTIME = Path(__file__).resolve().parents[3] / "mcpgen" / "runtime"
MODULES = sorted(p for p in RUNTIME.glob("*.py") if p.name != "__init__.py")
EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "weather"
# The generated project's `dependencies` (templates/project/pyproject.toml.jinja), as imported.
PROJECT_DEPENDENCIES = {
    "mcp",
    "pydantic",
    "jsonschema",
    "jsonschema_rs",
    "regress",
    "anyio",
    "uvicorn",
}
# Import names whose distribution is named otherwise: `jwt` is `pyjwt[crypto]`.
OTHER_NAMES = {"jwt"}


@pytest.mark.parametrize("module", MODULES, ids=lambda p: p.name)
def test_imports_are_relative_or_project_dependencies(module: Path) -> None:
    tree = ast.parse(module.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots = {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            roots = {(node.module or "").split(".")[0]}
        else:
            continue
        assert roots - sys.stdlib_module_names <= PROJECT_DEPENDENCIES | OTHER_NAMES, (
            module.name,
            node.lineno,
            roots,
        )


def test_project_declares_each_runtime_dependency() -> None:
    template = (RUNTIME.parents[1] / "templates/project/pyproject.toml.jinja").read_text()
    for name in PROJECT_DEPENDENCIES:
        assert f'"{name.replace("_", "-")}>=' in template, name


def test_each_module_is_copied_under_the_generated_header() -> None:
    plan = render_plan(load_manifest(EXAMPLE / "mcpgen.yaml"), EXAMPLE)
    for module in MODULES:
        planned = plan.get(f"src/weather/_generated/{module.name}")
        assert planned is not None and planned.owner == "generated"
        assert planned.content == f"{GENERATED_HEADER}\n{module.read_text(encoding='utf-8')}"
