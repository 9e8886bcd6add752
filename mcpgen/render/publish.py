"""What tools/list publishes for a tool: the manifest's entry verbatim, or with local `$ref`s
inlined when the manifest asks for it (`inline_refs: true`) for hosts that reject them.

Properties MCP defines but the server does not implement (`execution.taskSupport`) are left
out: `mcpgen validate` warns about them where they are written."""

from __future__ import annotations

from typing import Any

from mcpgen.manifest.model import UNIMPLEMENTED_WIRE, Manifest, Tool
from mcpgen.schema.refs import inline_refs

SCHEMA_KEYS = ("inputSchema", "outputSchema")


def published_definition(manifest: Manifest, tool: Tool) -> dict[str, Any]:
    """The tool's tools/list entry: unimplemented properties dropped, `$ref`s inlined if asked."""
    entry = without_unimplemented(tool.wire())
    if manifest.inline_refs:
        for key in SCHEMA_KEYS:
            if key in entry:
                entry[key] = inline_refs(entry[key]).schema
    return entry


def without_unimplemented(entry: dict[str, Any]) -> dict[str, Any]:
    """`entry` without the properties the server does not implement (an emptied parent too)."""
    result = dict(entry)
    for unimplemented in UNIMPLEMENTED_WIRE:
        if unimplemented.found_in(result):
            parent, key = unimplemented.parent, unimplemented.key
            rest = {k: v for k, v in result[parent].items() if k != key}
            if rest:
                result[parent] = rest
            else:
                del result[parent]
    return result
