"""Handler of the `test_input_required_result_capabilities` tool: Asks only what the client declared it can answer.

This file is yours: mcpgen created it once and never changes it.
"""

from __future__ import annotations

from everything._generated import Context, Elicit, Question, Sample
from everything._generated.models import TestInputRequiredResultCapabilitiesInput

NAME = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}


async def test_input_required_result_capabilities(
    args: TestInputRequiredResultCapabilitiesInput, ctx: Context
) -> str:
    """Asks only what the client declared it can answer."""
    questions: dict[str, Question] = {}
    if ctx.client_supports("elicitation"):
        questions["user_name"] = Elicit("What is your name?", NAME)
    if ctx.client_supports("sampling"):
        questions["greeting"] = Sample("Generate a greeting", max_tokens=50)
    if not questions:
        return "The client can answer no question."
    answers = await ctx.ask(questions)
    return f"Answered: {', '.join(sorted(answers))}"
