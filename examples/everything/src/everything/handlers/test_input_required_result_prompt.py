"""Handler of the `test_input_required_result_prompt` prompt: A prompt that asks the user for its context first

This file is yours: mcpgen created it once and never changes it.
"""

from __future__ import annotations

from everything._generated import Context

CONTEXT = {"type": "object", "properties": {"context": {"type": "string"}}, "required": ["context"]}


async def test_input_required_result_prompt(ctx: Context) -> str:
    """A prompt that asks the user for its context first."""
    answer = await ctx.elicit("What context should the prompt use?", CONTEXT, key="user_context")
    context = (answer.content or {}).get("context", "none given")
    return f"Answer with this context in mind: {context}"
