"""Handler of the `test_elicitation_sep1330_enums` tool: Asks the user with every kind of enum.

This file is yours: mcpgen created it once and never changes it.
"""

from __future__ import annotations

from everything._generated import Context
from everything._generated.models import TestElicitationSep1330EnumsInput


async def test_elicitation_sep1330_enums(
    args: TestElicitationSep1330EnumsInput, ctx: Context
) -> str:
    """Asks the user with every kind of enum."""
    options = ["option1", "option2", "option3"]
    titled = [
        {"const": "value1", "title": "First Option"},
        {"const": "value2", "title": "Second Option"},
        {"const": "value3", "title": "Third Option"},
    ]
    schema = {
        "type": "object",
        "properties": {
            "untitledSingle": {"type": "string", "enum": options},
            "titledSingle": {"type": "string", "oneOf": titled},
            "legacyEnum": {
                "type": "string",
                "enum": options,
                "enumNames": ["Option One", "Option Two", "Option Three"],
            },
            "untitledMulti": {"type": "array", "items": {"type": "string", "enum": options}},
            "titledMulti": {"type": "array", "items": {"anyOf": titled}},
        },
    }
    answer = await ctx.elicit("Please select options from the enum fields", schema)
    return f"Elicitation completed: action={answer.action}, content={answer.content}"
