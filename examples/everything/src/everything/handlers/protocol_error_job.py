"""Handler of the `protocol_error_job` tool: Runs as a task that fails with a protocol error.

This file is yours: mcpgen created it once and never changes it.
"""

from __future__ import annotations

from mcp.shared.exceptions import MCPError
from mcp.types import INTERNAL_ERROR

from everything._generated import Context
from everything._generated.models import ProtocolErrorJobInput


async def protocol_error_job(args: ProtocolErrorJobInput, ctx: Context) -> str:
    """Runs as a task that fails with a protocol error (a task's `failed` status)."""
    await ctx.begin_task()
    raise MCPError(INTERNAL_ERROR, "The job broke down")
