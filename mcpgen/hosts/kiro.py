"""Kiro (IDE and CLI): `~/.kiro/settings/mcp.json` or the workspace's `.kiro/settings/mcp.json`."""

from __future__ import annotations

from pathlib import Path

from mcpgen.hosts import paths, secrets
from mcpgen.hosts.base import JSON, Host, Target, Where


class Kiro(Host):
    """Kiro's `mcp.json` entries, enabled, with `${VAR}` references."""

    key = "kiro"
    title = "Kiro"
    file_stem = "kiro.mcp"
    env_syntax = secrets.DOLLAR_BRACE
    gui = True
    aliases = ("kiro-cli",)
    paste_into = "`~/.kiro/settings/mcp.json` or the workspace's `.kiro/settings/mcp.json`"
    reload_hint = "Kiro reconnects MCP servers when the file is saved."
    source = "kiro.dev/docs/mcp/configuration, kiro.dev/docs/cli/mcp/configuration"

    def stdio_entry(self, t: Target) -> JSON:
        """The base entry, enabled, with no tool auto-approved."""
        return {**super().stdio_entry(t), "disabled": False, "autoApprove": []}

    def http_entry(self, t: Target) -> JSON:
        """The base entry, enabled."""
        return {**super().http_entry(t), "disabled": False}

    def warnings(self, t: Target) -> list[str]:
        """The base warnings, plus a reported unexpanded `${VAR}` and localhost-only HTTP."""
        found = super().warnings(t)
        if (t.transport == "stdio" and secrets.passed_vars(t.manifest.env)) or (
            t.transport == "http" and t.bearer_env
        ):
            found.append(
                "Kiro documents `${VAR}` expansion but a report says it was not "
                "expanded (kirodotdev/Kiro#6635): check the server gets the value."
            )
        if t.transport == "http" and t.url.startswith("http://"):
            found.append(
                "Kiro accepts plain HTTP for localhost only; whether 127.0.0.1 counts "
                "is unconfirmed (use http://localhost:8000/mcp if it refuses)."
            )
        return found

    def config_path(self, where: Where) -> Path:
        """`.kiro/settings/mcp.json` in the project, or in the home folder."""
        if where.scope == "project":
            return where.project / ".kiro" / "settings" / "mcp.json"
        return paths.user_home(where) / ".kiro" / "settings" / "mcp.json"


HOST = Kiro()
