"""Host limits checked at generate time: tool name lengths after each host's prefix, name
patterns, and schema features some hosts reject. Warnings only: the server is still valid MCP.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from mcpgen.manifest.model import Manifest, Tool
from mcpgen.schema_refs import inline_refs

ALL_HOSTS = "*"
# Model APIs (Anthropic, OpenAI, Gemini) accept function names of this shape only; hosts
# hand MCP tool names to them, so other names are dropped or renamed by the host.
FUNCTION_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
CLAUDE_CODE_MAX = 64  # `mcp__<server>__<tool>`
CURSOR_MAX = 60  # server name + tool name
WINDSURF_MAX_TOOLS = 100  # across all servers
UNIONS = ("anyOf", "oneOf", "allOf")


@dataclass(frozen=True, order=True)
class HostWarning:
    """One limit one host (or `*`, every host) will hit with this manifest."""

    host: str
    message: str
    tool: str | None = None

    def __str__(self) -> str:
        where = "all hosts" if self.host == ALL_HOSTS else self.host
        return f"{where}: {self.message}"


def _uses_refs(schema: Any) -> bool:
    if isinstance(schema, dict):
        return (
            "$ref" in schema
            or "$defs" in schema
            or "definitions" in schema
            or any(_uses_refs(v) for v in schema.values())
        )
    if isinstance(schema, list):
        return any(_uses_refs(v) for v in schema)
    return False


def _tool_warnings(server: str, tool: Tool) -> list[HostWarning]:
    found: list[HostWarning] = []
    name = tool.name
    if not FUNCTION_NAME.match(name):
        found.append(
            HostWarning(
                ALL_HOSTS,
                f"tool `{name}`: model APIs accept only "
                "[A-Za-z0-9_-]{1,64} as a function name; hosts drop or rename "
                "other names",
                name,
            )
        )
    prefixed = f"mcp__{server}__{name}"
    if len(prefixed) > CLAUDE_CODE_MAX:
        found.append(
            HostWarning(
                "claude-code",
                f"tool `{name}`: `{prefixed}` is {len(prefixed)} "
                f"characters, over Claude Code's {CLAUDE_CODE_MAX}",
                name,
            )
        )
    combined = len(server) + len(name)
    if combined > CURSOR_MAX:
        found.append(
            HostWarning(
                "cursor",
                f"tool `{name}`: server and tool name together are "
                f"{combined} characters, over Cursor's {CURSOR_MAX}; Cursor "
                "drops the tool",
                name,
            )
        )
    found += _schema_warnings(tool)
    return found


def _schema_warnings(tool: Tool) -> list[HostWarning]:
    found: list[HostWarning] = []
    schema = tool.input_schema
    unions = [k for k in UNIONS if isinstance(schema, dict) and k in schema]
    if unions:
        message = (
            f"tool `{tool.name}`: input schema has top-level {'/'.join(unions)}, which "
            "the Anthropic API rejects; put the union inside a property"
        )
        found += [
            HostWarning(host, message, tool.name) for host in ("claude-code", "claude-desktop")
        ]
    if _uses_refs(schema):
        inlined = inline_refs(schema)
        if inlined.recursive:
            fix = f"it is recursive ({', '.join(inlined.recursive)}), so it cannot be inlined"
        else:
            fix = "publish dereferenced schemas with `--inline-refs`"
        found.append(
            HostWarning(
                ALL_HOSTS,
                f"tool `{tool.name}`: input schema uses $ref/$defs, "
                f"which some hosts and model APIs do not resolve; {fix}",
                tool.name,
            )
        )
    return found


def host_limit_diagnostics(manifest: Manifest) -> list[HostWarning]:
    """Every limit a host will hit with this manifest, sorted by host then message."""
    server = manifest.distribution
    found: list[HostWarning] = []
    for tool in manifest.tools:
        found += _tool_warnings(server, tool)
    if server == "workspace":
        found.append(
            HostWarning(
                "claude-code",
                "the server name `workspace` is reserved by Claude Code; rename the server",
            )
        )
    if len(manifest.tools) > WINDSURF_MAX_TOOLS:
        found.append(
            HostWarning(
                "windsurf",
                f"{len(manifest.tools)} tools: Windsurf uses at most "
                f"{WINDSURF_MAX_TOOLS} tools across all servers",
            )
        )
    return sorted(found)
