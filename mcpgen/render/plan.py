"""Manifest → RenderPlan: every file `mcpgen generate` wants, with its owner. Pure: no writes."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any, Literal, NamedTuple

from mcpgen.core.header import GENERATED_HEADER, GENERATED_HEADER_TEXT
from mcpgen.errors import McpgenError
from mcpgen.manifest.model import UNIMPLEMENTED_WIRE, WIRE_KEYS, Manifest, Tool
from mcpgen.models.codegen import render_models
from mcpgen.render.bundle_manifest import bundle_manifest_text
from mcpgen.render.catalog import (
    catalog_handlers,
    catalog_offers,
    catalog_test_context,
    completion_handlers,
    prompt_completions,
    static_contents,
    template_completions,
)
from mcpgen.render.container import container
from mcpgen.render.docs import auth_text, tool_doc
from mcpgen.render.env import environment
from mcpgen.render.invalid import accepts, invalid_arguments
from mcpgen.render.patterns import declared_patterns
from mcpgen.render.publish import published_definition
from mcpgen.render.server_json import server_json_text
from mcpgen.render.vendored_runtime import FOLDER, runtime_api, runtime_sources, used_modules

# generated: rewritten whole on every run, hash kept in the state file, hand edits refused.
# user: created once if absent, never modified or deleted afterwards (handlers, user tests).
# local: machine-specific generated output (hosts/): rewritten, git-ignored, no hand-edit check.
Owner = Literal["generated", "user", "local"]


class CatalogKey(NamedTuple):
    """The resource, template or prompt a user file belongs to, and what the file is to it."""

    kind: str  # "resource", "resource template" or "prompt"
    name: str
    role: str  # "handler", or "complete <argument>" for a completion handler


@dataclass(frozen=True)
class PlannedFile:
    """One file a render wants on disk; `path` is POSIX and relative to the project root."""

    path: str
    content: str
    owner: Owner
    tool: str | None = None  # the tool a per-tool file belongs to (handler, user test)
    catalog: CatalogKey | None = None  # the catalog entry a handler file belongs to


@dataclass(frozen=True)
class RenderPlan:
    """Every file a render wants, in a stable order."""

    files: tuple[PlannedFile, ...]

    def by_owner(self, owner: Owner) -> tuple[PlannedFile, ...]:
        """The planned files of one owner, in plan order."""
        return tuple(f for f in self.files if f.owner == owner)

    def get(self, path: str) -> PlannedFile | None:
        """The planned file at `path`, or None when the render does not want it."""
        return next((f for f in self.files if f.path == path), None)


CONTRACT_TEST = "tests/test_contract.py"
VERDICT_TEST = "tests/test_schema_verdicts.py"
CATALOG_TEST = "tests/test_catalog_contract.py"
GENERATED_TESTS = (CONTRACT_TEST, VERDICT_TEST, CATALOG_TEST)


class ProjectPaths:
    """Where each kind of file lives in a project, relative to its root."""

    def __init__(self, manifest: Manifest) -> None:
        self.package = f"src/{manifest.package}"
        self.generated = f"{self.package}/_generated"
        self.runtime = f"{self.package}/{FOLDER}"
        self._own_tests = {f"tests/test_{t.python_name}.py" for t in manifest.tools}

    def handler(self, tool: Tool) -> str:
        """A tool's user-owned handler module."""
        return f"{self.package}/handlers/{tool.python_name}.py"

    def catalog_handler(self, python_name: str) -> str:
        """A resource's, template's or prompt's handler: beside the tools' (names are unique)."""
        return f"{self.package}/handlers/{python_name}.py"

    def user_test(self, tool: Tool) -> str:
        """`tests/test_<python_name>.py`; a tool named `contract` would take a generated test,
        so it gets the first `test_contract_tool[N].py` no tool claims."""
        path = f"tests/test_{tool.python_name}.py"
        if path not in GENERATED_TESTS:
            return path
        candidates = (
            f"tests/test_{tool.python_name}_tool{n if n > 1 else ''}.py" for n in itertools.count(1)
        )
        return next(c for c in candidates if c not in self._own_tests)


def _render(template: str, **context: Any) -> str:
    return environment().get_template(template).render(**context)


def _examples(manifest: Manifest) -> list[tuple[Tool, int, dict[str, Any]]]:
    """The examples of the tools with a handler, which the contract tests run."""
    return [
        (t, i, e.arguments)
        for t in manifest.tools
        if t.binding is None
        for i, e in enumerate(t.examples)
    ]


