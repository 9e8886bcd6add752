"""`server.json`, the server's entry in the MCP Registry, from the manifest."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from mcpgen.core import names
from mcpgen.manifest.model import Manifest, Publish, build_publish
from mcpgen.manifest.registry_limits import fitted, one_line
from mcpgen.render.container import DEFAULT_TOKEN_ENV

if TYPE_CHECKING:
    from mcpgen.manifest.messages import Finding

# mcpgen's schema of the format (see mcpgen/render/README.md) and the `$schema` an entry names:
# the registry's current format, the only one `mcp-publisher` accepts.
SCHEMA_FILE = "server_json.schema.json"
SCHEMA_VERSION = "2025-12-11"
SCHEMA_URL = f"https://static.modelcontextprotocol.io/schemas/{SCHEMA_VERSION}/server.schema.json"
PUBLISHER_META = "io.modelcontextprotocol.registry/publisher-provided"


LOCAL_NAMESPACE = "local"  # a name no registry account owns: the entry is not for publishing
# The registry accepts a PyPI package only if its description says `mcp-name: NAME`; the
# project's pyproject.toml makes README.md that description.
OWNERSHIP_FILE = "README.md"
_NAME_KEYS = ("registry_name", "registryName", "repository")


def registry_name(manifest: Manifest) -> str:
    """The server's name in the MCP Registry (`io.github.OWNER/NAME`, or `local/NAME`)."""
    return _registry_name(manifest.publish, manifest.distribution)


def _registry_name(publish: Publish, distribution: str) -> str:
    """`publish.registry_name`, else `io.github.OWNER/NAME` from a GitHub repository."""
    if publish.registry_name:
        return publish.registry_name
    owner = _github_owner(publish.repository)
    namespace = f"io.github.{owner}" if owner else LOCAL_NAMESPACE
    return f"{namespace}/{distribution}"


def ownership_findings(data: Any, root: Path) -> list[Finding]:
    """A warning when the entry is meant for the registry but README.md lacks the
    `mcp-name: NAME` line the registry reads to accept it (mcp-publisher fails without it)."""
    from mcpgen.manifest.messages import Finding

    publish = data.get("publish") if isinstance(data, dict) else None
    if not isinstance(publish, dict) or not isinstance(data.get("name"), str):
        return []
    name = _registry_name(build_publish(publish), names.distribution_name(data["name"]))
    if name.startswith(f"{LOCAL_NAMESPACE}/") or f"mcp-name: {name}" in _readme(root):
        return []
    key = next(k for k in _NAME_KEYS if k in publish)  # else the name would be local/
    message = (
        f"{OWNERSHIP_FILE} has no `mcp-name: {name}` line, which the MCP Registry looks for in "
        f"the PyPI description to accept server.json; add `<!-- mcp-name: {name} -->` to it"
    )
    return [Finding(("publish", key), message, "warning")]


def _readme(root: Path) -> str:
    try:
        return (root / OWNERSHIP_FILE).read_text("utf-8", errors="replace")
    except OSError:
        return ""


def _github_owner(url: str | None) -> str | None:
    if not url:
        return None
    parts = urlsplit(url)
    segments = [s for s in parts.path.split("/") if s]
    return segments[0] if parts.hostname == "github.com" and segments else None


def _description(manifest: Manifest) -> str:
    return fitted(one_line(manifest.description) or f"{one_line(manifest.name)} MCP server")


def _environment(manifest: Manifest) -> list[dict[str, Any]]:
    entries = []
    for var in manifest.env:
        entry: dict[str, Any] = {"name": var.name}
        if var.description:
            entry["description"] = var.description
        entry["isRequired"] = var.required and var.default is None
        entry["isSecret"] = var.secret
        if var.default is not None and not var.secret:
            entry["default"] = var.default
        entries.append(entry)
    return entries


def _remote(manifest: Manifest, url: str) -> dict[str, Any]:
    """The deployed endpoint; the container asks for a bearer token on every request."""
    token_env = manifest.publish.auth_token_env or DEFAULT_TOKEN_ENV
    return {
        "type": "streamable-http",
        "url": url,
        "headers": [
            {
                "name": "Authorization",
                "description": f"Bearer token (the server's {token_env})",
                "isRequired": True,
                "isSecret": True,
                "value": "Bearer {token}",
                "variables": {
                    "token": {"description": "Access token", "isRequired": True, "isSecret": True}
                },
            }
        ],
    }


def server_json(manifest: Manifest) -> dict[str, Any]:
    """The registry entry: the PyPI package run over stdio, and the HTTP remote if deployed."""
    entry: dict[str, Any] = {
        "$schema": SCHEMA_URL,
        "name": registry_name(manifest),
        "title": fitted(one_line(manifest.name)),
        "description": _description(manifest),
        "version": manifest.version,
    }
    if manifest.publish.repository:
        source = "github" if _github_owner(manifest.publish.repository) else "git"
        entry["repository"] = {"url": manifest.publish.repository, "source": source}
    package: dict[str, Any] = {
        "registryType": "pypi",
        "identifier": manifest.distribution,
        "version": manifest.version,
        "transport": {"type": "stdio"},
    }
    if manifest.env:
        package["environmentVariables"] = _environment(manifest)
    entry["packages"] = [package]
    if manifest.publish.remote_url:
        entry["remotes"] = [_remote(manifest, manifest.publish.remote_url)]
    # The console script differs from the distribution name (`weather-server`): clients that
    # run the package (`uvx --from weather weather-server`) need it, and the schema has no key.
    entry["_meta"] = {PUBLISHER_META: {"consoleScript": manifest.script}}
    return entry


def server_json_text(manifest: Manifest) -> str:
    """`server.json` as written: two-space JSON with a final newline."""
    return json.dumps(server_json(manifest), indent=2, ensure_ascii=False) + "\n"
