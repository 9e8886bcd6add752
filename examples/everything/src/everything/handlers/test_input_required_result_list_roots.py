"""Handler of the `test_input_required_result_list_roots` tool: Asks the client for its roots and lists them.

This file is yours: mcpgen created it once and never changes it.
"""

from __future__ import annotations

from everything._generated import Context
from everything._generated.models import TestInputRequiredResultListRootsInput


async def test_input_required_result_list_roots(
    args: TestInputRequiredResultListRootsInput, ctx: Context
) -> str:
    """Asks the client for its roots and lists them."""
    answer = await ctx.list_roots(key="client_roots")
    roots = ", ".join(f"{root.name or '(unnamed)'} <{root.uri}>" for root in answer.roots)
    return f"The client's roots: {roots or 'none'}"
