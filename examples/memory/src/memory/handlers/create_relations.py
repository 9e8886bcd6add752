"""Handler of the `create_relations` tool: Create multiple new relations between entities in the
knowledge graph. Relations should be in active voice

This file is yours: mcpgen created it once and never changes it. The argument and result
models are generated from mcpgen.yaml (`memory._generated.models`).
"""

from __future__ import annotations

from memory._generated.models import CreateRelationsInput, CreateRelationsOutput


async def create_relations(args: CreateRelationsInput) -> CreateRelationsOutput:
    """Create multiple new relations between entities in the knowledge graph. Relations should be
    in active voice"""
    raise NotImplementedError
