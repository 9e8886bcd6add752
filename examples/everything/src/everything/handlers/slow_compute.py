"""Handler of the `slow_compute` tool: Works for the given seconds, as a task when the client takes tasks.

This file is yours: mcpgen created it once and never changes it.
"""

from __future__ import annotations

import anyio

from everything._generated import Context
from everything._generated.models import SlowComputeInput


async def slow_compute(args: SlowComputeInput, ctx: Context) -> str:
    """Works for the given seconds: a call that takes long becomes a task by itself."""
    seconds = args.seconds or 0
    await anyio.sleep(seconds)
    return f"Computed {args.label or 'result'} in {seconds:g} s."
