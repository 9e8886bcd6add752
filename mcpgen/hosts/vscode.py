"""VS Code (Copilot agent mode): `.vscode/mcp.json` with `servers` and `inputs`.

Secrets become `${input:<id>}` with a password prompt: VS Code asks once and stores the
value securely. Bare `${VAR}` is never resolved, and `${env:VAR}` is reported not to work
in headers (microsoft/vscode#336232), so only non-secret env values use `${env:VAR}`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import quote

from mcpgen.hosts import paths, secrets
from mcpgen.hosts.base import JSON, Extra, Host, Target, Where
from mcpgen.hosts.extras import compact_json, shell_line
from mcpgen.hosts.secrets import EnvSyntax

INPUT_SYNTAX = EnvSyntax(
    "${input:{name}}", "${input:id} (password prompt) for secrets, ${env:VAR} for other values"
)


def input_id(server: str, var: str) -> str:
    """Namespaced by server so an uninstall removes only this server's inputs."""
    return f"{server}-{var.lower().replace('_', '-')}"


def _prompt(server: str, var: str, description: str) -> JSON:
    """The `inputs` item that asks for one secret once and lets VS Code store it."""
    text = f"{var} for the {server} MCP server" + (f": {description}" if description else "")
    return {
        "type": "promptString",
        "id": input_id(server, var),
        "description": text,
        "password": True,
    }


class VSCode(Host):
    """VS Code's `mcp.json`: `servers` entries, their secrets asked for through `inputs`."""

    key = "vscode"
    title = "VS Code"
    file_stem = "vscode.mcp"
    fmt = "jsonc"
    container = ("servers",)
    side_array = "inputs"
    env_syntax = INPUT_SYNTAX
    gui = True
    aliases = ("vs-code", "code", "copilot")
    paste_into = "the project's `.vscode/mcp.json` (or your user-profile `mcp.json`)"
    reload_hint = "Start the server from the MCP view and trust it when asked."
    source = "microsoft/vscode-docs docs/copilot/reference/mcp-configuration.md"

    def env_block(self, t: Target) -> dict[str, str]:
        """Secrets as `${input:<id>}` prompts, other values as `${env:VAR}`."""
        values: dict[str, str] = {}
        for var in secrets.passed_vars(t.manifest.env):
            ref = (
                f"${{input:{input_id(t.server, var.name)}}}"
                if var.secret
                else f"${{env:{var.name}}}"
            )
            values[var.name] = ref
        return values

    def headers(self, t: Target) -> dict[str, str]:
        """The bearer token as an `${input:<id>}` prompt (`${env:VAR}` fails in headers)."""
        if t.bearer_env is None:
            return t.selection.headers()
        bearer = f"Bearer ${{input:{input_id(t.server, t.bearer_env)}}}"
        return {"Authorization": bearer, **t.selection.headers()}

    def stdio_entry(self, t: Target) -> JSON:
        """The base entry marked `"type": "stdio"`."""
        return {"type": "stdio", **super().stdio_entry(t)}

    def http_entry(self, t: Target) -> JSON:
        """The base entry marked `"type": "http"`."""
        return {"type": "http", **super().http_entry(t)}

    def side_items(self, t: Target) -> list[JSON]:
        """The entry's password prompts, which go in `inputs`."""
        return self.inputs(t)

    def inputs(self, t: Target) -> list[JSON]:
        """The password prompts this entry refers to."""
        if t.transport == "http":
            return [_prompt(t.server, t.bearer_env, "bearer token")] if t.bearer_env else []
        return [
            _prompt(t.server, v.name, v.description)
            for v in secrets.passed_vars(t.manifest.env)
            if v.secret
        ]

    def document(self, t: Target, entry: JSON) -> Any:
        """The entry under `servers`, after the `inputs` it refers to."""
        inputs = self.inputs(t)
        servers = {"servers": {t.server: entry}}
        return {"inputs": inputs, **servers} if inputs else servers

    def extras(self, t: Target) -> list[Extra]:
        """The `code --add-mcp` line and the `vscode:` install link for the same entry."""
        named = {"name": t.server, **self.entry(t)}
        link = "vscode:mcp/install?" + quote(compact_json(named), safe="")
        return [
            Extra(
                "Add to your user profile with the VS Code CLI",
                shell_line(["code", "--add-mcp", compact_json(named)], t.os),
            ),
            Extra("Install link", link),
        ]

    def warnings(self, t: Target) -> list[str]:
        """The base warnings, plus that the CLI line and link cannot carry the prompts."""
        found = super().warnings(t)
        if self.inputs(t):
            found.append(
                "The `code --add-mcp` line and the install link carry no `inputs`: "
                "VS Code cannot prompt for the secret, so prefer the mcp.json file."
            )
        return found

    def config_path(self, where: Where) -> Path:
        """`.vscode/mcp.json` in the project, or `mcp.json` in the user's VS Code profile."""
        if where.scope == "project":
            return where.project / ".vscode" / "mcp.json"
        return paths.vscode_user_dir(where) / "mcp.json"


HOST = VSCode()
