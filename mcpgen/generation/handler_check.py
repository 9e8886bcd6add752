"""Static check that each tool's handler is what the dispatcher calls: `name(args: NameInput)`,
or `name(args: NameInput, ctx: Context)` for a handler that wants the call's context,
and that every name it imports from the generated package exists there.

Done with `ast` on the file, never by importing it: `mcpgen check` must not run user code
(a handler may open connections at import time) and must work without the project installed.
A handler re-exported from another module of the project is followed there (`handler_source`);
what reading cannot settle is a note ("could not verify statically"), never a failure.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from mcpgen.manifest.model import Manifest, Tool
from mcpgen.render.plan import RenderPlan

if TYPE_CHECKING:
    from mcpgen.render.catalog import CatalogHandler
from mcpgen.generation.handler_source import (
    Definition,
    Function,
    Missing,
    ProjectSources,
    Resolved,
    SourceError,
    Undecided,
    absolute_module,
    defined_names,
    has_module_getattr,
    parse_source,
    resolve_in_source,
)

CONTEXT_CLASS = "Context"
# Annotations that accept whatever the server passes.
_ANYTHING = ("Any", "object")


@dataclass(frozen=True)
class HandlerProblem:
    """Why the server cannot call one handler; `certain` False: a note that static reading
    could not verify it, which does not fail `mcpgen check`."""

    tool: str
    path: str
    message: str
    certain: bool = True

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


@dataclass(frozen=True)
class Finding:
    """One handler's problem, before it is tied to its entry and file."""

    message: str
    certain: bool = True


def _annotation_name(annotation: ast.expr | None) -> str | None:
    """`GetInput`, `models.GetInput` and `"GetInput"` all name the class `GetInput`."""
    if isinstance(annotation, ast.Name):
        return annotation.id
    if isinstance(annotation, ast.Attribute):
        return annotation.attr
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        return annotation.value.rsplit(".", 1)[-1].strip()
    return None


def _signature_problem(found: Definition, tool: Tool) -> str | Undecided | None:
    args = found.function.args
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
    return _model_annotation_problem(found, positional, tool)


def _model_annotation_problem(
    found: Definition, positional: list[ast.arg], tool: Tool
) -> str | Undecided | None:
    """The model and context annotations, through the module's import aliases."""
    if len(positional) >= 2:
        context = _annotation_name(positional[1].annotation)
        context = found.real_name(context) if context else None
        if context in found.assigned:
            return Undecided(f"the context's annotation `{context}` is an alias")
        if context not in (None, CONTEXT_CLASS, *_ANYTHING):
            return (
                f"the second argument of `{tool.python_name}` is annotated `{context}`; "
                f"the dispatcher passes a `{CONTEXT_CLASS}` there"
            )
    if positional:
        written = _annotation_name(positional[0].annotation)
        annotated = found.real_name(written) if written else None
        if annotated in found.assigned:
            return Undecided(f"the argument's annotation `{annotated}` is an alias")
        if annotated not in (tool.input_model, *_ANYTHING):
            what = f"is annotated `{annotated}`" if annotated else "has no type annotation"
            return (
                f"the argument of `{tool.python_name}` {what}; "
                f"the dispatcher passes a `{tool.input_model}`"
            )
    return None


def _no_function(tool: Tool, missing: Missing) -> str:
    if missing.where == f"`{tool.python_name}`":
        what = f"no function `{tool.python_name}` (sync or async)"
    else:
        what = f"{missing.where} which is not defined there"
    return f"{what}; the dispatcher calls `{tool.python_name}(args: {tool.input_model})`"


def _judge_definition(found: Resolved, problem: str | None, where: str) -> Finding | None:
    """A signature problem is certain, unless a decorator may have changed the signature."""
    if problem is None or not isinstance(found, Definition):
        return None
    if found.function.decorator_list:
        return Finding(
            f"could not verify statically: `{found.function.name}` is decorated "
            f"(line {found.function.lineno} of {found.path}), and as written {problem}",
            certain=False,
        )
    return Finding(problem if found.path == where else f"{found.path}: {problem}")


def _tool_finding(found: Resolved, tool: Tool, path: str) -> Finding | None:
    if isinstance(found, Missing):
        return Finding(_no_function(tool, found))
    if isinstance(found, Undecided):
        return Finding(f"could not verify statically: {found.reason}", certain=False)
    problem = _signature_problem(found, tool)
    if isinstance(problem, Undecided):
        return Finding(f"could not verify statically: {problem.reason}", certain=False)
    return _judge_definition(found, problem, path)


