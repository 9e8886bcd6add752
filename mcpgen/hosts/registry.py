"""The registry of host apps: one module per host, in the order `mcpgen config` lists them."""

from __future__ import annotations

from mcpgen.errors import ExitCode, McpgenError
from mcpgen.hosts import (
    claude_code,
    claude_desktop,
    cline,
    codex,
    continue_dev,
    copilot_cli,
    cursor,
    gemini,
    goose,
    kiro,
    lmstudio,
    opencode,
    roo,
    vscode,
    windsurf,
    zed,
)
from mcpgen.hosts.base import Host

# Registry order is the order of files in hosts/README.md and of `mcpgen config --help`.
HOSTS: tuple[Host, ...] = (
    claude_desktop.HOST,
    claude_code.HOST,
    cline.HOST,
    roo.HOST,
    cursor.HOST,
    vscode.HOST,
    windsurf.HOST,
    zed.HOST,
    codex.HOST,
    gemini.HOST,
    continue_dev.HOST,
    goose.HOST,
    opencode.HOST,
    lmstudio.HOST,
    kiro.HOST,
    copilot_cli.HOST,
)


def _normalise(name: str) -> str:
    return name.strip().lower().replace("_", "-").replace(" ", "-")


def get_host(name: str) -> Host:
    """The host called `name` (or one of its aliases); a clear error listing the known ones."""
    wanted = _normalise(name)
    for host in HOSTS:
        if wanted == host.key or wanted in (_normalise(a) for a in host.aliases):
            return host
    known = ", ".join(h.key for h in HOSTS)
    raise McpgenError(f"unknown host {name!r}; known hosts: {known}", exit_code=ExitCode.USAGE)
