"""Handler of the `test_input_required_result_tampered_state` tool: Asks for a confirmation; a retry whose request state was altered is refused.

This file is yours: mcpgen created it once and never changes it.
"""

from __future__ import annotations

from everything._generated import Context
from everything._generated.models import TestInputRequiredResultTamperedStateInput

OK = {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}


async def test_input_required_result_tampered_state(
    args: TestInputRequiredResultTamperedStateInput, ctx: Context
) -> str:
    """Asks for a confirmation; a retry whose request state was altered is refused."""
    # The server refuses an altered state before this handler runs again.
    answer = await ctx.elicit("Please confirm", OK, key="confirm", only_if_asked=True)
    return f"Confirmed: {answer.action == 'accept'}"
