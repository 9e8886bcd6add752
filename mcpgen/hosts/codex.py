"""OpenAI Codex CLI: `[mcp_servers.<name>]` tables in `~/.codex/config.toml`.

Codex has no `${}` syntax: it forwards variables by *name* (`env_vars`) and reads a bearer
token from a named variable (`bearer_token_env_var`); an inline token is rejected. Only a
small default environment reaches the server, so every variable it needs is listed.
"""

from __future__ import annotations

from pathlib import Path

from mcpgen.hosts import paths, secrets
from mcpgen.hosts.base import JSON, Extra, Host, Target, Where
from mcpgen.hosts.extras import shell_line
from mcpgen.hosts.secrets import EnvSyntax

NAMES = EnvSyntax(None, "variable names: env_vars = [...], bearer_token_env_var", by_name=True)


class Codex(Host):
    """Codex's TOML tables, which name variables instead of referring to their values."""

    key = "codex"
    title = "Codex CLI"
    file_stem = "codex"
    fmt = "toml"
    container = ("mcp_servers",)
    env_syntax = NAMES
    aliases = ("codex-cli", "openai-codex")
    paste_into = "`~/.codex/config.toml` (or a trusted project's `.codex/config.toml`)"
    reload_hint = "Start a new Codex session; `codex mcp list` shows the server."
    source = "openai/codex codex-rs/core/src/config/types.rs, codex-rs/cli/src/mcp_cmd.rs"

    def stdio_entry(self, t: Target) -> JSON:
        """The command and args, and the variables the server needs named in `env_vars`."""
        entry: JSON = {"command": t.launch.command, "args": list(t.launch.args)}
        names = [v.name for v in secrets.passed_vars(t.manifest.env)]
        if names:
            entry["env_vars"] = names
        return entry

    def http_entry(self, t: Target) -> JSON:
        """The URL, and the bearer token's variable named in `bearer_token_env_var`."""
        entry: JSON = {"url": t.url}
        if t.bearer_env:
            entry["bearer_token_env_var"] = t.bearer_env
        if t.selection.headers():  # the tool selection's X-MCP-* headers, sent as they are
            entry["http_headers"] = t.selection.headers()
        return entry

    def extras(self, t: Target) -> list[Extra]:
        """The `codex mcp add` line that adds the same entry."""
        if t.transport == "http" and t.selection.headers():
            return []  # `codex mcp add` sets no headers: the table above is the way
        if t.transport == "http":
            argv = ["codex", "mcp", "add", t.server, "--url", t.url]
            if t.bearer_env:
                argv += ["--bearer-token-env-var", t.bearer_env]
        else:
            argv = ["codex", "mcp", "add", t.server, "--", *t.launch.argv]
        return [Extra("Add with the Codex CLI", shell_line(argv, t.os))]

    def config_path(self, where: Where) -> Path:
        """`.codex/config.toml` in the project, or under `$CODEX_HOME` (default `~/.codex`)."""
        if where.scope == "project":
            return where.project / ".codex" / "config.toml"
        home = where.env.get("CODEX_HOME")
        return (Path(home) if home else paths.user_home(where) / ".codex") / "config.toml"


HOST = Codex()
