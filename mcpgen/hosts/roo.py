"""Roo Code: global `mcp_settings.json` or project `.roo/mcp.json`; strict JSON (`JSON.parse`).

HTTP entries must say `"type": "streamable-http"`; `${env:VAR}` is expanded across the entry.
"""

from __future__ import annotations

from pathlib import Path

from mcpgen.hosts import paths, secrets
from mcpgen.hosts.base import JSON, Host, Target, Where

EXTENSION_ID = "rooveterinaryinc.roo-cline"


class Roo(Host):
    """Roo Code's entries: HTTP typed `streamable-http`, `${env:VAR}` references."""

    key = "roo"
    title = "Roo Code"
    file_stem = "roo.mcp"
    env_syntax = secrets.ENV_COLON
    gui = True
    aliases = ("roo-code", "roocode")
    paste_into = "`.roo/mcp.json` in your project, or Roo's global `mcp_settings.json`"
    reload_hint = "Roo reloads the file on save."
    source = "RooCodeInc/Roo-Code src/services/mcp/McpHub.ts; Roo-Code-Docs using-mcp-in-roo.mdx"

    def stdio_entry(self, t: Target) -> JSON:
        """The base entry, enabled, with no tool always allowed."""
        return {**super().stdio_entry(t), "disabled": False, "alwaysAllow": []}

    def http_entry(self, t: Target) -> JSON:
        """The base entry typed `streamable-http`, which Roo requires."""
        return {"type": "streamable-http", **super().http_entry(t)}

    def config_path(self, where: Where) -> Path:
        """The project's `.roo/mcp.json`, or `mcp_settings.json` in Roo's global storage."""
        if where.scope == "project":
            return where.project / ".roo" / "mcp.json"
        settings = paths.vscode_user_dir(where) / "globalStorage" / EXTENSION_ID / "settings"
        return settings / "mcp_settings.json"


HOST = Roo()
