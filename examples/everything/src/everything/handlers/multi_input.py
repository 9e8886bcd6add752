"""Handler of the `multi_input` tool: As a task, asks the user two questions at once.

This file is yours: mcpgen created it once and never changes it.
"""

from __future__ import annotations

from mcp.types import ElicitResult

from everything._generated import Context, Elicit
from everything._generated.models import MultiInputInput

ANSWER = {
    "type": "object",
    "properties": {"name": {"type": "string"}, "confirm": {"type": "boolean"}},
}


async def multi_input(args: MultiInputInput, ctx: Context) -> str:
    """As a task, asks the user two questions at once."""
    await ctx.begin_task()
    answers = await ctx.ask(
        {"first": Elicit("First answer?", ANSWER), "second": Elicit("Second answer?", ANSWER)}
    )
    names = []
    for answer in answers.values():
        assert isinstance(answer, ElicitResult)
        names.append(str((answer.content or {}).get("name", answer.action)))
    return f"Answers: {', '.join(names)}."
