"""Handler of the `test_input_required_result_request_state` tool: Asks for a confirmation that counts only with the request state that asked it.

This file is yours: mcpgen created it once and never changes it.
"""

from __future__ import annotations

from everything._generated import Context
from everything._generated.models import TestInputRequiredResultRequestStateInput

OK = {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}


async def test_input_required_result_request_state(
    args: TestInputRequiredResultRequestStateInput, ctx: Context
) -> str:
    """Asks for a confirmation that counts only with the request state that asked it."""
    # `only_if_asked`: the answer counts only when the retry carries the sealed state of
    # the round that asked, so reaching the next line means the state was verified.
    answer = await ctx.elicit("Please confirm", OK, key="confirm", only_if_asked=True)
    confirmed = answer.action == "accept" and bool((answer.content or {}).get("ok"))
    return f"state-ok: request state verified, confirmed={confirmed}"
