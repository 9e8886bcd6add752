"""Windsurf (Cascade): `~/.codeium/windsurf/mcp_config.json`, global only.

Remote entries use `serverUrl`; `${env:VAR}` works on current builds only (older ones
expanded nothing, per GitHub's install guide), hence the warning.
"""

from __future__ import annotations

from pathlib import Path

from mcpgen.hosts import paths, secrets
from mcpgen.hosts.base import JSON, Host, Target, Where


class Windsurf(Host):
    """Windsurf's global `mcp_config.json` entries: remote servers as `serverUrl`."""

    key = "windsurf"
    title = "Windsurf"
    file_stem = "windsurf.mcp_config"
    env_syntax = secrets.ENV_COLON
    gui = True
    paste_into = "`~/.codeium/windsurf/mcp_config.json` (Cascade → MCP → View raw config)"
    reload_hint = "Press Refresh in the MCP panel."
    source = "docs.windsurf.com/windsurf/cascade/mcp; github-mcp-server install-windsurf.md"

    def http_entry(self, t: Target) -> JSON:
        """A `serverUrl` entry, with the bearer header if set."""
        entry: JSON = {"serverUrl": t.url}
        headers = self.headers(t)
        if headers:
            entry["headers"] = headers
        return entry

    def warnings(self, t: Target) -> list[str]:
        """The base warnings, plus that older builds do not expand `${env:VAR}`."""
        found = super().warnings(t)
        if (t.transport == "stdio" and secrets.passed_vars(t.manifest.env)) or (
            t.transport == "http" and t.bearer_env
        ):
            found.append(
                "`${env:VAR}` is expanded by current Windsurf builds only; on an older "
                "build replace it with the value by hand."
            )
        return found

    def config_path(self, where: Where) -> Path:
        """`~/.codeium/windsurf/mcp_config.json`."""
        return paths.user_home(where) / ".codeium" / "windsurf" / "mcp_config.json"


HOST = Windsurf()
