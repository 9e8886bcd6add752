"""Warnings for a tools/list too large to send: one tool's entry over 8 KB, the whole list
over 64 KB (compact UTF-8 JSON, as the server sends it).

Hosts cap what they accept of a server's tools/list (and of each tool in it), and every byte
of it goes into the model's context with each request; past these sizes an entry is most
likely a schema pasted whole or a description that should be documentation.
"""

from __future__ import annotations

import json
from typing import Any

from mcpgen.manifest.messages import Finding

ENTRY_LIMIT = 8 * 1024  # bytes of one tool's tools/list entry
LIST_LIMIT = 64 * 1024  # bytes of the whole list
# What tools/list publishes of a manifest tool, by either spelling.
_WIRE = {"input_schema": "inputSchema", "output_schema": "outputSchema"}
_PUBLISHED = frozenset(
    {"name", "title", "description", "annotations", "execution", "icons", "_meta", *_WIRE}
) | frozenset(_WIRE.values())


def entry_bytes(tool: dict[str, Any]) -> int:
    """The size of the tool's tools/list entry."""
    entry = {_WIRE.get(k, k): v for k, v in tool.items() if k in _PUBLISHED}
    text = json.dumps(entry, ensure_ascii=False, separators=(",", ":"), default=str)
    return len(text.encode("utf-8", "backslashreplace"))


def list_size_findings(tools: list[Any]) -> list[Finding]:
    """A warning for each tool whose entry is over `ENTRY_LIMIT`, and one for the list over
    `LIST_LIMIT`."""
    findings: list[Finding] = []
    sizes = [entry_bytes(t) if isinstance(t, dict) else 0 for t in tools]
    for index, size in enumerate(sizes):
        if size > ENTRY_LIMIT:
            message = (
                f"this tool's tools/list entry is {size:,} bytes, over {ENTRY_LIMIT // 1024} KB: "
                "hosts may cut or drop it, and it fills the model's context on every request; "
                "shorten its description and schemas"
            )
            findings.append(Finding(("tools", index), message, level="warning"))
    total = sum(sizes) + max(len(sizes) - 1, 0) + 2  # the entries, their commas, the brackets
    if total > LIST_LIMIT:
        message = (
            f"tools/list is {total:,} bytes, over {LIST_LIMIT // 1024} KB: hosts may refuse "
            "or cut it; split the server, or let hosts pick toolsets (tags: and --toolsets)"
        )
        findings.append(Finding(("tools",), message, level="warning", at_key=True))
    return findings
