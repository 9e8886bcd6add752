# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""The SDK's two umbrella packages, `mcp` and `mcp.server`, imported without running their
`__init__` until something asks them for a name they define there.

`import mcp.server.lowlevel.server` runs `mcp/__init__.py` first, which imports the whole
client (httpx, OpenTelemetry, cryptography's OAuth helpers), and `mcp/server/__init__.py`,
which imports `MCPServer` (Starlette, uvicorn, pydantic-settings). A server built on the
low-level API uses none of it: those two files cost a stdio server about 11 MB of its
resident memory and a fifth of its start-up. So the console script puts in their place
package objects whose submodules import as usual, and whose own `__init__` runs, once and in
full, the first time any code asks one of them for a name that is not a submodule
(`from mcp import Client`, `from mcp.server import MCPServer`, `mcp.ClientSession`): user code
sees the packages exactly as the SDK defines them, only later.

Only under an SDK release the fast paths are proven with (`core.sdk_contract`): the two
files are known there to define names and nothing else.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import threading
from types import ModuleType
from typing import Any

DEFERRED = ("mcp", "mcp.server")  # parents first: `mcp.server` is found through `mcp`
_completing = threading.RLock()


def defer_sdk_packages() -> tuple[str, ...]:
    """Put deferred packages in place of `DEFERRED`; the names deferred (none that is already
    imported, or that cannot be found, is touched)."""
    deferred: list[str] = []
    for name in DEFERRED:
        if name in sys.modules:
            continue
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            break
        if spec is None or spec.loader is None or spec.submodule_search_locations is None:
            break
        package = importlib.util.module_from_spec(spec)
        package.__dict__["__getattr__"] = _completer(package)
        package.__dict__["__dir__"] = _lister(package)
        sys.modules[name] = package
        parent, _, child = name.rpartition(".")
        if parent:
            setattr(sys.modules[parent], child, package)
        deferred.append(name)
    return tuple(deferred)


def _completer(package: ModuleType) -> Any:
    """The package's `__getattr__` (PEP 562: asked only for a name it does not have yet)."""

    def complete(attribute: str) -> Any:
        if attribute.startswith("__"):  # probes such as `__wrapped__`, `__all__`: not defined
            raise AttributeError(f"module {package.__name__!r} has no attribute {attribute!r}")
        submodule = f"{package.__name__}.{attribute}"
        if importlib.util.find_spec(submodule) is not None:
            return importlib.import_module(submodule)
        run_init(package)
        try:
            return package.__dict__[attribute]
        except KeyError:
            raise AttributeError(
                f"module {package.__name__!r} has no attribute {attribute!r}"
            ) from None

    return complete


def _lister(package: ModuleType) -> Any:
    """The package's `__dir__`: every name, so its `__init__` runs first."""

    def names() -> list[str]:
        run_init(package)
        return sorted(package.__dict__)

    return names


def run_init(package: ModuleType) -> None:
    """Run the package's own `__init__` in it, once; a deferred parent runs first."""
    with _completing:
        if "__getattr__" not in package.__dict__:  # done already, running, or never deferred
            return
        # The parent's `__init__` first, as a plain import runs them: it may import names
        # from this package, which it then finds still deferred and completes.
        parent = package.__name__.rpartition(".")[0]
        if parent in sys.modules:
            run_init(sys.modules[parent])
        hook = package.__dict__.pop("__getattr__", None)
        lister = package.__dict__.pop("__dir__", None)
        if hook is None:  # completed while its parent ran
            return
        spec = package.__spec__
        assert spec is not None and spec.loader is not None
        try:
            spec.loader.exec_module(package)
        except BaseException:
            # The next ask tries again, and fails as this one did.
            package.__dict__.update(__getattr__=hook, __dir__=lister)
            raise
