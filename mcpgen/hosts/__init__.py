"""MCP host configs: one module per host app, a registry, and the `hosts/` renderer.

Every host's format is in `shared/host-configs.md`; each module cites its sources.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mcpgen.hosts.base import Host
    from mcpgen.hosts.launch import MachineFacts, gather_facts
    from mcpgen.hosts.limits import HostWarning, host_limit_diagnostics
    from mcpgen.hosts.registry import HOSTS, get_host
    from mcpgen.hosts.render import render_host_files

# Where `mcpgen serve --transport http` listens by default; here, not in `base`, so that the
# CLI's option defaults do not load the host modules.
DEFAULT_URL = "http://127.0.0.1:8000/mcp"

# Loaded on first use: importing one host module, or the package for a type, must not load
# all sixteen hosts and the manifest validator (`mcpgen --help` imports the CLI modules).
_LAZY = {
    "HOSTS": "registry",
    "get_host": "registry",
    "Host": "base",
    "MachineFacts": "launch",
    "gather_facts": "launch",
    "HostWarning": "limits",
    "host_limit_diagnostics": "limits",
    "render_host_files": "render",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)


__all__ = [
    "DEFAULT_URL",
    "HOSTS",
    "Host",
    "HostWarning",
    "MachineFacts",
    "gather_facts",
    "get_host",
    "host_limit_diagnostics",
    "render_host_files",
]
