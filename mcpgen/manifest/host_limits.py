"""Host limits: tool name lengths after each host's prefix, name patterns, and schema
features some hosts reject. Warnings only: the server is still valid MCP.

`mcpgen validate` and `mcpgen generate` print them located in the manifest
(`host_limit_findings`, called by `validate`); `mcpgen hosts` lists them per host in
`hosts/README.md` (`host_limit_diagnostics`, through `mcpgen.hosts.limits`). Both come from
the same checks, kept in the manifest layer so that validation needs nothing above it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mcpgen.core import names

if TYPE_CHECKING:
    from mcpgen.manifest.messages import Finding
    from mcpgen.manifest.model import Manifest

ALL_HOSTS = "*"
# Model APIs (Anthropic, OpenAI, Gemini) accept function names of this shape only; hosts
# hand MCP tool names to them, so other names are dropped or renamed by the host.
FUNCTION_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
CLAUDE_CODE_MAX = 64  # `mcp__<server>__<tool>`
CURSOR_MAX = 60  # server name + tool name
# Tools a host hands the model at once, across all its servers (Windsurf: shared/host-configs.md;
# VS Code: at most 128 tools per chat request, its agent refuses the request past that).
TOOL_COUNT_LIMITS = (("windsurf", "Windsurf", 100), ("vscode", "VS Code", 128))
UNIONS = ("anyOf", "oneOf", "allOf")
_INPUT_KEYS = ("input_schema", "inputSchema")

# A JSON path in the manifest (`("tools", 3, "name")`); empty when there is none.
Where = tuple[str | int, ...]


@dataclass(frozen=True, order=True)
class HostWarning:
    """One limit one host (or `*`, every host) will hit with this manifest."""

    host: str
    detail: str  # what goes wrong, without the tool's name
    tool: str | None = None
    where: Where = field(default=(), compare=False)  # what it is about, in the manifest

    @property
    def message(self) -> str:
        """The warning's text, naming the tool when it is about one."""
        return f"tool `{self.tool}`: {self.detail}" if self.tool else self.detail

    def __str__(self) -> str:
        return f"{host_label(self.host)}: {self.message}"


def host_label(host: str) -> str:
    """How a warning names its host: the key, or "all hosts" for `*`."""
    return "all hosts" if host == ALL_HOSTS else host


@dataclass(frozen=True)
class _ToolEntry:
    """What the checks read of one tool, and where the manifest writes it."""

    index: int
    name: str
    schema: Any
    schema_key: str  # the spelling the manifest uses: `input_schema` or `inputSchema`


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


def _name_warnings(server: str, entry: _ToolEntry) -> Iterator[HostWarning]:
    name, where = entry.name, ("tools", entry.index, "name")
    if not FUNCTION_NAME.match(name):
        yield HostWarning(
            ALL_HOSTS,
            "model APIs accept only [A-Za-z0-9_-]{1,64} as a function name; hosts drop or "
            "rename other names",
            name,
            where,
        )
    prefixed = f"mcp__{server}__{name}"
    if len(prefixed) > CLAUDE_CODE_MAX:
        yield HostWarning(
            "claude-code",
            f"`{prefixed}` is {len(prefixed)} characters, over Claude Code's {CLAUDE_CODE_MAX}",
            name,
            where,
        )
    combined = len(server) + len(name)
    if combined > CURSOR_MAX:
        yield HostWarning(
            "cursor",
            f"server and tool name together are {combined} characters, "
            f"over Cursor's {CURSOR_MAX}; Cursor drops the tool",
            name,
            where,
        )


def name_warnings(server: str, name: str) -> list[HostWarning]:
    """The limits a tool name hits on each host (the server's distribution name prefixes it)."""
    return list(_name_warnings(server, _ToolEntry(-1, name, None, _INPUT_KEYS[0])))


def _schema_warnings(entry: _ToolEntry, refs_inlined: bool) -> Iterator[HostWarning]:
    schema, where = entry.schema, ("tools", entry.index, entry.schema_key)
    unions = [k for k in UNIONS if isinstance(schema, dict) and k in schema]
    if unions:
        message = (
            f"input schema has top-level {'/'.join(unions)}, which "
            "the Anthropic API rejects; put the union inside a property"
        )
        for host in ("claude-code", "claude-desktop"):
            yield HostWarning(host, message, entry.name, where)
    # With `inline_refs: true` the published schema has no local $ref left, except recursive
    # ones, which `mcpgen validate` already reports where they are written.
    if not refs_inlined and _uses_refs(schema):
        from mcpgen.schema.refs import inline_refs  # loads `referencing`: only for $refs

        recursive = inline_refs(schema).recursive
        if recursive:
            fix = f"it is recursive ({', '.join(recursive)}), so it cannot be inlined"
        else:
            fix = "set `inline_refs: true` in mcpgen.yaml to publish it with $refs inlined"
        yield HostWarning(
            ALL_HOSTS,
            f"input schema uses $ref/$defs, which some hosts and model APIs do not resolve; {fix}",
            entry.name,
            where,
        )


def _warnings(
    server: str, entries: list[_ToolEntry], tool_count: int, refs_inlined: bool
) -> list[HostWarning]:
    found: list[HostWarning] = []
    for entry in entries:
        found += _name_warnings(server, entry)
        found += _schema_warnings(entry, refs_inlined)
    if server == "workspace":
        message = "the server name `workspace` is reserved by Claude Code; rename the server"
        found.append(HostWarning("claude-code", message, where=("name",)))
    for host, title, limit in TOOL_COUNT_LIMITS:
        if tool_count > limit:
            message = f"{tool_count} tools: {title} uses at most {limit} tools across all servers"
            found.append(HostWarning(host, message, where=("tools",)))
    return sorted(found)


def host_limit_diagnostics(manifest: Manifest) -> list[HostWarning]:
    """Every limit a host will hit with this manifest, sorted by host then message."""
    entries = [
        _ToolEntry(index, tool.name, tool.input_schema, "input_schema")
        for index, tool in enumerate(manifest.tools)
    ]
    return _warnings(manifest.distribution, entries, len(entries), manifest.inline_refs)


def host_limit_findings(data: Any) -> list[Finding]:
    """The same limits for plain manifest data, as warnings at the places they are about;
    parts the manifest's own schema refuses are skipped (that error says enough)."""
    from mcpgen.manifest.messages import Finding

    if not isinstance(data, dict) or not isinstance(data.get("name"), str):
        return []
    tools = data.get("tools")
    tools = tools if isinstance(tools, list) else []
    entries = [entry for index, raw in enumerate(tools) if (entry := _entry(index, raw))]
    server = names.distribution_name(data["name"])
    found = _warnings(server, entries, len(tools), data.get("inline_refs") is True)
    # One line per problem: hosts that hit the same limit at the same place share it.
    hosts_of: dict[tuple[Where, str], list[str]] = {}
    for warning in found:
        hosts_of.setdefault((warning.where, warning.detail), []).append(host_label(warning.host))
    return [
        Finding(where, f"{', '.join(hosts)}: {detail}", "warning")
        for (where, detail), hosts in hosts_of.items()
    ]


def _entry(index: int, raw: Any) -> _ToolEntry | None:
    if not isinstance(raw, dict) or not isinstance(raw.get("name"), str):
        return None
    key = next((k for k in _INPUT_KEYS if k in raw), _INPUT_KEYS[0])
    return _ToolEntry(index, raw["name"], raw.get(key), key)
