"""Handler of the `test_input_required_result_multi_round` tool: Asks the user's name, then their favorite color.

This file is yours: mcpgen created it once and never changes it.
"""

from __future__ import annotations

from everything._generated import Context
from everything._generated.models import TestInputRequiredResultMultiRoundInput


def _form(field: str) -> dict[str, object]:
    return {"type": "object", "properties": {field: {"type": "string"}}, "required": [field]}


async def test_input_required_result_multi_round(
    args: TestInputRequiredResultMultiRoundInput, ctx: Context
) -> str:
    """Asks the user's name, then their favorite color."""
    name = await ctx.elicit("Step 1: What is your name?", _form("name"), key="step1")
    # Asked only once the first answer is in: the second round's state carries it.
    color = await ctx.elicit("Step 2: What is your favorite color?", _form("color"), key="step2")
    return f"{(name.content or {}).get('name')} likes {(color.content or {}).get('color')}."
