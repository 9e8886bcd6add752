"""Static check that each tool's handler is what the dispatcher calls: `name(args: NameInput)`,
or `name(args: NameInput, ctx: Context)` for a handler that wants the call's context,
and that every name it imports from the generated package exists there.

Done with `ast` on the file, never by importing it: `mcpgen check` must not run user code
(a handler may open connections at import time) and must work without the project installed.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from mcpgen.manifest.model import Manifest, Tool
from mcpgen.render.plan import RenderPlan

CONTEXT_CLASS = "Context"


@dataclass(frozen=True)
class HandlerProblem:
    """Why the dispatcher cannot call one tool's handler."""

    tool: str
    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


def _annotation_name(annotation: ast.expr | None) -> str | None:
    """`GetInput`, `models.GetInput` and `"GetInput"` all name the class `GetInput`."""
    if isinstance(annotation, ast.Name):
        return annotation.id
    if isinstance(annotation, ast.Attribute):
        return annotation.attr
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        return annotation.value.rsplit(".", 1)[-1].strip()
    return None


def _signature_problem(function: ast.FunctionDef | ast.AsyncFunctionDef, tool: Tool) -> str | None:
    args = function.args
    positional = [*args.posonlyargs, *args.args]
    if not positional and args.vararg is None:
        return (
            f"`{tool.python_name}` takes no argument; "
            f"the dispatcher passes one `{tool.input_model}`"
        )
    # Parameters after the second need defaults: the dispatcher passes the arguments' model,
    # and the context when the handler declares a second parameter.
    without_default = len(positional) - len(args.defaults)
    kw_without_default = [
        a.arg for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is None
    ]
    if without_default > 2 or kw_without_default:
        return (
            f"`{tool.python_name}` must take one argument, or two (the arguments' model, "
            "then the `Context`)"
        )
    if len(positional) >= 2:
        context = _annotation_name(positional[1].annotation)
        if context not in (None, CONTEXT_CLASS):
            return (
                f"the second argument of `{tool.python_name}` is annotated `{context}`; "
                f"the dispatcher passes a `{CONTEXT_CLASS}` there"
            )
    if positional:
        found = _annotation_name(positional[0].annotation)
        if found != tool.input_model:
            what = f"is annotated `{found}`" if found else "has no type annotation"
            return (
                f"the argument of `{tool.python_name}` {what}; "
                f"the dispatcher passes a `{tool.input_model}`"
            )
    return None


def check_handler_source(source: str, tool: Tool) -> str | None:
    """The problem with one handler's source text, or None when the dispatcher can call it."""
    try:
        module = ast.parse(source)
    except SyntaxError as exc:
        return f"line {exc.lineno}: syntax error: {exc.msg}"
    function = next(
        (
            node
            for node in module.body
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            and node.name == tool.python_name
        ),
        None,
    )
    if function is None:
        return (
            f"no function `{tool.python_name}` (sync or async); the dispatcher calls "
            f"`{tool.python_name}(args: {tool.input_model})`"
        )
    return _signature_problem(function, tool)


def handler_path(plan: RenderPlan, tool: Tool) -> str | None:
    """The handler file the plan gives `tool` (a user file in a `handlers` directory)."""
    return next(
        (
            f.path
            for f in plan.by_owner("user")
            if f.tool == tool.name and Path(f.path).parent.name == "handlers"
        ),
        None,
    )


def check_handlers(root: Path, manifest: Manifest, plan: RenderPlan) -> list[HandlerProblem]:
    """Every tool whose handler is missing or has the wrong name or argument type."""
    problems: list[HandlerProblem] = []
    generated = generated_names(plan, manifest.package)
    for tool in manifest.tools:
        path = handler_path(plan, tool)
        if path is None:
            continue  # the renderer gives this tool no handler file: nothing to check
        try:
            source = (root / path).read_text(encoding="utf-8")
        except FileNotFoundError:
            problems.append(HandlerProblem(tool.name, path, "missing; run `mcpgen generate`"))
            continue
        except (OSError, UnicodeDecodeError) as exc:
            problems.append(HandlerProblem(tool.name, path, f"cannot be read: {exc}"))
            continue
        message = check_handler_source(source, tool)
        if message is None:
            message = missing_imports(source, path, generated)
        if message is not None:
            problems.append(HandlerProblem(tool.name, path, message))
    return problems + _catalog_problems(root, manifest, plan, generated)


