"""Zed: `context_servers` in the user's whole JSONC `settings.json`; no variable expansion.

Without an `Authorization` header Zed starts the MCP OAuth flow for a remote server.
"""

from __future__ import annotations

from pathlib import Path

from mcpgen.hosts import paths
from mcpgen.hosts.base import JSON, Host, Target, Where


class Zed(Host):
    """Zed's `context_servers`, inside the user's whole settings file."""

    key = "zed"
    title = "Zed"
    file_stem = "zed.settings"
    fmt = "jsonc"
    container = ("context_servers",)
    gui = True
    paste_into = "Zed's `settings.json` (zed: open settings), under context_servers"
    reload_hint = "Zed reloads settings on save."
    source = "zed-industries/zed docs/src/ai/mcp.md, crates/paths/src/paths.rs"

    def stdio_entry(self, t: Target) -> JSON:
        """The command with `args` and `env` always present."""
        # `args` and `env` always written: older Zed releases required both keys.
        return {"command": t.launch.command, "args": list(t.launch.args), "env": self.env_block(t)}

    def config_path(self, where: Where) -> Path:
        """Zed's `settings.json`: under `%APPDATA%`, Flatpak's or XDG config, or `~/.config`."""
        if where.os == "windows":
            return paths.appdata(where) / "Zed" / "settings.json"
        if where.os == "linux" and where.env.get("FLATPAK_XDG_CONFIG_HOME"):
            return Path(where.env["FLATPAK_XDG_CONFIG_HOME"]) / "zed" / "settings.json"
        if where.os == "linux":
            return paths.xdg_config(where) / "zed" / "settings.json"
        return where.home / ".config" / "zed" / "settings.json"


HOST = Zed()
