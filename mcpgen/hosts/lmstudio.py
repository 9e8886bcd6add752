"""LM Studio (0.3.17+): `mcp.json` in Cursor's notation; no variable expansion documented."""

from __future__ import annotations

from pathlib import Path

from mcpgen.hosts import paths
from mcpgen.hosts.base import Extra, Host, Target, Where
from mcpgen.hosts.extras import base64_config

DEEPLINK = "lmstudio://add_mcp?name={name}&config={config}"
WEB_LINK = "https://lmstudio.ai/install-mcp?name={name}&config={config}"


class LMStudio(Host):
    """LM Studio's `mcp.json`, Cursor's notation without variable expansion, plus install links."""

    key = "lmstudio"
    title = "LM Studio"
    file_stem = "lmstudio.mcp"
    gui = True
    aliases = ("lm-studio",)
    paste_into = "LM Studio's `mcp.json` (Program tab → Install → Edit mcp.json)"
    reload_hint = "LM Studio reloads mcp.json on save."
    source = "lmstudio-ai/docs 0_app/2_mcp/index.mdx; lmstudio.ai/docs/app/mcp/deeplink"

    def extras(self, t: Target) -> list[Extra]:
        """The `lmstudio://` deeplink that installs the entry, and its web form for a README."""
        config = base64_config(self.entry(t))
        return [
            Extra("Install link", DEEPLINK.format(name=t.server, config=config)),
            Extra("Web install link (for a README)", WEB_LINK.format(name=t.server, config=config)),
        ]

    def config_path(self, where: Where) -> Path:
        """`~/.lmstudio/mcp.json`."""
        return paths.user_home(where) / ".lmstudio" / "mcp.json"


HOST = LMStudio()
