"""The runtime modules are copied into every project verbatim, and can be: they import only
the project's dependencies and each other."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from mcpgen.core.header import GENERATED_HEADER
from mcpgen.manifest import load_manifest
from mcpgen.render.plan import render_plan

REPO = Path(__file__).resolve().parents[3]
RUNTIME = REPO / "mcpgen" / "runtime"
MODULES = sorted(p for p in RUNTIME.glob("*.py") if p.name != "__init__.py")
SCHEMA_CASES = RUNTIME / "testing" / "schema_cases.py"
EXAMPLE = REPO / "examples" / "weather"
# The generated project's `dependencies` (templates/project/pyproject.toml.jinja), as imported,
DEPENDENCIES = {"mcp", "pydantic", "jsonschema", "jsonschema_rs", "regress", "anyio", "uvicorn"}
DEPENDENCIES |= {"pydantic_core", "starlette", "sse_starlette", "h11", "referencing"}
# Import names whose distribution is named otherwise: `jwt` is `pyjwt[crypto]`, `re2` is
# `google-re2`.
OTHER_NAMES = {"jwt": "pyjwt[crypto]", "re2": "google-re2"}
# ... and the part of its `test` extra the copied test module uses.
TEST_DEPENDENCIES = {"hypothesis", "hypothesis_jsonschema"}


def imported_roots(module: Path) -> set[str]:
    """The top-level packages `module` imports absolutely (relative imports are siblings)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            found.add((node.module or "").split(".")[0])
    return found - sys.stdlib_module_names


@pytest.mark.parametrize("module", MODULES, ids=lambda p: p.name)
def test_imports_are_relative_or_project_dependencies(module: Path) -> None:
    assert imported_roots(module) <= DEPENDENCIES | OTHER_NAMES.keys()


def test_schema_cases_imports_only_the_test_extra() -> None:
    assert imported_roots(SCHEMA_CASES) <= TEST_DEPENDENCIES


def test_project_declares_each_dependency() -> None:
    template = (REPO / "templates/project/pyproject.toml.jinja").read_text(encoding="utf-8")
    for name in DEPENDENCIES | TEST_DEPENDENCIES:
        assert f'"{name.replace("_", "-")}>=' in template, name
    for distribution in OTHER_NAMES.values():
        assert f'"{distribution}>=' in template, distribution


def test_each_module_is_copied_under_the_generated_header() -> None:
    plan = render_plan(load_manifest(EXAMPLE / "mcpgen.yaml"))
    copies = {f"src/weather/_generated/{module.name}": module for module in MODULES}
    copies["tests/schema_cases.py"] = SCHEMA_CASES
    for path, module in copies.items():
        planned = plan.get(path)
        assert planned is not None and planned.owner == "generated"
        assert planned.content == f"{GENERATED_HEADER}\n{module.read_text(encoding='utf-8')}"
