"""Handler of the `test_tool_with_progress` tool: Reports progress three times.

This file is yours: mcpgen created it once and never changes it.
"""

from __future__ import annotations

import anyio

from everything._generated import Context
from everything._generated.models import TestToolWithProgressInput


async def test_tool_with_progress(args: TestToolWithProgressInput, ctx: Context) -> str:
    """Reports progress three times."""
    for done in (0, 50, 100):
        await ctx.report_progress(done, 100, f"{done}% done")
        await anyio.sleep(0.05)
    return "Tool with progress executed successfully"
