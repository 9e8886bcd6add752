"""Handler of the `read_graph` tool: Read the entire knowledge graph

This file is yours: mcpgen created it once and never changes it. The argument and result
models are generated from mcpgen.yaml (`memory._generated.models`).
"""

from __future__ import annotations

from memory._generated.models import ReadGraphInput, ReadGraphOutput


async def read_graph(args: ReadGraphInput) -> ReadGraphOutput:
    """Read the entire knowledge graph"""
    raise NotImplementedError