def _bound_calls(manifest: Manifest) -> list[tuple[Tool, int, dict[str, Any]]]:
    """Calls of the tools bound to an HTTP API, which the contract tests send to a recording
    stand-in for the API: each example, else `{}` when the input schema accepts it."""
    return [
        (t, i, arguments)
        for t in manifest.tools
        if t.binding is not None
        for i, arguments in enumerate(_user_test_arguments(t))
    ]


def _invalid_calls(manifest: Manifest) -> list[tuple[Tool, dict[str, Any]]]:
    calls = []
    for tool in manifest.tools:
        arguments = invalid_arguments(tool.input_schema)
        if arguments is not None:
            calls.append((tool, arguments))
    return calls


def _user_test_arguments(tool: Tool) -> list[dict[str, Any]]:
    """Arguments for the user test stub: every example, else `{}` when the schema takes it."""
    if tool.examples:
        return [example.arguments for example in tool.examples]
    return [{}] if accepts(tool.input_schema, {}) else []


def _model_names(manifest: Manifest, models_source: str) -> list[str]:
    wanted = [n for t in manifest.tools for n in (t.input_model, t.output_model) if n]
    missing = [n for n in wanted if f"class {n}(" not in models_source]
    if missing:
        # The model generator renamed a class we import: a clash mcpgen must avoid, not the user.
        raise McpgenError(f"internal: generated models lack {', '.join(missing)}")
    return wanted


def _generated_files(
    manifest: Manifest, paths: ProjectPaths, previous_models: str | None
) -> list[PlannedFile]:
    models_source = render_models(manifest, previous_models)
    handler_paths = {t.name: _code_path(t, paths) for t in manifest.tools}
    bindings = {t.name: t.binding for t in manifest.tools if t.binding is not None}
    context: dict[str, Any] = {
        "manifest": manifest,
        "header": GENERATED_HEADER,
        "runtime_api": runtime_api(),
        "header_text": GENERATED_HEADER_TEXT,
        "handler_paths": handler_paths,
        "wire_keys": WIRE_KEYS,
        "unpublished": [(u.parent, u.key, sorted(u.truthful)) for u in UNIMPLEMENTED_WIRE],
        "definitions": {t.name: published_definition(manifest, t) for t in manifest.tools},
        "model_names": _model_names(manifest, models_source),
        "required_env": tuple(
            (v.name, v.description) for v in manifest.env if v.required and v.default is None
        ),
        "env_defaults": {v.name: v.default for v in manifest.env if v.default is not None},
        "secret_env": tuple(v.name for v in manifest.env if v.secret),
        "env_names": tuple(v.name for v in manifest.env),
        "examples": _examples(manifest),
        "invalid_calls": _invalid_calls(manifest),
        "docs": [tool_doc(t, handler_paths[t.name]) for t in manifest.tools],
        "api_sources": {source.key: source.plain() for source in manifest.apis},
        "api_docs": [(source, auth_text(source.auth)) for source in manifest.apis],
        "bindings": bindings,
        "bound_calls": _bound_calls(manifest),
        "imported": {t.name: t.wire() for t in manifest.tools if t.api is not None},
        "tool_order": [t.name for t in manifest.tools],
        "box": container(manifest),
        "catalog_handlers": catalog_handlers(manifest),
        "offers": catalog_offers(manifest),
        "static_contents": static_contents(manifest),
        "prompt_completions": prompt_completions(manifest),
        "template_completions": template_completions(manifest),
        "completion_handlers": completion_handlers(manifest),
        "declared_patterns": declared_patterns(manifest),
        **catalog_test_context(manifest),
    }
    rendered = {
        f"{paths.generated}/__init__.py": "__init__.py.jinja",
        f"{paths.generated}/tools.py": "tools.py.jinja",
        f"{paths.generated}/server.py": "server.py.jinja",
        f"{paths.generated}/launch.py": "launch.py.jinja",
        f"{paths.package}/__main__.py": "__main__.py.jinja",
        f"{paths.package}/py.typed": "py.typed.jinja",
        CONTRACT_TEST: "test_contract.py.jinja",
        VERDICT_TEST: "test_schema_verdicts.py.jinja",
        "TOOLS.md": "TOOLS.md.jinja",
        "Dockerfile": "Dockerfile.jinja",
    }
    if bindings:
        rendered[f"{paths.generated}/apis.py"] = "apis.py.jinja"
    if manifest.has_catalog:
        rendered[f"{paths.generated}/catalog_table.py"] = "catalog_table.py.jinja"
        rendered[CATALOG_TEST] = "test_catalog_contract.py.jinja"
    files = [PlannedFile(f"{paths.generated}/models.py", models_source, "generated")]
    files += [PlannedFile(path, _render(t, **context), "generated") for path, t in rendered.items()]
    files += _runtime_files(manifest.package, paths, files)
    files.append(PlannedFile("server.json", server_json_text(manifest), "generated"))
    files.append(PlannedFile("manifest.json", bundle_manifest_text(manifest), "generated"))
    cases = resources.files("mcpgen.runtime.testing") / "schema_cases.py"
    files.append(_copied("tests/schema_cases.py", cases))
    return files


