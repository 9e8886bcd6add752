"""Handler of the `open_nodes` tool: Open specific nodes in the knowledge graph by their names

This file is yours: mcpgen created it once and never changes it. The argument and result
models are generated from mcpgen.yaml (`memory._generated.models`).
"""

from __future__ import annotations

from memory._generated.models import OpenNodesInput, OpenNodesOutput


async def open_nodes(args: OpenNodesInput) -> OpenNodesOutput:
    """Open specific nodes in the knowledge graph by their names"""
    raise NotImplementedError