def _catalog_problems(
    root: Path, manifest: Manifest, plan: RenderPlan, generated: dict[str, set[str]]
) -> list[HandlerProblem]:
    """Resource, template, prompt and completion handlers: the function exists and takes,
    by name, exactly what the server passes (plus `ctx`)."""
    from mcpgen.render.catalog import catalog_handlers, completion_handlers, passed_names

    expected = [(h.name, h.python_name, passed_names(h)) for h in catalog_handlers(manifest)]
    expected += [
        (f"{c.entry.name} ({c.argument} completions)", c.python_name, ["value", "arguments"])
        for c in completion_handlers(manifest)
    ]
    problems: list[HandlerProblem] = []
    for name, python_name, passed in expected:
        path = f"src/{manifest.package}/handlers/{python_name}.py"
        if plan.get(path) is None:
            continue
        try:
            source = (root / path).read_text(encoding="utf-8")
        except FileNotFoundError:
            problems.append(HandlerProblem(name, path, "missing; run `mcpgen generate`"))
            continue
        except (OSError, UnicodeDecodeError) as exc:
            problems.append(HandlerProblem(name, path, f"cannot be read: {exc}"))
            continue
        message = keyword_signature_problem(source, python_name, passed)
        message = message or missing_imports(source, path, generated)
        if message is not None:
            problems.append(HandlerProblem(name, path, message))
    return problems


def keyword_signature_problem(source: str, name: str, passed: list[str]) -> str | None:
    """Why `name(**{p: ... for p in passed})` (plus `ctx` if declared) would fail, or None."""
    try:
        module = ast.parse(source)
    except SyntaxError as exc:
        return f"line {exc.lineno}: syntax error: {exc.msg}"
    function = next(
        (
            node
            for node in module.body
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == name
        ),
        None,
    )
    expected = f"`{name}({', '.join(passed)})`"
    if function is None:
        return f"no function `{name}` (sync or async); the server calls {expected}"
    args = function.args
    named = [a.arg for a in [*args.args, *args.kwonlyargs]]
    with_default = {a.arg for a in args.args[len(args.args) - len(args.defaults) :]}
    with_default |= {a.arg for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d}
    unknown = [n for n in named if n not in passed and n != "ctx" and n not in with_default]
    if args.posonlyargs or unknown:
        odd = unknown[0] if unknown else args.posonlyargs[0].arg
        return f"`{name}` takes `{odd}`, which the server does not pass; it calls {expected}"
    missing = [p for p in passed if p not in named]
    if missing and args.kwarg is None:
        return f"`{name}` does not take `{missing[0]}`; the server calls {expected}"
    return None


def _top_level_names(source: str) -> set[str]:
    try:
        module = ast.parse(source)
    except SyntaxError:
        return set()
    found: set[str] = set()
    for node in module.body:
        if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            found.add(node.name)
        elif isinstance(node, ast.Assign):
            found.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            found.add(node.target.id)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            found.update((a.asname or a.name).split(".")[0] for a in node.names)
    return found


def generated_names(plan: RenderPlan, package: str) -> dict[str, set[str]]:
    """Module (`pkg._generated.models`) → the names it defines, from the files the plan
    generates (what `generate` writes, so a stale tree is judged by the manifest)."""
    modules: dict[str, set[str]] = {}
    for planned in plan.by_owner("generated"):
        pure = PurePosixPath(planned.path)
        if pure.suffix != ".py" or pure.parts[:3] != ("src", package, "_generated"):
            continue
        name = ".".join(pure.with_suffix("").parts[1:]).removesuffix(".__init__")
        modules[name] = _top_level_names(planned.content)
    for name in list(modules):  # a submodule is an importable name of its package
        parent, _, child = name.rpartition(".")
        if parent in modules:
            modules[parent].add(child)
    return modules


def _absolute(node: ast.ImportFrom, path: str) -> str:
    if not node.level:
        return node.module or ""
    parts = list(PurePosixPath(path).with_suffix("").parts[1:])  # src/ is not a package
    base = parts[: len(parts) - node.level]
    return ".".join([*base, node.module] if node.module else base)


def missing_imports(source: str, path: str, generated: dict[str, set[str]]) -> str | None:
    """The first name the handler imports from a generated module that does not define it."""
    try:
        module = ast.parse(source)
    except SyntaxError:
        return None  # reported by the signature check
    for node in ast.walk(module):
        if not isinstance(node, ast.ImportFrom):
            continue
        source_module = _absolute(node, path)
        names = generated.get(source_module)
        if names is None:
            continue
        for alias in node.names:
            if alias.name != "*" and alias.name not in names:
                return (
                    f"line {node.lineno}: imports `{alias.name}` from {source_module}, which "
                    "does not define it (a model renamed, or an output schema removed?); "
                    "the server cannot start until the import is fixed"
                )
    return None
