"""Handler of the `test_elicitation_sep1034_defaults` tool: Asks the user with a default for every primitive type.

This file is yours: mcpgen created it once and never changes it.
"""

from __future__ import annotations

from everything._generated import Context
from everything._generated.models import TestElicitationSep1034DefaultsInput


async def test_elicitation_sep1034_defaults(
    args: TestElicitationSep1034DefaultsInput, ctx: Context
) -> str:
    """Asks the user with a default for every primitive type."""
    schema = {
        "type": "object",
        "properties": {
            "name": {"type": "string", "description": "User name", "default": "John Doe"},
            "age": {"type": "integer", "description": "User age", "default": 30},
            "score": {"type": "number", "description": "User score", "default": 95.5},
            "status": {
                "type": "string",
                "description": "User status",
                "enum": ["active", "inactive", "pending"],
                "default": "active",
            },
            "verified": {"type": "boolean", "description": "Verified", "default": True},
        },
    }
    answer = await ctx.elicit("Please review and update the form fields with defaults", schema)
    return f"Elicitation completed: action={answer.action}, content={answer.content}"
