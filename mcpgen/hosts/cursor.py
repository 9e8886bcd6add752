"""Cursor: `~/.cursor/mcp.json` or project `.cursor/mcp.json`, plus an install deeplink.

Remote entries are a bare `url` (no type key); `${env:NAME}` is expanded in command, args,
env, url and headers (host-configs.md §3.5).
"""

from __future__ import annotations

from pathlib import Path

from mcpgen.hosts import paths, secrets
from mcpgen.hosts.base import JSON, Extra, Host, Target, Where
from mcpgen.hosts.extras import base64_config

DEEPLINK = "cursor://anysphere.cursor-deeplink/mcp/install?name={name}&config={config}"
WEB_LINK = "https://cursor.com/en/install-mcp?name={name}&config={config}"


class Cursor(Host):
    """Cursor's `mcp.json` entries, with `${env:NAME}` references and install links."""

    key = "cursor"
    title = "Cursor"
    file_stem = "cursor.mcp"
    env_syntax = secrets.ENV_COLON
    gui = True
    paste_into = "`~/.cursor/mcp.json` or the project's `.cursor/mcp.json`"
    reload_hint = "Cursor picks the change up in Settings → MCP (toggle the server if needed)."
    source = "cursor.com/docs/mcp, cursor.com/docs/context/mcp/install-links"

    def stdio_entry(self, t: Target) -> JSON:
        """The base entry marked `"type": "stdio"`."""
        # The docs table marks `type` required while its examples omit it: writing it is
        # valid under both readings.
        return {"type": "stdio", **super().stdio_entry(t)}

    def extras(self, t: Target) -> list[Extra]:
        """The `cursor://` deeplink that installs the entry, and its web form for a README."""
        config = base64_config(self.entry(t))
        return [
            Extra("Install link", DEEPLINK.format(name=t.server, config=config)),
            Extra("Web install link (for a README)", WEB_LINK.format(name=t.server, config=config)),
        ]

    def config_path(self, where: Where) -> Path:
        """`.cursor/mcp.json` in the project, or in the home folder."""
        if where.scope == "project":
            return where.project / ".cursor" / "mcp.json"
        return paths.user_home(where) / ".cursor" / "mcp.json"


HOST = Cursor()
