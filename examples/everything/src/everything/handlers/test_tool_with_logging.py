"""Handler of the `test_tool_with_logging` tool: Sends three log messages while it runs.

This file is yours: mcpgen created it once and never changes it.
"""

from __future__ import annotations

import anyio

from everything._generated import Context
from everything._generated.models import TestToolWithLoggingInput


async def test_tool_with_logging(args: TestToolWithLoggingInput, ctx: Context) -> str:
    """Sends three log messages while it runs."""
    await ctx.info("Tool execution started")
    await anyio.sleep(0.05)
    await ctx.info("Tool processing data")
    await anyio.sleep(0.05)
    await ctx.info("Tool execution completed")
    return "Tool with logging executed successfully"
