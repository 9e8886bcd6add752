"""Handler of the `add_observations` tool: Add new observations to existing entities in the
knowledge graph

This file is yours: mcpgen created it once and never changes it. The argument and result
models are generated from mcpgen.yaml (`memory._generated.models`).
"""

from __future__ import annotations

from memory._generated.models import AddObservationsInput, AddObservationsOutput


async def add_observations(args: AddObservationsInput) -> AddObservationsOutput:
    """Add new observations to existing entities in the knowledge graph"""
    raise NotImplementedError
