"""Handler of the `delete_observations` tool: Delete specific observations from entities in the
knowledge graph

This file is yours: mcpgen created it once and never changes it. The argument and result
models are generated from mcpgen.yaml (`memory._generated.models`).

A plain `def` runs in a worker thread, so blocking code (files, `requests`, a database
driver) is fine here. Write `async def` only if the body awaits and never blocks.
Raise `ToolError("...")` to answer with that message as the tool's error. For progress,
logging to the client, questions to the user or the caller's identity, add a second
parameter `ctx: Context` (both from `memory._generated`).
"""

from __future__ import annotations

from memory._generated.models import DeleteObservationsInput, DeleteObservationsOutput


def delete_observations(args: DeleteObservationsInput) -> DeleteObservationsOutput:
    """Delete specific observations from entities in the knowledge graph"""
    raise NotImplementedError
