"""Where a handler module's function really is: defined there, or re-exported from another
module of the project (`from .impl import get_forecast`, `from .impl import f as get_forecast`).

Read with `ast`, never imported (see `handler_check`). Source files are decoded as Python
decodes them: a UTF-8 BOM or a PEP 263 coding cookie is honoured. What static reading cannot
settle (a name assigned from a call, imported from outside the project, bound differently in
two branches, or served by a module `__getattr__`) is `Undecided`: a note, never an error.
"""

from __future__ import annotations

import ast
import os
import stat
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath
from typing import TypeGuard

Function = ast.FunctionDef | ast.AsyncFunctionDef
MAX_MODULE_BYTES = 16 * 2**20  # far above any handler; bounds what a hostile checkout costs
# Statements whose bodies run at import time, maybe conditionally (their bindings count).
_BLOCKS = (ast.If, ast.Try, ast.TryStar, ast.With, ast.AsyncWith, ast.For, ast.While)


@dataclass(frozen=True)
class Definition:
    """The `def` a handler name ends up bound to, and the file it is in."""

    function: Function
    path: str
    # The names its module imports under another name (`from m import A as B`: B → A), and
    # those it assigns (`B = A`), which a reader cannot follow: what annotations may spell.
    imported_as: Mapping[str, str] = field(default_factory=dict)
    assigned: frozenset[str] = frozenset()

    def real_name(self, name: str) -> str:
        """The original of a name the module imported under another (`B` → `A`), else `name`."""
        return self.imported_as.get(name, name)


@dataclass(frozen=True)
class Undecided:
    """Static reading cannot tell what the name is bound to at run time."""

    reason: str


@dataclass(frozen=True)
class Missing:
    """The name is bound nowhere: importing it fails."""

    where: str  # "`name`" or "`name`, imported from m (line 3),"


Resolved = Definition | Undecided | Missing
# Resolves a name in another file of the project (path, name).
_Follow = Callable[[str, str], Resolved]


class SourceError(Exception):
    """A module that cannot be read or parsed: the message says why, with its line."""


def parse_source(data: bytes | str) -> ast.Module:
    """The module's syntax tree; bytes are decoded as Python does (BOM, coding cookie)."""
    try:
        return ast.parse(data)
    except SyntaxError as exc:
        where = f"line {exc.lineno}: " if exc.lineno else ""
        raise SourceError(f"{where}syntax error: {exc.msg}") from None
    except (RecursionError, MemoryError):  # the parser's own stack: its message may be empty
        raise SourceError("cannot be parsed: nested too deeply for Python's parser") from None
    except ValueError as exc:  # NUL bytes
        raise SourceError(f"cannot be parsed: {str(exc) or type(exc).__name__}") from None


def read_module(path: Path) -> bytes:
    """A module's bytes; SourceError for anything but a regular file of sane size (a FIFO or
    a device in a cloned repository must not hang or exhaust `mcpgen check`)."""
    try:
        # Non-blocking: opening a FIFO would otherwise wait for a writer.
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        with os.fdopen(descriptor, "rb") as handle:
            if not stat.S_ISREG(os.fstat(descriptor).st_mode):
                raise SourceError("cannot be read: not a regular file")
            data = handle.read(MAX_MODULE_BYTES + 1)
    except OSError as exc:
        raise SourceError(f"cannot be read: {exc.strerror or exc}") from None
    if len(data) > MAX_MODULE_BYTES:
        raise SourceError(f"cannot be read: over {MAX_MODULE_BYTES // 2**20} MiB")
    return data


def _bindings(body: list[ast.stmt], conditional: bool = False) -> list[tuple[ast.stmt, bool]]:
    """Module-level statements that may bind names, in source order, each with whether it
    runs only conditionally (inside an `if`, `try`, loop ...). Functions' bodies are not
    module level and are skipped."""
    found: list[tuple[ast.stmt, bool]] = []
    for node in body:
        if isinstance(node, _BLOCKS):
            for part in ("body", "orelse", "finalbody"):
                found += _bindings(getattr(node, part, []), True)
            for handler in getattr(node, "handlers", []):
                found += _bindings(handler.body, True)
        else:
            found.append((node, conditional))
    return found


