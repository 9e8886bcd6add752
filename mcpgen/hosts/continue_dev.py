"""Continue: a `mcpServers:` *list* of named entries in YAML; secrets as `${{ secrets.NAME }}`.

The snippet is a block file (`name`/`version`/`schema` header) that also works dropped into
`.continue/mcpServers/`; installs merge the entry into `~/.continue/config.yaml`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mcpgen.hosts import paths, secrets
from mcpgen.hosts.base import JSON, Host, Target, Where


class Continue(Host):
    """Continue's YAML blocks: a list of named entries, secrets from its `.env` files."""

    key = "continue"
    title = "Continue"
    file_stem = "continue"
    fmt = "yaml"
    env_syntax = secrets.CONTINUE_SECRETS
    entries_are_list = True
    aliases = ("continue-dev", "continuedev")
    paste_into = (
        "`~/.continue/config.yaml` under mcpServers (or save as "
        "`.continue/mcpServers/<name>.yaml` for the IDE extension)"
    )
    reload_hint = "Continue reloads its config on save; MCP tools work in agent mode only."
    source = "continuedev/continue docs/customize/deep-dives/mcp.mdx, config-yaml schemas/mcp"

    def stdio_entry(self, t: Target) -> JSON:
        """The base entry with its `name` and `"type": "stdio"`."""
        return {"name": t.server, "type": "stdio", **super().stdio_entry(t)}

    def http_entry(self, t: Target) -> JSON:
        """A named `streamable-http` entry, its headers under `requestOptions`."""
        entry: JSON = {"name": t.server, "type": "streamable-http", "url": t.url}
        headers = self.headers(t)
        if headers:
            # A top-level `headers:` key is ignored on YAML entries (continue discussion #9475).
            entry["requestOptions"] = {"headers": headers}
        return entry

    def document(self, t: Target, entry: JSON) -> Any:
        """A block file: the `name`/`version`/`schema` header and a one-entry list."""
        return {
            "name": t.server,
            "version": t.manifest.version,
            "schema": "v1",
            "mcpServers": [entry],
        }

    def fresh_document(self, t: Target) -> Any:
        """A new `config.yaml`: just the header Continue requires."""
        # config.yaml needs its own header; `mcpServers` is added by the install.
        return {"name": "Local Config", "version": "1.0.0", "schema": "v1"}

    def warnings(self, t: Target) -> list[str]:
        """The base warnings, plus where Continue reads secrets from and a doubt about headers."""
        found = super().warnings(t)
        if (t.transport == "stdio" and secrets.passed_vars(t.manifest.env)) or t.bearer_env:
            found.append(
                "`${{ secrets.NAME }}` values come from `~/.continue/.env`, "
                "`<workspace>/.continue/.env` or `<workspace>/.env`; the IDE extension "
                "does not see variables exported in your shell."
            )
        if t.transport == "http" and t.bearer_env:
            found.append(
                "Whether Continue expands secrets inside header values is unconfirmed; "
                "check that the server receives the token."
            )
        return found

    def config_path(self, where: Where) -> Path:
        """`~/.continue/config.yaml`."""
        return paths.user_home(where) / ".continue" / "config.yaml"


HOST = Continue()
