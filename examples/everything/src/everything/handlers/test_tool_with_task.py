"""Handler of the `test_tool_with_task` tool: Asks the user's name on the call, then greets them from a task.

This file is yours: mcpgen created it once and never changes it.
"""

from __future__ import annotations

import anyio

from everything._generated import Context
from everything._generated.models import TestToolWithTaskInput

NAME = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}


async def test_tool_with_task(args: TestToolWithTaskInput, ctx: Context) -> str:
    """Asks the user's name on the call itself, then greets them from a task."""
    answer = await ctx.elicit("What is your name?", NAME, key="user_name")
    await ctx.begin_task()
    await anyio.sleep(0.5)
    name = (answer.content or {}).get("name", "stranger")
    return f"Hello, {name}!"
