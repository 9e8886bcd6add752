"""Handler of the `delete_relations` tool: Delete multiple relations from the knowledge graph

This file is yours: mcpgen created it once and never changes it. The argument and result
models are generated from mcpgen.yaml (`memory._generated.models`).
"""

from __future__ import annotations

from memory._generated.models import DeleteRelationsInput, DeleteRelationsOutput


async def delete_relations(args: DeleteRelationsInput) -> DeleteRelationsOutput:
    """Delete multiple relations from the knowledge graph"""
    raise NotImplementedError
