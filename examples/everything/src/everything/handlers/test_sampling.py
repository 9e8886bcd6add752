"""Handler of the `test_sampling` tool: Asks the client's model to complete a prompt.

This file is yours: mcpgen created it once and never changes it.
"""

from __future__ import annotations

from mcp.types import TextContent

from everything._generated import Context
from everything._generated.models import TestSamplingInput


async def test_sampling(args: TestSamplingInput, ctx: Context) -> str:
    """Asks the client's model to complete a prompt."""
    sampled = await ctx.sample(args.prompt, max_tokens=100)
    text = (
        sampled.content.text if isinstance(sampled.content, TextContent) else str(sampled.content)
    )
    return f"LLM response: {text}"
