"""Handler of the `create_entities` tool: Create multiple new entities in the knowledge graph

This file is yours: mcpgen created it once and never changes it. The argument and result
models are generated from mcpgen.yaml (`memory._generated.models`).
"""

from __future__ import annotations

from memory._generated.models import CreateEntitiesInput, CreateEntitiesOutput


async def create_entities(args: CreateEntitiesInput) -> CreateEntitiesOutput:
    """Create multiple new entities in the knowledge graph"""
    raise NotImplementedError
