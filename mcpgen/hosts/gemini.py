"""Gemini CLI: `mcpServers` in `~/.gemini/settings.json` (JSONC).

The whole file is env-expanded (`${VAR}`), and variables that look sensitive (`*TOKEN*`,
`*KEY*`, …) are redacted from the inherited environment, so each one is listed in `env`.
Remote: `httpUrl` works on old and new versions (old ones read a bare `url` as SSE).
"""

from __future__ import annotations

from pathlib import Path

from mcpgen.hosts import paths, secrets
from mcpgen.hosts.base import JSON, Extra, Host, Target, Where
from mcpgen.hosts.extras import shell_line


class Gemini(Host):
    """Gemini CLI's `settings.json` entries: `${VAR}` everywhere, remote servers as `httpUrl`."""

    key = "gemini"
    title = "Gemini CLI"
    file_stem = "gemini.settings"
    fmt = "jsonc"
    env_syntax = secrets.DOLLAR_BRACE
    aliases = ("gemini-cli",)
    paste_into = "`~/.gemini/settings.json` or the project's `.gemini/settings.json`"
    reload_hint = "Restart Gemini CLI; trust the project folder (untrusted folders run no MCP)."
    source = "google-gemini/gemini-cli docs/tools/mcp-server.md, packages/core/src/config/config.ts"

    def http_entry(self, t: Target) -> JSON:
        """An `httpUrl` entry, which old and new Gemini CLIs both read as streamable HTTP."""
        entry: JSON = {"httpUrl": t.url}
        headers = self.headers(t)
        if headers:
            entry["headers"] = headers
        return entry

    def extras(self, t: Target) -> list[Extra]:
        """The `gemini mcp add` line that adds the same entry for the user."""
        argv = ["gemini", "mcp", "add", "-s", "user"]
        if t.transport == "http":
            for name, value in self.headers(t).items():
                argv += ["-H", f"{name}: {value}"]
            argv += ["-t", "http", t.server, t.url]
        else:
            for name, value in self.env_block(t).items():
                argv += ["-e", f"{name}={value}"]
            argv += [t.server, t.launch.command]
            if t.launch.args:
                argv += ["--", *t.launch.args]
        return [Extra("Add with the Gemini CLI", shell_line(argv, t.os))]

    def config_path(self, where: Where) -> Path:
        """`.gemini/settings.json` in the project, or in the home folder."""
        if where.scope == "project":
            return where.project / ".gemini" / "settings.json"
        return paths.user_home(where) / ".gemini" / "settings.json"


HOST = Gemini()