def _target_names(target: ast.expr) -> set[str]:
    if isinstance(target, ast.Name):
        return {target.id}
    if isinstance(target, ast.Tuple | ast.List):
        return {n for element in target.elts for n in _target_names(element)}
    if isinstance(target, ast.Starred):
        return _target_names(target.value)
    return set()


def bound_names(node: ast.stmt) -> set[str]:
    """The module-level names one statement binds (a star import binds none it says)."""
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return {node.name}
    if isinstance(node, ast.Assign):
        return {n for target in node.targets for n in _target_names(target)}
    if isinstance(node, ast.AnnAssign | ast.AugAssign):
        return _target_names(node.target) if getattr(node, "value", True) is not None else set()
    if isinstance(node, ast.Import | ast.ImportFrom):
        return {(a.asname or a.name).split(".")[0] for a in node.names if a.name != "*"}
    return set()


def _imported_as(module: ast.Module) -> dict[str, str]:
    return {
        alias.asname: alias.name
        for node, _ in _bindings(module.body)
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
        if alias.asname
    }


def _assigned(module: ast.Module) -> frozenset[str]:
    return frozenset(
        name
        for node, _ in _bindings(module.body)
        if isinstance(node, ast.Assign | ast.AnnAssign)
        for name in bound_names(node)
    )


def _is_star(node: ast.stmt) -> TypeGuard[ast.ImportFrom]:
    return isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names)


def defined_names(module: ast.Module) -> set[str]:
    """Every name the module may define at import time, plus those its `__all__` lists."""
    names = {n for node, _ in _bindings(module.body) for n in bound_names(node)}
    return names | _listed_in_all(module)


def _listed_in_all(module: ast.Module) -> set[str]:
    listed: set[str] = set()
    for node, _ in _bindings(module.body):
        if "__all__" in bound_names(node) and isinstance(node, ast.Assign | ast.AugAssign):
            value = node.value
            if isinstance(value, ast.List | ast.Tuple):
                listed |= {
                    e.value
                    for e in value.elts
                    if isinstance(e, ast.Constant) and isinstance(e.value, str)
                }
    return listed


def has_module_getattr(module: ast.Module) -> bool:
    """A module `__getattr__` (PEP 562) may serve any name at run time."""
    return "__getattr__" in {n for node, _ in _bindings(module.body) for n in bound_names(node)}


def absolute_module(node: ast.ImportFrom, path: str) -> str:
    """The dotted module an import in the file at `path` (`src/pkg/...`) reads from."""
    if not node.level:
        return node.module or ""
    parts = list(PurePosixPath(path).with_suffix("").parts[1:])  # src/ is not a package
    base = parts[: len(parts) - node.level]
    return ".".join([*base, node.module] if node.module else base)


@dataclass
class ProjectSources:
    """The project's Python modules under `src/`, read and parsed at most once each."""

    root: Path
    parsed: dict[str, ast.Module | SourceError] = field(default_factory=dict)

    def module(self, path: str) -> ast.Module:
        """The parsed file at `path`; SourceError when it cannot be read or parsed."""
        if path not in self.parsed:
            self.parsed[path] = self._read(path)
        found = self.parsed[path]
        if isinstance(found, SourceError):
            raise found
        return found

    def _read(self, path: str) -> ast.Module | SourceError:
        try:
            return parse_source(read_module(self._inside(path)))
        except SourceError as exc:
            return exc

    def _inside(self, path: str) -> Path:
        """`path` under the root; SourceError when a symlink takes it out of the project: a
        cloned repository's `handlers/x.py -> /etc/passwd` is not read (nor bundled)."""
        target = self.root / path
        try:
            resolved = target.resolve()
            outside = not resolved.is_relative_to(self.root.resolve())
        except (OSError, RuntimeError):  # a symlink loop: reading it says so
            return target
        if outside:
            message = f"cannot be read: a symlink to {resolved}, outside the project"
            raise SourceError(message + " (`mcpgen bundle` refuses it too)")
        return target

    def file_of(self, dotted: str) -> str | None:
        """`src/a/b.py` or `src/a/b/__init__.py` for module `a.b`, if the project has it."""
        if not dotted:
            return None
        base = "src/" + dotted.replace(".", "/")
        for candidate in (f"{base}.py", f"{base}/__init__.py"):
            if (self.root / candidate).is_file():
                return candidate
        return None

    def resolve(self, path: str, name: str) -> Resolved:
        """What `name` in the module at `path` is bound to once the module is imported."""
        return self._resolve(path, name, frozenset())

    def _resolve(self, path: str, name: str, seen: frozenset[tuple[str, str]]) -> Resolved:
        if (path, name) in seen:
            return Undecided(f"`{name}` is re-exported in a circle through {path}")
        seen = seen | {(path, name)}
        try:
            module = self.module(path)
        except SourceError as exc:
            return Undecided(f"{path} {exc}")
        return _resolve_in(module, path, name, lambda p, n: self._resolve(p, n, seen), self)


