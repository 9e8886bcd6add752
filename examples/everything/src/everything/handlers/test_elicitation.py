"""Handler of the `test_elicitation` tool: Asks the user for their information.

This file is yours: mcpgen created it once and never changes it.
"""

from __future__ import annotations

from everything._generated import Context
from everything._generated.models import TestElicitationInput


async def test_elicitation(args: TestElicitationInput, ctx: Context) -> str:
    """Asks the user for their information."""
    schema = {
        "type": "object",
        "properties": {
            "username": {"type": "string", "description": "User's response"},
            "email": {"type": "string", "description": "User's email address"},
        },
        "required": ["username", "email"],
    }
    answer = await ctx.elicit(args.message, schema)
    return f"User response: action={answer.action}, content={answer.content}"
