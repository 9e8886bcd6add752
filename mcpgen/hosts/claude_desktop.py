"""Claude Desktop: `claude_desktop_config.json`, stdio only; HTTP through the `mcp-remote` bridge.

A `url` entry in this file is skipped as invalid or crashes the app (host-configs.md §3.1),
so an HTTP server is reached through `npx mcp-remote`, an stdio-to-HTTP bridge.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from mcpgen.hosts import paths, secrets
from mcpgen.hosts.base import JSON, Host, Target, Where
from mcpgen.hosts.launch import npx_launch

# mcp-remote expands `${VAR}` inside its own arguments from the env block it is given.
AUTH_HEADER_VAR = "MCP_REMOTE_AUTH_HEADER"


class ClaudeDesktop(Host):
    """Claude Desktop's config file: stdio entries only, HTTP through `mcp-remote`."""

    key = "claude-desktop"
    title = "Claude Desktop"
    file_stem = "claude_desktop"
    gui = True
    aliases = ("claude_desktop", "desktop")
    paste_into = "claude_desktop_config.json (Settings → Developer → Edit Config), under mcpServers"
    reload_hint = "Quit Claude Desktop completely and start it again."
    source = "modelcontextprotocol docs: connect-local-servers, connect-remote-servers"

    def http_entry(self, t: Target) -> JSON:
        """A stdio entry running `npx mcp-remote` against the URL; a bearer header goes via env."""
        args = ["-y", "mcp-remote", t.url]
        entry: JSON = {}
        if t.bearer_env is not None:
            # No spaces around ':' — Windows mangles spaces inside args (mcp-remote README).
            args += ["--header", f"Authorization:${{{AUTH_HEADER_VAR}}}"]
            entry["env"] = {AUTH_HEADER_VAR: f"Bearer {secrets.placeholder(t.bearer_env)}"}
        for name, value in t.selection.headers().items():  # the tool selection's X-MCP-*
            args += ["--header", f"{name}:{value}"]
        if urlsplit(t.url).scheme == "http":
            args.append("--allow-http")
        launch = npx_launch(tuple(args), t.os)
        return {"command": launch.command, "args": list(launch.args), **entry}

    def warnings(self, t: Target) -> list[str]:
        """The base warnings, led by what the `mcp-remote` bridge needs to reach an HTTP server."""
        found = super().warnings(t)
        if t.transport == "http":
            found.insert(
                0,
                (
                    "Claude Desktop cannot take an HTTP server in its config file: this entry runs "
                    "the `mcp-remote` bridge through npx (Node.js needed), which connects to "
                    f"{t.url}. Start the server first (`{t.manifest.script} --transport http`)."
                ),
            )
        return found

    def config_path(self, where: Where) -> Path:
        """`claude_desktop_config.json` in the app's per-OS settings folder."""
        return paths.claude_desktop_dir(where) / "claude_desktop_config.json"


HOST = ClaudeDesktop()
