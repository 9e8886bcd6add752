# The mcpgen server runtime, vendored: do not edit; `mcpgen generate` upgrades it.
"""Which tools a server shows: `--toolsets`, `--tools`, `--read-only`, and per HTTP request the
X-MCP-Toolsets, X-MCP-Tools and X-MCP-Readonly headers.

`--toolsets` (tools with one of those tags) and `--tools` (those names) select, their union;
without either every tool is selected. `--read-only` keeps only tools whose `readOnlyHint`
is true. The headers make a second filter of the same kind, and a tool is shown only when
both admit it: a request narrows what the flags let through, never widens it. A hidden tool
is absent from tools/list and called, it is an unknown tool.

Standard library only: the stdio opening filters its tools/list answer before the SDK loads.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

logger = logging.getLogger(__name__)

TOOLSETS_HEADER = "x-mcp-toolsets"
TOOLS_HEADER = "x-mcp-tools"
READONLY_HEADER = "x-mcp-readonly"
_TRUE = frozenset({"true", "1", "yes", "on"})


class FilteredRow(Protocol):
    """What the filter reads of a tool table's row."""

    @property
    def definition(self) -> Mapping[str, Any]:
        """The tool's published definition, read for `annotations.readOnlyHint`."""

    @property
    def name(self) -> str:
        """The tool's current name, matched against `--tools`."""

    @property
    def renamed_from(self) -> tuple[str, ...]:
        """The tool's former names, which `--tools` still selects it by."""

    @property
    def tags(self) -> tuple[str, ...]:
        """The tool's tags, matched against `--toolsets`."""


RowT = TypeVar("RowT", bound=FilteredRow)


@dataclass(frozen=True)
class ToolFilter:
    """One selection of tools; `None` for a part means that part was not asked for."""

    toolsets: frozenset[str] | None = None
    tools: frozenset[str] | None = None
    read_only: bool = False

    @property
    def everything(self) -> bool:
        """True when nothing was asked for: every tool is admitted."""
        return self.toolsets is None and self.tools is None and not self.read_only

    def admits(self, row: FilteredRow) -> bool:
        """True when the tool in `row` is shown under this filter."""
        if self.toolsets is not None or self.tools is not None:
            by_tag = self.toolsets is not None and not self.toolsets.isdisjoint(row.tags)
            if not by_tag and not self._named(row):
                return False
        return not self.read_only or is_read_only(row.definition)

    def _named(self, row: FilteredRow) -> bool:
        # A former name still selects the tool, as it still calls it.
        names = self.tools
        return names is not None and (
            row.name in names or any(former in names for former in row.renamed_from)
        )

    def unmatched(self, rows: Sequence[FilteredRow]) -> list[str]:
        """The toolsets and tool names this filter asks for that no tool in `rows` has:
        most likely typos, worth a warning at start-up."""
        tags = {tag for row in rows for tag in row.tags}
        names = {name for row in rows for name in (row.name, *row.renamed_from)}
        missing = [f"toolset {t!r}" for t in sorted(self.toolsets or ()) if t not in tags]
        return missing + [f"tool {n!r}" for n in sorted(self.tools or ()) if n not in names]


def is_read_only(definition: Mapping[str, Any]) -> bool:
    """True when the published definition says `annotations.readOnlyHint: true`."""
    annotations = definition.get("annotations")
    return isinstance(annotations, Mapping) and annotations.get("readOnlyHint") is True


def names_in(text: str | None) -> frozenset[str] | None:
    """The comma-separated names in `text`; None when it names none (not asked for)."""
    if text is None:
        return None
    names = frozenset(part.strip() for part in text.split(",") if part.strip())
    return names or None


def from_flags(toolsets: str | None, tools: str | None, read_only: bool) -> ToolFilter | None:
    """The server's filter from its flags; None when they ask for nothing."""
    chosen = ToolFilter(names_in(toolsets), names_in(tools), bool(read_only))
    return None if chosen.everything else chosen


def from_args(args: Any) -> ToolFilter | None:
    """The server's filter from its parsed command line (absent flags: no filter)."""
    return from_flags(
        getattr(args, "toolsets", None),
        getattr(args, "tools", None),
        bool(getattr(args, "read_only", False)),
    )


def from_headers(headers: Iterable[tuple[bytes, bytes]]) -> ToolFilter | None:
    """The narrowing an HTTP request asks for in its headers (ASGI's raw pairs, names in
    lower case); None when it asks for none. Repeated headers add their names up."""
    toolsets: list[str] = []
    tools: list[str] = []
    read_only = False
    for raw_name, raw_value in headers:
        if not raw_name.startswith(b"x-mcp-"):
            continue
        name, value = raw_name.decode("latin-1").lower(), raw_value.decode("latin-1")
        if name == TOOLSETS_HEADER:
            toolsets.append(value)
        elif name == TOOLS_HEADER:
            tools.append(value)
        elif name == READONLY_HEADER:
            read_only = read_only or value.strip().lower() in _TRUE
    return from_flags(
        ",".join(toolsets) if toolsets else None, ",".join(tools) if tools else None, read_only
    )


def from_request(request: object) -> ToolFilter | None:
    """As `from_headers`, for the HTTP request the SDK hands a handler (None on stdio)."""
    raw = getattr(getattr(request, "headers", None), "raw", None)
    return None if raw is None else from_headers(raw)


def visible(rows: Sequence[RowT], chosen: ToolFilter | None) -> Sequence[RowT]:
    """The rows `chosen` admits (all of them, as they are, for no filter)."""
    return rows if chosen is None else tuple(row for row in rows if chosen.admits(row))


def served(rows: Sequence[RowT], chosen: ToolFilter | None) -> Sequence[RowT]:
    """`visible`, with a warning logged for each toolset or tool the flags name that no row
    has (a typo serves fewer tools than meant, silently otherwise)."""
    if chosen is not None:
        for missing in chosen.unmatched(rows):
            logger.warning("--toolsets/--tools: no %s in this server", missing)
    return visible(rows, chosen)


# The narrowing of the HTTP request being answered; None on stdio and without the headers.
REQUEST_FILTER: ContextVar[ToolFilter | None] = ContextVar("mcp_request_filter", default=None)


@contextmanager
def narrowed(chosen: ToolFilter | None) -> Iterator[None]:
    """`chosen` as the request's narrowing for the duration (in this task and those it starts)."""
    token = REQUEST_FILTER.set(chosen)
    try:
        yield
    finally:
        REQUEST_FILTER.reset(token)