def check_handler_source(source: str | bytes, tool: Tool) -> str | None:
    """The problem with one handler's source text, read alone, or None when the dispatcher
    can call it (or when reading it alone cannot tell: a re-export, an assignment)."""
    try:
        module = parse_source(source)
    except SourceError as exc:
        return str(exc)
    finding = _tool_finding(resolve_in_source(module, "", tool.python_name), tool, "")
    return finding.message if finding is not None and finding.certain else None


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
    """Every handler that is missing, or that the server cannot call as it does: wrong name,
    parameters or annotations, or an import of a name the generated code does not define.
    Notes (`certain` False) say what could not be verified statically."""
    sources = ProjectSources(root)
    generated = GeneratedNames.of(plan, manifest.package)
    problems: list[HandlerProblem] = []
    for tool in manifest.tools:
        path = handler_path(plan, tool)
        if path is None:
            continue  # the renderer gives this tool no handler file: nothing to check
        problems += _problems(tool.name, path, _file_finding(sources, path, generated, tool=tool))
    return problems + _catalog_problems(sources, manifest, plan, generated)


def _problems(name: str, path: str, finding: Finding | None) -> list[HandlerProblem]:
    return [] if finding is None else [HandlerProblem(name, path, finding.message, finding.certain)]


def _file_finding(
    sources: ProjectSources,
    path: str,
    generated: GeneratedNames,
    *,
    tool: Tool | None = None,
    expected: Expected | None = None,
) -> Finding | None:
    """One handler file judged: it exists and parses, its function fits, its imports of
    generated names resolve."""
    target = sources.root / path
    if target.is_symlink() and not target.exists():
        return Finding("a symlink to nothing; fix or remove it (`mcpgen generate` keeps it)")
    if not target.exists():
        return Finding("missing; run `mcpgen generate`")
    try:
        module = sources.module(path)
    except SourceError as exc:
        return Finding(str(exc))
    if tool is not None:
        found = sources.resolve(path, tool.python_name)
        finding = _tool_finding(found, tool, path)
    else:
        assert expected is not None
        finding = _keyword_finding(sources.resolve(path, expected.python_name), expected, path)
    if finding is not None and finding.certain:
        return finding
    return generated.missing_import(module, path) or finding


def _catalog_problems(
    sources: ProjectSources, manifest: Manifest, plan: RenderPlan, generated: GeneratedNames
) -> list[HandlerProblem]:
    """Resource, template, prompt and completion handlers: the function exists and takes,
    by name, exactly what the server passes (plus `ctx`), annotated to accept it."""
    problems: list[HandlerProblem] = []
    for expected in expected_catalog_handlers(manifest):
        path = f"src/{manifest.package}/handlers/{expected.python_name}.py"
        if plan.get(path) is None:
            continue
        finding = _file_finding(sources, path, generated, expected=expected)
        problems += _problems(expected.name, path, finding)
    return problems


@dataclass(frozen=True)
class Expected:
    """How the server calls one catalog handler: by keyword, each with the Python types it
    may pass (None: not judged)."""

    name: str  # the entry, as reports name it
    python_name: str
    passed: Mapping[str, frozenset[str] | None]

    def call(self) -> str:
        """The call as reports show it: the handler and the keywords it gets, in backticks."""
        return f"`{self.python_name}({', '.join(self.passed)})`"


def expected_catalog_handlers(manifest: Manifest) -> list[Expected]:
    """Every resource, template, prompt and completion handler the manifest calls for."""
    from mcpgen.render.catalog import catalog_handlers, completion_handlers

    expected = [
        Expected(h.name, h.python_name, passed_types(h.signature))
        for h in catalog_handlers(manifest)
    ]
    expected += [
        Expected(
            f"{c.entry.name} ({c.argument} completions)",
            c.python_name,
            {"value": frozenset({"str"}), "arguments": None},
        )
        for c in completion_handlers(manifest)
    ]
    return expected


def judge_tool_imports(
    sources: ProjectSources, generated: GeneratedNames, plan: RenderPlan, tool: Tool
) -> Finding | None:
    """Whether a tool's handler file imports a name the generated code of `plan` lacks (None:
    it does not, or it is absent and gets a stub), as `mcpgen check` judges it."""
    path = handler_path(plan, tool)
    if path is None or not (sources.root / path).exists():
        return None
    try:
        module = sources.module(path)
    except SourceError as exc:
        return Finding(str(exc))
    return generated.missing_import(module, path)


