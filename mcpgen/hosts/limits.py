"""Host limits, as `mcpgen hosts` lists them per host in hosts/README.md; the checks live in
`mcpgen.manifest.host_limits`, where `mcpgen validate` and `mcpgen generate` use them too."""

from __future__ import annotations

from mcpgen.manifest.host_limits import (
    ALL_HOSTS,
    HostWarning,
    host_label,
    host_limit_diagnostics,
    host_limit_findings,
)

__all__ = [
    "ALL_HOSTS",
    "HostWarning",
    "host_label",
    "host_limit_diagnostics",
    "host_limit_findings",
]
