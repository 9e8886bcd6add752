"""Handler of the `test_input_required_result_sampling` tool: Asks the client's model for the capital of France.

This file is yours: mcpgen created it once and never changes it.
"""

from __future__ import annotations

from mcp.types import TextContent

from everything._generated import Context
from everything._generated.models import TestInputRequiredResultSamplingInput


async def test_input_required_result_sampling(
    args: TestInputRequiredResultSamplingInput, ctx: Context
) -> str:
    """Asks the client's model for the capital of France."""
    answer = await ctx.sample(
        "What is the capital of France?", max_tokens=100, key="capital_question"
    )
    text = answer.content.text if isinstance(answer.content, TextContent) else "(not text)"
    return f"The model said: {text}"
