"""Handler of the `test_input_required_result_elicitation` tool: Asks the user's name, then greets them.

This file is yours: mcpgen created it once and never changes it.
"""

from __future__ import annotations

from everything._generated import Context
from everything._generated.models import TestInputRequiredResultElicitationInput

NAME = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}


async def test_input_required_result_elicitation(
    args: TestInputRequiredResultElicitationInput, ctx: Context
) -> str:
    """Asks the user's name, then greets them."""
    answer = await ctx.elicit("What is your name?", NAME, key="user_name")
    if answer.action != "accept" or not answer.content:
        return f"No name given ({answer.action})."
    return f"Hello, {answer.content['name']}!"
