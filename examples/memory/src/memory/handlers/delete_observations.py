"""Handler of the `delete_observations` tool: Delete specific observations from entities in the
knowledge graph

This file is yours: mcpgen created it once and never changes it. The argument and result
models are generated from mcpgen.yaml (`memory._generated.models`).
"""

from __future__ import annotations

from memory._generated.models import DeleteObservationsInput, DeleteObservationsOutput


async def delete_observations(args: DeleteObservationsInput) -> DeleteObservationsOutput:
    """Delete specific observations from entities in the knowledge graph"""
    raise NotImplementedError
