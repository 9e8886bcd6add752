"""Cline (VS Code extension): `cline_mcp_settings.json`.

An HTTP entry without `"type": "streamableHttp"` is parsed as SSE and fails to connect,
and Cline expands no variables (checked with Cline CLI 3.0.65), so secrets are placeholders.
"""

from __future__ import annotations

from pathlib import Path

from mcpgen.hosts import paths
from mcpgen.hosts.base import JSON, Host, Target, Where

EXTENSION_ID = "saoudrizwan.claude-dev"


class Cline(Host):
    """Cline's entries: HTTP typed `streamableHttp`, enabled, no tool auto-approved."""

    key = "cline"
    title = "Cline"
    file_stem = "cline_mcp_settings"
    gui = True
    paste_into = "cline_mcp_settings.json (Cline → MCP Servers → Configure → Configure MCP Servers)"
    reload_hint = "Cline reloads the file on save."
    source = "cline/cline src/services/mcp/schemas.ts, docs/mcp/configuring-mcp-servers.mdx"

    def stdio_entry(self, t: Target) -> JSON:
        """The base entry, enabled, with no tool auto-approved."""
        return {**super().stdio_entry(t), "disabled": False, "autoApprove": []}

    def http_entry(self, t: Target) -> JSON:
        """A `streamableHttp` entry (untyped is read as SSE), enabled, nothing auto-approved."""
        entry: JSON = {"type": "streamableHttp", "url": t.url}
        headers = self.headers(t)
        if headers:
            entry["headers"] = headers
        return {**entry, "disabled": False, "autoApprove": []}

    def config_path(self, where: Where) -> Path:
        """`cline_mcp_settings.json` in the extension's VS Code global storage."""
        settings = paths.vscode_user_dir(where) / "globalStorage" / EXTENSION_ID / "settings"
        return settings / "cline_mcp_settings.json"


HOST = Cline()
