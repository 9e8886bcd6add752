"""GitHub Copilot CLI: `~/.copilot/mcp-config.json`; stdio `type: "local"`, remote `"http"`.

`tools` is optional (checked with Copilot CLI 1.0.102); `["*"]` is what GitHub's own
installer writes and enables every tool on older versions too.
"""

from __future__ import annotations

from pathlib import Path

from mcpgen.hosts import paths, secrets
from mcpgen.hosts.base import JSON, Host, Target, Where


class CopilotCli(Host):
    """Copilot CLI's entries: stdio typed `local`, every tool enabled."""

    key = "copilot-cli"
    title = "GitHub Copilot CLI"
    file_stem = "copilot_cli.mcp-config"
    env_syntax = secrets.DOLLAR_BRACE
    aliases = ("copilot_cli", "github-copilot-cli")
    paste_into = "`~/.copilot/mcp-config.json` (or use `/mcp add` inside the CLI)"
    reload_hint = "Start a new Copilot CLI session."
    source = "docs.github.com/en/copilot/how-tos/copilot-cli/customize-copilot/add-mcp-servers"

    def stdio_entry(self, t: Target) -> JSON:
        """The base entry typed `local`, with every tool enabled."""
        return {"type": "local", **super().stdio_entry(t), "tools": ["*"]}

    def http_entry(self, t: Target) -> JSON:
        """The base entry typed `http`, with every tool enabled."""
        return {"type": "http", **super().http_entry(t), "tools": ["*"]}

    def config_path(self, where: Where) -> Path:
        """`mcp-config.json` under `$COPILOT_HOME` (default `~/.copilot`)."""
        home = where.env.get("COPILOT_HOME")
        return (Path(home) if home else paths.user_home(where) / ".copilot") / "mcp-config.json"


HOST = CopilotCli()
