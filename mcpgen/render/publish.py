"""What tools/list publishes for a tool: the manifest's entry verbatim, or with local `$ref`s
inlined when the manifest asks for it (`inline_refs: true`) for hosts that reject them."""

from __future__ import annotations

from typing import Any

from mcpgen.manifest.model import Manifest, Tool
from mcpgen.schema_refs import inline_refs

SCHEMA_KEYS = ("inputSchema", "outputSchema")


def published_definition(manifest: Manifest, tool: Tool) -> dict[str, Any]:
    entry = tool.wire()
    if manifest.inline_refs:
        for key in SCHEMA_KEYS:
            if key in entry:
                entry[key] = inline_refs(entry[key]).schema
    return entry
