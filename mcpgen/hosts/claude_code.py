"""Claude Code: project `.mcp.json`, or `claude mcp add-json` for user/local scope.

`${VAR}` and `${VAR:-default}` are expanded in `.mcp.json`; `~/.claude.json` is a state file
the app rewrites concurrently, so mcpgen never edits it directly (host-configs.md §3.2).
"""

from __future__ import annotations

from pathlib import Path

from mcpgen.hosts import secrets
from mcpgen.hosts.base import JSON, Extra, Host, Target, Where
from mcpgen.hosts.extras import compact_json, shell_line


class ClaudeCode(Host):
    """Claude Code's `.mcp.json` entries, which name their transport in `type`."""

    key = "claude-code"
    title = "Claude Code"
    file_stem = "claude_code.mcp"
    env_syntax = secrets.DOLLAR_BRACE
    aliases = ("claude_code", "claude")
    paste_into = "the project's `.mcp.json` (or run the `claude mcp add-json` line below)"
    reload_hint = "Restart Claude Code; approve the project server when asked."
    source = "code.claude.com/docs/en/mcp"

    def stdio_entry(self, t: Target) -> JSON:
        """The base entry marked `"type": "stdio"`."""
        return {"type": "stdio", **super().stdio_entry(t)}

    def http_entry(self, t: Target) -> JSON:
        """The base entry marked `"type": "http"`."""
        return {"type": "http", **super().http_entry(t)}

    def add_json_argv(self, t: Target, scope: str = "user") -> list[str]:
        """The `claude mcp add-json` command line that adds the entry at `scope`.

        How an install reaches the user and local scopes: their file, `~/.claude.json`, belongs to
        the running app.
        """
        return [
            "claude",
            "mcp",
            "add-json",
            t.server,
            compact_json(self.entry(t)),
            "--scope",
            scope,
        ]

    def extras(self, t: Target) -> list[Extra]:
        """The `claude mcp add-json` line for the user's own scope."""
        line = shell_line(self.add_json_argv(t), t.os)
        return [Extra("Add for your user with the Claude Code CLI", line)]

    def warnings(self, t: Target) -> list[str]:
        """The base warnings, plus the Windows `add-json` bug for HTTP entries."""
        found = super().warnings(t)
        if t.transport == "http" and t.os == "windows":
            found.append(
                "On Windows `claude mcp add-json` may answer `Invalid input` for HTTP "
                "entries; then use `claude mcp add --transport http NAME URL --header "
                "...` (header after NAME and URL)."
            )
        return found

    def config_path(self, where: Where) -> Path:
        """The project's `.mcp.json`."""
        return where.project / ".mcp.json"


HOST = ClaudeCode()
