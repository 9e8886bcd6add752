"""Handler of the `delete_entities` tool: Delete multiple entities and their associated relations
from the knowledge graph

This file is yours: mcpgen created it once and never changes it. The argument and result
models are generated from mcpgen.yaml (`memory._generated.models`).
"""

from __future__ import annotations

from memory._generated.models import DeleteEntitiesInput, DeleteEntitiesOutput


async def delete_entities(args: DeleteEntitiesInput) -> DeleteEntitiesOutput:
    """Delete multiple entities and their associated relations from the knowledge graph"""
    raise NotImplementedError