def judge_catalog_handler(
    root: Path, plan: RenderPlan, package: str, path: str, handler: CatalogHandler
) -> Finding | None:
    """`mcpgen check`'s verdict on one resource, template or prompt handler file (which must
    exist), so the plan printed before a run says what `check` will say after it."""
    expected = Expected(handler.name, handler.python_name, passed_types(handler.signature))
    generated = GeneratedNames.of(plan, package)
    return _file_finding(ProjectSources(root), path, generated, expected=expected)


def passed_types(signature: str) -> dict[str, frozenset[str] | None]:
    """Each parameter of a handler stub's signature (`folder: str, id: int`) → the Python
    types its annotation names: what the server passes there."""
    function = ast.parse(f"def f({signature}): pass").body[0]
    assert isinstance(function, ast.FunctionDef)
    return {
        a.arg: None if (names := _union_names(a.annotation)) is None else frozenset(names)
        for a in function.args.args
    }


def keyword_signature_problem(
    source: str | bytes, name: str, passed: list[str] | Mapping[str, frozenset[str] | None]
) -> str | None:
    """Why `name(**{p: ... for p in passed})` (plus `ctx` if declared) would fail, or None;
    `passed` may map each keyword to the Python types the server passes (`passed_types`)."""
    if not isinstance(passed, Mapping):
        passed = dict.fromkeys(passed)
    expected = Expected(name, name, passed)
    try:
        module = parse_source(source)
    except SourceError as exc:
        return str(exc)
    finding = _keyword_finding(resolve_in_source(module, "", name), expected, "")
    return finding.message if finding is not None and finding.certain else None


def _keyword_finding(found: Resolved, expected: Expected, path: str) -> Finding | None:
    if isinstance(found, Missing):
        name = expected.python_name
        what = (
            f"no function `{name}` (sync or async)"
            if found.where == f"`{name}`"
            else f"{found.where} which is not defined there"
        )
        return Finding(f"{what}; the server calls {expected.call()}")
    if isinstance(found, Undecided):
        return Finding(f"could not verify statically: {found.reason}", certain=False)
    return _judge_definition(found, _keyword_problem(found.function, expected), path)


def _keyword_problem(function: Function, expected: Expected) -> str | None:
    name, passed = expected.python_name, list(expected.passed)
    args = function.args
    named = [a.arg for a in [*args.args, *args.kwonlyargs]]
    with_default = {a.arg for a in args.args[len(args.args) - len(args.defaults) :]}
    with_default |= {a.arg for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d}
    unknown = [n for n in named if n not in passed and n != "ctx" and n not in with_default]
    if args.posonlyargs or unknown:
        odd = unknown[0] if unknown else args.posonlyargs[0].arg
        return f"`{name}` takes `{odd}`, which the server does not pass; it calls {expected.call()}"
    missing = [p for p in passed if p not in named]
    if missing and args.kwarg is None:
        return f"`{name}` does not take `{missing[0]}`; the server calls {expected.call()}"
    return _annotation_problem(function, expected)


# What each Python type the server passes is also accepted as (numeric tower).
_ACCEPTED_AS = {"int": {"int", "float", "complex"}, "bool": {"bool", "int", "float", "complex"}}
# Plain names whose meaning is known; an annotation using any other name is not judged.
_KNOWN = {"str", "int", "float", "bool", "bytes", "complex", "None", "list", "dict", "tuple"}


def _annotation_problem(function: Function, expected: Expected) -> str | None:
    """A parameter annotated with types that cannot hold what the server passes it."""
    for parameter in [*function.args.args, *function.args.kwonlyargs]:
        passed = expected.passed.get(parameter.arg)
        names = _union_names(parameter.annotation)
        if passed is None or names is None or not names <= _KNOWN:
            continue
        accepted = {a for p in passed for a in _ACCEPTED_AS.get(p, {p})}
        if not names & accepted:
            written = ast.unparse(parameter.annotation) if parameter.annotation else ""
            what = " or ".join(sorted(passed))
            return (
                f"`{parameter.arg}` of `{expected.python_name}` is annotated `{written}`, "
                f"but the server passes it as `{what}`"
            )
    return None