def _resolve_in(
    module: ast.Module,
    path: str,
    name: str,
    follow: _Follow,
    sources: ProjectSources | None,
) -> Resolved:
    """`name` in one parsed module; `follow` resolves a name in another project file."""
    candidates = [
        (node, conditional)
        for node, conditional in _bindings(module.body)
        if name in bound_names(node) or _is_star(node)
    ]
    for node, conditional in reversed(candidates):  # the last binding is the one that stays
        if _is_star(node):
            found = _through_star(node, path, name, follow, sources)
            if isinstance(found, Missing):
                continue  # that module does not have it: an earlier binding may
            return found
        if conditional and len([c for c in candidates if not _is_star(c[0])]) > 1:
            return Undecided(f"`{name}` is bound in more than one branch (line {node.lineno})")
        found = _binding(node, path, name, follow, sources)
        if isinstance(found, Definition) and found.path == path:
            found = replace(found, imported_as=_imported_as(module), assigned=_assigned(module))
        return found
    if has_module_getattr(module):
        return Undecided(f"{path} serves names through a module `__getattr__`")
    return Missing(f"`{name}`")


def _through_star(
    node: ast.ImportFrom, path: str, name: str, follow: _Follow, sources: ProjectSources | None
) -> Resolved:
    dotted = absolute_module(node, path)
    target = sources.file_of(dotted) if sources is not None else None
    if target is None:
        return Undecided(f"`from {dotted} import *` (line {node.lineno}) may define `{name}`")
    return follow(target, name)


def _binding(
    node: ast.stmt, path: str, name: str, follow: _Follow, sources: ProjectSources | None
) -> Resolved:
    """What one binding statement makes `name`."""
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        return Definition(node, path)
    if isinstance(node, ast.ImportFrom):
        return _imported(node, path, name, follow, sources)
    if isinstance(node, ast.ClassDef):
        return Undecided(f"`{name}` is a class (line {node.lineno})")
    if isinstance(node, ast.Import):
        return Undecided(f"`{name}` is a module (line {node.lineno})")
    return Undecided(f"`{name}` is assigned (line {node.lineno}), not defined with `def`")


def _imported(
    node: ast.ImportFrom, path: str, name: str, follow: _Follow, sources: ProjectSources | None
) -> Resolved:
    """`from m import x as name`: followed into `m` when it is a module of the project."""
    alias = next(a for a in node.names if (a.asname or a.name) == name)
    dotted = absolute_module(node, path)
    target = sources.file_of(dotted) if sources is not None else None
    if sources is None or target is None:
        return Undecided(f"`{name}` is imported from {dotted} (line {node.lineno})")
    if sources.file_of(f"{dotted}.{alias.name}") is not None:
        return Undecided(f"`{name}` is the module {dotted}.{alias.name}")
    found = follow(target, alias.name)
    if isinstance(found, Missing):
        return Missing(f"`{alias.name}`, imported from {dotted} (line {node.lineno}),")
    return found


def resolve_in_source(module: ast.Module, path: str, name: str) -> Resolved:
    """`name` in one module read alone: anything imported is Undecided."""
    return _resolve_in(module, path, name, lambda p, n: Undecided(f"`{n}` is in {p}"), None)
