"""The server runtime a project gets: the modules of `mcpgen.runtime` its rendered code uses.

The rendered files (`_generated/`, the generated tests) import the runtime as
`<package>._runtime.<layer>.<module>`. Those imports are the roots; every runtime module they
import, at any depth and deferred or `TYPE_CHECKING` imports included, is copied under
`src/<package>/_runtime/`, each package's `__init__.py` with it. So a tools-only server gets
no catalog modules, and a server whose manifest has resources gets them.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable

from mcpgen import __version__
from mcpgen.core.header import RUNTIME_HEADER

RUNTIME_PACKAGE = "mcpgen.runtime"
FOLDER = "_runtime"


@cache
def runtime_api() -> int:
    """The API number of the runtime mcpgen ships (`API` in `mcpgen.runtime`)."""
    source = resources.files(RUNTIME_PACKAGE).joinpath("__init__.py").read_text(encoding="utf-8")
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "API" for t in node.targets
        ):
            value = ast.literal_eval(node.value)
            if isinstance(value, int):
                return value
    raise AssertionError("mcpgen.runtime defines no API number")


def used_modules(package: str, rendered: Iterable[tuple[str, str]]) -> list[str]:
    """The runtime modules (`core.errors`, ...) the rendered `(path, source)` Python files
    import, with everything those import in turn, and the packages holding them."""
    roots = {m for _, source in rendered for m in _runtime_imports(package, source)}
    graph = _import_graph()
    unknown = sorted(roots - set(graph))
    if unknown:
        raise AssertionError(f"rendered code imports runtime modules that do not exist: {unknown}")
    closure: set[str] = set()
    stack = sorted(roots)
    while stack:
        module = stack.pop()
        if module not in closure:
            closure.add(module)
            stack.extend(graph[module])
    return sorted(closure | {p for m in closure for p in _packages(m)})


def runtime_sources(modules: Iterable[str]) -> Iterator[tuple[str, str]]:
    """`(path under _runtime/, text)` of each module, under the runtime header; the root
    package's `__init__.py` also states the mcpgen release the copy comes from."""
    for module in modules:
        relative = _relative_path(module)
        text = _source(relative)
        if module == "":
            text += f'VERSION = "{__version__}"  # the mcpgen release this copy comes from\n'
        yield relative, f"{RUNTIME_HEADER}\n{text}"


def _runtime_imports(package: str, source: str) -> Iterator[str]:
    prefix = f"{package}.{FOLDER}"
    for node in ast.walk(ast.parse(source)):
        names: list[str] = []
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        for name in names:
            if name == prefix:
                yield ""
            elif name.startswith(prefix + "."):
                module = name[len(prefix) + 1 :]
                if module in _import_graph():
                    yield module


def _packages(module: str) -> Iterator[str]:
    parts = module.split(".") if module else []
    for depth in range(len(parts)):
        package = ".".join(parts[:depth])
        if package in _import_graph():
            yield package


@cache
def _import_graph() -> dict[str, frozenset[str]]:
    """Runtime module (`""` for the package itself, `core` for a layer's package) → the
    runtime modules it imports, anywhere in its code."""
    root = resources.files(RUNTIME_PACKAGE)
    modules = dict(_walk(root, []))
    graph: dict[str, frozenset[str]] = {}
    for module, (is_package, source) in modules.items():
        parts = module.split(".") if module else []
        here = parts if is_package else parts[:-1]
        found: set[str] = set()
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.ImportFrom) and node.level:
                base = here[: len(here) - node.level + 1]
                stem = [*base, *(node.module.split(".") if node.module else [])]
                for alias in node.names:
                    candidate = ".".join([*stem, alias.name])
                    found.add(candidate if candidate in modules else ".".join(stem))
        graph[module] = frozenset(found & set(modules) - {module})
    return graph


def _walk(folder: Traversable, parts: list[str]) -> Iterator[tuple[str, tuple[bool, str]]]:
    for item in sorted(folder.iterdir(), key=lambda item: item.name):
        if item.is_dir() and item.joinpath("__init__.py").is_file() and item.name != "testing":
            yield from _walk(item, [*parts, item.name])
        elif item.name == "__init__.py":
            yield ".".join(parts), (True, item.read_text(encoding="utf-8"))
        elif item.name.endswith(".py"):
            yield ".".join([*parts, item.name[:-3]]), (False, item.read_text(encoding="utf-8"))


def _relative_path(module: str) -> str:
    parts = module.split(".") if module else []
    if module in _import_graph() and _is_package(module):
        return "/".join([*parts, "__init__.py"])
    return "/".join(parts) + ".py"


def _is_package(module: str) -> bool:
    folder = resources.files(RUNTIME_PACKAGE)
    for part in module.split(".") if module else []:
        folder = folder.joinpath(part)
    return folder.is_dir()


def _source(relative: str) -> str:
    item = resources.files(RUNTIME_PACKAGE)
    for part in relative.split("/"):
        item = item.joinpath(part)
    return item.read_text(encoding="utf-8")
