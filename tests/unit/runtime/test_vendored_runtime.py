"""A project vendors the runtime modules its rendered code uses into `src/<pkg>/_runtime/`,
verbatim under the runtime's header, apart from what the manifest renders into `_generated/`.

The modules can be copied: they import only the project's dependencies and each other.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from mcpgen.core.header import GENERATED_HEADER, RUNTIME_HEADER
from mcpgen.manifest import load_manifest
from mcpgen.render import vendored_runtime
from mcpgen.render.plan import RenderPlan, render_plan

REPO = Path(__file__).resolve().parents[3]
RUNTIME = REPO / "mcpgen" / "runtime"
MODULES = sorted(p for p in RUNTIME.rglob("*.py") if "testing" not in p.relative_to(RUNTIME).parts)
SCHEMA_CASES = RUNTIME / "testing" / "schema_cases.py"
EXAMPLES = REPO / "examples"
# The generated project's `dependencies` (templates/project/pyproject.toml.jinja), as imported,
DEPENDENCIES = {"mcp", "pydantic", "jsonschema", "jsonschema_rs", "regress", "anyio", "uvicorn"}
DEPENDENCIES |= {"pydantic_core", "starlette", "sse_starlette", "h11", "referencing"}
DEPENDENCIES |= {"httpx2"}  # declared when the manifest imports HTTP APIs (`upstream`)
# Import names whose distribution is named otherwise: `jwt` is `pyjwt[crypto]`, `re2` is
# `google-re2`; `cryptography` comes with `pyjwt[crypto]` and `mcp`.
OTHER_NAMES = {"jwt": "pyjwt[crypto]", "re2": "google-re2"}
# ... and the part of its `test` extra the copied test module uses.
TEST_DEPENDENCIES = {"hypothesis", "hypothesis_jsonschema"}
CATALOG_MODULES = {"catalog", "completions", "handler_calls", "prompts", "resources"}
CATALOG_MODULES |= {"template_values", "uri_template"}


def imported_roots(module: Path) -> set[str]:
    """The top-level packages `module` imports absolutely (relative imports are siblings)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            found.add((node.module or "").split(".")[0])
    return found - sys.stdlib_module_names - {"__future__"}


def plan_of(example: str) -> RenderPlan:
    return render_plan(load_manifest(EXAMPLES / example / "mcpgen.yaml"))


def vendored(plan: RenderPlan, package: str) -> dict[str, str]:
    """Path under `_runtime/` → content, of every vendored runtime file."""
    prefix = f"src/{package}/_runtime/"
    return {f.path[len(prefix) :]: f.content for f in plan.files if f.path.startswith(prefix)}


@pytest.mark.parametrize("module", MODULES, ids=lambda p: str(p.relative_to(RUNTIME)))
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


def test_each_vendored_module_is_the_runtime_verbatim_under_its_header() -> None:
    plan = plan_of("weather")
    copies = vendored(plan, "weather")
    for path, content in copies.items():
        source = (RUNTIME / path).read_text(encoding="utf-8")
        assert content.startswith(f"{RUNTIME_HEADER}\n{source}"), path
        assert plan.get(f"src/weather/_runtime/{path}").owner == "generated"  # type: ignore[union-attr]
    init = copies["__init__.py"]
    assert "\nAPI = " in init and '\nVERSION = "' in init
    schema_cases = plan.get("tests/schema_cases.py")
    assert schema_cases is not None
    assert schema_cases.content == f"{GENERATED_HEADER}\n{SCHEMA_CASES.read_text(encoding='utf-8')}"


def test_generated_holds_only_what_the_manifest_renders() -> None:
    for example in ("weather", "everything"):
        package = load_manifest(EXAMPLES / example / "mcpgen.yaml").package
        prefix = f"src/{package}/_generated/"
        generated = [f.path for f in plan_of(example).files if f.path.startswith(prefix)]
        assert 0 < len([p for p in generated if p.endswith(".py")]) <= 8, generated


def test_a_tools_only_server_gets_no_catalog_module() -> None:
    copies = vendored(plan_of("weather"), "weather")
    assert not [p for p in copies if p.startswith("catalog/")]
    assert {"core/errors.py", "dispatch/dispatcher.py", "entry/console.py"} <= set(copies)
    assert "http/transport.py" in copies  # `--transport http` is every server's


def test_a_catalog_server_gets_the_catalog_modules() -> None:
    package = load_manifest(EXAMPLES / "everything" / "mcpgen.yaml").package
    copies = vendored(plan_of("everything"), package)
    assert {f"catalog/{name}.py" for name in CATALOG_MODULES} <= set(copies)


def test_every_vendored_import_is_vendored_too() -> None:
    for example in ("weather", "everything"):
        package = load_manifest(EXAMPLES / example / "mcpgen.yaml").package
        copies = vendored(plan_of(example), package)
        for path in copies:
            tree = ast.parse((RUNTIME / path).read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and node.level:
                    assert _imported(path, node) & set(copies), f"{path}: {ast.unparse(node)}"


def _imported(path: str, node: ast.ImportFrom) -> set[str]:
    """The files a relative import in `path` may name: modules, or the package itself."""
    here = list(Path(path).parent.parts)
    stem = [*here[: len(here) - node.level + 1], *(node.module or "").split(".")]
    stem = [part for part in stem if part]
    found = {"/".join([*stem, alias.name]) + ".py" for alias in node.names}
    return found | {"/".join(stem) + ".py", "/".join([*stem, "__init__.py"])}


def test_a_runtime_only_change_rewrites_only_the_runtime(monkeypatch: pytest.MonkeyPatch) -> None:
    before = {f.path: f.content for f in plan_of("everything").files}
    changed = vendored_runtime._source

    def edited(relative: str) -> str:
        return changed(relative) + "# a runtime-only change\n"

    monkeypatch.setattr(vendored_runtime, "_source", edited)
    after = {f.path: f.content for f in plan_of("everything").files}
    assert before.keys() == after.keys()
    rewritten = {path for path in before if before[path] != after[path]}
    assert rewritten and all("/_runtime/" in path for path in rewritten)