def _unquoted(annotation: ast.expr | None) -> ast.expr | None:
    """A string annotation (`"int | None"`) as the expression it spells; None if it does not
    parse."""
    if not (isinstance(annotation, ast.Constant) and isinstance(annotation.value, str)):
        return annotation
    try:
        return ast.parse(annotation.value, mode="eval").body
    except SyntaxError:
        return None


def _union_names(annotation: ast.expr | None) -> set[str] | None:
    """The plain type names of `int`, `int | None`, `"str"`, `Optional[int]`; None when the
    annotation is anything else (a subscript, an attribute, a string that does not parse)."""
    annotation = _unquoted(annotation)
    if annotation is None:
        return None
    if isinstance(annotation, ast.Constant) and annotation.value is None:
        return {"None"}
    if isinstance(annotation, ast.Name):
        return {annotation.id}
    if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
        left, right = _union_names(annotation.left), _union_names(annotation.right)
        return None if left is None or right is None else left | right
    if (
        isinstance(annotation, ast.Subscript)
        and isinstance(annotation.value, ast.Name)
        and annotation.value.id == "Optional"
    ):
        inner = _union_names(annotation.slice)
        return None if inner is None else inner | {"None"}
    return None


@dataclass(frozen=True)
class GeneratedNames:
    """Module (`pkg._generated.models`) → the names it defines, from the files the plan
    generates (what `generate` writes, so a stale tree is judged by the manifest)."""

    names: Mapping[str, set[str]]
    open_modules: frozenset[str]  # those with a module `__getattr__`: any name may exist

    @classmethod
    def of(cls, plan: RenderPlan, package: str) -> GeneratedNames:
        """The names each generated module of the plan defines; one that does not parse is open."""
        modules: dict[str, set[str]] = {}
        open_modules: set[str] = set()
        for planned in plan.by_owner("generated"):
            pure = PurePosixPath(planned.path)
            if pure.suffix != ".py" or pure.parts[:3] != ("src", package, "_generated"):
                continue
            name = ".".join(pure.with_suffix("").parts[1:]).removesuffix(".__init__")
            try:
                module = parse_source(planned.content)
            except SourceError:
                open_modules.add(name)  # not judged: its own test says what is wrong
                modules[name] = set()
                continue
            modules[name] = defined_names(module)
            if has_module_getattr(module):
                open_modules.add(name)
        for name in list(modules):  # a submodule is an importable name of its package
            parent, _, child = name.rpartition(".")
            if parent in modules:
                modules[parent].add(child)
        return cls(modules, frozenset(open_modules))

    def missing_import(self, module: ast.Module, path: str) -> Finding | None:
        """The first name the handler imports from a generated module that does not define
        it: certain, unless the module may serve it at run time or the import is guarded."""
        for node, guarded in _imports(module):
            source_module = absolute_module(node, path)
            names = self.names.get(source_module)
            if names is None:
                continue
            for alias in node.names:
                if alias.name == "*" or alias.name in names:
                    continue
                message = (
                    f"line {node.lineno}: imports `{alias.name}` from {source_module}, which "
                    "does not define it (a model renamed, or an output schema removed?); "
                    "the handler cannot be imported until the import is fixed"
                )
                if source_module in self.open_modules or guarded:
                    why = "its module may serve it at run time" if not guarded else "guarded"
                    return Finding(f"could not verify statically ({why}): {message}", False)
                return Finding(message)
        return None


def _imports(node: ast.AST, guarded: bool = False) -> Iterator[tuple[ast.ImportFrom, bool]]:
    """Every `from ... import` in the tree; guarded: in a `try` body, whose handlers may
    catch its ImportError."""
    if isinstance(node, ast.ImportFrom):
        yield node, guarded
    elif isinstance(node, ast.Try | ast.TryStar):
        for statement in node.body:
            yield from _imports(statement, True)
        for part in (*node.handlers, *node.orelse, *node.finalbody):
            yield from _imports(part, guarded)
    else:
        for child in ast.iter_child_nodes(node):
            yield from _imports(child, guarded)


def generated_names(plan: RenderPlan, package: str) -> dict[str, set[str]]:
    """Module → the names it defines (see `GeneratedNames`)."""
    return dict(GeneratedNames.of(plan, package).names)


def missing_imports(source: str, path: str, generated: dict[str, set[str]]) -> str | None:
    """The first name the handler imports from a generated module that does not define it."""
    try:
        module = parse_source(source)
    except SourceError:
        return None  # reported by the signature check
    finding = GeneratedNames(generated, frozenset()).missing_import(module, path)
    return finding.message if finding is not None else None
