"""Which tools a host's entry asks the server for: `--toolsets`, `--tools`, `--read-only`.

A stdio entry passes them to the server as flags; an HTTP entry, whose server runs apart
with flags of its own, sends them as the X-MCP-Toolsets, X-MCP-Tools and X-MCP-Readonly
headers, which narrow what that server shows for the host's requests (see the runtime's
`core.tool_filter`, which both spellings end in).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from mcpgen.errors import ExitCode, McpgenError
from mcpgen.manifest.model import Manifest, Tool
from mcpgen.runtime.core.tool_filter import ToolFilter, from_flags


@dataclass(frozen=True)
class _Row:
    """A manifest tool as the runtime's filter reads a tool table row."""

    tool: Tool

    @property
    def definition(self) -> Mapping[str, Any]:
        return self.tool.wire()

    @property
    def name(self) -> str:
        return self.tool.name

    @property
    def renamed_from(self) -> tuple[str, ...]:
        return self.tool.renamed_from

    @property
    def tags(self) -> tuple[str, ...]:
        return self.tool.tags


@dataclass(frozen=True)
class ToolSelection:
    """The tools asked for, in the order given; empty: every tool."""

    toolsets: tuple[str, ...] = ()
    tools: tuple[str, ...] = ()
    read_only: bool = False

    @classmethod
    def parse(cls, toolsets: str | None, tools: str | None, read_only: bool) -> ToolSelection:
        """From the command line's comma-separated lists."""
        return cls(_listed(toolsets), _listed(tools), read_only)

    @property
    def everything(self) -> bool:
        """True when nothing is asked for: the host's server shows every tool."""
        return not (self.toolsets or self.tools or self.read_only)

    def server_args(self) -> tuple[str, ...]:
        """The server's flags for this selection."""
        args: tuple[str, ...] = ()
        if self.toolsets:
            args += ("--toolsets", ",".join(self.toolsets))
        if self.tools:
            args += ("--tools", ",".join(self.tools))
        return (*args, "--read-only") if self.read_only else args

    def headers(self) -> dict[str, str]:
        """The request headers for this selection."""
        headers: dict[str, str] = {}
        if self.toolsets:
            headers["X-MCP-Toolsets"] = ",".join(self.toolsets)
        if self.tools:
            headers["X-MCP-Tools"] = ",".join(self.tools)
        if self.read_only:
            headers["X-MCP-Readonly"] = "true"
        return headers

    def runtime_filter(self) -> ToolFilter | None:
        """The runtime's own filter for this selection (None for every tool), so the host
        side counts tools exactly as the server will."""
        return from_flags(",".join(self.toolsets), ",".join(self.tools), self.read_only)

    def shown(self, manifest: Manifest) -> list[str]:
        """The manifest's tools this selection shows, in the manifest's order."""
        chosen = self.runtime_filter()
        return [t.name for t in manifest.tools if chosen is None or chosen.admits(_Row(t))]

    def check(self, manifest: Manifest) -> None:
        """Refuse a toolset no tool has or a tool the manifest lacks: a typo would make a
        host's server show fewer tools than meant, silently."""
        chosen = self.runtime_filter()
        if chosen is None:
            return
        unmatched = chosen.unmatched([_Row(t) for t in manifest.tools])
        if not unmatched:
            return
        tags = sorted({tag for tool in manifest.tools for tag in tool.tags})
        known = f"the manifest's tags: {', '.join(tags)}" if tags else "no tool has tags"
        raise McpgenError(
            f"no such {' or '.join(unmatched)} in the manifest ({known})",
            exit_code=ExitCode.USAGE,
        )

    def describe(self) -> str:
        """The selection as the flags that make it."""
        return " ".join(self.server_args())


def _listed(text: str | None) -> tuple[str, ...]:
    # In the order given, once each: the flags and headers written read as the user wrote them.
    return tuple(dict.fromkeys(n.strip() for n in (text or "").split(",") if n.strip()))
