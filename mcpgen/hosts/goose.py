"""Goose: `extensions:` map in `config.yaml`; `cmd`/`args`/`envs`/`env_keys`, remote `uri`.

Secrets go in `env_keys` (names only; values live in Goose's secret store, set with
`goose configure`). Some variables may not be set through `envs` at all.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath, PureWindowsPath
from urllib.parse import quote, urlencode

from mcpgen.hosts import paths, secrets
from mcpgen.hosts.base import JSON, Extra, Host, Target, Where
from mcpgen.hosts.secrets import EnvSyntax

ENV_KEYS = EnvSyntax(None, "env_keys (names; values from Goose's secret store)", by_name=True)
# Goose refuses these in `envs` (crates/goose/src/agents/extension.rs).
BLOCKED_ENV = frozenset(
    {
        "PATH",
        "PATHEXT",
        "LD_PRELOAD",
        "LD_LIBRARY_PATH",
        "PYTHONPATH",
        "NODE_OPTIONS",
        "TEMP",
        "TMP",
        "USERPROFILE",
        "HOME",
        "APPDATA",
        "DYLD_INSERT_LIBRARIES",
        "SYSTEMROOT",
        "COMSPEC",
    }
)
# The only programs a goose:// stdio deeplink may run (using-extensions.md).
DEEPLINK_COMMANDS = frozenset({"jbang", "npx", "uvx", "goosed", "docker"})


class Goose(Host):
    """Goose's `extensions:` entries, secrets named in `env_keys` and kept in Goose's store."""

    key = "goose"
    title = "Goose"
    file_stem = "goose"
    fmt = "yaml"
    container = ("extensions",)
    env_syntax = ENV_KEYS
    gui = True
    paste_into = "Goose's `config.yaml`, under extensions"
    reload_hint = "Restart the Goose session."
    source = "block/goose crates/goose/src/agents/extension.rs, docs using-extensions.md"

    def _common(self, t: Target) -> JSON:
        return {"enabled": True, "name": t.server, "description": t.manifest.description or ""}

    def stdio_entry(self, t: Target) -> JSON:
        """A stdio extension (`cmd`, `args`, empty `envs`), its secrets named in `env_keys`."""
        entry: JSON = {
            **self._common(t),
            "type": "stdio",
            "cmd": t.launch.command,
            "args": list(t.launch.args),
            "envs": {},
        }
        names = [v.name for v in secrets.passed_vars(t.manifest.env)]
        if names:
            entry["env_keys"] = names
        return entry

    def http_entry(self, t: Target) -> JSON:
        """A `streamable_http` extension at `uri`."""
        entry: JSON = {**self._common(t), "type": "streamable_http", "uri": t.url}
        headers = self.headers(t)
        if headers:
            entry["headers"] = headers
        return entry

    def header_syntax(self) -> EnvSyntax:
        """No syntax: Goose's `env_keys` reach the server's environment, never a header."""
        return secrets.NONE  # env_keys feed the server's environment, not HTTP headers

    def extras(self, t: Target) -> list[Extra]:
        """A `goose://` install link, unless the command is one a deeplink may not run."""
        common = [
            ("id", t.server),
            ("name", t.server),
            ("description", t.manifest.description or t.server),
        ]
        if t.transport == "http":
            query = [("url", t.url), ("type", "streamable_http"), *common]
        else:
            program = (
                PureWindowsPath(t.launch.command).name
                if t.os == "windows"
                else PurePosixPath(t.launch.command).name
            )
            if program.removesuffix(".exe") not in DEEPLINK_COMMANDS:
                return []  # Goose deeplinks cannot run a venv script or `uv run`
            query = [
                ("cmd", program.removesuffix(".exe")),
                *[("arg", a) for a in t.launch.args],
                *common,
            ]
        return [Extra("Install link", "goose://extension?" + urlencode(query, quote_via=quote))]

    def warnings(self, t: Target) -> list[str]:
        """The base warnings, plus variables Goose refuses and where `env_keys` values are set."""
        found = super().warnings(t)
        blocked = [v.name for v in secrets.passed_vars(t.manifest.env) if v.name in BLOCKED_ENV]
        if t.transport == "stdio" and blocked:
            found.append(f"Goose does not let an extension set {', '.join(blocked)}.")
        if t.transport == "stdio" and secrets.passed_vars(t.manifest.env):
            found.append(
                "Set the values of `env_keys` with `goose configure` (they are kept in "
                "Goose's secret store, not in config.yaml)."
            )
        return found

    def config_path(self, where: Where) -> Path:
        """Goose's `config.yaml`, under `%APPDATA%` on Windows and XDG config elsewhere."""
        if where.os == "windows":
            return paths.appdata(where) / "Block" / "goose" / "config" / "config.yaml"
        return paths.xdg_config(where) / "goose" / "config.yaml"


HOST = Goose()