def _runtime_files(
    package: str, paths: ProjectPaths, rendered: list[PlannedFile]
) -> list[PlannedFile]:
    """The modules of `mcpgen.runtime` the rendered Python uses, vendored into `_runtime/`."""
    python = [(f.path, f.content) for f in rendered if f.path.endswith(".py")]
    return [
        PlannedFile(f"{paths.runtime}/{path}", text, "generated")
        for path, text in runtime_sources(used_modules(package, python))
    ]


def _code_path(tool: Tool, paths: ProjectPaths) -> str:
    """Where a tool's code is: its handler, or for a tool bound to an HTTP API its binding."""
    return f"{paths.generated}/apis.py" if tool.binding is not None else paths.handler(tool)


def _copied(path: str, source: Traversable) -> PlannedFile:
    """A module of mcpgen's, verbatim under the generated header."""
    return PlannedFile(
        path, f"{GENERATED_HEADER}\n{source.read_text(encoding='utf-8')}", "generated"
    )


def _user_files(manifest: Manifest, paths: ProjectPaths) -> list[PlannedFile]:
    files = [
        PlannedFile("tests/conftest.py", _render("conftest.py.jinja", manifest=manifest), "user"),
        PlannedFile(".dockerignore", _render("dockerignore.jinja"), "user"),
        PlannedFile(
            f"{paths.package}/__init__.py",
            _render("package_init.py.jinja", manifest=manifest),
            "user",
        ),
        PlannedFile(
            f"{paths.package}/handlers/__init__.py",
            _render("handlers_init.py.jinja", manifest=manifest),
            "user",
        ),
        PlannedFile(
            f"{paths.package}/middleware.py",
            _render("middleware.py.jinja", manifest=manifest),
            "user",
        ),
    ]
    for tool in manifest.tools:
        if tool.binding is not None:
            continue  # the runtime calls the API: no handler to write, nor its test
        summary = (tool.description or "").strip().split("\n")[0].strip()
        context = {"manifest": manifest, "tool": tool, "summary": summary}
        files.append(
            PlannedFile(
                paths.handler(tool), _render("handler.py.jinja", **context), "user", tool.name
            )
        )
        test = _render(
            "user_test.py.jinja", example_arguments=_user_test_arguments(tool), **context
        )
        files.append(PlannedFile(paths.user_test(tool), test, "user", tool.name))
    for handler in catalog_handlers(manifest):
        description = getattr(handler.entry, "description", None)
        description = description or handler.entry.extra_wire.get("description") or ""
        summary = str(description).strip().split("\n")[0].strip()
        text = _render(
            "catalog_handler.py.jinja",
            manifest=manifest,
            entry=handler.entry,
            kind=handler.kind,
            signature=handler.signature,
            summary=summary,
        )
        key = CatalogKey(handler.kind, handler.name, "handler")
        path = paths.catalog_handler(handler.python_name)
        files.append(PlannedFile(path, text, "user", catalog=key))
    for completer in completion_handlers(manifest):
        text = _render("completion_handler.py.jinja", manifest=manifest, handler=completer)
        key = CatalogKey(completer.kind, completer.entry.name, f"complete {completer.argument}")
        path = paths.catalog_handler(completer.python_name)
        files.append(PlannedFile(path, text, "user", catalog=key))
    return files


def models_path(manifest: Manifest) -> str:
    """Where the generated models module lives, which a render may reuse when unchanged."""
    return f"{ProjectPaths(manifest).generated}/models.py"


def render_plan(manifest: Manifest, previous_models: str | None = None) -> RenderPlan:
    """Every file the project should have for `manifest`: a pure function of its arguments.

    `previous_models` is models.py as last generated, reused when its inputs are unchanged.
    """
    paths = ProjectPaths(manifest)
    files = _generated_files(manifest, paths, previous_models) + _user_files(manifest, paths)
    return RenderPlan(tuple(sorted(files, key=lambda f: f.path)))
