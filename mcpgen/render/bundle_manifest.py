"""The MCP Bundle's `manifest.json` (MCPB spec, manifest version 0.4, `uv` server type)."""

from __future__ import annotations

import json
from typing import Any

from mcpgen.manifest.model import EnvVar, Manifest

MANIFEST_VERSION = "0.4"
# The `uv` type: the host installs Python and the pyproject's dependencies itself, so one
# bundle serves every platform (compiled wheels such as pydantic-core cannot be bundled).
SERVER_TYPE = "uv"
PYTHON_REQUIREMENT = ">=3.11"


def _user_config_key(var: EnvVar) -> str:
    """The `user_config` key that holds a variable's value: its name in lowercase."""
    return var.name.lower()


def _user_config(var: EnvVar) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "type": "string",
        "title": var.name,
        "description": var.description or var.name,
        "required": var.required and var.default is None,
        # A secret gets the host's secret prompt and keychain storage, never a placeholder.
        "sensitive": var.secret,
    }
    if var.default is not None and not var.secret:
        entry["default"] = var.default
    return entry


def bundle_manifest(manifest: Manifest) -> dict[str, Any]:
    """The bundle's manifest: the server started with `uv run` from the bundle's folder."""
    author = manifest.publish.author or manifest.name
    document: dict[str, Any] = {
        "manifest_version": MANIFEST_VERSION,
        "name": manifest.distribution,
        "display_name": manifest.name,
        "version": manifest.version,
        "description": manifest.description or f"{manifest.name} MCP server",
        "author": {"name": author},
    }
    if manifest.publish.repository:
        document["repository"] = {"type": "git", "url": manifest.publish.repository}
    env = {var.name: f"${{user_config.{_user_config_key(var)}}}" for var in manifest.env}
    mcp_config: dict[str, Any] = {
        "command": "uv",
        "args": ["run", "--directory", "${__dirname}", manifest.script],
    }
    if env:
        mcp_config["env"] = env
    document["server"] = {
        "type": SERVER_TYPE,
        "entry_point": f"src/{manifest.package}/__main__.py",
        "mcp_config": mcp_config,
    }
    document["tools"] = [
        {"name": tool.name, "description": " ".join((tool.description or "").split())}
        for tool in manifest.tools
    ]
    document["compatibility"] = {"runtimes": {"python": PYTHON_REQUIREMENT}}
    if manifest.env:
        document["user_config"] = {_user_config_key(v): _user_config(v) for v in manifest.env}
    return document


def bundle_manifest_text(manifest: Manifest) -> str:
    """`manifest.json` as written into the bundle: two-space JSON with a final newline."""
    return json.dumps(bundle_manifest(manifest), indent=2, ensure_ascii=False) + "\n"
