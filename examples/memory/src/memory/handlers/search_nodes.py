"""Handler of the `search_nodes` tool: Search for nodes in the knowledge graph based on a query

This file is yours: mcpgen created it once and never changes it. The argument and result
models are generated from mcpgen.yaml (`memory._generated.models`).
"""

from __future__ import annotations

from memory._generated.models import SearchNodesInput, SearchNodesOutput


async def search_nodes(args: SearchNodesInput) -> SearchNodesOutput:
    """Search for nodes in the knowledge graph based on a query"""
    raise NotImplementedError
