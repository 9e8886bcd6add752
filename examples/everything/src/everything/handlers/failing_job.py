"""Handler of the `failing_job` tool: Runs only as a task, and fails as a tool after a second.

This file is yours: mcpgen created it once and never changes it.
"""

from __future__ import annotations

import anyio

from everything._generated import Context, ToolError
from everything._generated.models import FailingJobInput


async def failing_job(args: FailingJobInput, ctx: Context) -> str:
    """Runs only as a task, and fails as a tool after a second."""
    await ctx.begin_task()
    await anyio.sleep(1)
    raise ToolError("The job failed, as it always does")
