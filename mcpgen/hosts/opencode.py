"""opencode: `mcp` in `opencode.json`/`.jsonc`; local `command` is ONE array, `environment`.

Substitution is `{env:VAR}`: single braces, no `$`. opencode validates the whole file
strictly, so a string `command` makes the configuration invalid.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mcpgen.hosts import paths, secrets
from mcpgen.hosts.base import JSON, Host, Target, Where

SCHEMA_URL = "https://opencode.ai/config.json"


class OpenCode(Host):
    """opencode's `mcp` entries, `local` or `remote`, with `{env:VAR}` references."""

    key = "opencode"
    title = "opencode"
    file_stem = "opencode"
    fmt = "jsonc"
    container = ("mcp",)
    env_syntax = secrets.OPENCODE
    aliases = ("open-code", "sst-opencode")
    paste_into = "`~/.config/opencode/opencode.json` or the project's `opencode.json`, under mcp"
    reload_hint = "Restart opencode."
    source = "anomalyco/opencode packages/web/src/content/docs/mcp-servers.mdx, config.mdx"

    def stdio_entry(self, t: Target) -> JSON:
        """A `local` entry: the whole command line as one array, its variables in `environment`."""
        entry: JSON = {"type": "local", "command": t.launch.argv}
        env = self.env_block(t)
        if env:
            entry["environment"] = env
        return {**entry, "enabled": True}

    def http_entry(self, t: Target) -> JSON:
        """A `remote` entry, with OAuth detection turned off."""
        # `oauth: false`: the generated server has no OAuth, so skip auto-detection.
        entry: JSON = {"type": "remote", "url": t.url, "oauth": False}
        headers = self.headers(t)
        if headers:
            entry["headers"] = headers
        return {**entry, "enabled": True}

    def document(self, t: Target, entry: JSON) -> Any:
        """The entry under `mcp`, with the `$schema` opencode validates the file against."""
        return {"$schema": SCHEMA_URL, "mcp": {t.server: entry}}

    def fresh_document(self, t: Target) -> Any:
        """A new `opencode.json`: just its `$schema`."""
        return {"$schema": SCHEMA_URL}

    def config_path(self, where: Where) -> Path:
        """The project's `opencode.jsonc` (if there) or `opencode.json`, or the user's one."""
        if where.scope == "project":
            jsonc = where.project / "opencode.jsonc"
            return jsonc if jsonc.exists() else where.project / "opencode.json"
        return paths.user_home(where) / ".config" / "opencode" / "opencode.json"


HOST = OpenCode()
